//! Headless Chromium over WebDriver (chromedriver), for the page's tests.
//!
//! Without Chromium the tests print that they were skipped and how to install
//! it, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1` (set by `.ci/run`) makes that a
//! failure. chromedriver runs in a process group of its own, which a guard
//! kills (with the browser in it) when the test ends, also when it panics.

use std::future::Future;
use std::io::Write;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// Set to `1` to make a missing browser fail the tests.
pub const REQUIRE: &str = "BEHAVED_STUDIO_REQUIRE_BROWSER";
/// How to install what the tests need on Debian and Ubuntu.
pub const INSTALL: &str = "apt-get install chromium chromium-driver";
/// The longest the tests wait for a page-ready marker.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// One browser at a time: the machine is small and the tests are quicker in a row.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The first file named `name` in `$PATH`.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver and Chromium, from `BEHAVED_STUDIO_CHROMEDRIVER` / `BEHAVED_STUDIO_CHROMIUM` or `$PATH`.
fn find_browser() -> Option<(PathBuf, PathBuf)> {
    let pick = |var: &str, names: &[&str]| match std::env::var_os(var) {
        Some(path) => Some(PathBuf::from(path)).filter(|p| p.is_file()),
        None => on_path(names),
    };
    Some((
        pick("BEHAVED_STUDIO_CHROMEDRIVER", &["chromedriver"])?,
        pick(
            "BEHAVED_STUDIO_CHROMIUM",
            &["chromium", "chromium-browser", "google-chrome"],
        )?,
    ))
}

/// chromedriver's process group, killed on drop.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        // The browser runs in chromedriver's process group: end them all.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.0.id())])
            .status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free port on loopback.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// Starts chromedriver and waits until it answers `GET /status` as ready.
///
/// A bare TCP connect is not enough: when chromedriver fails to bind, a
/// connect to the free port can connect to itself (TCP simultaneous open on
/// loopback), and a driver still starting may answer with an empty body.
/// `None` when it exits or is not ready within [`PATIENCE`].
fn start_driver(chromedriver: &Path) -> Option<(Driver, u16)> {
    let port = free_port();
    let child = Command::new(chromedriver)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display()));
    let mut driver = Driver(child);
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if driver.0.try_wait().ok().flatten().is_some() {
            return None;
        }
        if driver_ready(port) {
            return Some((driver, port));
        }
        std::thread::sleep(Duration::from_millis(20)); // polling for the driver, not synchronising the test
    }
    None
}

/// Whether chromedriver on `port` answers `GET /status` with `"ready": true`.
fn driver_ready(port: u16) -> bool {
    use std::io::Read;
    let Ok(mut stream) = TcpStream::connect(SocketAddr::from(([127, 0, 0, 1], port))) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
    let request = format!("GET /status HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n");
    if stream.write_all(request.as_bytes()).is_err() {
        return false;
    }
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    serde_json::from_str::<Value>(body).is_ok_and(|v| v["value"]["ready"] == true)
}

/// Where the tests' screenshots go (under `target/`).
pub fn screenshot_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bt-studio-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `test` with a WebDriver client on a fresh headless Chromium, or
/// reports that it was skipped.
pub fn with_browser<F, Fut>(test_name: &str, test: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: Future<Output = ()>,
{
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let Some((chromedriver, chromium)) = find_browser() else {
        let message = format!("Chromium and chromedriver were not found; install them with `{INSTALL}`");
        if std::env::var_os(REQUIRE).is_some_and(|v| v == "1") {
            panic!("{message} ({REQUIRE}=1 requires the browser tests to run)");
        }
        // Straight to stderr, past the test harness's capture, so that a passing run says it.
        let _ = writeln!(
            std::io::stderr().lock(),
            "behaved-studio browser test {test_name}: SKIPPED, {message}"
        );
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let profile =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-profile-{}-{test_name}", std::process::id()));
    // A browser that fails to start on a loaded machine is started again, with a
    // fresh driver, a fresh port and a fresh profile; the test itself runs once.
    let mut failures = Vec::new();
    for _attempt in 0..3 {
        let _ = std::fs::remove_dir_all(&profile);
        let Some((driver, port)) = start_driver(&chromedriver) else {
            failures.push("chromedriver exited or was not ready".to_string());
            continue;
        };
        let session = runtime.block_on(
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(capabilities(&chromium, &profile))
                .connect(&format!("http://127.0.0.1:{port}")),
        );
        match session {
            Ok(client) => {
                runtime.block_on(async {
                    test(client.clone()).await;
                    client.close().await.expect("closing the browser");
                });
                drop(driver);
                let _ = std::fs::remove_dir_all(&profile);
                return;
            }
            Err(error) => failures.push(format!("no WebDriver session: {error:?}")),
        }
    }
    panic!("headless Chromium did not start in 3 attempts: {failures:?}");
}

/// The session's capabilities: headless Chromium at `chromium` with its own profile.
fn capabilities(chromium: &Path, profile: &Path) -> serde_json::Map<String, Value> {
    let capabilities = json!({
        // The console's messages, for `console_errors`.
        "goog:loggingPrefs": { "browser": "ALL" },
        "goog:chromeOptions": {
            "binary": chromium,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run",
                "--disable-dev-shm-usage", "--window-size=1400,900",
                format!("--user-data-dir={}", profile.display()),
            ],
        }
    });
    let Value::Object(capabilities) = capabilities else {
        unreachable!()
    };
    capabilities
}

/// Opens `url` and waits for the page to say it is ready (or showing an error).
pub async fn open(client: &Client, url: &str) {
    client.goto(url).await.unwrap();
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css("body[data-state='ready'], body[data-state='error']"))
        .await
        .expect("the page reports ready or error");
}

/// ChromeDriver's command that takes the browser console's messages
/// logged since it was last taken (failed loads among them).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (axum::http::Method, Option<String>) {
        (axum::http::Method::POST, Some(r#"{"type": "browser"}"#.to_string()))
    }
}

/// The console's messages of level `SEVERE` (errors, failed loads)
/// logged since the last call: each message's text.
pub async fn console_errors(client: &Client) -> Vec<String> {
    let log = client.issue_cmd(BrowserLog).await.expect("the browser's console log");
    log.as_array()
        .expect("a list of log entries")
        .iter()
        .filter(|e| e["level"] == "SEVERE")
        .map(|e| e["message"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// What the page draws at its current position.
#[derive(Debug, PartialEq)]
pub struct Drawn {
    /// `#position[data-tick]`.
    pub tick: u64,
    /// `#position[data-event]`: how many of the tick's events are applied.
    pub event: usize,
    /// `#position[data-events]`: the tick's number of events.
    pub events: usize,
    /// `#position[data-node]`: the selected node.
    pub node: Option<u32>,
    /// `data-status` of every drawn node, by id.
    pub statuses: Vec<String>,
    /// The drawn nodes with `data-halted`.
    pub halted: Vec<u32>,
}

/// Reads what the page draws, from its DOM.
pub async fn drawn(client: &Client) -> Drawn {
    let value = client
        .execute(
            "const p = document.querySelector('#position').dataset;
             const nodes = [...document.querySelectorAll('#viewport .node')]
               .map(g => [Number(g.dataset.id), g.dataset.status, g.dataset.halted === 'true'])
               .sort((a, b) => a[0] - b[0]);
             return { tick: Number(p.tick), event: Number(p.event), events: Number(p.events),
                      node: p.node === '' ? null : Number(p.node),
                      ids: nodes.map(n => n[0]), statuses: nodes.map(n => n[1]),
                      halted: nodes.filter(n => n[2]).map(n => n[0]) };",
            vec![],
        )
        .await
        .unwrap();
    let ids: Vec<u64> = serde_json::from_value(value["ids"].clone()).unwrap();
    assert_eq!(
        ids,
        (0..ids.len() as u64).collect::<Vec<_>>(),
        "every node is drawn once"
    );
    Drawn {
        tick: value["tick"].as_u64().unwrap(),
        event: value["event"].as_u64().unwrap() as usize,
        events: value["events"].as_u64().unwrap() as usize,
        node: value["node"].as_u64().map(|n| n as u32),
        statuses: serde_json::from_value(value["statuses"].clone()).unwrap(),
        halted: serde_json::from_value(value["halted"].clone()).unwrap(),
    }
}

/// Reads what the page paints on its canvas (a tree with more nodes in view
/// than it draws as SVG): each node's status from the colour of a pixel inside
/// its box, with `tick`, `event` and `events` from `#position`. `None` while
/// the tree is drawn as SVG.
pub async fn painted(client: &Client) -> Option<Drawn> {
    let value = client
        .execute(
            "const canvas = document.querySelector('#tree-canvas');
             if (canvas.dataset.mode !== 'canvas') return null;
             const ctx = canvas.getContext('2d');
             const dpr = canvas.width / canvas.getBoundingClientRect().width;
             const hex = (d) => '#' + [...d.slice(0, 3)].map((x) => x.toString(16).padStart(2, '0')).join('');
             const fills = window.btStudio.canvasFills;
             const colours = [];
             for (let id = 0; ; id++) {
               const b = window.btStudio.boxOnScreen(id);
               if (!b) break;
               const x = Math.floor((b.x + b.w / 4) * dpr), y = Math.floor((b.y + b.h / 2) * dpr);
               const colour = hex(ctx.getImageData(x, y, 1, 1).data);
               colours.push(Object.keys(fills).find((name) => fills[name] === colour) || colour);
             }
             const p = document.querySelector('#position').dataset;
             return { tick: Number(p.tick), event: Number(p.event), events: Number(p.events),
                      node: p.node === '' ? null : Number(p.node), colours };",
            vec![],
        )
        .await
        .unwrap();
    if value.is_null() {
        return None;
    }
    let colours: Vec<String> = serde_json::from_value(value["colours"].clone()).unwrap();
    let halted = (0..colours.len() as u32)
        .filter(|&id| colours[id as usize] == "halted")
        .collect();
    let statuses = colours
        .into_iter()
        .map(|c| if c == "halted" { "idle".to_owned() } else { c })
        .collect();
    Some(Drawn {
        tick: value["tick"].as_u64().unwrap(),
        event: value["event"].as_u64().unwrap() as usize,
        events: value["events"].as_u64().unwrap() as usize,
        node: value["node"].as_u64().map(|n| n as u32),
        statuses,
        halted,
    })
}

/// The text of the element that `css` finds.
pub async fn text_of(client: &Client, css: &str) -> String {
    client.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}

/// Runs `script` (a function body returning a value) in the page and returns its value.
pub async fn eval(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap()
}

/// How far the drawn tree's centre lies from the centre of the tree's area,
/// across, and the area's width (CSS pixels): the viewer's and the editor's
/// pages share the `#tree` in `#viewport` markup.
pub async fn off_centre(client: &Client) -> (f64, f64) {
    let v = eval(
        client,
        "const t = document.querySelector('#tree').getBoundingClientRect();
         const d = document.querySelector('#viewport').getBoundingClientRect();
         return [d.left + d.width / 2 - (t.left + t.width / 2), t.width];",
    )
    .await;
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

/// Waits (up to [`PATIENCE`]) for an element that `css` finds, and returns it.
pub async fn wait_for(client: &Client, css: &str) -> Element {
    client
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap()
}

/// Clicks the element `css`. A live page redraws its panels several times a
/// second: an element found just before a redraw is stale by the time it is
/// clicked, so it is found again (for up to [`PATIENCE`]).
pub async fn click(client: &Client, css: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let clicked = match client.find(Locator::Css(css)).await {
            Ok(element) => element.click().await.map(|_| ()),
            Err(e) => Err(e),
        };
        match clicked {
            Ok(()) => return,
            Err(e) if e.is_stale_element_reference() && Instant::now() < deadline => continue,
            Err(e) => panic!("clicking `{css}`: {e}"),
        }
    }
}

/// Types `#node` and Enter into the search field: the page selects node `node`.
pub async fn search_node(client: &Client, node: impl std::fmt::Display) {
    let enter = fantoccini::key::Key::Enter;
    client
        .find(Locator::Css("#search"))
        .await
        .unwrap()
        .send_keys(&format!("#{node}{enter}"))
        .await
        .unwrap();
}

/// Empties the text field `css`.
pub async fn clear(client: &Client, css: &str) {
    client.find(Locator::Css(css)).await.unwrap().clear().await.unwrap();
}

/// Replaces the text of input `css` with `text` and leaves it (one change event).
pub async fn type_into(client: &Client, css: &str, text: &str) {
    let input = client.find(Locator::Css(css)).await.unwrap();
    let (ctrl, release, tab) = (
        char::from(fantoccini::key::Key::Control),
        char::from(fantoccini::key::Key::Null),
        char::from(fantoccini::key::Key::Tab),
    );
    let delete = char::from(fantoccini::key::Key::Backspace);
    input
        .send_keys(&format!("{ctrl}a{release}{delete}{text}{tab}"))
        .await
        .unwrap();
}

/// Opens the live view at `url` and follows the first agent it lists, once listed.
pub async fn follow_first_agent(client: &Client, url: &str) {
    open(client, url).await;
    wait_for(client, "#agent-list li[data-agent='0']")
        .await
        .click()
        .await
        .unwrap();
}

/// Picks the option `value` of the `<select>` `css`.
pub async fn choose(client: &Client, css: &str, value: &str) {
    client
        .find(Locator::Css(css))
        .await
        .unwrap()
        .select_by_value(value)
        .await
        .unwrap();
}

/// The attribute `name` of the element `css`.
pub async fn attribute(client: &Client, css: &str, name: &str) -> Option<String> {
    client.find(Locator::Css(css)).await.unwrap().attr(name).await.unwrap()
}

/// Sends `keys` to the page (not to a text field).
pub async fn keys(client: &Client, keys: &str) {
    client
        .find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys(keys)
        .await
        .unwrap();
}

/// Chooses `file` in the page's file input (`#file`), as a user picking it would.
pub async fn choose_file(client: &Client, file: &Path) {
    let input = client.find(Locator::Css("#file")).await.unwrap();
    input.send_keys(file.to_str().unwrap()).await.unwrap();
}

/// Saves a screenshot of the page as `target/tmp/bt-studio-screenshots/<name>.png`.
pub async fn screenshot(client: &Client, name: &str) {
    let png = client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join(format!("{name}.png")), png).unwrap();
}
