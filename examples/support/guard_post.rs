//! The guard of `examples/debug_trace.rs`: its post, leaves and tree. Shared
//! with behaved-studio's tests (`bt-studio/tests/common`), which replay,
//! serve and edit this very guard, so that they test the example's tree and
//! not a copy of it.
#![allow(dead_code)]

use behaved::prelude::*;

/// The guard's post: a line from the gate (0 m) to the tower (6 m); by
/// default at time 0, the guard at the gate, no intruder, no alarm.
#[derive(Default)]
pub struct Post {
    /// The time of the tick.
    pub now: f64,
    /// Where the guard stands, in metres from the gate.
    pub guard: f64,
    /// Where the intruder is, if there is one.
    pub intruder: Option<f64>,
    /// Alarms raised so far.
    pub alarms: u32,
}

impl Post {
    /// The post at time 0: the guard at 0, no intruder, no alarm.
    pub fn at_start() -> Post {
        Post::default()
    }

    /// Moves the post to tick `tick` of a long patrol, ticks half a second
    /// apart, an intruder appearing at 7.5 metres (behind the tower, out of
    /// sight until the guard comes back) on the 10th tick of every 24: the
    /// time now.
    pub fn patrol_tick(&mut self, tick: u32) -> f64 {
        self.now = f64::from(tick) * 0.5;
        if tick % 24 == 10 {
            self.intruder = Some(7.5);
        }
        self.now
    }

    /// What behaved-studio shows next to the tree: the post's values after a tick.
    pub fn watched(&self) -> serde_json::Value {
        serde_json::json!({ "guard_at": self.guard, "intruder_at": self.intruder, "alarms": self.alarms })
    }

    /// The guard sees an intruder within 3 m.
    fn sees_intruder(&self) -> bool {
        self.intruder.is_some_and(|at| (at - self.guard).abs() <= 3.0)
    }
}

impl Clock for Post {
    fn now(&self) -> f64 {
        self.now
    }
}

/// Walks towards a point, one metre per tick; succeeds on arrival.
struct WalkTo(f64);

impl Action<Post> for WalkTo {
    fn tick(&mut self, post: &mut Post) -> Status {
        post.guard += (self.0 - post.guard).clamp(-1.0, 1.0);
        if post.guard == self.0 {
            Status::Success
        } else {
            Status::Running
        }
    }
}

/// Runs at the intruder, two metres per tick; succeeds when caught.
struct Chase;

impl Action<Post> for Chase {
    fn tick(&mut self, post: &mut Post) -> Status {
        let Some(at) = post.intruder else {
            return Status::Failure;
        };
        post.guard += (at - post.guard).clamp(-2.0, 2.0);
        if post.guard == at {
            post.intruder = None;
            Status::Success
        } else {
            Status::Running
        }
    }
}

behave! {
    /// Patrols between gate and tower, looking around at each; an intruder
    /// in sight interrupts the patrol until caught.
    pub tree Guard for Post {
        reactive selector {
            reactive sequence { cond(|p| p.sees_intruder()), Chase, act(|p| p.alarms += 1) },
            loop { sequence { WalkTo(6.0), wait(1.0), WalkTo(0.0), wait(1.0) } },
        }
    }
}
