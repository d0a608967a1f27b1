//! What every worker of a crawl shares ([`Ctx`]): the HTTP client, the settings, the
//! origins met so far, the global in-flight limit and the request counter.

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;
use url::Url;

use super::host::{origin_key, Host};
use super::net::GuardedResolver;
use super::options::FetchConfig;
use super::previous::Previous;
use super::robots;
use crate::error::{Error, Result};

/// How long an idle connection stays in the client's pool: long enough to reuse it for
/// the next URL of the origin after a `--delay` of a few seconds, short enough not to
/// hold sockets to origins that are done (hand-set, not measured).
const POOL_IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// What every worker shares: the client, the settings, the origins met so far, the global
/// in-flight limit and the request counter.
pub(super) struct Ctx {
    pub(super) client: reqwest::Client,
    pub(super) cfg: FetchConfig,
    pub(super) agent: String,
    pub(super) hosts: Mutex<HashMap<String, Arc<Host>>>,
    pub(super) global: Semaphore,
    pub(super) requests: AtomicUsize,
    /// The last crawl's URLs with validators (`--previous`).
    pub(super) previous: Previous,
}

impl Ctx {
    /// The HTTP client (no automatic redirects or retries, no proxy, the guarded DNS
    /// resolver) and the shared state.
    pub(super) fn new(cfg: &FetchConfig, previous: Previous) -> Result<Ctx> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let policy = Arc::new(cfg.addr_policy.clone());
        let mut roots = Vec::new();
        for path in &cfg.ca_certs {
            let pem = std::fs::read(path).map_err(|e| Error::io(path, e))?;
            let certs = reqwest::Certificate::from_pem_bundle(&pem)
                .map_err(|e| Error::Config(format!("--ca-cert {}: {e}", path.display())))?;
            if certs.is_empty() {
                return Err(Error::Config(format!(
                    "--ca-cert {}: no PEM certificate in it",
                    path.display()
                )));
            }
            roots.extend(certs);
        }
        let client = reqwest::Client::builder()
            .tls_certs_merge(roots)
            .user_agent(cfg.user_agent.clone())
            .redirect(reqwest::redirect::Policy::none())
            .retry(reqwest::retry::never())
            .no_proxy()
            .connect_timeout(cfg.connect_timeout)
            .pool_max_idle_per_host(cfg.per_host.max(1))
            .pool_idle_timeout(POOL_IDLE_TIMEOUT)
            .dns_resolver(Arc::new(GuardedResolver { policy }))
            .build()
            .map_err(|e| {
                Error::Config(format!(
                    "HTTP client: {} (HTTPS needs the system's CA certificates, e.g. Debian's \
                     ca-certificates package (.ci/install installs it for the tests), or --ca-cert)",
                    error_chain(&e)
                ))
            })?;
        Ok(Ctx {
            client,
            cfg: cfg.clone(),
            agent: robots::agent_token(&cfg.user_agent).to_string(),
            hosts: Mutex::new(HashMap::new()),
            global: Semaphore::new(cfg.concurrency.max(1)),
            requests: AtomicUsize::new(0),
            previous,
        })
    }

    /// The state of `url`'s origin (created on first use).
    pub(super) fn host(&self, url: &Url) -> Arc<Host> {
        let mut hosts = self.hosts.lock().expect("lock");
        hosts
            .entry(origin_key(url))
            .or_insert_with(|| Arc::new(Host::new(self.cfg.per_host, self.cfg.delay)))
            .clone()
    }
}

/// An error and its sources, joined.
fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut cur = e.source();
    while let Some(s) = cur {
        text.push_str(&format!(": {s}"));
        cur = s.source();
    }
    text
}
