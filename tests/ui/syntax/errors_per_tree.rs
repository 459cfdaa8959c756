// A broken tree stops only itself: the other trees are generated, and each
// broken one gets a stand-in with the same public items, so the code below
// type-checks and the only errors are the three real ones, in source order.
use behaved::prelude::*;
struct Ctx { hp: i32 }
impl Clock for Ctx { fn now(&self) -> f64 { 0.0 } }

behave! {
    tree Good for Ctx { sequence { success } }
    tree BadSyntax for Ctx { sequence { success failure } }
    tree BadCount for Ctx { repeat(-1) { success } }
    pub struct Oops for Ctx { success }
    tree AlsoGood for Ctx { selector { failure, subtree(BadCount) } }
}

fn generic<T: Tree<Ctx>>(tree: &mut T, ctx: &mut Ctx) -> Status {
    tree.tick_at(ctx, 0.0)
}

fn main() {
    let mut ctx = Ctx { hp: 3 };
    let _: Status = Good::new().tick(&mut ctx);
    let _: Status = AlsoGood::default().tick(&mut ctx);
    let _: Status = BadSyntax::with_seed(7).tick(&mut ctx);
    let _: Run = BadCount::new().run(&mut ctx, 3);
    let _: u32 = BadCount::NODE_COUNT + BadSyntax::NODES.len() as u32;
    let _: (u64, &str) = (BadCount::FINGERPRINT, BadCount::JSON);
    let _ = generic(&mut BadSyntax::new(), &mut ctx);
    BadCount::new().reset(&mut ctx);
    let _ = ctx.hp;
}
