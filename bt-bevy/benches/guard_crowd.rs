//! A crowd of ADR-017's guards through the plugin, woken by Bevy's real
//! change detection (issue 26, item 7; BENCHMARKS.md, "A crowd of guards
//! that sleep on their inputs").
//!
//! Each guard is an entity with its `Post` (what its conditions read and
//! its actions write) and a `Behavior` running ADR-017's guard as a
//! continuous NPC: every branch keeps running (talking, standing at the
//! post, walking there, idling) until an input changes:
//!
//! ```text
//! reactive if quest { talk } else if night { reactive if at_post { stand } else { walk } }
//! else if bribe { talk } else { idle }
//! ```
//!
//! Each update a world system (before the trees) flips one condition input
//! of 1% of the guards, spread over the crowd. Forms, in the same run:
//!
//! - `world`: the same app and world system, the guards without a
//!   `Behavior` (the world's own cost);
//! - `sleeping`: the plugin's default marks (`mark_changes`);
//! - `filtered`: the plugin with `watch_changes::<Changed<Post>>()`;
//! - `every`: the plugin, every guard asking for a tick every frame.
//!
//! Compiled (`behave!`) and interpreted (JSON) trees, with cheap conditions
//! and with the first condition costing about 200 ns (a line-of-sight
//! stand-in). One compute thread and single-threaded schedules: one core.
//!
//! ```text
//! cargo bench -p behaved-bevy --bench guard_crowd            # 100,000 guards
//! GUARDS=10000 cargo bench -p behaved-bevy --bench guard_crowd
//! STRIDE=10 cargo bench -p behaved-bevy --bench guard_crowd      # one guard in 10 changed (10%)
//! CROWD=compiled/filtered cargo bench -p behaved-bevy --bench guard_crowd   # only the apps named so
//! ```
//!
//! `UPDATES=n` runs `n` updates of each app built instead of timing them
//! (`bt-bevy/benches/guard_crowd_callgrind.sh` counts their instructions).
//!
//! Criterion times one update per iteration; the medians are in
//! `target/criterion/guard_crowd_*/*/new/estimates.json`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use behaved::prelude::*;
use behaved_bevy::{
    Behavior, BehaviorClock, BehaviorPlugin, BehaviorSystems, Behaviors, Brain, NpcItem, Ticked, WorldItem,
};
use behaved_interp::{Agent, NoParams, Registry};
use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{Schedules, SingleThreadedExecutor};
use criterion::Criterion;

/// A guard's inputs and what his actions did.
#[derive(Component, Default, Clone)]
struct Post {
    quest: bool,
    night: bool,
    at_post: bool,
    bribe: bool,
    /// Ticks of his running actions.
    acts: u64,
}

impl Clock for Post {
    fn now(&self) -> f64 {
        0.0
    }
}

/// Spin iterations that take about 200 ns (calibrated at start).
static SPIN: AtomicU32 = AtomicU32::new(0);

fn spin(n: u32) -> u64 {
    let mut x = 0u64;
    for i in 0..n {
        x = black_box(x.wrapping_mul(6364136223846793005).wrapping_add(u64::from(i)));
    }
    x
}

/// A line-of-sight stand-in: about 200 ns, then `quest`.
fn sees(quest: bool) -> bool {
    black_box(spin(SPIN.load(Ordering::Relaxed)));
    quest
}

/// Sets `SPIN` so that `sees` takes about 200 ns on this machine.
fn calibrate() {
    let n = 100_000u32;
    let start = Instant::now();
    black_box(spin(n));
    let per = start.elapsed().as_secs_f64() * 1e9 / f64::from(n);
    SPIN.store((200.0 / per).round().max(1.0) as u32, Ordering::Relaxed);
}

/// A continuous action: Running until halted; nothing ends it by itself.
#[derive(Clone)]
struct Keep;

impl Action<Post> for Keep {
    fn tick(&mut self, post: &mut Post) -> Status {
        post.acts += 1;
        Status::Running
    }
    fn next_wake(&self, _: f64) -> Wake {
        Wake::Never
    }
}

behave! {
    /// ADR-017's guard, cheap conditions.
    tree Cheap for Post {
        reactive if |c| c.quest { Keep }
        else if |c| c.night { reactive if |c| c.at_post { Keep } else { Keep } }
        else if |c| c.bribe { Keep }
        else { Keep }
    }
}

behave! {
    /// The same guard, his first condition a 200 ns line of sight.
    tree Costly for Post {
        reactive if |c| sees(c.quest) { Keep }
        else if |c| c.night { reactive if |c| c.at_post { Keep } else { Keep } }
        else if |c| c.bribe { Keep }
        else { Keep }
    }
}

/// A condition of the interpreted guard: one field, declared as its input.
struct Field(&'static str, fn(&Post) -> bool);

impl Condition<Post> for Field {
    fn check(&self, post: &Post) -> bool {
        (self.1)(post)
    }
    fn reads(&self) -> Option<Reads> {
        Some(Reads::field(self.0))
    }
}

fn guard_json(first: &str) -> String {
    let cond = |name: &str| format!(r#"{{"type": "condition", "condition": "{name}"}}"#);
    let keep = r#"{"type": "action", "action": "keep"}"#;
    format!(
        r#"{{"type": "reactiveIf", "branches": [
            {{"if": {}, "then": {keep}}},
            {{"if": {}, "then": {{"type": "reactiveIf", "branches": [{{"if": {}, "then": {keep}}}], "else": {keep}}}}},
            {{"if": {}, "then": {keep}}}],
          "else": {keep}}}"#,
        cond(first),
        cond("night"),
        cond("at_post"),
        cond("bribe")
    )
}

fn interpreted(costly: bool) -> std::sync::Arc<behaved_interp::Definition<Post>> {
    let mut leaves = Registry::new();
    leaves
        .condition("quest", |_: NoParams| Field("quest", |p| p.quest))
        .condition("sees", |_: NoParams| Field("quest", |p| sees(p.quest)))
        .condition("night", |_: NoParams| Field("night", |p| p.night))
        .condition("at_post", |_: NoParams| Field("at_post", |p| p.at_post))
        .condition("bribe", |_: NoParams| Field("bribe", |p| p.bribe))
        .action("keep", |_: NoParams| Keep);
    leaves
        .load(&guard_json(if costly { "sees" } else { "quest" }))
        .expect("the guard's JSON loads")
}

/// A guard's brain: its tree, and whether it asks for every tick.
struct Guard<T> {
    tree: T,
    every: bool,
}

impl<T: Tree<Post> + Send + Sync + 'static> Brain for Guard<T> {
    type Npc = &'static mut Post;
    type World = ();
    type Choice = ();

    fn tick(&mut self, post: NpcItem<'_, '_, Self>, _: &WorldItem<'_, '_, Self>, now: f64) -> Ticked {
        let ticked = self.tree.step(post.into_inner(), now);
        if self.every {
            Ticked {
                status: ticked.status,
                wake: Wake::NextTick,
            }
        } else {
            ticked
        }
    }
}

/// The guards, the number of the next update, and one guard in how many
/// the world changes per update.
#[derive(Resource)]
struct Crowd {
    guards: Vec<Entity>,
    update: usize,
    stride: usize,
}

/// The world: flips one input of one guard in `stride` (1% by default), a
/// different one each update.
fn change_world(mut crowd: ResMut<Crowd>, mut posts: Query<&mut Post>) {
    let n = crowd.guards.len();
    let (update, stride) = (crowd.update, crowd.stride);
    crowd.update += 1;
    for j in (update % stride..n).step_by(stride) {
        if let Ok(mut post) = posts.get_mut(crowd.guards[j]) {
            match (j / stride + update) % 4 {
                0 => post.quest = !post.quest,
                1 => post.night = !post.night,
                2 => post.at_post = !post.at_post,
                _ => post.bribe = !post.bribe,
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Form {
    World,
    Sleeping,
    Filtered,
    Every,
}

fn app<T: Tree<Post> + Send + Sync + 'static>(guards: usize, form: Form, tree: &impl Fn() -> T) -> App {
    let mut app = App::new();
    let plugin = BehaviorPlugin::<Guard<T>>::default();
    let plugin = if form == Form::Filtered {
        plugin.watch_changes::<Changed<Post>>()
    } else {
        plugin
    };
    app.insert_resource(BehaviorClock::default())
        .add_plugins(plugin)
        .add_systems(Update, change_world.before(BehaviorSystems));
    let posts = (0..guards).map(|i| Post {
        night: i % 3 == 0,
        at_post: i % 2 == 0,
        ..Post::default()
    });
    let spawned: Vec<Entity> = if form == Form::World {
        app.world_mut().spawn_batch(posts).collect()
    } else {
        let every = form == Form::Every;
        let bundles: Vec<_> = posts
            .map(|p| (p, Behavior::continuous(Guard { tree: tree(), every })))
            .collect();
        app.world_mut().spawn_batch(bundles).collect()
    };
    let stride = std::env::var("STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100usize);
    app.insert_resource(Crowd {
        guards: spawned,
        update: 0,
        stride: stride.max(1),
    });
    app.update();
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }
    // A round of changes: every guard has been woken once.
    for _ in 0..=stride {
        app.update();
    }
    app
}

fn crowd<T: Tree<Post> + Send + Sync + 'static>(c: &mut Criterion, group: &str, tree: &impl Fn() -> T) {
    let guards = std::env::var("GUARDS")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(100_000);
    let mut g = c.benchmark_group(group);
    g.sample_size(20);
    for (name, form) in [
        ("world", Form::World),
        ("sleeping", Form::Sleeping),
        ("filtered", Form::Filtered),
        ("every", Form::Every),
    ] {
        // `CROWD=compiled/filtered` builds only the apps whose name contains it
        // (criterion's own filter still builds every app).
        if std::env::var("CROWD").is_ok_and(|only| !format!("{group}/{name}").contains(&only)) {
            continue;
        }
        let mut app = app(guards, form, tree);
        if let Some(n) = std::env::var("UPDATES").ok().and_then(|n| n.parse::<usize>().ok()) {
            // For callgrind (`guard_crowd_callgrind.sh`): `n` more updates, no timing.
            for _ in 0..n {
                app.update();
            }
            continue;
        }
        if form != Form::World {
            // What the form does: trees ticked per update (1% when only the changed ones are).
            let ticked = app.world().resource::<Behaviors<Guard<T>>>().last_frame().ticked;
            println!("{group}/{name}: {ticked} of {guards} guards ticked in the last update");
        }
        g.bench_function(name, |b| b.iter(|| app.update()));
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    bevy_tasks::ComputeTaskPool::get_or_init(|| bevy_tasks::TaskPoolBuilder::new().num_threads(1).build());
    calibrate();
    let (cheap, costly) = (interpreted(false), interpreted(true));
    crowd(c, "guard_crowd_compiled", &Cheap::new);
    crowd(c, "guard_crowd_interpreted", &|| Agent::new(cheap.clone()));
    crowd(c, "guard_crowd_compiled_200ns", &Costly::new);
    crowd(c, "guard_crowd_interpreted_200ns", &|| Agent::new(costly.clone()));
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2))
        .configure_from_args();
    benches(&mut c);
    c.final_summary();
}
