use behaved::prelude::*;
struct Ctx { hp: u32 }

behave! {
    tree T for Ctx { wait(1.0) }
}
fn main() {
    let mut ctx = Ctx { hp: 1 };
    T::new().tick(&mut ctx);
}
