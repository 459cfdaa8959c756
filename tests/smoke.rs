mod support;
use bt::prelude::*;
use support::*;

behave! {
    /// A dog.
    pub tree Dog for Ctx {
        loop { sequence { Rec("find"), cond(|c| c.counter < 100), Rec("move"), act(|c| c.counter += 1), wait(1.0) } }
    }
}

#[test]
fn smoke() {
    let mut t = Dog::new();
    let mut c = Ctx::new();
    c.set("move", R);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter find", "find", "enter move", "move"]));
    c.set("move", S);
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["move"]));
    c.now = 1.0;
    assert_eq!(t.tick(&mut c), R);
    assert_eq!(c.take(), log(&["enter find", "find", "enter move", "move"]));
    println!("{:#?}", Dog::NODES);
}
