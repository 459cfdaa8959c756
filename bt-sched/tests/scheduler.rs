//! The scheduler: who is ticked on which frame.
#![allow(missing_docs)]

use behaved::prelude::*;
use behaved_sched::{Budget, Config, Error, Scheduler};

/// A world shared by every agent of a test.
#[derive(Default)]
struct World {
    now: f64,
    /// (frame, agent) per tick of an action leaf.
    log: Vec<(u64, u64)>,
    frame: u64,
    me: u64,
}

impl Clock for World {
    fn now(&self) -> f64 {
        self.now
    }
}

behave! {
    /// Works one tick, then naps for a second; forever.
    tree Napper for World { loop { sequence { act(|w| { let e = (w.frame, w.me); w.log.push(e); }), wait(1.0) } } }
}

behave! {
    /// Busy on every tick (an inline action: always due).
    tree Busy for World { act(|w| { let e = (w.frame, w.me); w.log.push(e); Status::Running }) }
}

behave! {
    /// Works once, then waits for an event (`running` never wakes by itself).
    tree Idler for World { sequence { act(|w| { let e = (w.frame, w.me); w.log.push(e); }), running } }
}

/// The agents of the tests: compiled trees of three kinds, or interpreted.
enum Npc {
    Napper(Napper),
    Busy(Busy),
    Idler(Idler),
    Json(behaved_interp::Agent<World>),
}

impl Npc {
    fn step(&mut self, world: &mut World, now: f64) -> Wake {
        match self {
            Npc::Napper(t) => t.step(world, now).wake,
            Npc::Busy(t) => t.step(world, now).wake,
            Npc::Idler(t) => t.step(world, now).wake,
            Npc::Json(a) => a.step(world, now).wake,
        }
    }
}

const DT: f64 = 1.0 / 60.0;

/// Moves `world` to the scheduler's next frame; returns the frame's time.
fn start_frame(sched: &Scheduler<Npc>, world: &mut World) -> f64 {
    let frame = sched.next_frame();
    let now = frame as f64 * DT;
    world.now = now;
    world.frame = frame;
    now
}

fn run(sched: &mut Scheduler<Npc>, world: &mut World, frames: u64) {
    for _ in 0..frames {
        let now = start_frame(sched, world);
        sched.frame(now, |id, npc| {
            world.me = id;
            npc.step(world, now)
        });
    }
}

fn json_napper() -> behaved_interp::Agent<World> {
    #[derive(Clone)]
    struct Work;
    impl Action<World> for Work {
        fn tick(&mut self, w: &mut World) -> Status {
            let e = (w.frame, w.me);
            w.log.push(e);
            Status::Success
        }
    }
    let mut leaves = behaved_interp::Registry::new();
    leaves.action("work", |_: behaved_interp::NoParams| Work);
    let def = leaves
        .load(r#"{"type": "loop", "child": {"type": "sequence", "children": [{"type": "action", "action": "work"}, {"type": "wait", "seconds": 1.0}]}}"#)
        .unwrap();
    behaved_interp::Agent::new(def)
}

#[test]
fn a_napping_agent_is_ticked_only_when_its_nap_ends() {
    for npc in [Npc::Napper(Napper::new()), Npc::Json(json_napper())] {
        let mut sched = Scheduler::new(Config::default()).unwrap();
        sched.insert(7, npc, 0).unwrap();
        let mut world = World::default();
        run(&mut sched, &mut world, 200);
        let frames: Vec<u64> = world.log.iter().map(|&(f, _)| f).collect();
        // Works at 0, naps until 1 s (frame 60), where the nap ends and the
        // next iteration works and naps again in the same tick.
        assert_eq!(frames, [0, 60, 120, 180]);
    }
}

#[test]
fn levels_of_detail_tick_every_nth_frame_spread_over_the_phases() {
    let config = Config {
        intervals: vec![1, 8],
        ..Config::default()
    };
    let mut sched = Scheduler::new(config).unwrap();
    for id in 0..800 {
        sched.insert(id, Npc::Busy(Busy::new()), 1).unwrap();
    }
    let mut world = World::default();
    run(&mut sched, &mut world, 64);
    let mut per_frame = [0usize; 64];
    let mut first = std::collections::HashMap::new();
    for &(frame, id) in &world.log {
        per_frame[frame as usize] += 1;
        let phase = *first.entry(id).or_insert(frame);
        assert!(
            phase < 8 && frame % 8 == phase,
            "agent {id} ticked on frame {frame}, phase {phase}"
        );
    }
    assert_eq!(world.log.len(), 800 * 8, "every agent every 8th frame");
    let (lo, hi) = (per_frame.iter().min().unwrap(), per_frame.iter().max().unwrap());
    assert!(*lo >= 60 && *hi <= 140, "spread over the phases: {lo}..{hi} per frame");
}

#[test]
fn a_tick_budget_carries_the_rest_over_round_robin() {
    let config = Config {
        budget: Budget::Ticks(30),
        ..Config::default()
    };
    let mut sched = Scheduler::new(config).unwrap();
    for id in 0..100 {
        sched.insert(id, Npc::Busy(Busy::new()), 0).unwrap();
    }
    let mut world = World::default();
    let mut backlogs = Vec::new();
    for _ in 0..10 {
        let frame = sched.next_frame();
        world.frame = frame;
        let stats = sched.frame(frame as f64 * DT, |id, npc| {
            world.me = id;
            npc.step(&mut world, 0.0)
        });
        assert_eq!(stats.ticked, 30);
        backlogs.push(stats.backlog);
    }
    assert_eq!(backlogs[0], 70, "the first frame leaves 70 for later");
    let mut ticks = [0u32; 100];
    for &(_, id) in &world.log {
        ticks[id as usize] += 1;
    }
    assert_eq!(ticks, [3; 100], "300 ticks shared evenly: nobody starves");
}

#[test]
fn a_parked_agent_waits_for_its_event() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    sched.insert(1, Npc::Idler(Idler::new()), 0).unwrap();
    sched.insert(2, Npc::Busy(Busy::new()), 0).unwrap();
    let mut world = World::default();
    run(&mut sched, &mut world, 10);
    let idler: Vec<u64> = world.log.iter().filter(|e| e.1 == 1).map(|e| e.0).collect();
    assert_eq!(idler, [0], "ticked once, then parked");
    sched.wake(1).unwrap();
    world.log.clear();
    run(&mut sched, &mut world, 5);
    let stats = sched.frame(1.0, |_, _| Wake::NextTick);
    assert_eq!(stats.parked, 1);
    // Woken: ticked on the next frame; its sequence resumes at `running`, so no log.
    assert!(world.log.iter().all(|e| e.1 == 2));
    assert_eq!(sched.wake(99), Err(Error::Unknown(99)));
}

#[test]
fn mistakes_are_errors() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    sched.insert(1, (), 0).unwrap();
    assert_eq!(sched.insert(1, (), 0), Err(Error::Duplicate(1)));
    assert_eq!(sched.insert(2, (), 3), Err(Error::Level { level: 3, levels: 1 }));
    assert_eq!(sched.set_level(1, 1), Err(Error::Level { level: 1, levels: 1 }));
    assert_eq!(sched.remove(5), Err(Error::Unknown(5)));
    for (config, why) in [
        (
            Config {
                intervals: vec![],
                ..Config::default()
            },
            "levels",
        ),
        (
            Config {
                intervals: vec![1, 0],
                ..Config::default()
            },
            "interval",
        ),
        (
            Config {
                resolution: 0.0,
                ..Config::default()
            },
            "resolution",
        ),
        (
            Config {
                slots: 0,
                ..Config::default()
            },
            "slot",
        ),
        (
            Config {
                budget: Budget::Ticks(0),
                ..Config::default()
            },
            "budget",
        ),
    ] {
        let err = Scheduler::<()>::new(config).unwrap_err();
        assert!(err.to_string().contains(why), "{err}");
    }
}

#[test]
fn removing_an_agent_keeps_the_others_on_schedule() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..4 {
        sched.insert(id, Npc::Napper(Napper::new()), 0).unwrap();
    }
    let mut world = World::default();
    run(&mut sched, &mut world, 30);
    assert!(matches!(sched.remove(1), Ok(Npc::Napper(_))));
    assert_eq!(sched.len(), 3);
    world.log.clear();
    run(&mut sched, &mut world, 100);
    let mut ticks: Vec<(u64, u64)> = world.log.iter().map(|&(f, id)| (id, f)).collect();
    ticks.sort();
    // Agent 3 moved into 1's place: one early tick (its nap goes on, no
    // log), then all three work when their naps end, as before.
    assert_eq!(ticks, [(0, 60), (0, 120), (2, 60), (2, 120), (3, 60), (3, 120)]);
}

/// Everything at once, twice: the same inputs give the same ticks.
fn busy_run() -> Vec<(u64, u64)> {
    busy_run_with(run)
}

/// [`run`] through `batch` and `finish`: the due agents listed first, ticked
/// afterwards (as an ECS does), their wakes handed back.
fn run_batched(sched: &mut Scheduler<Npc>, world: &mut World, frames: u64) {
    for _ in 0..frames {
        let now = start_frame(sched, world);
        let batch = sched.batch(now);
        let ids: Vec<u64> = batch.iter().map(|(id, _)| id).collect();
        let mut wakes = std::collections::HashMap::new();
        batch.finish(|id, npc| {
            world.me = id;
            let wake = npc.step(world, now);
            wakes.insert(id, wake);
            wake
        });
        assert_eq!(wakes.len(), ids.len());
    }
}

fn busy_run_with(run: fn(&mut Scheduler<Npc>, &mut World, u64)) -> Vec<(u64, u64)> {
    let config = Config {
        intervals: vec![1, 3, 8],
        budget: Budget::Ticks(40),
        ..Config::default()
    };
    let mut sched = Scheduler::new(config).unwrap();
    let mut world = World::default();
    for id in 0..120u64 {
        let npc = match id % 4 {
            0 => Npc::Napper(Napper::new()),
            1 => Npc::Busy(Busy::new()),
            2 => Npc::Idler(Idler::new()),
            _ => Npc::Json(json_napper()),
        };
        sched.insert(id * 7919, npc, (id % 3) as u8).unwrap();
    }
    for round in 0..20u64 {
        run(&mut sched, &mut world, 10);
        sched.wake((round * 13 % 120) * 7919).unwrap();
        sched.set_level((round * 29 % 120) * 7919, (round % 3) as u8).unwrap();
        if round % 5 == 4 {
            let gone = (round * 31 % 120) * 7919;
            if sched.remove(gone).is_ok() {
                sched.insert(gone + 1, Npc::Napper(Napper::new()), 1).unwrap();
            }
        }
    }
    world.log
}

#[test]
fn two_runs_give_identical_tick_logs() {
    let (a, b) = (busy_run(), busy_run());
    assert!(a.len() > 2000, "a busy run: {} ticks", a.len());
    assert_eq!(a, b);
}

#[test]
fn a_removed_sleepers_timer_does_not_tick_the_agent_that_takes_its_place() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    sched.insert(1, Npc::Napper(Napper::new()), 0).unwrap();
    let mut world = World::default();
    run(&mut sched, &mut world, 10);
    // 1 sleeps until frame 60; another napper takes its index at frame 10
    // and sleeps until frame 70: 1's timer must not tick it at 60.
    assert!(matches!(sched.remove(1), Ok(Npc::Napper(_))));
    sched.insert(2, Npc::Napper(Napper::new()), 0).unwrap();
    let mut ticks = Vec::new();
    for _ in 0..100 {
        let frame = sched.next_frame();
        let now = frame as f64 * DT;
        world.now = now;
        sched.frame(now, |id, npc| {
            ticks.push((frame, id));
            npc.step(&mut world, now)
        });
    }
    assert_eq!(ticks, [(10, 2), (70, 2)], "its own wakes only");
}

#[test]
fn a_batch_ticks_the_same_agents_in_the_same_order_as_frame() {
    let (a, b) = (busy_run(), busy_run_with(run_batched));
    assert!(a.len() > 2000, "a busy run: {} ticks", a.len());
    assert_eq!(a, b);
}

#[test]
fn a_batch_dropped_unfinished_leaves_its_agents_due() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..3 {
        sched.insert(id, (), 0).unwrap();
    }
    let batch = sched.batch(0.0);
    assert_eq!(batch.iter().map(|(id, _)| id).collect::<Vec<_>>(), [0, 1, 2]);
    drop(batch);
    let batch = sched.batch(DT);
    assert_eq!(batch.len(), 3, "still due");
    let stats = batch.finish(|id, _| if id == 1 { Wake::Never } else { Wake::At(1.0) });
    assert_eq!((stats.ticked, stats.sleeping, stats.parked), (3, 2, 1));
    assert!(sched.batch(2.0 * DT).is_empty());
}

#[test]
fn set_wake_puts_an_agent_to_sleep_from_outside() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    sched.insert(1, Npc::Busy(Busy::new()), 0).unwrap();
    sched.insert(2, Npc::Busy(Busy::new()), 0).unwrap();
    // 2's first tick spread to 0.5 s (frame 30).
    sched.set_wake(2, Wake::At(0.5), 0.0).unwrap();
    let mut world = World::default();
    run(&mut sched, &mut world, 32);
    let twos: Vec<u64> = world.log.iter().filter(|e| e.1 == 2).map(|e| e.0).collect();
    assert_eq!(twos, [30, 31]);
    assert_eq!(world.log.iter().filter(|e| e.1 == 1).count(), 32);
    assert_eq!(sched.set_wake(9, Wake::Never, 0.0), Err(Error::Unknown(9)));
}

#[test]
fn agents_due_every_frame_are_counted_as_waiting_not_as_backlog() {
    let mut sched = Scheduler::new(Config::default()).unwrap();
    for id in 0..3 {
        sched.insert(id, Npc::Busy(Busy::new()), 0).unwrap();
    }
    sched.insert(3, Npc::Napper(Napper::new()), 0).unwrap();
    let mut world = World::default();
    for frame in 0..3u64 {
        let now = frame as f64 * DT;
        let stats = sched.frame(now, |id, npc| {
            world.me = id;
            npc.step(&mut world, now)
        });
        let ticked = if frame == 0 { 4 } else { 3 };
        assert_eq!(
            (stats.ticked, stats.backlog, stats.waiting, stats.sleeping),
            (ticked, 0, 3, 1)
        );
    }
}

#[test]
fn a_slot_wakes_its_agent_after_others_moved_and_names_nobody_once_removed() {
    use behaved_sched::{Reads, Wake};
    let mut sched: Scheduler<u64> = Scheduler::new(Config::default()).unwrap();
    for id in 0..5 {
        sched.insert(id, id, 0).unwrap();
    }
    let slot = sched.slot(4).unwrap();
    assert_eq!(slot.id(), 4);
    let watch = Wake::Watch {
        reads: Reads::field("night"),
        at: f64::INFINITY,
    };
    assert_eq!(sched.watching(), 0);
    assert_eq!(sched.frame(0.0, |_, _| watch).ticked, 5);
    assert_eq!(sched.watching(), 5);
    // Agent 4 (the last) moves into agent 0's place.
    sched.remove(0).unwrap();
    sched.frame(0.1, |_, _| watch);
    assert_eq!(sched.frame(0.2, |_, _| watch).ticked, 0, "all watching");
    assert_eq!(
        sched.changed_slot(slot, Reads::field("noise")),
        Ok(false),
        "not what it watches"
    );
    assert_eq!(sched.watching(), 4, "the removed one watched");
    assert_eq!(sched.changed_slot(slot, Reads::field("night")), Ok(true));
    assert_eq!(sched.watching(), 3, "woken: it watches no more");
    let mut ticked = Vec::new();
    sched.frame(0.3, |id, _| {
        ticked.push(id);
        watch
    });
    assert_eq!(ticked, [4], "the slot still names agent 4 in its new place");
    assert_eq!(sched.watching(), 4);
    sched.set_wake_slot(slot, Wake::Never, 0.3).unwrap();
    assert_eq!(sched.watching(), 3, "parked with no watch");
    sched.wake_slot(slot).unwrap();
    ticked.clear();
    sched.frame(0.4, |id, _| {
        ticked.push(id);
        watch
    });
    assert_eq!(ticked, [4]);
    // Removed: its handle goes to the next agent, which the old slot never reaches.
    sched.remove(4).unwrap();
    sched.insert(9, 9, 0).unwrap();
    assert_eq!(sched.wake_slot(slot), Err(Error::Unknown(4)));
    assert_eq!(sched.changed_slot(slot, Reads::ALL), Err(Error::Unknown(4)));
    let nine = sched.slot(9).unwrap();
    assert_ne!(nine, slot);
    assert!(sched.slot(4).is_none());
}
