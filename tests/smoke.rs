//! Smoke test.
mod support;
use bt::prelude::*;
use support::*;

struct Outer {
    inner: Ctx,
    flag: bool,
}
impl Clock for Outer {
    fn now(&self) -> f64 {
        self.inner.now
    }
}

behave! {
    /// A dog.
    pub tree Dog for Ctx {
        loop { sequence { Rec("find"), cond(|c| c.counter < 100), Rec("move"), act(|c| c.counter += 1), wait(1.0) } }
    }
    /// Inner.
    tree Inner for Ctx {
        reactive selector { cond(Check("c")), parallel(success = 2, failure = 1) { Rec("a"), Rec("b"), Rec("d") } }
    }
    /// Outer.
    tree Outer2 for Outer {
        sequence { cond(|o| o.flag), subtree(Inner, |o| &mut o.inner), subtree(Dog, |o| &mut o.inner) }
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
    for n in Outer2::NODES {
        println!("{n:?}");
    }
    let mut o = Outer2::new();
    let mut oc = Outer {
        inner: Ctx::new(),
        flag: true,
    };
    oc.inner.set("c", F).set("a", R).set("b", R);
    assert_eq!(o.tick(&mut oc), R);
    assert_eq!(oc.inner.take(), log(&["enter a", "a", "enter b", "b", "enter d", "d"]));
    oc.inner.set("c", S);
    assert_eq!(o.tick(&mut oc), R);
    assert_eq!(
        oc.inner.take(),
        log(&["halt a", "halt b", "enter find", "find", "enter move", "move"])
    );
    o.reset(&mut oc);
    assert_eq!(oc.inner.take(), log(&[]));
}
