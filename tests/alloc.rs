//! Ticking never allocates: a counting global allocator watches 10,000 ticks
//! (and resets) of trees that use every node of the catalogue, every hook, a
//! parallel, a subtree, a dynamic subtree (`reactive match`) and async
//! actions with named futures (stored inline; a boxed future's one
//! allocation per start is counted in `tests/async_actions.rs`). Every kind
//! comes from `tests/trees/catalogue.json`, the file both forms are compared
//! on, so a new kind needs no case here; the trees written in the DSL add
//! its closures, `async` leaves and labelled loops.
use behaved::prelude::*;
use serde::Deserialize;

#[global_allocator]
static ALLOCATOR: behaved_testkit::Counting = behaved_testkit::Counting;

/// A context whose leaves change outcome with the tick number.
struct Ctx {
    now: f64,
    tick: u32,
    work: u64,
}

impl Clock for Ctx {
    fn now(&self) -> f64 {
        self.now
    }
}

/// An action that runs for a few ticks, then succeeds or fails.
struct Busy(u32);

impl Action<Ctx> for Busy {
    fn enter(&mut self, ctx: &mut Ctx) {
        ctx.work += 1;
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        match (ctx.tick + self.0) % 5 {
            0 => Status::Success,
            1 => Status::Failure,
            _ => Status::Running,
        }
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.work += 100;
    }
}

/// An async action whose future is named (`Task::Future`): it lives inline
/// in the tree, so starting, polling and cancelling it allocate nothing.
struct Ask(u32);

/// Pending until the tick says it is done.
struct Answer {
    ready_at: u32,
}

impl Future for Answer {
    type Output = bool;
    fn poll(self: std::pin::Pin<&mut Self>, _: &mut std::task::Context<'_>) -> std::task::Poll<bool> {
        if self.ready_at == 0 {
            std::task::Poll::Ready(true)
        } else {
            self.get_mut().ready_at -= 1;
            std::task::Poll::Pending
        }
    }
}

impl Task for Ask {
    type Future = Answer;
}

impl AsyncAction<Ctx> for Ask {
    fn start(&mut self, ctx: &mut Ctx) -> Answer {
        ctx.work += 1;
        Answer {
            ready_at: (ctx.tick + self.0) % 3,
        }
    }
    fn finish(&mut self, _: &mut Ctx, ok: bool) -> Status {
        Status::from(ok)
    }
    fn cancelled(&mut self, ctx: &mut Ctx) {
        ctx.work += 100;
    }
}

behave! {
    tree Patrol for Ctx {
        reactive selector { cond(|c| c.tick % 7 == 0), sequence { Busy(1), wait(0.5), Busy(2) } }
    }
    tree Everything for Ctx {
        loop {
            parallel(success = 2, failure = 2) {
                reactive sequence { cond(|c| c.tick % 3 != 0), Busy(3) },
                selector { invert { Busy(4) }, force_failure { Busy(5) }, force_success { running } },
                repeat(2) { retry(2) { Busy(6) } },
                until_fail { until_success { Busy(7) } },
                parallel(main) { Busy(8), loop { Busy(9) } },
                subtree(Patrol),
            }
        }
    }
}

/// A leaf of `tests/trees/catalogue.json` on `Ctx`: an action (as `Busy`),
/// a condition and a consideration, whose outcome moves with the tick and
/// its name, allocating nothing.
#[derive(Clone, Deserialize)]
struct Scripted {
    /// `name`, or a note's `text`.
    #[serde(default, alias = "text")]
    name: String,
    /// A favoured item.
    #[serde(default)]
    item: u32,
}

impl Scripted {
    /// How far this leaf's outcomes are shifted from another's.
    fn offset(&self) -> u32 {
        self.name.len() as u32 + self.item
    }
    fn roll(&self, ctx: &Ctx) -> u32 {
        ctx.tick + self.offset()
    }
}

impl Action<Ctx> for Scripted {
    fn enter(&mut self, ctx: &mut Ctx) {
        ctx.work += 1;
    }
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        Busy(self.offset()).tick(ctx)
    }
    fn halt(&mut self, ctx: &mut Ctx) {
        ctx.work += 100;
    }
}

impl Condition<Ctx> for Scripted {
    fn check(&self, ctx: &Ctx) -> bool {
        !self.roll(ctx).is_multiple_of(3)
    }
}

impl Consideration<Ctx> for Scripted {
    fn score(&self, ctx: &Ctx) -> f32 {
        (self.roll(ctx) % 10) as f32 / 10.0
    }
}

/// A consideration of the file without parameters.
struct Phase;

impl Consideration<Ctx> for Phase {
    fn score(&self, ctx: &Ctx) -> f32 {
        (ctx.tick % 7) as f32 / 7.0
    }
}

/// The file's list: the numbers below `count`.
#[derive(Deserialize)]
struct UpTo {
    count: u32,
}

impl ItemList<Ctx> for UpTo {
    type Item = u32;
    fn items<'c>(&'c self, _: &'c Ctx) -> impl Iterator<Item = u32> + 'c {
        0..self.count
    }
    fn select(&self, ctx: &mut Ctx, item: &u32) {
        ctx.work += u64::from(*item);
    }
}

behave! {
    tree Idle for Ctx = json("tests/trees/idle.json") { "rec" => Scripted }
    /// Every kind of the catalogue.
    tree FromFile for Ctx = json("tests/trees/catalogue.json") {
        "rec" => Scripted,
        "check" => Scripted,
        "note" => Scripted,
        "mode" => |c: &Ctx| ["patrol", "play", "rest", "count", "choose"][(c.tick / 20 % 5) as usize],
        "upTo" => UpTo,
        "idle" => Idle,
        "level" => Scripted,
        "noise" => Phase,
        "appeal" => Phase,
        "favour" => Scripted,
        "closeness" => |c: &Ctx| (c.tick % 4) as f32 / 4.0,
    }
}

behave! {
    tree Catalogue for Ctx {
        'outer: loop {
            scope {
                let seen: u32 = 0;
                #[on_enter(|c| c.work += 1)]
                #[on_exit(|c| c.work += 1)]
                reactive selector {
                    reactive if |c| c.tick % 11 == 0 { Busy(10) } else { failure },
                    match |c| c.tick % 4 {
                        0 => random { Busy(11), timeout(0.3) { Busy(12) } },
                        1 => weighted { 3 => delay(0.2) { Busy(13) }, 1 => cooldown(0.5) { Busy(14) } },
                        2 => shuffle { limit(1000) { Busy(15) }, run_once { Busy(16) } },
                        _ => abort_if(|c| c.tick % 13 == 0) { Busy(17) },
                    },
                    utility(reactive, margin = 0.1) {
                        |c| (c.tick % 5) as f32 / 5.0 => Busy(22),
                        all((
                            Curve::Logistic { steepness: 4.0, midpoint: 0.5 }.of(|c: &Ctx| (c.tick % 3) as f32 / 3.0),
                            |c: &Ctx| (c.tick % 7) as f32 / 7.0,
                        )).weight(1.5) => Busy(23),
                    },
                    utility(every = 0.3, margin = 0.1) {
                        |c| (c.tick % 4) as f32 / 4.0 => Busy(26),
                        |c| (c.tick % 3) as f32 / 3.0 => Busy(27),
                    },
                    utility(weighted, best = 2) {
                        |c| (c.tick % 2) as f32 => Busy(24),
                        |c| 1.0 - (c.tick % 3) as f32 / 3.0 => Busy(25),
                        |_| 0.5 => failure,
                    },
                    pick t: u32 in |c| 0..c.tick % 4 max 3 by |c, t| ((c.tick + *t) % 3) as f32 {
                        if |_| *t == 1 { Busy(28) } else { Busy(29) }
                    },
                    for t: u32 in |c| (0..c.tick % 5).map(|k| k * 2) max 3 {
                        if |_| *t == 2 { continue } else { Busy(20) }
                    },
                    #[on_pre_tick(|c| c.work += 1)]
                    #[on_tick(|c| c.work += 1)]
                    #[on_reset(|c| c.work += 1)]
                    sequence_always {
                        success,
                        latch(|c| c.tick % 6 == 0) { Busy(19) },
                        wait_until(|c| c.tick % 9 == 0),
                        act(async Ask(20)),
                    },
                    reactive match |c| c.tick % 8 < 3 {
                        true => subtree(Patrol),
                        false => act(async Ask(21)),
                    },
                    while |c| c.tick % 5 != 0 {
                        sequence {
                            act(|_| *seen += 1),
                            if |c| c.tick % 17 == 0 { break 'outer } else if |_| *seen > 3 { continue } else { Busy(18) },
                        }
                    },
                }
            }
        }
    }
}

/// `tests/trees/catalogue.json` has every kind of the catalogue (a new kind
/// fails here and in `tests/json_catalogue.rs` until it does).
#[test]
fn the_trees_use_every_kind() {
    let used: Vec<behaved::NodeKind> = FromFile::NODES.iter().map(|n| n.kind).collect();
    let missing: Vec<&str> = behaved::NodeKind::ALL
        .iter()
        .filter(|k| !used.contains(k))
        .map(|k| k.dsl_name())
        .collect();
    assert!(
        missing.is_empty(),
        "tests/trees/catalogue.json has no {missing:?} node: add one (every kind of the catalogue is ticked here)"
    );
}

#[test]
fn ten_thousand_ticks_allocate_nothing() {
    let mut trees = [Everything::new(), Everything::with_seed(7)];
    let mut patrol = Patrol::new();
    let mut catalogue = Catalogue::with_seed(3);
    let mut from_file = FromFile::with_seed(5);
    let mut ctx = Ctx {
        now: 0.0,
        tick: 0,
        work: 0,
    };
    let mut running = 0u32;
    let allocations = behaved_testkit::allocations_during(|| {
        for tick in 0..10_000 {
            ctx.tick = tick;
            ctx.now = f64::from(tick) * 0.1;
            for tree in &mut trees {
                running += u32::from(tree.tick(&mut ctx) == Status::Running);
            }
            let _ = patrol.tick(&mut ctx);
            let _ = catalogue.tick(&mut ctx);
            let _ = from_file.tick(&mut ctx);
            if tick % 1000 == 999 {
                trees[0].reset(&mut ctx);
                catalogue.reset(&mut ctx);
                from_file.reset(&mut ctx);
            }
        }
    });
    assert_eq!(allocations, 0);
    assert_eq!(running, 20_000, "the looping trees never complete");
    assert!(ctx.work > 10_000, "the leaves really ran and were halted: {}", ctx.work);
}
