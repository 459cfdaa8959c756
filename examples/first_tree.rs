//! A first tree: a guard who patrols, and drops everything to chase an intruder.
//! Prints every tick's status and what each leaf did.
//!
//! Run: `cargo run --example first_tree`
use behaved::prelude::*;

/// The guard's typed blackboard: a misspelt field is a compile error.
struct Guard {
    now: f64,
    intruder_seen: bool,
    position: i32,
    waypoint: usize,
}

impl Clock for Guard {
    fn now(&self) -> f64 {
        self.now
    }
}

/// Walks one step per tick towards a position; Running until there.
struct WalkTo(i32);

impl Action<Guard> for WalkTo {
    fn enter(&mut self, _: &mut Guard) {
        println!("      walk to {} begins", self.0);
    }
    fn tick(&mut self, g: &mut Guard) -> Status {
        g.position += (self.0 - g.position).signum();
        if g.position == self.0 {
            Status::Success
        } else {
            Status::Running
        }
    }
    fn halt(&mut self, g: &mut Guard) {
        println!("      walk to {} interrupted at {}", self.0, g.position);
    }
}

behave! {
    /// Chase intruders; otherwise patrol between two posts, resting at each.
    pub tree GuardBrain for Guard {
        reactive selector {
            // `reactive`: the condition is re-checked on every tick, so the
            // chase stops as soon as the intruder is gone.
            reactive sequence {
                cond(|g| g.intruder_seen),
                act(|_| { println!("      \"Halt! Who goes there?\""); Status::Running }),
            },
            loop {
                sequence {
                    WalkTo(0), act(|g| g.waypoint = 0), wait(1.0),
                    WalkTo(3), act(|g| g.waypoint = 1), wait(1.0),
                }
            },
        }
    }
}

fn main() {
    let mut brain = GuardBrain::new();
    let mut guard = Guard {
        now: 0.0,
        intruder_seen: false,
        position: 2,
        waypoint: 0,
    };
    for tick in 0..16 {
        guard.now = f64::from(tick) * 0.5;
        guard.intruder_seen = (7..9).contains(&tick);
        let status = brain.tick(&mut guard);
        println!(
            "tick {tick:2} t={:3.1}s  intruder={:5}  pos={}  last waypoint={}  -> {status}",
            guard.now, guard.intruder_seen, guard.position, guard.waypoint
        );
    }
    println!("\nThe tree, as the macro's node table sees it:");
    for node in GuardBrain::NODES {
        let depth = behaved::node::depth(GuardBrain::NODES, node.id);
        println!(
            "{:>3} {}{}  (line {})",
            node.id.0,
            "  ".repeat(depth),
            node.label,
            node.line
        );
    }
}
