//! The behavior3 "logic mapping" (behavior3, a JavaScript behavior-tree library, writes
//! if / while / repeat / for with break / continue as nodes) written
//! as `behave!` syntax, each tree next to the code it mirrors. Each tree runs
//! on a small context and prints what ran on every tick.
//!
//! Run: `cargo run --example logic_mapping`
use behaved::prelude::*;

/// A small world: a counter the trees read, and a log of what ran this tick.
#[derive(Default)]
struct Ctx {
    x: i32,
    ran: Vec<String>,
}

impl Ctx {
    /// An action that records `what` and succeeds.
    fn did(&mut self, what: impl Into<String>) -> Status {
        self.ran.push(what.into());
        Status::Success
    }
}

behave! {
    /// ```text
    /// if x < 0        { TaskA }
    /// else if x == 0  { TaskB }
    /// else            { TaskC }
    /// ```
    tree IfElse for Ctx {
        if |c| c.x < 0 { act(|c| c.did("TaskA")) }
        else if |c| c.x == 0 { act(|c| c.did("TaskB")) }
        else { act(|c| c.did("TaskC")) }
    }

    /// ```text
    /// while x < 6 {
    ///     x += 1;
    ///     if x == 2 { continue }
    ///     if x == 5 { break }
    ///     TaskA(x)
    /// }
    /// ```
    /// One iteration starts per tick (`SEMANTICS.md#one-start-per-tick`: unbounded
    /// loops start at most one iteration per tick), so the loop is spread over several ticks.
    tree WhileLoop for Ctx {
        while |c| c.x < 6 {
            sequence {
                act(|c| c.x += 1),
                if |c| c.x == 2 { continue } else { success },
                if |c| c.x == 5 { break } else { success },
                act(|c| c.did(format!("TaskA({})", c.x))),
            }
        }
    }

    /// ```text
    /// repeat 4 {
    ///     x += 1;
    ///     if x == 2 { continue }
    ///     if x == 4 { break }
    ///     TaskA(x)
    /// }
    /// ```
    /// `repeat(n)` is bounded: all its iterations run within one tick.
    tree RepeatLoop for Ctx {
        repeat(4) {
            sequence {
                act(|c| c.x += 1),
                if |c| c.x == 2 { continue } else { success },
                if |c| c.x == 4 { break } else { success },
                act(|c| c.did(format!("TaskA({})", c.x))),
            }
        }
    }

    /// ```text
    /// for (i = 0; i < 5; i += 1) {
    ///     if i == 1 { continue }   // the step still runs
    ///     if i == 3 { break }
    ///     TaskA(i)
    /// }
    /// ```
    /// behavior3 wraps the actions block (not the step) in the `continue`
    /// target; `repeat(1)` plays that part here, and the label names the loop
    /// that `break` leaves. `i` is a node-local variable of the `scope`.
    tree ForLoop for Ctx {
        scope {
            let i: i32 = 0;
            'for_loop: while |_| *i < 5 {
                sequence {
                    repeat(1) {
                        sequence {
                            if |_| *i == 1 { continue } else { success },
                            if |_| *i == 3 { break 'for_loop } else { success },
                            act(|c| c.did(format!("TaskA({})", *i))),
                        }
                    },
                    act(|_| *i += 1),
                }
            }
        }
    }

    /// ```text
    /// for i in 0..5 {
    ///     if i == 1 { continue }
    ///     if i == 3 { break }
    ///     TaskA(i)
    /// }
    /// ```
    /// The same counting loop as `for .. in` over a range: the items (at most
    /// 5) are read on entry, `continue` moves on to the next one, and all
    /// iterations run in one tick, as a bounded loop's do. `i` is a `&i32`.
    tree ForRange for Ctx {
        for i: i32 in |_| 0..5 max 5 {
            sequence {
                if |_| *i == 1 { continue } else { success },
                if |_| *i == 3 { break } else { success },
                act(|c| c.did(format!("TaskA({i})"))),
            }
        }
    }
}

/// Ticks `tree` until it completes (at most `max` ticks), printing each tick.
fn show<T: Tree<Ctx>>(title: &str, tree: &mut T, ctx: &mut Ctx, max: u32) {
    println!("{title}");
    for tick in 1..=max {
        let status = tree.tick_at(ctx, f64::from(tick));
        println!(
            "  tick {tick}: ran {:<40} -> {status}",
            format!("{:?}", std::mem::take(&mut ctx.ran))
        );
        if status.is_done() {
            break;
        }
    }
    println!();
}

fn main() {
    for x in [-1, 0, 7] {
        show(
            &format!("if / else if / else with x = {x}"),
            &mut IfElse::new(),
            &mut Ctx { x, ..Ctx::default() },
            1,
        );
    }
    show(
        "while with break and continue",
        &mut WhileLoop::new(),
        &mut Ctx::default(),
        10,
    );
    show(
        "repeat(4) with break and continue",
        &mut RepeatLoop::new(),
        &mut Ctx::default(),
        10,
    );
    show(
        "for (init; cond; step) with break and continue",
        &mut ForLoop::new(),
        &mut Ctx::default(),
        10,
    );
    show(
        "for i in 0..5 with break and continue",
        &mut ForRange::new(),
        &mut Ctx::default(),
        10,
    );
}
