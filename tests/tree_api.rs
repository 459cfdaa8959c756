//! The generated struct's API: constructors, `run` (on-interaction mode), the
//! node table, subtrees on a part of the context, contexts with lifetimes,
//! auto traits and the size of the control state.
use behaved::prelude::*;
use behaved_testkit::script::*;

/// The Wild Dog's shape with unit leaves: its control state must be tiny.
struct Find;
impl Action<Ctx> for Find {
    fn tick(&mut self, _: &mut Ctx) -> Status {
        Status::Success
    }
}

const TABLE_LINE: u32 = line!() + 3;
behave! {
    /// The Wild Dog of ADR-012, with stand-in leaves.
    pub tree Dog for Ctx {
        loop {
            sequence { Find, Find, Rec("move"), Find, Find, wait(1.0) }
        }
    }
    /// Greets, then waits a second.
    pub tree Pause for Ctx { sequence { Rec("hello"), wait(1.0) } }
    /// Talks until told to stop.
    pub tree Talk for Ctx { sequence { Rec("hello"), Rec("chat") } }
}

#[test]
fn run_ticks_to_completion_or_to_the_limit_without_halting() {
    let (mut t, mut c) = (Talk::new(), Ctx::new());
    assert_eq!(t.run(&mut c, 10), Run::Completed(S));
    assert_eq!(c.take(), log(&["enter hello", "hello", "enter chat", "chat"]));
    c.set("chat", R);
    assert_eq!(t.run(&mut c, 3), Run::TickLimit);
    assert_eq!(Run::TickLimit.status(), R);
    assert_eq!(
        c.take(),
        log(&["enter hello", "hello", "enter chat", "chat", "chat", "chat"]),
        "nothing halted"
    );
    c.set("chat", F);
    assert_eq!(t.run(&mut c, 3), Run::Completed(F));
    assert_eq!(c.take(), log(&["chat"]), "the next call goes on where the last stopped");
}

/// `SEMANTICS.md#run`: `run` reads the clock but never moves it, so a `wait`
/// cannot complete within one call; the next call, at a later time, goes on.
#[test]
fn run_never_advances_time_so_a_wait_completes_only_in_a_later_call() {
    let (mut t, mut c) = (Pause::new(), Ctx::new());
    assert_eq!(t.run(&mut c, 100), Run::TickLimit);
    assert_eq!(c.take(), log(&["enter hello", "hello"]));
    c.now = 1.0;
    assert_eq!(t.run(&mut c, 100), Run::Completed(S));
    assert_eq!(c.take(), log(&[]), "the wait completed; hello is not ticked again");
}

#[test]
fn the_node_table_lists_nodes_in_preorder_with_source_lines() {
    let rows: Vec<(u32, Option<u32>, NodeKindName, &str, u32)> = Dog::NODES
        .iter()
        .map(|n| {
            (
                n.id.0,
                n.parent.map(|p| p.0),
                NodeKindName(n.kind.dsl_name()),
                n.label,
                n.line - TABLE_LINE,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (0, None, NodeKindName("loop"), "loop", 1),
            (1, Some(0), NodeKindName("sequence"), "sequence", 2),
            (2, Some(1), NodeKindName("act"), "Find", 2),
            (3, Some(1), NodeKindName("act"), "Find", 2),
            (4, Some(1), NodeKindName("act"), "Rec(\"move\")", 2),
            (5, Some(1), NodeKindName("act"), "Find", 2),
            (6, Some(1), NodeKindName("act"), "Find", 2),
            (7, Some(1), NodeKindName("wait"), "wait(1.0)", 2),
        ]
    );
    assert_eq!(Dog::NODE_COUNT, 8);
    assert_eq!(
        Tree::<Ctx>::nodes(&Dog::new()),
        Dog::NODES,
        "the table through the trait"
    );
}

#[derive(Debug, PartialEq)]
struct NodeKindName(&'static str);

#[test]
fn control_state_is_one_resume_point_per_composite_and_one_timestamp() {
    // root flag + loop flag + sequence resume point (u8 each) + wait's start
    // (f64) + the time of the last tick (f64, its saved state's `savedAt`) + Rec's name.
    assert_eq!(size_of::<Dog>() - size_of::<Rec>(), 24);
}

fn assert_component<T: Send + Sync + 'static + Default>() {}

#[test]
fn trees_are_send_sync_and_default_when_their_leaves_are() {
    assert_component::<Dog>();
    assert_component::<Talk>();
}

struct World {
    guard: Ctx,
    now: f64,
    greeted: bool,
}
impl Clock for World {
    fn now(&self) -> f64 {
        self.now
    }
}

behave! {
    tree Greet for World {
        sequence { subtree(Talk, |w| &mut w.guard), act(|w| w.greeted = true), subtree(Dog, |w| &mut w.guard) }
    }
    tree Inlined for Ctx {
        sequence { sequence { Rec("hello"), Rec("chat") }, act(|c| c.counter = 1), loop { sequence { Find, Find, Rec("move"), Find, Find, wait(1.0) } } }
    }
}

#[test]
fn a_subtree_runs_on_its_part_of_the_context_and_behaves_as_if_inlined() {
    let (mut with_sub, mut inlined) = (Greet::new(), Inlined::new());
    let mut w = World {
        guard: Ctx::new(),
        now: 0.0,
        greeted: false,
    };
    let mut c = Ctx::new();
    let mut obs_sub = Events::new(Greet::NODES);
    let mut obs_inl = Events::new(Inlined::NODES);
    let script = [
        (0.0, R, R),
        (0.5, S, R),
        (1.0, S, S),
        (1.5, S, S),
        (2.2, F, R),
        (3.0, S, S),
    ];
    for (now, chat, mv) in script {
        w.now = now;
        w.guard.set("chat", chat).set("move", mv);
        c.set("chat", chat).set("move", mv);
        let a = with_sub.tick_observed(&mut w, now, &mut obs_sub);
        let b = inlined.tick_observed(&mut c, now, &mut obs_inl);
        assert_eq!(a, b, "at {now}");
        assert_eq!(w.guard.take(), c.take(), "same leaf events at {now}");
        // The same node events, once the subtree nodes themselves and the act are left out.
        let own = |o: &mut Events| -> Vec<String> {
            o.take()
                .into_iter()
                .filter(|e| !e.contains("subtree(") && !e.contains("act("))
                .collect()
        };
        assert_eq!(own(&mut obs_sub), own(&mut obs_inl), "at {now}");
    }
    assert!(w.greeted);
    assert_eq!(Greet::NODE_COUNT, 1 + 1 + 3 + 1 + 1 + 8);
    let sub = &Greet::NODES[1];
    assert_eq!((sub.kind.dsl_name(), Greet::NODES[2].parent), ("subtree", Some(sub.id)));
}

/// A context that borrows the game world, as an ECS system would build it.
struct Borrowed<'w> {
    hp: &'w mut u32,
}

behave! {
    tree Heal for Borrowed<'w> { selector { cond(|c| *c.hp >= 10), act(|c| *c.hp += 5) } }
}

#[test]
fn contexts_may_borrow() {
    let mut hp = 3;
    let mut t = Heal::new();
    t.tick(&mut Borrowed { hp: &mut hp });
    t.tick(&mut Borrowed { hp: &mut hp });
    t.tick(&mut Borrowed { hp: &mut hp });
    assert_eq!(hp, 13);
}

mod function_leaves {
    use behaved::prelude::*;

    pub struct Hero {
        pub hp: u32,
        pub healed: u32,
    }

    fn is_hurt(hero: &Hero) -> bool {
        hero.hp < 5
    }

    mod moves {
        pub fn heal(hero: &mut super::Hero) {
            hero.hp += 3;
            hero.healed += 1;
        }
    }

    behave! {
        tree Medic for Hero {
            selector {
                sequence { cond(is_hurt), act(moves::heal) },
                if is_hurt { failure } else { success },
            }
        }
    }

    #[test]
    fn paths_to_functions_are_leaves() {
        let mut hero = Hero { hp: 1, healed: 0 };
        let mut medic = Medic::new();
        assert_eq!(medic.tick(&mut hero), Status::Success, "hurt: healed");
        assert_eq!((hero.hp, hero.healed), (4, 1));
        assert_eq!(medic.tick(&mut hero), Status::Success);
        assert_eq!((hero.hp, hero.healed), (7, 2));
        assert_eq!(medic.tick(&mut hero), Status::Success, "not hurt: the `if` succeeds");
        assert_eq!((hero.hp, hero.healed), (7, 2));
        assert_eq!(Medic::NODES[2].label, "cond(is_hurt)");
    }
}
