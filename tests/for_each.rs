//! Tick-by-tick behaviour of `for` (`SEMANTICS.md#for`): items read once on
//! entry, at most `max` of them; one iteration per item, the next starting in
//! the same tick; a failing body fails the loop; `break` and `continue`
//! (labelled too); halting and re-entry; the item visible to inline leaves
//! and hooks like a `scope` variable.

use behaved::prelude::*;
use behaved_testkit::camp::{Alarm, Camp, Hit, Targets};
use behaved_testkit::script::Events;

use Status::{Failure as F, Running as R, Success as S};

fn log(events: &[&str]) -> Vec<String> {
    events.iter().map(|e| e.to_string()).collect()
}

behave! {
    tree Volley for Camp {
        for t: u32 in |c| c.targets.iter() max 4 {
            act(|c| c.hit(*t))
        }
    }

    tree Guarded for Camp {
        reactive selector {
            cond(|c| c.alarm),
            for t: u32 in |c| c.targets.iter().copied() max 4 {
                #[on_exit(|c| c.log.push(format!("exit {t}")))]
                act(|c| c.hit(*t))
            },
        }
    }

    tree Jumps for Camp {
        for t: u32 in |c| c.targets.iter() max 8 {
            sequence {
                if |_| *t == 0 { continue },
                if |_| *t == 9 { break },
                act(|c| c.hit(*t)),
            }
        }
    }

    tree Nested for Camp {
        'rows: for row: u32 in |c| c.targets.iter() max 4 {
            for col: u32 in |_| 0..*row max 4 {
                sequence {
                    if |_| *row == 3 && *col == 1 { break 'rows },
                    act(|c| c.log.push(format!("{row}.{col}"))),
                }
            }
        }
    }

    tree Named for Camp {
        scope {
            let seen: u32 = 0;
            for name: String in |c| c.names.iter() max 2 {
                act(|c| {
                    *seen += 1;
                    c.log.push(format!("{seen} {name}"));
                })
            }
        }
    }
}

/// Target 0 is skipped (`continue`).
struct Skip;

impl Condition<Camp> for Skip {
    fn check(&self, camp: &Camp) -> bool {
        camp.target == 0
    }
}

behave! {
    /// The JSON form, compiled: its list is `Targets`, as the interpreter's is.
    tree FromJson for Camp = json("tests/trees/for_each.json") {
        "targets" => Targets,
        "hit" => Hit,
        "alarm" => Alarm,
        "skip" => Skip,
    }
}

#[test]
fn a_json_for_each_compiled_and_interpreted_agree_tick_by_tick() {
    let mut registry = behaved_interp::Registry::<Camp>::new();
    registry
        .list("targets", |_: behaved_interp::NoParams| Targets)
        .action("hit", |_: behaved_interp::NoParams| Hit)
        .condition("alarm", |_: behaved_interp::NoParams| Alarm)
        .condition("skip", |_: behaved_interp::NoParams| Skip);
    let definition = registry.load(include_str!("trees/for_each.json")).unwrap();
    let (mut compiled, mut interpreted) = (FromJson::new(), behaved_interp::Agent::new(definition));
    let (mut a, mut b) = (Camp::default(), Camp::default());
    let mut lines = Vec::new();
    for t in 0..24u32 {
        for camp in [&mut a, &mut b] {
            camp.targets = (0..t % 5).map(|k| (k * 7 + t) % 4).collect();
            camp.alarm = t % 7 == 6;
            camp.script = [(1, if t % 2 == 0 { R } else { S }), (2, if t % 3 == 0 { F } else { S })].into();
        }
        let (mut ea, mut eb) = (
            behaved_testkit::script::IdEvents::default(),
            behaved_testkit::script::IdEvents::default(),
        );
        let sa = compiled.tick_observed(&mut a, f64::from(t), &mut ea);
        let sb = interpreted.tick_observed(&mut b, f64::from(t), &mut eb);
        assert_eq!((sa, &ea.0, a.take()), (sb, &eb.0, b.take()), "tick {t}");
        lines.push(sa);
    }
    assert!(
        lines.contains(&R) && lines.contains(&S) && lines.contains(&F),
        "{lines:?}"
    );
    assert_eq!(
        FromJson::TICK_WORK,
        behaved_interp::Agent::new(registry.load(include_str!("trees/for_each.json")).unwrap())
            .definition()
            .tick_work()
    );
}

#[test]
fn every_item_runs_the_body_in_order_within_one_tick() {
    // SEMANTICS.md#for: bounded, so the next iteration starts in the same tick.
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[3, 1, 2]));
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 3", "hit 1", "hit 2"]));
}

#[test]
fn an_empty_list_succeeds_at_once_without_ticking_the_body() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[]));
    let mut events = Events::new(Volley::NODES);
    assert_eq!(tree.tick_observed(&mut camp, 0.0, &mut events), S);
    assert!(camp.take().is_empty());
    assert_eq!(
        events.take(),
        log(&[
            "enter for(|c| c.targets.iter(), max 4)",
            "for(|c| c.targets.iter(), max 4) success"
        ])
    );
}

#[test]
fn at_most_max_items_are_taken() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[1, 2, 3, 4, 5, 6]));
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2", "hit 3", "hit 4"]));
}

#[test]
fn a_running_body_keeps_its_item_and_the_rest_follow_in_the_tick_it_completes() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[1, 2, 3]));
    camp.script.insert(2, R);
    let mut events = Events::new(Volley::NODES);
    assert_eq!(tree.tick_observed(&mut camp, 0.0, &mut events), R);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2"]));
    assert_eq!(
        events.take(),
        log(&[
            "enter for(|c| c.targets.iter(), max 4)",
            "enter act(|c| c.hit(*t))",
            "act(|c| c.hit(*t)) success",
            "enter act(|c| c.hit(*t))",
            "act(|c| c.hit(*t)) running",
            "for(|c| c.targets.iter(), max 4) running",
        ])
    );
    assert_eq!(tree.tick(&mut camp), R);
    assert_eq!(camp.take(), log(&["hit 2"]));
    camp.script.remove(&2);
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 2", "hit 3"]));
}

#[test]
fn the_items_are_read_once_on_entry() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[1, 2]));
    camp.script.insert(1, R);
    assert_eq!(tree.tick(&mut camp), R);
    camp.targets = vec![7, 8, 9];
    camp.script.remove(&1);
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(
        camp.take(),
        log(&["hit 1", "hit 1", "hit 2"]),
        "the copy, not the new list"
    );
    assert_eq!(tree.tick(&mut camp), S, "a new activation reads the list again");
    assert_eq!(camp.take(), log(&["hit 7", "hit 8", "hit 9"]));
}

#[test]
fn a_failing_body_fails_the_loop_and_the_next_entry_starts_over() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[1, 2, 3]));
    camp.script.insert(2, F);
    assert_eq!(tree.tick(&mut camp), F);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2"]), "item 3 never runs");
    camp.script.clear();
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2", "hit 3"]));
}

#[test]
fn halting_halts_the_body_with_its_item_and_re_entry_starts_at_the_first_item() {
    // SEMANTICS.md#halting: the body's exit hook still sees the current item.
    let (mut tree, mut camp) = (Guarded::new(), Camp::with(&[1, 2, 3]));
    camp.script.insert(2, R);
    assert_eq!(tree.tick(&mut camp), R);
    assert_eq!(camp.take(), log(&["hit 1", "exit 1", "hit 2"]));
    camp.alarm = true;
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["exit 2"]));
    camp.alarm = false;
    camp.script.clear();
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(
        camp.take(),
        log(&["hit 1", "exit 1", "hit 2", "exit 2", "hit 3", "exit 3"])
    );
}

#[test]
fn reset_halts_a_running_loop() {
    let (mut tree, mut camp) = (Guarded::new(), Camp::with(&[1, 2]));
    camp.script.insert(1, R);
    assert_eq!(tree.tick(&mut camp), R);
    tree.reset(&mut camp);
    assert_eq!(camp.take(), log(&["hit 1", "exit 1"]));
    camp.script.clear();
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 1", "exit 1", "hit 2", "exit 2"]));
}

#[test]
fn continue_skips_to_the_next_item_and_break_ends_the_loop_with_success() {
    // SEMANTICS.md#break, #continue.
    let (mut tree, mut camp) = (Jumps::new(), Camp::with(&[1, 0, 2, 9, 3]));
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 1", "hit 2"]));
}

#[test]
fn nested_loops_see_both_items_and_break_reaches_the_labelled_one() {
    let (mut tree, mut camp) = (Nested::new(), Camp::with(&[1, 2, 3, 4]));
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(
        camp.take(),
        log(&["1.0", "2.0", "2.1", "3.0"]),
        "break 'rows at 3.1 skips row 4"
    );
}

#[test]
fn items_may_be_borrowed_from_the_context_and_cloned_and_scope_variables_mix_in() {
    let (mut tree, mut camp) = (Named::new(), Camp::default());
    camp.names = vec!["ada".into(), "bo".into(), "cy".into()];
    assert_eq!(tree.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["1 ada", "2 bo"]));
}

#[test]
fn the_work_figure_counts_the_read_and_max_iterations() {
    // SEMANTICS.md#work-per-tick: 1 (reading the items) + 4 x 1 (the body).
    assert_eq!(Volley::TICK_WORK, 5);
    // The outer loop: 1 + 4 x (1 + 4 x (the sequence: `if` (1 + 1) and the act (1))).
    assert_eq!(Nested::TICK_WORK, 1 + 4 * (1 + 4 * 3));
}

#[cfg(feature = "serde")]
#[test]
fn a_running_loop_saves_its_items_and_position() {
    let (mut tree, mut camp) = (Volley::new(), Camp::with(&[1, 2, 3]));
    camp.script.insert(2, R);
    assert_eq!(tree.tick(&mut camp), R);
    let saved = serde_json::to_string(&tree).unwrap();
    let mut loaded: Volley = serde_json::from_str(&saved).unwrap();
    camp.targets.clear();
    camp.script.clear();
    camp.take();
    assert_eq!(loaded.tick(&mut camp), S);
    assert_eq!(camp.take(), log(&["hit 2", "hit 3"]));
    let broken = saved.replace("[[1,2,3],1]", "[[1,2,3],3]");
    assert_ne!(broken, saved, "the state holds the items and the position: {saved}");
    let error = serde_json::from_str::<Volley>(&broken).err().unwrap().to_string();
    assert!(error.contains("a `for` loop at item 3 of 3"), "{error}");
}

/// A context that borrows the camp: a JSON tree's loop names its item type
/// through the context type, which here has a lifetime.
struct Visit<'c> {
    camp: &'c mut Camp,
}

impl<'c> ItemList<Visit<'c>> for Targets {
    type Item = u32;
    fn items<'a>(&'a self, visit: &'a Visit<'c>) -> impl Iterator<Item = u32> + 'a {
        visit.camp.targets.iter().copied()
    }
    fn select(&self, visit: &mut Visit<'c>, target: &u32) {
        visit.camp.target = *target;
    }
}

impl Action<Visit<'_>> for Hit {
    fn tick(&mut self, visit: &mut Visit<'_>) -> Status {
        self.tick(&mut *visit.camp)
    }
    fn halt(&mut self, visit: &mut Visit<'_>) {
        Action::<Camp>::halt(self, &mut *visit.camp);
    }
}

impl Condition<Visit<'_>> for Alarm {
    fn check(&self, visit: &Visit<'_>) -> bool {
        self.check(&*visit.camp)
    }
}

impl Condition<Visit<'_>> for Skip {
    fn check(&self, visit: &Visit<'_>) -> bool {
        self.check(&*visit.camp)
    }
}

behave! {
    /// The same JSON tree on a context with a lifetime.
    tree FromJsonBorrowing for Visit<'c> = json("tests/trees/for_each.json") {
        "targets" => Targets,
        "hit" => Hit,
        "alarm" => Alarm,
        "skip" => Skip,
    }
}

#[test]
fn a_json_for_each_works_on_a_context_with_a_lifetime() {
    let (mut owned, mut borrowing) = (FromJson::new(), FromJsonBorrowing::new());
    let (mut a, mut b) = (Camp::with(&[0, 1, 2]), Camp::with(&[0, 1, 2]));
    a.script.insert(2, R);
    b.script.insert(2, R);
    assert_eq!(owned.tick(&mut a), R);
    assert_eq!(borrowing.tick(&mut Visit { camp: &mut b }), R);
    assert_eq!(b.take(), log(&["hit 1", "hit 2"]), "0 is skipped, 2 runs");
    assert_eq!(a.take(), log(&["hit 1", "hit 2"]));
    b.alarm = true;
    assert_eq!(borrowing.tick(&mut Visit { camp: &mut b }), S);
    assert_eq!(b.take(), log(&["halt 2"]), "the alarm halts the loop's running hit");
}
