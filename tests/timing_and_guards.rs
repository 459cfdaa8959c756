//! Timing (`timeout`, `delay`, `cooldown`, checked at tick boundaries),
//! counting (`limit`, `run_once`, whose memory outlives activations and
//! `reset`), guards (`abort_if`, `latch`), `wait_until`, node-local variables (`scope`) and
//! lifecycle hooks, tick by tick.
use behaved::prelude::*;
use behaved_testkit::rules;
use behaved_testkit::script::*;

/// An action that counts its completions across activations and forgets
/// them only when its tree is reset.
struct Remembers(u32);

impl Action<Ctx> for Remembers {
    fn tick(&mut self, ctx: &mut Ctx) -> Status {
        self.0 += 1;
        ctx.log.push(format!("remembers {}", self.0));
        Status::Success
    }
    fn reset(&mut self, ctx: &mut Ctx) {
        ctx.log.push(format!("reset after {}", self.0));
        self.0 = 0;
    }
}

behave! {
    tree Timeout for Ctx { timeout(1.0) { Rec("a") } }
    tree TimeoutMs for Ctx { timeout(500ms) { Rec("a") } }
    tree Waits for Ctx { sequence { wait(2s), Rec("a"), wait(1.5min), Rec("b"), wait(1h), Rec("c") } }
    tree TimeoutZero for Ctx { timeout(0) { Rec("a") } }
    tree Delay for Ctx { delay(1.0) { Rec("a") } }
    tree DelayZero for Ctx { delay(0) { Rec("a") } }
    tree Cooldown for Ctx { cooldown(2.0) { Rec("a") } }
    tree Limit for Ctx { limit(2) { Rec("a") } }
    tree RunOnce for Ctx { run_once { Rec("a") } }
    tree AbortIf for Ctx { abort_if(Check("abort")) { Rec("a") } }
    tree Latch for Ctx { reactive selector { latch(Check("near")) { Rec("flee") }, Rec("walk") } }
    tree TickHooks for Ctx {
        #[on_enter(|c| c.log.push("enter-hook".into()))]
        #[on_pre_tick(|c| c.log.push("pre-tick-hook".into()))]
        #[on_tick(|c| c.log.push("tick-hook".into()))]
        #[on_success(|c| c.log.push("success-hook".into()))]
        #[on_exit(|c| c.log.push("exit-hook".into()))]
        #[on_reset(|c| c.log.push("reset-hook".into()))]
        sequence { Rec("a"), Remembers(0) }
    }
    tree HaltOrReset for Ctx {
        reactive selector {
            cond(Check("alarm")),
            #[on_exit(|c| c.log.push("exit-hook".into()))]
            #[on_reset(|c| c.log.push("reset-hook".into()))]
            RecWithReset("ra"),
        }
    }
    tree WaitUntil for Ctx { sequence { wait_until(Check("there")), Rec("a") } }
    tree WaitUntilInline for Ctx { wait_until(|c| c.counter >= 2) }
    tree Scope for Ctx {
        scope {
            let tries: u32 = 0;
            retry(5) { sequence { act(|_| *tries += 1), cond(|c| *tries >= c.counter) } }
        }
    }
    tree Hooked for Ctx {
        #[on_enter(|c| c.log.push("enter-hook".into()))]
        #[on_success(|c| c.log.push("success-hook".into()))]
        #[on_failure(|c| c.log.push("failure-hook".into()))]
        #[on_exit(|c| c.log.push("exit-hook".into()))]
        sequence { Rec("a") }
    }
    tree HookedReactive for Ctx {
        reactive sequence {
            #[on_enter(|c| c.log.push("guard-enter".into()))]
            #[on_exit(|c| c.log.push("guard-exit".into()))]
            cond(Check("guard")),
            #[on_enter(|c| c.log.push("work-enter".into()))]
            Rec("work"),
        }
    }
    tree HookedHalt for Ctx {
        reactive selector {
            cond(Check("interrupt")),
            #[on_exit(|c| c.log.push("outer-exit".into()))]
            sequence { #[on_exit(|c| c.log.push("inner-exit".into()))] invert { Rec("a") } },
        }
    }
}

#[test]
fn timeout_whose_time_is_up_halts_its_child_without_ticking_it() {
    let (mut t, mut c) = (Timeout::new(), Ctx::new());
    c.set("a", R);
    c.now = 10.0;
    assert_eq!(t.tick(&mut c), R);
    c.now = 10.9;
    assert_eq!(t.tick(&mut c), R);
    c.now = 11.0;
    assert_eq!(t.tick(&mut c), F, "now - start >= d");
    assert_eq!(c.take(), log(&["enter a", "a", "a", "halt a"]), "halted, not ticked");
    assert_eq!(t.tick(&mut c), R, "a new activation restarts the clock");
    assert_eq!(c.take(), log(&["enter a", "a"]));
}

#[test]
fn duration_units_scale_to_seconds() {
    let (mut t, mut c) = (TimeoutMs::new(), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.now = 0.499;
    assert_eq!(t.tick(&mut c), R, "500ms is half a second, not 500 seconds");
    c.now = 0.5;
    assert_eq!(t.tick(&mut c), F);

    let (mut t, mut c) = (Waits::new(), Ctx::new());
    let mut at = |now: f64, c: &mut Ctx| {
        c.now = now;
        t.tick(c)
    };
    assert_eq!(at(0.0, &mut c), R);
    assert_eq!(at(1.999, &mut c), R);
    assert_eq!(at(2.0, &mut c), R, "2s elapsed: `a` ran, the 1.5min wait starts");
    assert_eq!(at(91.999, &mut c), R);
    assert_eq!(at(92.0, &mut c), R, "90 s later: `b` ran, the 1h wait starts");
    assert_eq!(at(3691.999, &mut c), R);
    assert_eq!(at(3692.0, &mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "enter b", "b", "enter c", "c"]));
}

#[test]
fn timeout_zero_gives_its_child_exactly_one_tick() {
    let (mut t, mut c) = (TimeoutZero::new(), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
}

#[test]
fn delay_runs_without_ticking_its_child_until_its_time_has_passed() {
    let (mut t, mut c) = (Delay::new(), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.now = 0.5;
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&[]));
    c.now = 1.0;
    assert_eq!(t.tick(&mut c), R);
    c.now = 1.1;
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
    let (mut z, mut c) = (DelayZero::new(), Ctx::new());
    assert_eq!(z.tick(&mut c), S, "delay(0) ticks its child at once");
}

#[test]
fn cooldown_fails_without_ticking_until_its_time_has_passed_since_the_last_completion() {
    let (mut t, mut c) = (Cooldown::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    c.now = 1.0;
    assert_eq!(t.tick(&mut c), F);
    c.now = 1.99;
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a"]), "not ticked while cooling down");
    c.now = 2.0;
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    t.reset(&mut c);
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
    assert_eq!(t.tick(&mut c), R, "a halt is not a completion: no cooldown");
    c.set("a", F);
    c.now = 3.0;
    assert_eq!(t.tick(&mut c), F);
    t.reset(&mut c);
    c.now = 4.0;
    c.take();
    assert_eq!(t.tick(&mut c), F, "the cooldown outlives reset");
    assert_eq!(c.take(), log(&[]));
}

#[test]
fn limit_counts_completions_over_the_instance_life() {
    let (mut t, mut c) = (Limit::new(), Ctx::new());
    c.set("a", R);
    t.tick(&mut c);
    t.reset(&mut c);
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    t.reset(&mut c);
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(
        c.take(),
        log(&["enter a", "a", "halt a", "enter a", "a", "enter a", "a"]),
        "the halt did not count"
    );
    c.set("a", S);
    assert_eq!(Limit::new().tick(&mut c), S, "a new instance starts fresh");
}

#[test]
fn run_once_repeats_its_first_status_without_ticking() {
    let (mut t, mut c) = (RunOnce::new(), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("a", F);
    assert_eq!(t.tick(&mut c), F);
    c.set("a", S);
    t.reset(&mut c);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(c.take(), log(&["enter a", "a", "a"]));
}

#[test]
fn abort_if_checks_before_every_tick_of_its_child() {
    let (mut t, mut c) = (AbortIf::new(), Ctx::new());
    c.set("abort", F).set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.set("abort", S);
    assert_eq!(t.tick(&mut c), F);
    assert_eq!(t.tick(&mut c), F, "the entering tick is guarded too");
    assert_eq!(c.take(), log(&["enter a", "a", "halt a"]));
}

#[test]
fn scope_variables_are_initialised_on_entry_and_shared_by_the_leaves_inside() {
    let (mut t, mut c) = (Scope::new(), Ctx::new());
    c.counter = 3;
    assert_eq!(t.tick(&mut c), S, "three tries: retry goes on within the tick");
    c.counter = 9;
    assert_eq!(
        t.tick(&mut c),
        F,
        "re-entered: tries starts again at 0 and five tries are not enough"
    );
}

#[test]
fn hooks_fire_in_order_on_success_failure_and_halt() {
    let (mut t, mut c) = (Hooked::new(), Ctx::new());
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter-hook", "enter a", "a", "success-hook", "exit-hook"])
    );
    c.set("a", F);
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter-hook", "enter a", "a", "failure-hook", "exit-hook"])
    );
    c.set("a", R);
    t.tick(&mut c);
    t.tick(&mut c);
    assert_eq!(
        c.take(),
        log(&["enter-hook", "enter a", "a", "a"]),
        "no exit while running"
    );
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["halt a", "exit-hook"]),
        "halt: the action's halt, then the exit hook"
    );
}

#[test]
fn exit_hooks_run_in_post_order_when_a_reactive_parent_switches() {
    let (mut t, mut c) = (HookedHalt::new(), Ctx::new());
    c.set("interrupt", F).set("a", R);
    t.tick(&mut c);
    c.take();
    c.set("interrupt", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["halt a", "inner-exit", "outer-exit"]));
}

/// `SEMANTICS.md#hooks`: a child of a reactive node that completes on every tick
/// is entered again on every tick, so its hooks fire every tick; a running child
/// is not re-entered.
#[test]
fn hooks_on_a_reactive_child_that_completes_fire_on_every_tick() {
    let (mut t, mut c) = (HookedReactive::new(), Ctx::new());
    c.set("work", R);
    for tick in 0..3 {
        assert_eq!(t.tick(&mut c), R);
        let expected: &[&str] = if tick == 0 {
            &["guard-enter", "guard-exit", "work-enter", "enter work", "work"]
        } else {
            &["guard-enter", "guard-exit", "work"]
        };
        assert_eq!(c.take(), log(expected), "tick {tick}");
    }
}

/// `SEMANTICS.md#latch`
#[test]
fn latch_checks_its_condition_only_while_its_child_is_idle() {
    let (mut t, mut c) = (Latch::new(), Ctx::new());
    let mut obs = Events::new(Latch::NODES);
    c.set("near", F).set("flee", R).set("walk", R);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert_eq!(
        c.take(),
        log(&["enter walk", "walk"]),
        "false: fails without ticking its child"
    );
    c.set("near", S);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R);
    assert_eq!(c.take(), log(&["enter flee", "flee", "halt walk"]));
    obs.take();
    c.set("near", F);
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R, "latched: the child goes on");
    assert_eq!(c.take(), log(&["flee"]));
    assert_eq!(
        obs.take(),
        log(&["Rec(\"flee\") running", "latch running", "reactive selector running"]),
        "the condition is not checked while latched"
    );
    c.set("flee", S);
    assert_eq!(
        t.tick_observed(&mut c, 0.0, &mut obs),
        S,
        "the child completed: the latch opens"
    );
    assert_eq!(c.take(), log(&["flee"]));
    assert_eq!(t.tick_observed(&mut c, 0.0, &mut obs), R, "idle again: false fails");
    assert_eq!(c.take(), log(&["enter walk", "walk"]));
}

/// `SEMANTICS.md#wait_until`
#[test]
fn wait_until_runs_until_its_condition_holds_checking_on_every_tick() {
    let (mut t, mut c) = (WaitUntil::new(), Ctx::new());
    c.set("there", F);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&[]), "the sequence waits at wait_until");
    c.set("there", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(c.take(), log(&["enter a", "a"]));
    assert_eq!(t.tick(&mut c), S, "already true on the entering tick: done at once");
    assert_eq!(c.take(), log(&["enter a", "a"]));

    let (mut t, mut c) = (WaitUntilInline::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), R);
    c.counter = 2;
    assert_eq!(t.tick(&mut c), S);
}

/// `SEMANTICS.md#hooks`
#[test]
fn tick_hooks_run_on_every_tick_around_the_nodes_own_work() {
    let (mut t, mut c) = (TickHooks::new(), Ctx::new());
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(
        c.take(),
        log(&["enter-hook", "pre-tick-hook", "enter a", "a", "tick-hook"]),
        "while running, only the tick hooks"
    );
    c.set("a", S);
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(
        c.take(),
        log(&[
            "pre-tick-hook",
            "a",
            "remembers 1",
            "tick-hook",
            "success-hook",
            "exit-hook"
        ])
    );
}

/// `SEMANTICS.md#reset`, `SEMANTICS.md#hooks`
#[test]
fn reset_callbacks_run_only_on_reset_after_the_halts() {
    let (mut t, mut c) = (TickHooks::new(), Ctx::new());
    assert_eq!(t.tick(&mut c), S);
    assert_eq!(t.tick(&mut c), S);
    c.take();
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["reset-hook", "reset after 2"]),
        "an idle tree: only the reset callbacks, in node-table order"
    );
    c.set("a", R);
    assert_eq!(t.tick(&mut c), R);
    c.take();
    t.reset(&mut c);
    assert_eq!(
        c.take(),
        log(&["halt a", "exit-hook", "reset-hook", "reset after 0"]),
        "the halts first, then the callbacks; halting is not resetting"
    );
}

/// `SEMANTICS.md#hooks`, `SEMANTICS.md#reset`: halting is not resetting. A
/// running action halted by a reactive switch gets `halt` and its node's
/// `on_exit`, never the reset callbacks; `reset` halts it the same way, then
/// runs `on_reset` and `Action::reset`; on an idle tree only the callbacks run.
#[test]
fn a_halt_runs_no_reset_callback_and_a_reset_runs_them_after_the_halts() {
    rules::a_halt_runs_no_reset_callback(HaltOrReset::new(), "alarm");
}
