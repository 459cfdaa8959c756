//! The macro-compiled squad soldier (T4) and its hand-written twin behave
//! identically, tick by tick: statuses, leaves' enters and halts, hook runs.
use behaved_bench_trees::forms::{self, T4, identical};
use behaved_bench_trees::squad;

use behaved::prelude::*;
use squad::*;

#[test]
fn compiled_and_hand_written_agree_for_twenty_thousand_ticks() {
    assert_eq!(Squad::NODE_COUNT, 44);
    let (end, seen) = identical::<T4, _, _>(forms::compiled_t4(), SquadByHand::default(), 20_000);
    // Every action ran; every one that can run for several ticks was halted
    // (the timeouts halt Aim and Bandage, the parallels Track and Scan, the
    // reactive root and the regroup order the others).
    assert!(end.entered.iter().all(|&n| n > 100), "entered {:?}", end.entered);
    for (leaf, name) in [
        (0, "TakeCover"),
        (1, "Bandage"),
        (2, "Aim"),
        (5, "Track"),
        (7, "Regroup"),
        (8, "Radio"),
        (9, "Patrol"),
        (11, "Scan"),
    ] {
        assert!(
            end.halted[leaf] > 20,
            "{name} halted {} times: {end:?}",
            end.halted[leaf]
        );
    }
    assert!(end.hooks.iter().all(|&n| n > 20), "hooks {:?}", end.hooks);
    // Some retries failed (both aims timed out), and some fights were won.
    assert!(end.hooks[5] > 20 && end.shots > 1000, "{:?} {}", end.hooks, end.shots);
    assert!(
        seen[Status::Success as usize] > 500 && seen[Status::Running as usize] > 10_000,
        "{seen:?}"
    );
}

#[test]
fn an_enemy_halts_the_patrol_with_its_exit_hook_and_the_fight_starts() {
    let (mut compiled, mut by_hand) = (Squad::new(), SquadByHand::default());
    for form in 0..2 {
        let mut ctx = SquadCtx {
            health: 100,
            ammo: 4,
            ..SquadCtx::default()
        };
        let mut tick = |ctx: &mut SquadCtx, t: u32| {
            let now = f64::from(t) * DT;
            if form == 0 {
                compiled.tick_at(ctx, now)
            } else {
                by_hand.tick_at(ctx, now)
            }
        };
        assert_eq!(tick(&mut ctx, 0), Status::Running);
        assert_eq!(tick(&mut ctx, 1), Status::Running);
        assert_eq!(
            (ctx.entered[9], ctx.entered[11], ctx.hooks[8], ctx.hooks[11]),
            (1, 1, 1, 2)
        );
        assert_eq!(ctx.pos, 2, "two steps of the first leg");
        ctx.enemy = true;
        assert_eq!(tick(&mut ctx, 2), Status::Running);
        // The patrol: Patrol then Scan halted, then its exit hook; the fight entered.
        assert_eq!((ctx.halted[9], ctx.halted[11], ctx.hooks[9]), (1, 1, 1));
        assert_eq!(
            (ctx.hooks[3], ctx.entered[2], ctx.entered[5], ctx.entered[6]),
            (1, 1, 1, 1)
        );
        assert_eq!((ctx.hooks[7], ctx.hooks[0]), (1, 3), "the call-out succeeded at once");
        for t in 3..5 {
            assert_eq!(tick(&mut ctx, t), Status::Running);
        }
        assert_eq!(ctx.shots, 1, "aimed for three ticks, then the first shot");
        ctx.enemy = false;
        assert_eq!(tick(&mut ctx, 5), Status::Running);
        assert_eq!(
            (ctx.halted[5], ctx.hooks[4], ctx.hooks[8]),
            (1, 1, 2),
            "fight halted, patrol again"
        );
    }
}
