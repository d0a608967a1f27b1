//! One tab of the browser and the rendering of one page in it: every request the page
//! makes is paused (the Fetch domain) and answered here — the page's own address with its
//! recorded bytes, other recorded responses (a WARC's records) with theirs, requests to its own origin passed on when the network is allowed, all
//! else refused — then, after the load event or the time budget, `stamp.js` stamps each
//! element with its box and returns the serialized document.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::{json, Value};

use super::cdp::{recv_until, result_of, Browser, CdpError};
use super::settings::{Network, SETTLE_MS, SETUP_TIMEOUT, VIEWPORT_HEIGHT, VIEWPORT_WIDTH};

/// The script run in the page once it is loaded (see the file).
const STAMP_JS: &str = include_str!("stamp.js");

/// What a page rendered to.
#[derive(Debug)]
pub struct Rendered {
    /// The serialized document, elements stamped with their boxes.
    pub html: String,
    /// The load event fired within the time budget (false: the document as it stood when
    /// the budget ran out).
    pub loaded: bool,
}

/// One tab (a target with its flat session), with the channel its events arrive on.
pub struct Tab {
    pub browser: Arc<Browser>,
    target: String,
    session: String,
    tx: Sender<Value>,
    rx: Receiver<Value>,
}

/// A recorded response a request is answered with (a WARC's other records).
#[derive(Debug, Clone)]
pub struct Recorded {
    pub status: u16,
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

/// The recorded response for a request's address (fragment removed), if any.
pub type RecordedLookup<'a> = dyn Fn(&str) -> Option<Recorded> + Sync + 'a;

/// The page's address as the browser sees it and what is answered for it.
pub struct PageRequest<'a> {
    /// An `http(s)` address (fragment removed).
    pub url: &'a str,
    /// The page's text (served as UTF-8).
    pub html: &'a str,
    /// Other recorded responses (scripts, stylesheets, data, frames) its requests are
    /// answered with before the network rule applies.
    pub recorded: Option<&'a RecordedLookup<'a>>,
}

impl Tab {
    /// Open a blank tab with request interception on and the viewport set.
    pub fn open(browser: Arc<Browser>) -> Result<Tab, CdpError> {
        let created = browser.call(
            "Target.createTarget",
            json!({"url": "about:blank"}),
            SETUP_TIMEOUT,
        )?;
        let target = str_field(&created, "targetId")?;
        let attached = browser.call(
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
            SETUP_TIMEOUT,
        )?;
        let session = str_field(&attached, "sessionId")?;
        let (tx, rx) = channel();
        browser.route_session(&session, tx.clone());
        let tab = Tab {
            browser,
            target,
            session,
            tx,
            rx,
        };
        let deadline = Instant::now() + SETUP_TIMEOUT;
        tab.call(
            "Fetch.enable",
            json!({"patterns": [{"urlPattern": "*", "requestStage": "Request"}]}),
            deadline,
            None,
        )?;
        tab.call("Page.enable", json!({}), deadline, None)?;
        tab.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": VIEWPORT_WIDTH, "height": VIEWPORT_HEIGHT,
                   "deviceScaleFactor": 1, "mobile": false}),
            deadline,
            None,
        )?;
        Ok(tab)
    }

    /// Render `page` within `budget`; `network` says which requests may leave.
    pub fn render(
        &self,
        page: &PageRequest,
        network: Network,
        budget: Duration,
    ) -> Result<Rendered, CdpError> {
        // Events of an earlier page are stale.
        while self.rx.try_recv().is_ok() {}
        let start = Instant::now();
        let deadline = start + budget;
        let mut state = LoadState {
            page,
            network,
            origin: origin_of(page.url),
            loaded: false,
        };
        let (nav_tx, nav_rx) = channel();
        let nav_id = self.browser.send(
            "Page.navigate",
            json!({"url": page.url}),
            Some(&self.session),
            Some(nav_tx),
        )?;
        // Until the load event (or the budget), answering the page's requests.
        while !state.loaded {
            match recv_until(&self.rx, deadline) {
                Ok(msg) => self.handle_event(&msg, &mut state),
                Err(CdpError::Timeout) => break,
                Err(e) => return Err(e),
            }
            if let Ok(answer) = nav_rx.try_recv() {
                let nav = result_of(answer)?;
                if let Some(err) = nav.get("errorText").and_then(Value::as_str) {
                    return Err(CdpError::Failed(format!("navigation: {err}")));
                }
            }
        }
        self.browser.forget_answer(nav_id);
        if state.loaded {
            // Let timers set at load run (frameworks often render on the next tick).
            let settle = (Instant::now() + Duration::from_millis(SETTLE_MS)).min(deadline);
            while let Ok(msg) = recv_until(&self.rx, settle) {
                self.handle_event(&msg, &mut state);
            }
        } else {
            // Out of time: stop whatever script runs, then read the document as it stands.
            let grace = Instant::now() + SETUP_TIMEOUT;
            let _ = self.call(
                "Runtime.terminateExecution",
                json!({}),
                grace,
                Some(&mut state),
            );
        }
        let grace = Instant::now() + SETUP_TIMEOUT;
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": STAMP_JS, "returnByValue": true}),
            grace,
            Some(&mut state),
        )?;
        if let Some(ex) = result.get("exceptionDetails") {
            let text = ex
                .get("text")
                .and_then(Value::as_str)
                .unwrap_or("exception");
            return Err(CdpError::Failed(format!("stamping boxes: {text}")));
        }
        let html = result
            .pointer("/result/value")
            .and_then(Value::as_str)
            .ok_or_else(|| CdpError::Failed("stamping boxes returned no document".into()))?;
        Ok(Rendered {
            html: html.to_string(),
            loaded: state.loaded,
        })
    }

    /// Close the tab (a tab whose page hung is not reused).
    pub fn close(self) -> Result<(), CdpError> {
        self.browser.forget_session(&self.session);
        self.browser
            .call(
                "Target.closeTarget",
                json!({"targetId": self.target}),
                SETUP_TIMEOUT,
            )
            .map(|_| ())
    }

    /// A command to this tab's page; events arriving meanwhile are handled with `state`
    /// (requests answered) or dropped when there is no page being loaded.
    fn call(
        &self,
        method: &str,
        params: Value,
        deadline: Instant,
        mut state: Option<&mut LoadState>,
    ) -> Result<Value, CdpError> {
        let id = self
            .browser
            .send(method, params, Some(&self.session), Some(self.tx.clone()))?;
        loop {
            let msg = match recv_until(&self.rx, deadline) {
                Ok(m) => m,
                Err(e) => {
                    self.browser.forget_answer(id);
                    return Err(e);
                }
            };
            if msg.get("id").and_then(Value::as_u64) == Some(id) {
                return result_of(msg);
            }
            match state.as_deref_mut() {
                Some(s) => self.handle_event(&msg, s),
                None => self.refuse_paused(&msg),
            }
        }
    }

    /// An event while a page loads: a paused request is answered, the load event noted.
    fn handle_event(&self, msg: &Value, state: &mut LoadState) {
        match msg.get("method").and_then(Value::as_str) {
            Some("Page.loadEventFired") => state.loaded = true,
            Some("Fetch.requestPaused") => {
                let params = &msg["params"];
                let id = params["requestId"].as_str().unwrap_or_default();
                let url = params.pointer("/request/url").and_then(Value::as_str);
                let url = url.unwrap_or_default();
                let (method, answer) = state.answer(id, url);
                let _ = self.browser.send(method, answer, Some(&self.session), None);
            }
            _ => {}
        }
    }

    /// Outside a page load, any paused request is refused.
    fn refuse_paused(&self, msg: &Value) {
        if msg.get("method").and_then(Value::as_str) == Some("Fetch.requestPaused") {
            let id = msg.pointer("/params/requestId").and_then(Value::as_str);
            let _ = self.browser.send(
                "Fetch.failRequest",
                json!({"requestId": id.unwrap_or_default(), "errorReason": "BlockedByClient"}),
                Some(&self.session),
                None,
            );
        }
    }
}

/// A page being loaded: what its requests are answered with.
struct LoadState<'a> {
    page: &'a PageRequest<'a>,
    network: Network,
    origin: Option<String>,
    loaded: bool,
}

impl LoadState<'_> {
    /// The command answering paused request `id` for `url`, and its parameters.
    fn answer(&self, id: &str, url: &str) -> (&'static str, Value) {
        if same_document(without_fragment(url), self.page.url) {
            let body = base64::engine::general_purpose::STANDARD.encode(self.page.html);
            return (
                "Fetch.fulfillRequest",
                json!({"requestId": id, "responseCode": 200,
                       "responseHeaders": [{"name": "Content-Type",
                                            "value": "text/html; charset=utf-8"}],
                       "body": body}),
            );
        }
        if let Some(found) = self
            .page
            .recorded
            .and_then(|find| find(without_fragment(url)))
        {
            let mut headers = Vec::new();
            if let Some(ct) = &found.content_type {
                headers.push(json!({"name": "Content-Type", "value": ct}));
            }
            let body = base64::engine::general_purpose::STANDARD.encode(&found.body);
            return (
                "Fetch.fulfillRequest",
                json!({"requestId": id, "responseCode": found.status,
                       "responseHeaders": headers, "body": body}),
            );
        }
        if self.network == Network::SameOrigin
            && self.origin.is_some()
            && origin_of(url) == self.origin
        {
            return ("Fetch.continueRequest", json!({"requestId": id}));
        }
        (
            "Fetch.failRequest",
            json!({"requestId": id, "errorReason": "BlockedByClient"}),
        )
    }
}

/// Whether a request for `url` asks for the page at `page`: the same address, or the
/// `https` address of an `http` page (the browser may try the secure address first).
fn same_document(url: &str, page: &str) -> bool {
    url == page
        || url
            .strip_prefix("https://")
            .is_some_and(|rest| page.strip_prefix("http://") == Some(rest))
}

/// `scheme://host:port` of an address.
fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    Some(u.origin().ascii_serialization()).filter(|o| o != "null")
}

/// An address without its `#fragment` (the browser never sends one).
pub fn without_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(a, _)| a)
}

fn str_field(v: &Value, name: &str) -> Result<String, CdpError> {
    v.get(name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or_else(|| CdpError::Failed(format!("no {name} in the answer")))
}
