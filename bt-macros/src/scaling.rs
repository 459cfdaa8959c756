//! The expansion grows linearly with the tree: a tree of twice the nodes
//! expands to at most about twice the tokens. Most of `behave!`'s run time
//! on a big tree is spent making its output (each token crosses the
//! proc-macro bridge and is parsed by rustc again), so the token count is
//! the macro's work, measured without timing. A step that writes something
//! per node for every node before it (a node's id spelled with every subtree
//! before it, a walk of the whole tree per loop) fails here.

/// `count` copies of `node`, each with its own number for `{i}`, in a sequence.
fn tree(count: usize, node: &str) -> String {
    let nodes: Vec<String> = (0..count).map(|i| node.replace("{i}", &i.to_string())).collect();
    format!("tree Big for Ctx {{ sequence {{ {} }} }}", nodes.join(", "))
}

/// Tokens in `stream`, groups' contents included.
fn tokens(stream: proc_macro2::TokenStream) -> usize {
    stream
        .into_iter()
        .map(|tt| match tt {
            proc_macro2::TokenTree::Group(g) => 2 + tokens(g.stream()),
            _ => 1,
        })
        .sum()
}

/// Tokens of the expansion of `src`, which must have no errors.
fn expansion_tokens(src: &str) -> usize {
    let out = crate::expand(src.parse().expect("valid tokens"));
    let text = out.to_string();
    if let Some(at) = text.find("compile_error") {
        panic!("{src}: {}", &text[at..]);
    }
    tokens(out)
}

/// Tokens of a tree of `count` and of `2 * count` copies of `node`, and
/// their ratio.
fn growth(node: &str, count: usize) -> (usize, usize, f64) {
    let (small, big) = (
        expansion_tokens(&tree(count, node)),
        expansion_tokens(&tree(2 * count, node)),
    );
    (small, big, big as f64 / small as f64)
}

#[test]
fn twice_the_nodes_is_at_most_about_twice_the_tokens() {
    let shapes = [
        // The compile-cost benchmark's leaves, in small composites.
        "selector { act(|c| c.leaf({i})), cond(|c| c.ok({i})), sequence { act(|c| c.leaf({i})), running } }",
        // Loops whose bodies break and continue.
        "loop { sequence { cond(|c| c.ok({i})), break } }",
        "'l{i}: loop { selector { cond(|c| c.ok({i})), continue 'l{i} } }",
        // Subtrees, which shift the ids of every node after them.
        "sequence { subtree(Leafy), act(|c| c.leaf({i})) }",
        // For-each loops whose `max` is a constant: rustc checks their sum.
        "for x{i}: u8 in |c| c.items({i}) max MAX { act(|c| c.leaf({i})) }",
        // Hooks, timing and values.
        "#[on_enter(|c| c.enter({i}))] timeout(2.0) { sequence { wait(1.0), Wave { n: {i} } } }",
    ];
    for node in shapes {
        let (small, big, ratio) = growth(node, 60);
        assert!(
            ratio <= 2.05,
            "60 and 120 copies of `{node}` expand to {small} and {big} tokens: {ratio:.2}x"
        );
    }
}
