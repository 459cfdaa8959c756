//! A game under control from the live view: a thread whose loop passes
//! `Debugger::frame_gate` each frame, ticks the guard on every third frame
//! and records its own whole trace beside the studio's observer.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use behaved::prelude::*;
use behaved_observe::{Tee, Trace, TraceRecorder};

use super::guard::{Guard, Post};

/// The game's thread, seen from the test.
pub struct Game {
    /// The frames the game ran (passed its gate).
    pub frames: Arc<AtomicU64>,
    /// The guard's ticks (one every third frame).
    pub ticks: Arc<AtomicU64>,
    /// The game's own record of every tick of the guard.
    pub trace: Arc<Mutex<TraceRecorder>>,
    quit: Arc<AtomicBool>,
    done: Receiver<()>,
}

impl Game {
    /// Starts the game with the guard's observer and the studio's debugger.
    pub fn start(mut observer: behaved_studio::ObservedAgent, debugger: behaved_studio::Debugger) -> Game {
        let frames = Arc::new(AtomicU64::new(0));
        let ticks = Arc::new(AtomicU64::new(0));
        let quit = Arc::new(AtomicBool::new(false));
        let trace = Arc::new(Mutex::new(TraceRecorder::new(Guard::NODES, 1_000_000).unwrap()));
        let (finished, done) = channel();
        let game = (
            Arc::clone(&frames),
            Arc::clone(&ticks),
            Arc::clone(&quit),
            Arc::clone(&trace),
        );
        std::thread::spawn(move || {
            let (frames, ticks, quit, trace) = game;
            let mut tree = Guard::new();
            let mut post = Post::at_start();
            while !quit.load(Ordering::SeqCst) {
                debugger.frame_gate();
                let frame = frames.fetch_add(1, Ordering::SeqCst) + 1;
                if frame % 3 == 0 {
                    let tick = ticks.fetch_add(1, Ordering::SeqCst) as u32 + 1;
                    let now = post.patrol_tick(tick);
                    let mut own = trace.lock().unwrap();
                    let mut both = Tee(&mut observer, &mut *own);
                    tree.tick_observed(&mut post, now, &mut both);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            finished.send(()).unwrap();
        });
        Game {
            frames,
            ticks,
            trace,
            quit,
            done,
        }
    }

    /// The frames run so far.
    pub fn frames(&self) -> u64 {
        self.frames.load(Ordering::SeqCst)
    }

    /// The game's own trace of the guard.
    pub fn trace(&self) -> Trace {
        self.trace.lock().unwrap().trace()
    }

    /// Waits until the game has run `more` frames beyond now (it runs free), then ends it.
    pub fn runs_on_then_quits(self, more: u64) {
        let from = self.frames();
        let mut waited = 0;
        while self.frames() < from + more {
            std::thread::sleep(Duration::from_millis(10));
            waited += 1;
            assert!(waited < 2000, "the game never ran again");
        }
        self.quit.store(true, Ordering::SeqCst);
        self.done.recv_timeout(Duration::from_secs(20)).unwrap();
    }
}
