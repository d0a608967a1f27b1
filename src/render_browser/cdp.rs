//! One headless Chromium process and the DevTools protocol over its pipe
//! (`--remote-debugging-pipe`: JSON messages separated by NUL bytes, commands read by the
//! browser on file descriptor 3, answers and events written on 4).
//!
//! Why not a crate such as chromiumoxide: its generated protocol types make a large
//! addition to a release build on the 2-core machines thresher is built on, and the few
//! commands rendering needs (targets, Fetch, Page, Runtime, Emulation) are plain JSON.
//! Why a pipe and not a websocket: no port is opened on the machine, and no websocket
//! crate is needed. The descriptors 3 and 4 are set up by `/bin/sh` (`exec … 3<&0 4>&1`)
//! because setting descriptors in the child from Rust would need `unsafe` (`pre_exec`),
//! which the crate forbids.
//!
//! A reader thread routes every message: an answer to the channel its command named, an
//! event to the channel of its session (a tab); a browser that exits closes every
//! channel, so whoever waits on it learns at once.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// Where the reader thread sends what arrives.
#[derive(Default)]
struct Routes {
    /// Command id → who waits for its answer.
    answers: HashMap<u64, Sender<Value>>,
    /// Session id → the tab's channel (its events).
    sessions: HashMap<String, Sender<Value>>,
}

/// A running browser.
pub struct Browser {
    child: Mutex<Child>,
    stdin: Mutex<ChildStdin>,
    routes: Arc<Mutex<Routes>>,
    alive: Arc<AtomicBool>,
    next_id: AtomicU64,
    /// The fresh profile directory (`--user-data-dir`), removed when the browser is dropped.
    _profile: tempfile::TempDir,
}

/// Why a browser command has no answer.
#[derive(Debug)]
pub enum CdpError {
    /// The browser exited (crashed or killed).
    Gone,
    /// No answer before the deadline.
    Timeout,
    /// The browser answered with an error.
    Failed(String),
}

impl std::fmt::Display for CdpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CdpError::Gone => write!(f, "the browser exited"),
            CdpError::Timeout => write!(f, "the browser did not answer in time"),
            CdpError::Failed(m) => write!(f, "the browser refused: {m}"),
        }
    }
}

/// The switches every browser is started with: headless, no sandbox (thresher runs in
/// containers without user namespaces), and none of Chromium's own traffic (updates,
/// sync, QUIC, background requests).
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--disable-breakpad",
    "--disable-dev-shm-usage",
    "--mute-audio",
    "--hide-scrollbars",
    // Navigations to `http` addresses are otherwise tried as `https` first.
    "--disable-features=HttpsUpgrades,HttpsFirstBalancedModeAutoEnable",
    "--remote-debugging-pipe",
];

/// With no network at all, every host name resolves to nothing: a second fence behind the
/// Fetch interception (`tab.rs`), should a request ever pass it.
const NO_HOSTS: &str = "--host-resolver-rules=MAP * ~NOTFOUND";

impl Browser {
    /// Start `program` headless with a fresh profile; `offline` also resolves no host.
    pub fn start(program: &Path, offline: bool) -> std::io::Result<Browser> {
        let profile = tempfile::Builder::new()
            .prefix("thresher-chromium-")
            .tempdir()?;
        let mut cmd = Command::new("/bin/sh");
        // `$0` is the program, `$@` its arguments; the pipes become descriptors 3 and 4.
        cmd.arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 </dev/null >/dev/null")
            .arg(program)
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.path().display()));
        if offline {
            cmd.arg(NO_HOSTS);
        }
        cmd.arg("about:blank");
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let routes = Arc::new(Mutex::new(Routes::default()));
        let alive = Arc::new(AtomicBool::new(true));
        {
            let routes = Arc::clone(&routes);
            let alive = Arc::clone(&alive);
            std::thread::Builder::new()
                .name("cdp-reader".into())
                .spawn(move || read_loop(BufReader::new(stdout), &routes, &alive))?;
        }
        Ok(Browser {
            child: Mutex::new(child),
            stdin: Mutex::new(stdin),
            routes,
            alive,
            next_id: AtomicU64::new(1),
            _profile: profile,
        })
    }

    /// Whether the browser process is still there.
    pub fn is_alive(&self) -> bool {
        self.alive.load(Ordering::Acquire)
    }

    /// Send a command (to `session`, or to the browser); its answer goes to `reply`
    /// (nowhere when `None`). Returns the command's id.
    pub fn send(
        &self,
        method: &str,
        params: Value,
        session: Option<&str>,
        reply: Option<Sender<Value>>,
    ) -> Result<u64, CdpError> {
        if !self.is_alive() {
            return Err(CdpError::Gone);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = Value::String(s.to_string());
        }
        if let Some(r) = reply {
            lock(&self.routes).answers.insert(id, r);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("JSON value");
        bytes.push(0);
        let mut stdin = lock(&self.stdin);
        if stdin.write_all(&bytes).and_then(|_| stdin.flush()).is_err() {
            lock(&self.routes).answers.remove(&id);
            return Err(CdpError::Gone);
        }
        Ok(id)
    }

    /// A browser-level command and its result, waiting at most `timeout`.
    pub fn call(&self, method: &str, params: Value, timeout: Duration) -> Result<Value, CdpError> {
        let (tx, rx) = channel();
        let id = self.send(method, params, None, Some(tx))?;
        let deadline = Instant::now() + timeout;
        let answer = recv_until(&rx, deadline);
        if answer.is_err() {
            lock(&self.routes).answers.remove(&id);
        }
        result_of(answer?)
    }

    /// Route the events of `session` (and answers sent with its sender) to `tx`.
    pub fn route_session(&self, session: &str, tx: Sender<Value>) {
        lock(&self.routes).sessions.insert(session.to_string(), tx);
    }

    /// Stop routing `session`.
    pub fn forget_session(&self, session: &str) {
        lock(&self.routes).sessions.remove(session);
    }

    /// Forget the answer channel of command `id` (its caller stopped waiting).
    pub fn forget_answer(&self, id: u64) {
        lock(&self.routes).answers.remove(&id);
    }

    /// Kill the browser (a hung one): every waiting channel closes.
    pub fn kill(&self) {
        let mut child = lock(&self.child);
        let _ = child.kill();
        let _ = child.wait();
        self.alive.store(false, Ordering::Release);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The `result` of an answer, or its `error` message.
pub fn result_of(answer: Value) -> Result<Value, CdpError> {
    if let Some(e) = answer.get("error") {
        let m = e.get("message").and_then(Value::as_str).unwrap_or("error");
        return Err(CdpError::Failed(m.to_string()));
    }
    Ok(answer.get("result").cloned().unwrap_or(Value::Null))
}

/// The next message of `rx` before `deadline`.
pub fn recv_until(rx: &Receiver<Value>, deadline: Instant) -> Result<Value, CdpError> {
    let left = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(left) {
        Ok(v) => Ok(v),
        Err(RecvTimeoutError::Timeout) => Err(CdpError::Timeout),
        Err(RecvTimeoutError::Disconnected) => Err(CdpError::Gone),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The reader thread: NUL-separated JSON messages until the browser closes its end.
fn read_loop(mut input: impl BufRead, routes: &Mutex<Routes>, alive: &AtomicBool) {
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(0, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if buf.last() == Some(&0) {
            buf.pop();
        }
        let Ok(msg) = serde_json::from_slice::<Value>(&buf) else {
            continue;
        };
        let mut routes = lock(routes);
        if let Some(id) = msg.get("id").and_then(Value::as_u64) {
            if let Some(tx) = routes.answers.remove(&id) {
                let _ = tx.send(msg);
            }
        } else if let Some(s) = msg.get("sessionId").and_then(Value::as_str) {
            if let Some(tx) = routes.sessions.get(s) {
                let _ = tx.send(msg);
            }
        }
    }
    alive.store(false, Ordering::Release);
    // Dropping the senders wakes every waiter with "disconnected".
    let mut routes = lock(routes);
    routes.answers.clear();
    routes.sessions.clear();
}
