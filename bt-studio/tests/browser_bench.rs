//! The page's speed on a big trace, in headless Chromium: a 10,000-node tree
//! and a 100,000-event trace, both made here at run time. A benchmark run on
//! demand, not a test (no thresholds):
//!
//! ```text
//! cargo test -p behaved-studio --test browser_bench -- --ignored --nocapture
//! ```
//!
//! With `BEHAVED_STUDIO_BENCH_SERVER=$PWD/target/release/bt-studio` the trace is served
//! by that binary (a release build) instead of the test's own debug build.
//!
//! It prints the medians of opening the trace (from navigation until the
//! page has drawn it), of drawing one tick (a seek to another tick, until the
//! next frame) and of one step of the timeline (the next-tick and next-event
//! buttons). BENCHMARKS.md reports them.
//!
//! `following_one_dog_at_20_ticks_a_second` measures what the live page
//! costs while it follows one agent: the browser's processes' CPU time (user
//! and system, from `/proc/<pid>/stat`) over a fixed wall interval, while a
//! game thread ticks one 8-node Wild Dog 20 times a second, against the same
//! interval with the page open but following nothing:
//!
//! ```text
//! cargo test -p behaved-studio --test browser_bench following -- --ignored --nocapture
//! ```

mod common;

use common::big::big_trace;
use common::browser::{follow_first_agent, open, wait_for, with_browser};
use common::{serve, temp_file};
use fantoccini::Client;

/// The tree's size.
const NODES: usize = 10_000;
/// The trace's size (at least; the last tick is kept whole).
const EVENTS: usize = 100_000;
/// How often each measurement is repeated.
const RUNS: usize = 21;
/// Page loads for the opening time.
const OPENS: usize = 5;

/// Names a `behaved-studio` binary to serve the trace with (for example a release
/// build: `cargo build --release -p behaved-studio`), instead of the test's own build.
const SERVER: &str = "BEHAVED_STUDIO_BENCH_SERVER";

/// A `behaved-studio open` process, ended on drop.
struct Server {
    child: std::process::Child,
    url: String,
}

impl Server {
    /// Starts `binary open file --port 0` and reads the URL it prints.
    fn start(binary: &std::ffi::OsStr, file: &std::path::Path) -> Server {
        use std::io::BufRead;
        let mut child = std::process::Command::new(binary)
            .arg("open")
            .arg(file)
            .args(["--port", "0"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.to_string_lossy()));
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_owned();
        Server { child, url }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `action` (JavaScript) in the page and returns the milliseconds until
/// the next frame has been drawn.
async fn frame_ms(client: &Client, action: &str) -> f64 {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         const t0 = performance.now();
         {action};
         requestAnimationFrame(() => setTimeout(() => done(performance.now() - t0), 0));"
    );
    client.execute_async(&script, vec![]).await.unwrap().as_f64().unwrap()
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[test]
#[ignore = "a benchmark: run it on demand with --ignored --nocapture"]
fn a_10000_node_tree_and_a_100000_event_trace() {
    let trace = big_trace(NODES, EVENTS);
    let ticks = trace.last_tick() - trace.first_tick();
    let json = trace.to_json().unwrap();
    println!(
        "trace: {} nodes, {} events, {ticks} ticks, {:.1} MB of JSON",
        trace.nodes.len(),
        trace.events.len(),
        json.len() as f64 / 1e6
    );
    let file = temp_file("big.trace.json", &json);
    // The server: in this process (this build's profile), or the binary named by SERVER.
    let (url, _server) = match std::env::var_os(SERVER) {
        Some(binary) => {
            let server = Server::start(&binary, &file);
            (server.url.clone(), Some(server))
        }
        None => (format!("http://{}/", serve(file)), None),
    };
    println!(
        "server: {}",
        std::env::var(SERVER).unwrap_or_else(|_| "in the test process".to_owned())
    );
    with_browser("bench", |client| async move {
        let (mut open_ms, mut server_ms, mut page_ms) = (Vec::new(), Vec::new(), Vec::new());
        // The page's phases: script start to request, parse, replay, layout, first paint, frame.
        let mut phases: Vec<Vec<f64>> = vec![Vec::new(); 6];
        for _ in 0..OPENS {
            open(&client, &format!("{url}#tick=1")).await;
            let t = client
                .execute_async(
                    "const done = arguments[arguments.length - 1];
                     const t = window.btStudio.timings;
                     const wait = () => (t.drawn === undefined ? setTimeout(wait, 10) : done(t));
                     wait();",
                    vec![],
                )
                .await
                .unwrap();
            let at = |k: &str| t[k].as_f64().unwrap();
            open_ms.push(at("drawn"));
            server_ms.push(at("received") - at("requested"));
            page_ms.push(at("drawn") - at("received"));
            let marks = [
                "script",
                "requested",
                "received",
                "parsed",
                "modelBuilt",
                "laidOut",
                "shown",
                "drawn",
            ];
            for (i, phase) in phases.iter_mut().enumerate() {
                let (from, to) = if i == 0 {
                    (marks[0], marks[1])
                } else {
                    (marks[i + 1], marks[i + 2])
                };
                // (A page older than these marks has fewer.)
                if let (Some(from), Some(to)) = (t[from].as_f64(), t[to].as_f64()) {
                    phase.push(to - from);
                }
            }
        }
        // Ticks spread over the trace, in an order that jumps around.
        let tick = |i: usize| 1 + (i as u64 * 7919) % ticks;
        let mut seek_ms = Vec::new();
        for i in 0..RUNS {
            seek_ms.push(frame_ms(&client, &format!("window.btStudio.seek({})", tick(i))).await);
        }
        let mut step_ms = Vec::new();
        let mut event_ms = Vec::new();
        frame_ms(&client, &format!("window.btStudio.seek({})", ticks / 2)).await;
        for _ in 0..RUNS {
            step_ms.push(frame_ms(&client, "document.querySelector('#next-tick').click()").await);
        }
        for _ in 0..RUNS {
            event_ms.push(frame_ms(&client, "document.querySelector('#next-event').click()").await);
        }
        println!(
            "median of {OPENS} opens: {:.0} ms from navigation to drawn",
            median(open_ms)
        );
        println!(
            "  of which the server and transfer {:.0} ms, the page's parse, replay and drawing until the frame is shown {:.0} ms",
            median(server_ms),
            median(page_ms)
        );
        let names = [
            "script start to request",
            "parse",
            "replay",
            "layout",
            "paint",
            "until the frame",
        ];
        let phases: Vec<String> = names
            .iter()
            .zip(phases)
            .filter(|(_, ms)| !ms.is_empty())
            .map(|(name, ms)| format!("{name} {:.0} ms", median(ms)))
            .collect();
        println!("  the page's phases (medians): {}", phases.join(", "));
        println!("median of {RUNS} draws of one tick (seek): {:.1} ms", median(seek_ms));
        println!("median of {RUNS} steps of one tick: {:.1} ms", median(step_ms));
        println!("median of {RUNS} steps of one event: {:.1} ms", median(event_ms));
    });
}

/// The CPU time (user and system, in clock ticks) of every process descended
/// from this one whose command line names Chromium, and of its renderers alone.
fn browser_cpu_ticks() -> (u64, u64) {
    let me = std::process::id();
    let mut parent = std::collections::HashMap::new();
    let mut cpu = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // After the command's name in parentheses: state, ppid, ... utime (14th field), stime (15th).
        let fields: Vec<&str> = stat[stat.rfind(')').unwrap() + 2..].split(' ').collect();
        parent.insert(pid, fields[1].parse::<u32>().unwrap());
        let ticks = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
        let cmdline = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if cmdline.contains("chrom") && !cmdline.contains("chromedriver") {
            cpu.insert(pid, (ticks, cmdline.contains("--type=renderer")));
        }
    }
    let mine = |mut pid: u32| loop {
        match parent.get(&pid) {
            Some(&p) if p == me => return true,
            Some(&p) if p > 1 => pid = p,
            _ => return false,
        }
    };
    let (mut all, mut renderers) = (0, 0);
    for (&pid, &(ticks, renderer)) in &cpu {
        if mine(pid) {
            all += ticks;
            if renderer {
                renderers += ticks;
            }
        }
    }
    (all, renderers)
}

/// The clock ticks per second of `/proc/<pid>/stat`'s times.
const CLOCK_TICKS: f64 = 100.0;
/// The wall interval each measurement spans.
const INTERVAL: std::time::Duration = std::time::Duration::from_secs(10);
/// Measurements of each kind.
const SAMPLES: usize = 5;

#[test]
#[ignore = "a benchmark: run it on demand with --ignored --nocapture"]
fn following_one_dog_at_20_ticks_a_second() {
    use behaved_scenarios::hex::Hex;
    use behaved_scenarios::world::World;
    use std::sync::atomic::{AtomicBool, Ordering};
    let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let mut dog = studio.agent("dog", behaved_scenarios::dog::WildDog::NODES).unwrap();
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let game = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut world: World = World::new(7);
            world.spawn_dog(Hex::new(0, 0)).unwrap();
            let a = world.spawn_player("A", Hex::new(4, -1)).unwrap();
            world.spawn_player("B", Hex::new(-6, 2)).unwrap();
            world.wander_player(a, 5).unwrap();
            let start = std::time::Instant::now();
            let mut frame = 0u32;
            while !stop.load(Ordering::Relaxed) {
                world.step_observed(&mut dog);
                frame += 1;
                // 20 ticks a second of wall time.
                let next = start + std::time::Duration::from_millis(50) * frame;
                std::thread::sleep(next.saturating_duration_since(std::time::Instant::now()));
            }
        })
    };
    let url = studio.url();
    with_browser("bench_follow", |client| async move {
        let measure = || async {
            let (a0, r0) = browser_cpu_ticks();
            let t0 = std::time::Instant::now();
            tokio::time::sleep(INTERVAL).await;
            let (a1, r1) = browser_cpu_ticks();
            let wall = t0.elapsed().as_secs_f64();
            (
                100.0 * (a1 - a0) as f64 / CLOCK_TICKS / wall,
                100.0 * (r1 - r0) as f64 / CLOCK_TICKS / wall,
            )
        };
        open(&client, &url).await;
        wait_for(&client, "#agent-list li[data-agent='0']").await;
        let mut idle = Vec::new();
        for _ in 0..SAMPLES {
            idle.push(measure().await);
        }
        follow_first_agent(&client, &url).await;
        wait_for(&client, "body[data-following='0']").await;
        // The window fills (its first seconds), then the measurements.
        tokio::time::sleep(std::time::Duration::from_secs(3)).await;
        let drawings = "const t = window.btStudio.timings; return [t.liveDraws || 0, t.liveMs || 0];";
        let before = common::browser::eval(&client, drawings).await;
        let started = std::time::Instant::now();
        let mut following = Vec::new();
        for _ in 0..SAMPLES {
            following.push(measure().await);
        }
        let after = common::browser::eval(&client, drawings).await;
        let seconds = started.elapsed().as_secs_f64();
        let delta = |i: usize| after[i].as_f64().unwrap_or(0.0) - before[i].as_f64().unwrap_or(0.0);
        let ticks = common::browser::eval(&client, "return Number(document.querySelector('#slider').max);").await;
        let show = |name: &str, xs: &[(f64, f64)]| {
            println!(
                "{name}: median of {SAMPLES} x {} s: browser {:.1}% of a core, of which the renderer {:.1}% (all: {:?})",
                INTERVAL.as_secs(),
                median(xs.iter().map(|x| x.0).collect()),
                median(xs.iter().map(|x| x.1).collect()),
                xs.iter().map(|x| (x.0 * 10.0).round() / 10.0).collect::<Vec<_>>()
            );
        };
        show("page open, following nothing", &idle);
        show("following one dog at 20 ticks/s", &following);
        println!("(the window held {ticks} ticks at the end)");
        if delta(0) > 0.0 {
            println!(
                "the page drew the followed agent {:.1} times a second, {:.1} ms of script a drawing (mean)",
                delta(0) / seconds,
                delta(1) / delta(0)
            );
        }
    });
    stop.store(true, Ordering::Relaxed);
    game.join().unwrap();
}
