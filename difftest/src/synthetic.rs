//! T3, the synthetic benchmark tree of DESIGN.md section 8: selector and
//! sequence levels alternating from a selector at the root, depth 5, fan-out 4
//! (341 composites, 1,024 leaves, 1,365 nodes). Leaf `i` is
//! `act(|c| c.leaf(i))` in the DSL and the registered action
//! `{"type": "leaf", "id": i}` in JSON. `build.rs` compiles the DSL form for
//! the interpreter bench; the bench loads the JSON form.

use std::fmt::Write;

/// The `behave!` item of a synthetic tree called `name` over `SynCtx`.
pub fn dsl(name: &str, depth: u32, fanout: u32) -> String {
    let mut out = format!("tree {name} for SynCtx {{\n");
    let mut leaves = 0;
    write(
        &mut out,
        0,
        depth,
        fanout,
        &mut leaves,
        &mut |out, kind, id| match kind {
            Part::Open(sel) => out.push_str(if sel { "selector {\n" } else { "sequence {\n" }),
            Part::Close => out.push_str("},\n"),
            Part::Leaf => writeln!(out, "act(|c| c.leaf({id})),").unwrap(),
        },
    );
    out.push_str("}\n");
    out
}

/// The JSON form of the same tree.
pub fn json(depth: u32, fanout: u32) -> String {
    let mut out = String::new();
    let mut leaves = 0;
    write(
        &mut out,
        0,
        depth,
        fanout,
        &mut leaves,
        &mut |out, kind, id| match kind {
            Part::Open(sel) => {
                let kind = if sel { "selector" } else { "sequence" };
                write!(out, r#"{{"type": "{kind}", "children": ["#).unwrap();
            }
            Part::Close => out.push_str("]},"),
            Part::Leaf => write!(
                out,
                r#"{{"type": "action", "action": {{"type": "leaf", "id": {id}}}}},"#
            )
            .unwrap(),
        },
    );
    // Drop the commas before closing brackets and at the end.
    out.replace(",]", "]").trim_end_matches(',').to_string()
}

enum Part {
    Open(bool),
    Close,
    Leaf,
}

fn write(
    out: &mut String,
    level: u32,
    depth: u32,
    fanout: u32,
    leaves: &mut u32,
    emit: &mut impl FnMut(&mut String, Part, u32),
) {
    if level == depth {
        emit(out, Part::Leaf, *leaves);
        *leaves += 1;
        return;
    }
    emit(out, Part::Open(level.is_multiple_of(2)), 0);
    for _ in 0..fanout {
        write(out, level + 1, depth, fanout, leaves, emit);
    }
    emit(out, Part::Close, 0);
}
