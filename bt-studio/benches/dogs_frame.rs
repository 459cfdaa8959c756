//! 1,000 Wild Dogs, each ticked with its own studio observer, with a page
//! following one of them: the time of a 60 Hz frame's AI pass against the
//! same dogs ticked unobserved, in the same run (three worlds of the same
//! seed, their frames interleaved, each first in turn).
//!
//! ```text
//! cargo bench -p behaved-studio --bench dogs_frame
//! ```
//!
//! Without `--bench` (as `cargo test --benches` runs it) it ticks a few frames only.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use behaved_scenarios::dog::WildDog;
use behaved_scenarios::world::World;
use behaved_studio::{ObservedAgent, Studio};

/// One frame at 60 Hz.
const FRAME: Duration = Duration::from_nanos(16_666_667);
/// The dogs.
const DOGS: usize = 1000;

/// A world whose dogs each have a studio agent.
struct Observed {
    world: World,
    agents: Vec<ObservedAgent>,
}

impl Observed {
    fn new(studio: &Studio) -> Observed {
        let world: World = World::arena(DOGS);
        let agents = (0..world.dogs().len())
            .map(|i| studio.agent(&format!("dog#{i}"), WildDog::NODES).unwrap())
            .collect();
        Observed { world, agents }
    }

    /// One frame's AI pass with every dog observed (and its values recorded
    /// as `examples/wild_dogs.rs` does); returns its time.
    fn think(&mut self) -> Duration {
        self.world.begin_frame();
        let start = Instant::now();
        self.world.think_each_observed(&mut self.agents);
        for (agent, dog) in self.agents.iter_mut().zip(self.world.dogs()) {
            agent
                .record_context_with(
                    || serde_json::json!({ "health": dog.health.current, "q": dog.loc.q, "r": dog.loc.r }),
                )
                .unwrap();
        }
        let ai = start.elapsed();
        self.world.end_frame();
        self.world.clear_events();
        ai
    }
}

/// Follows agent `id` of the studio at `addr` like a page: a WebSocket whose
/// messages a thread reads and discards; returns the bytes it received so far.
fn follow(addr: SocketAddr, id: usize) -> std::sync::Arc<std::sync::atomic::AtomicU64> {
    let (mut socket, answer) = tungstenite::connect(format!("ws://{addr}/api/live/{id}")).unwrap();
    assert_eq!(answer.status().as_u16(), 101, "the studio accepted the WebSocket");
    let received = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let counter = std::sync::Arc::clone(&received);
    std::thread::spawn(move || {
        while let Ok(message) = socket.read() {
            counter.fetch_add(message.len() as u64, std::sync::atomic::Ordering::Relaxed);
        }
    });
    // Following starts when the upgrade completes, just after the answer.
    std::thread::sleep(Duration::from_millis(200));
    received
}

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn main() {
    let frames = if std::env::args().any(|a| a == "--bench") {
        600
    } else {
        5
    };
    let mut plain: World = World::arena(DOGS);
    let no_page = Studio::serve("127.0.0.1:0").unwrap();
    let mut unwatched = Observed::new(&no_page);
    let studio = Studio::serve("127.0.0.1:0").unwrap();
    let mut watched = Observed::new(&studio);
    let received = follow(studio.addr(), 0);

    let (mut a, mut b, mut c) = (Vec::new(), Vec::new(), Vec::new());
    for frame in 0..frames {
        // Each goes first in turn, so that none gains from the others' warm caches.
        for k in 0..3 {
            match (frame + k) % 3 {
                0 => a.push(plain.step_timing_ai()),
                1 => b.push(unwatched.think()),
                _ => c.push(watched.think()),
            }
        }
        // The game's frame rate: the server sends the followed dog's window meanwhile.
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(watched.agents[0].is_recording(), "the page follows dog#0");
    assert!(!watched.agents[1].is_recording());
    assert_eq!(plain.dogs().len(), DOGS);
    let share = |d: Duration| 100.0 * d.as_secs_f64() / FRAME.as_secs_f64();
    println!("{DOGS} Wild Dogs, AI pass per frame, median of {frames} frames (interleaved):");
    for (what, times) in [
        ("unobserved (NoopObserver)", a),
        ("a studio agent each, no page", b),
        ("a studio agent each, a page following dog#0", c),
    ] {
        let m = median(times);
        println!(
            "  {what:<46} {:>8.1} us = {:5.2}% of a 60 Hz frame",
            m.as_secs_f64() * 1e6,
            share(m)
        );
    }
    println!(
        "  (the page received {} KB; dog#0 dropped {} events)",
        received.load(std::sync::atomic::Ordering::Relaxed) / 1000,
        watched.agents[0].dropped_events()
    );
}
