//! The macro-compiled guard (T2) and its hand-written twin behave identically,
//! tick by tick: statuses, lines said, walks started and interrupted.
use behaved_bench_trees::forms::{self, T2, identical};
use behaved_bench_trees::guard;

use behaved::prelude::*;
use guard::*;

#[test]
fn compiled_and_hand_written_agree_for_ten_thousand_ticks() {
    let (a, seen) = identical::<T2, _, _>(forms::compiled_t2(), GuardByHand::default(), 10_000);
    // Every branch won, walks were both completed and interrupted.
    assert!(a.said.iter().all(|&n| n > 100), "lines said: {:?}", a.said);
    assert!(
        a.walks > 200 && a.interrupted > 50,
        "{} walks, {} interrupted",
        a.walks,
        a.interrupted
    );
    assert!(seen[Status::Running as usize] > 1000, "statuses (S, F, R): {seen:?}");
    assert_eq!(seen[Status::Failure as usize], 0, "the default line always succeeds");
}

#[test]
fn the_walk_is_halted_when_the_quest_comes_up_and_resumed_without_reentering() {
    let (mut compiled, mut by_hand) = (Guard::new(), GuardByHand::default());
    for (tree, ctx) in [(0, GuardCtx::default()), (1, GuardCtx::default())] {
        let mut ctx = GuardCtx {
            night: true,
            dist_to_post: 3,
            ..ctx
        };
        let mut tick = |ctx: &mut GuardCtx| {
            if tree == 0 {
                compiled.tick_at(ctx, 0.0)
            } else {
                by_hand.tick(ctx)
            }
        };
        assert_eq!(tick(&mut ctx), Status::Running);
        assert_eq!(tick(&mut ctx), Status::Running);
        assert_eq!(
            (ctx.walks, ctx.dist_to_post),
            (1, 1),
            "one walk, resumed, not re-entered"
        );
        ctx.quest_active = true;
        assert_eq!(tick(&mut ctx), Status::Success);
        assert_eq!((ctx.interrupted, ctx.said[Line::BrushOff as usize]), (1, 1));
        ctx.quest_active = false;
        assert_eq!(tick(&mut ctx), Status::Success, "arrives");
        assert_eq!((ctx.walks, ctx.dist_to_post), (2, 0), "a new walk after the halt");
        assert_eq!(tick(&mut ctx), Status::Success);
        assert_eq!(ctx.said[Line::Night as usize], 1, "at the post: the night line");
    }
}
