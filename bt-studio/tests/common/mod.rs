//! What the studio's tests share: recorded traces and a server on loopback.
//! Each test binary uses a part of it.
#![allow(dead_code)]

pub mod big;
pub mod browser;
pub mod editing;
pub mod game;
pub mod http;
pub mod live;

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use behaved::prelude::*;
use behaved_observe::{Event, Trace, TraceRecorder};
use behaved_scenarios::dog::WildDog;
use behaved_scenarios::hex::Hex;
use behaved_scenarios::world::World;

/// The guard of `examples/debug_trace.rs`: its post, leaves and tree.
#[path = "../../../examples/support/guard_post.rs"]
pub mod guard;

/// The trace `examples/debug_trace.rs` records: 24 ticks of the guard, an
/// intruder appearing at tick 10 and interrupting the patrol.
pub fn guard_trace() -> Trace {
    let (trace, alarms) = guard_run(7.5, 10_000);
    assert_eq!(alarms, 1, "the guard caught the intruder");
    trace
}

/// The guard's 24 ticks with an intruder appearing at `intruder_at` metres
/// at tick 10, recorded by a recorder of `capacity` events, with the post's
/// values as context after each tick; and the alarms raised.
pub fn guard_run(intruder_at: f64, capacity: usize) -> (Trace, u32) {
    let mut tree = guard::Guard::new();
    let mut post = guard::Post::at_start();
    let mut recorder = TraceRecorder::new(guard::Guard::NODES, capacity).unwrap();
    for tick in 1..=24 {
        let now = f64::from(tick - 1) * 0.5;
        post.now = now;
        if tick == 10 {
            post.intruder = Some(intruder_at);
        }
        tree.tick_observed(&mut post, now, &mut recorder);
        recorder
            .record_context(&serde_json::json!({
                "guard": post.guard,
                "intruder": post.intruder,
                "alarms": post.alarms,
            }))
            .unwrap();
    }
    (recorder.trace(), post.alarms)
}

/// A wild dog (ADR-006/012) hunting two players for `frames` frames of the
/// seeded world; one player wanders, so the dog keeps re-targeting.
pub fn wild_dog_trace(seed: u64, frames: usize) -> Trace {
    let mut world: World = World::new(seed);
    world.spawn_dog(Hex::new(0, 0)).unwrap();
    let a = world.spawn_player("A", Hex::new(4, -1)).unwrap();
    world.spawn_player("B", Hex::new(-6, 2)).unwrap();
    world.wander_player(a, 5).unwrap();
    let mut recorder = TraceRecorder::new(WildDog::NODES, 1_000_000).unwrap();
    for _ in 0..frames {
        world.step_observed(&mut recorder);
    }
    recorder.trace()
}

/// The index in `trace.events` of event `k` (from 1) of `tick`.
pub fn event_index(trace: &Trace, tick: u64, k: usize) -> usize {
    let tick_events = trace.ticks().find(|t| t.tick == tick).unwrap().events;
    let start = tick_events.as_ptr() as usize - trace.events.as_ptr() as usize;
    start / size_of::<Event>() + k - 1
}

/// The guard's trace, and a copy in which event 5 of tick 7 (a ticked event) has the other outcome.
pub fn guard_with_one_event_changed() -> (Trace, Trace, usize) {
    let a = guard_trace();
    let mut b = a.clone();
    let i = event_index(&a, 7, 5);
    let Event::Ticked { node, status } = a.events[i] else {
        panic!("event 5 of tick 7 is {:?}", a.events[i]);
    };
    let flipped = if status == Status::Failure {
        Status::Success
    } else {
        Status::Failure
    };
    b.events[i] = Event::Ticked { node, status: flipped };
    (a, b, i)
}

/// A file under the tests' temporary directory, with `text` in it.
pub fn temp_file(name: &str, text: &str) -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "bt-studio-{}-{}",
        std::process::id(),
        COUNT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Serves `trace_file` on a free loopback port, on a thread of its own
/// (ended with the test process).
pub fn serve(trace_file: PathBuf) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || behaved_studio::serve_blocking(listener, behaved_studio::Files::new(trace_file)));
    addr
}

/// Ends the child process when the test ends.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the binary with `args` (`--port 0` among them): the process, ended
/// when the test ends, the line it printed first and the address it serves.
pub fn start_binary(args: &[&str]) -> (KillOnDrop, String, SocketAddr) {
    use std::io::BufRead;
    let mut child = KillOnDrop(
        std::process::Command::new(env!("CARGO_BIN_EXE_behaved-studio"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut line = String::new();
    std::io::BufReader::new(child.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line.split_whitespace().last().unwrap();
    let addr = url
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .parse()
        .unwrap();
    (child, line, addr)
}

/// Runs the binary with `args`, which it refuses: what it said.
pub fn binary_fails(args: &[&str]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_behaved-studio"))
        .args(args)
        .output()
        .unwrap();
    assert!(!output.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[allow(unused_imports)]
pub use http::{Answer, get, post, request, send};
