//! Shared fixtures: a guard's world with scripted leaves, two guard trees and helpers.
#![allow(dead_code)]

use std::collections::BTreeMap;

use behaved::prelude::*;
use behaved_observe::NodeState;

/// The guard's world: a clock, two flags and the scripted result of each leaf.
#[derive(Debug, Default)]
pub struct World {
    pub now: f64,
    pub alarm: bool,
    pub tired: bool,
    pub results: BTreeMap<&'static str, Status>,
}

impl World {
    /// A world in which every leaf named in `leaves` succeeds.
    pub fn new(leaves: &[&'static str]) -> World {
        World {
            results: leaves.iter().map(|&l| (l, Status::Success)).collect(),
            ..World::default()
        }
    }

    /// Makes the leaf `name` return `status` from now on (never allocates:
    /// the leaf must have been named in [`World::new`]).
    pub fn set(&mut self, name: &str, status: Status) {
        *self.results.get_mut(name).expect("leaf named in World::new") = status;
    }
}

impl Clock for World {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An action that returns what the world's script says for its name.
#[derive(Debug, Clone, Copy)]
pub struct Act(pub &'static str);

impl Action<World> for Act {
    fn tick(&mut self, world: &mut World) -> Status {
        world.results[self.0]
    }
}

behave! {
    /// Chase while the alarm is on, otherwise walk, wait and look.
    pub tree Patrol for World {
        reactive selector {
            reactive sequence { cond(|w| w.alarm), Act("chase") },
            sequence { Act("walk"), wait(1.0), Act("look") },
        }
    }

    /// Endless rounds: walk, wait, look, scan twice.
    pub tree Rounds for World {
        loop { sequence { Act("walk"), wait(1.0), Act("look"), repeat(2) { Act("scan") } } }
    }

    /// A guard with every kind of switch: a reactive alarm branch with a
    /// parallel chase, a rest branch with retries, and the rounds as a subtree.
    pub tree Guard for World {
        reactive selector {
            reactive sequence {
                cond(|w| w.alarm),
                parallel(any) { Act("chase"), sequence { wait(2.0), Act("shout") } },
            },
            sequence { cond(|w| w.tired), retry(2) { invert { Act("rest") } } },
            subtree(Rounds),
        }
    }
}

behave! {
    /// The guard again, with the control-flow nodes: a reactive `if` with a
    /// timeout, a labelled `while` left by `break`, `abort_if`, `random`, `match`.
    pub tree Watch for World {
        reactive if |w| w.alarm {
            timeout(2.0) { Act("chase") }
        } else {
            'rounds: while |w| !w.tired {
                sequence {
                    Act("walk"),
                    abort_if(|w| w.alarm) { wait(1.0) },
                    random { Act("look"), Act("scan") },
                    match |w| w.results["shout"] {
                        Status::Failure => break 'rounds,
                        Status::Running => continue,
                        Status::Success => Act("rest"),
                    },
                }
            }
        }
    }
}

/// Ticks 1-3 of the Patrol scenario, seen by `observer`: tick 1 starts the
/// walk, tick 2 finishes it and starts the wait, tick 3 raises the alarm and
/// starts the chase. Returns the tree and its world as they are then.
pub fn patrol_three_ticks<O: Observer + ?Sized>(observer: &mut O) -> (Patrol, World) {
    let mut tree = Patrol::new();
    let mut world = World::new(LEAVES);
    world.set("walk", R);
    tree.tick_observed(&mut world, 0.0, observer);
    world.set("walk", S);
    tree.tick_observed(&mut world, 0.5, observer);
    world.alarm = true;
    world.set("chase", R);
    tree.tick_observed(&mut world, 1.0, observer);
    (tree, world)
}

/// Every leaf name the trees use.
pub const LEAVES: &[&str] = &["chase", "walk", "look", "scan", "shout", "rest"];

/// Shorthands for statuses.
pub const S: Status = Status::Success;
pub const F: Status = Status::Failure;
pub const R: Status = Status::Running;

/// Parses `"R F I S"` (running, failure, idle, success) into states.
pub fn states(text: &str) -> Vec<NodeState> {
    text.split_whitespace()
        .map(|s| match s {
            "I" => NodeState::Idle,
            "R" => NodeState::Running,
            "S" => NodeState::Success,
            "F" => NodeState::Failure,
            other => panic!("unknown state letter {other}"),
        })
        .collect()
}

/// A small deterministic random source (xorshift64*) for scripted runs.
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.max(1))
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
    }

    /// `true` with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A status: mostly Running, sometimes Success or Failure.
    pub fn status(&mut self) -> Status {
        match self.below(10) {
            0..=4 => Status::Running,
            5..=7 => Status::Success,
            _ => Status::Failure,
        }
    }
}

/// One step of a scripted run: new leaf results, flags and time.
pub fn shake(world: &mut World, dice: &mut Dice) {
    world.now += 0.25 * (1 + dice.below(4)) as f64;
    if dice.chance(10) {
        world.alarm = !world.alarm;
    }
    if dice.chance(5) {
        world.tired = !world.tired;
    }
    for &leaf in LEAVES {
        if dice.chance(30) {
            let status = dice.status();
            world.set(leaf, status);
        }
    }
}
