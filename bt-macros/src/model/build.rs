//! Building a tree's model: nodes from their syntax, hooks, conditions, node words and subtrees.

use super::*;
use behaved_runtime::catalog::Slots;

/// Builds the model of every tree, recording problems in `errors` (for tests).
#[cfg(test)]
pub fn build(input: crate::parse::Input, errors: &mut Errors) -> Vec<Tree> {
    input.trees.into_iter().map(|t| build_tree(t, errors)).collect()
}

/// Builds the model of one tree written in the DSL, recording problems in
/// `errors` (a tree read from a JSON file is built by `from_json`).
pub fn build_tree(mut t: TreeSyntax, errors: &mut Errors) -> Tree {
    let roots = std::mem::take(&mut t.roots);
    let roots = roots.into_iter().map(|n| build_node(n, errors)).collect();
    tree(t, roots, None)
}

/// The tree declared by `t`, with its nodes.
pub fn tree(t: TreeSyntax, roots: Vec<Node>, source_file: Option<String>) -> Tree {
    Tree {
        attrs: t.attrs,
        vis: t.vis,
        name: t.name,
        ctx: t.ctx,
        roots,
        body_span: t.body_span,
        source_file,
        json_scores: Vec::new(),
    }
}

/// A node with no children, hooks or label.
pub(crate) fn plain(kind: Kind, span: Span, label: String) -> Node {
    Node {
        kind,
        span,
        label,
        line: line_of(span),
        children: Vec::new(),
        braces: None,
        loop_label: None,
        hooks: Hooks::default(),
        persist: false,
    }
}

/// The node; `Kind::Invalid` when it is too broken to understand (already reported).
pub(super) fn build_node(syntax: NodeSyntax, errors: &mut Errors) -> Node {
    crate::depth::grow(|| build_node_here(syntax, errors))
}

pub(super) fn build_node_here(syntax: NodeSyntax, errors: &mut Errors) -> Node {
    let mut node = match syntax.body {
        NodeBody::Value(expr) => {
            let span = expr.span();
            let label = render(&expr.to_token_stream());
            plain(leaf_value(expr, errors).map_or(Kind::Invalid, Kind::Act), span, label)
        }
        NodeBody::Word(word) => build_word(word, errors),
        NodeBody::If(syntax) => build_if(syntax, errors),
        NodeBody::Match(syntax) => build_match(syntax, errors),
        NodeBody::While(w) => {
            let label = format!("while {}", render(&w.cond.to_token_stream()));
            let mut node = plain(Kind::Plain(NodeKind::While), w.span, label);
            node.children.push(condition(w.cond, "while", errors));
            node.children.extend(single_body(w.body, "a `while` body", errors));
            node
        }
        NodeBody::For(f) => build_for(f, errors),
        NodeBody::Break(span, label) => {
            let text = label.as_ref().map_or(String::from("break"), |l| format!("break {l}"));
            plain(Kind::Break(label), span, text)
        }
        NodeBody::Continue(span, label) => {
            let text = label
                .as_ref()
                .map_or(String::from("continue"), |l| format!("continue {l}"));
            plain(Kind::Continue(label), span, text)
        }
        NodeBody::Missing(span) => {
            errors.at(
                span,
                "a hook or label on nothing: it must be followed by the node it applies to",
            );
            plain(Kind::Invalid, span, String::new())
        }
    };
    if let Some(weight) = syntax.weight {
        errors.over(
            &weight,
            "only the children of `weighted { .. }` take a weight (`3 => node`), and those of `utility { .. }` a score",
        );
    }
    if let Some(label) = syntax.label {
        if node.kind.is_loop() || matches!(node.kind, Kind::Invalid) {
            node.label = format!("{label}: {}", node.label);
            node.loop_label = Some(label);
        } else {
            errors.over(
                &label,
                "a label names a loop: `loop`, `while`, `for`, `repeat`, `retry`, `until_fail` or `until_success`",
            );
        }
    }
    let (attrs, persist): (Vec<Attribute>, Vec<Attribute>) =
        syntax.attrs.into_iter().partition(|a| !a.path().is_ident("persist"));
    for attr in &persist {
        if !matches!(attr.meta, syn::Meta::Path(_)) {
            errors.at(attr.path().span(), "`#[persist]` takes no arguments");
        } else if !matches!(
            node.kind,
            Kind::Act(Leaf::Value { .. }) | Kind::Cond(Leaf::Value { .. }) | Kind::Invalid
        ) {
            errors.at(
                attr.path().span(),
                "`#[persist]` applies to leaf values: their state is saved with the tree (control state always is)",
            );
        } else if let Kind::Act(leaf) = &node.kind
            && is_async(leaf)
        {
            errors.at(
                attr.path().span(),
                "an async action cannot be `#[persist]`: its future cannot be saved; a running one is \
                 started again after a load (SEMANTICS.md, \"act(async ..)\"), so keep its progress in the context",
            );
        }
    }
    node.persist = !persist.is_empty();
    node.hooks = hooks(attrs, errors);
    node
}

/// `#[on_enter(|c| ..)]` and friends.
pub(super) fn hooks(attrs: Vec<Attribute>, errors: &mut Errors) -> Hooks {
    let mut hooks = Hooks::default();
    for attr in attrs {
        let name = attr.path().get_ident().map(ToString::to_string).unwrap_or_default();
        let slot = match name.as_str() {
            "on_enter" => &mut hooks.enter,
            "on_success" => &mut hooks.success,
            "on_failure" => &mut hooks.failure,
            "on_exit" => &mut hooks.exit,
            "on_pre_tick" => &mut hooks.pre_tick,
            "on_tick" => &mut hooks.tick,
            "on_reset" => &mut hooks.reset,
            _ => {
                // ClosureBT's names for the hooks that exist under another name.
                let hint = match name.as_str() {
                    "on_disabled" | "on_disable" => "; ClosureBT's OnDisabled (reset only) is `#[on_reset(..)]`",
                    "on_enabled" | "on_enable" => {
                        "; the nearest to ClosureBT's OnEnabled is `#[on_enter(..)]` (it runs on every activation)"
                    }
                    _ => "",
                };
                errors.at(
                    attr.path().span(),
                    format!(
                        "unknown hook `#[{}]`; expected `on_enter`, `on_pre_tick`, `on_tick`, `on_success`, `on_failure`, `on_exit` or `on_reset`{hint}",
                        render(&attr.path().to_token_stream())
                    ),
                );
                continue;
            }
        };
        match attr.parse_args::<Expr>() {
            Ok(Expr::Closure(c)) if c.inputs.len() == 2 => errors.over(
                &c.inputs[1],
                format!(
                    "a hook gets only the context: `#[{name}(|c| ..)]`; to act on how the node ended, \
                     use `#[on_success(|c| ..)]` or `#[on_failure(|c| ..)]`"
                ),
            ),
            Ok(Expr::Closure(c)) if c.inputs.len() == 1 => {
                if slot.is_some() {
                    errors.at(attr.path().span(), format!("`#[{name}]` is given twice"));
                }
                *slot = Some(Hook::Closure(Expr::Closure(c)));
            }
            Ok(other) => errors.over(
                &other,
                format!("`#[{name}]` takes a closure on the context: `#[{name}(|c| ..)]`"),
            ),
            Err(e) => errors.push(e),
        }
    }
    hooks
}

/// The single node of a block (an `if` branch, a `while` body, a `scope`).
pub(super) fn single_body(block: Children, what: &str, errors: &mut Errors) -> Option<Node> {
    if let Some(var) = block.lets.first() {
        errors.over(&var.name, "`let` declares a node-local variable only in `scope { .. }`");
    }
    let mut nodes = block.nodes.into_iter();
    let Some(first) = nodes.next() else {
        errors.at(block.span, format!("{what} needs a node"));
        return None;
    };
    if let Some(second) = nodes.next() {
        errors.at(
            node_span(&second),
            format!("{what} holds exactly one node; wrap several in `sequence {{ .. }}` or `selector {{ .. }}`"),
        );
    }
    Some(build_node(first, errors))
}

/// Where a node's syntax starts, for errors about it.
pub(super) fn node_span(node: &NodeSyntax) -> Span {
    match &node.body {
        NodeBody::Word(w) => w.reactive.unwrap_or_else(|| w.name.span()),
        NodeBody::Value(e) => e.span(),
        NodeBody::If(i) => i.span,
        NodeBody::Match(m) => m.span,
        NodeBody::While(w) => w.span,
        NodeBody::For(f) => f.span,
        NodeBody::Break(s, _) | NodeBody::Continue(s, _) | NodeBody::Missing(s) => *s,
    }
}

/// The condition of `if`, `while`, `abort_if` or `wait_until` (`keyword`) as a
/// condition node.
pub(crate) fn condition(expr: Expr, keyword: &str, errors: &mut Errors) -> Node {
    let span = expr.span();
    let label = render(&expr.to_token_stream());
    let kind = match expr {
        Expr::Closure(c) if c.inputs.len() == 1 => {
            reads_only(&c, errors);
            Kind::Cond(Leaf::Inline(Expr::Closure(c)))
        }
        Expr::Closure(c) => {
            errors.at(
                c.or1_token.span,
                "a condition closure takes one argument, the context: `|c| ..`",
            );
            Kind::Invalid
        }
        other if type_of_value(&other).is_none() && function_path(&other).is_none() => {
            // `if` and `while` are Rust's keywords, the condition after
            // them; a node word takes it in parentheses, then its body in
            // braces unless it is a leaf (`wait_until(|c| ..)`).
            let closure = hints::as_closure(&other);
            let form = match NodeKind::from_dsl_name(keyword) {
                _ if matches!(keyword, "if" | "while") => format!("`{keyword} {closure} {{ .. }}`"),
                Some(k) if k.arity() == behaved_runtime::Arity::Leaf => format!("`{keyword}({closure})`"),
                _ => format!("`{keyword}({closure}) {{ .. }}`"),
            };
            errors.over(
                &other,
                format!("a condition is a closure on the context (or a condition value): write {form}"),
            );
            Kind::Invalid
        }
        other => leaf_arg_value(other, errors).map_or(Kind::Invalid, Kind::Cond),
    };
    plain(kind, span, label)
}

/// Reports a condition closure that would change the context: conditions get
/// `&Ctx`; changing it is an action's job.
pub(super) fn reads_only(closure: &syn::ExprClosure, errors: &mut Errors) {
    if let Some(r) = hints::mut_param(closure) {
        errors.over(
            r,
            "a condition only reads the context (`&Ctx`); to change it, use an action: `act(|c| ..)`",
        );
    } else if let Some(e) = hints::assignment_in(closure) {
        errors.over(
            &e,
            format!(
                "a condition only reads the context (`&Ctx`), so `{}` cannot be done here; \
                 to change the context, use an action: `act(|c| ..)`",
                render(&e.to_token_stream())
            ),
        );
    }
}

/// `is_hurt` or `checks::is_hurt`: a path to a function (its last segment is
/// lower case), used as a leaf: it is called like an inline closure.
pub(super) fn function_path(expr: &Expr) -> Option<Expr> {
    let Expr::Path(p) = expr else { return None };
    let last = p.path.segments.last()?;
    let lower = last
        .ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    (p.qself.is_none() && lower).then(|| expr.clone())
}

/// A leaf given as a value or as a path to a function.
pub(super) fn leaf_arg_value(expr: Expr, errors: &mut Errors) -> Option<Leaf> {
    match function_path(&expr) {
        Some(function) => Some(Leaf::Inline(function)),
        None => leaf_value(expr, errors),
    }
}

pub(super) fn build_word(word: WordNode, errors: &mut Errors) -> Node {
    let span = word.reactive.unwrap_or_else(|| word.name.span());
    let name = word.name.to_string();
    let label = label_of(&word);
    let args = word.args.as_ref();
    let mut guard = None;
    if let Some(node) = children_in_parentheses(&word, span, label.clone(), errors) {
        return node;
    }
    // The word names a kind through the catalogue (with its aliases: `fallback`, `forever`).
    let written = match word.reactive {
        Some(_) => format!("reactive {name}"),
        None => name.clone(),
    };
    use NodeKind as K;
    let kind =
        match (
            word.reactive.is_some(),
            NodeKind::from_dsl_word(&written),
            name.as_str(),
        ) {
            // A kind that holds nothing but its children takes no arguments
            // (one with a condition child, `abort_if`, takes it, below).
            (_, Some(k), _) if k.slots() != Slots::ConditionChild && Kind::plain(k).is_some() => {
                Kind::plain(k).and_then(|kind| no_args(kind, &name, args, errors))
            }
            (true, _, _) => {
                errors.over(
                    &word.name,
                    format!("`reactive` applies to `sequence`, `selector`, `if` and `match`, not to `{name}`"),
                );
                None
            }
            (_, Some(K::Parallel), _) => parallel(&word, errors),
            (_, Some(K::Weighted), _) => no_args(Kind::Weighted(Vec::new()), &name, args, errors),
            // Bad arguments are reported and read as `utility`, so that its children's scores still count as scores.
            (_, Some(K::Utility), _) => Some(Kind::Utility {
                choose: utility(&word, errors).unwrap_or(Choice::Best),
                scores: Vec::new(),
                written: None,
            }),
            (_, Some(K::Repeat), _) => count(&word, errors).map(Kind::Repeat),
            (_, Some(K::Retry), _) => count(&word, errors).map(Kind::Retry),
            (_, Some(K::Limit), _) => count(&word, errors).map(Kind::Limit),
            (_, Some(K::Timeout), _) => duration(&word, errors).map(Kind::Timeout),
            (_, Some(K::Delay), _) => duration(&word, errors).map(Kind::Delay),
            (_, Some(K::Cooldown), _) => duration(&word, errors).map(Kind::Cooldown),
            // The condition becomes the first child (`abort_if`, `latch`).
            (_, Some(k), _) if k.slots() == Slots::ConditionChild && Kind::plain(k).is_some() => {
                single_arg(&word, "a condition `|c| ..` or a condition value", errors).and_then(|arg| {
                    guard = Some(condition(arg, k.dsl_name(), errors));
                    Kind::plain(k)
                })
            }
            (_, Some(K::WaitUntil), _) => single_arg(&word, "a condition `|c| ..` or a condition value", errors)
                .and_then(|arg| match condition(arg, "wait_until", errors).kind {
                    Kind::Cond(leaf) => Some(Kind::WaitUntil(leaf)),
                    _ => None,
                }),
            (_, Some(K::Wait), _) => duration(&word, errors).map(Kind::Wait),
            (_, Some(K::Condition), _) => leaf_arg(&word, errors).map(Kind::Cond),
            (_, Some(K::Action), _) => leaf_arg(&word, errors).map(Kind::Act),
            (_, Some(K::Subtree), _) => subtree(&word, errors),
            (_, _, "else") => {
                errors.over(&word.name, "`else` without `if`: write `if |c| .. { .. } else { .. }`");
                None
            }
            (_, _, "reactive") => {
                errors.over(
                    &word.name,
                    "`reactive` must be followed by `sequence`, `selector`, `if` or `match`",
                );
                None
            }
            // `walk(3)`: a function call where a leaf goes.
            _ if word.children.is_none()
                && let Some(args) = args
                && name.starts_with(|c: char| c.is_ascii_lowercase())
                && hints::node_word(&name).is_none() =>
            {
                let mut call = word.name.to_token_stream();
                let mut parens = proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, args.tokens.clone());
                parens.set_span(args.span);
                call.extend([TokenTree::Group(parens)]);
                errors.over(&call, hints::function_call_leaf(&name));
                None
            }
            _ => {
                let close = hints::node_word(&name)
                    .or_else(|| behaved_runtime::catalog::closest(&name, NodeKind::dsl_words()).map(String::from));
                errors.over(&word.name, unknown_node(&name, close.as_deref()));
                None
            }
        };
    let mut node = plain(kind.unwrap_or(Kind::Invalid), span, label);
    node.children.extend(guard);
    let Some(block) = word.children else { return node };
    node.braces = Some(block.span);
    match &mut node.kind {
        Kind::Scope(vars) => *vars = block.lets,
        _ => {
            if let Some(var) = block.lets.first() {
                errors.over(&var.name, "`let` declares a node-local variable only in `scope { .. }`");
            }
        }
    }
    let weighted = matches!(node.kind, Kind::Weighted(_));
    let scored = matches!(node.kind, Kind::Utility { .. });
    let mut weights = Vec::new();
    let mut scores = Vec::new();
    for mut child in block.nodes {
        if scored || weighted {
            match child.weight.take() {
                Some(w) if scored => scores.push(score(w, errors)),
                Some(w) => weights.push(weight(w, errors)),
                None if scored => errors.at(
                    node_span(&child),
                    "every child of `utility` needs a score: `|c| c.hunger => eat` or `Hunger => eat`",
                ),
                None => errors.at(
                    node_span(&child),
                    "every child of `weighted` needs a weight: `3 => node`",
                ),
            }
        }
        node.children.push(build_node(child, errors));
    }
    if let Kind::Utility { scores: s, .. } = &mut node.kind {
        *s = scores;
    }
    if let Kind::Weighted(w) = &mut node.kind {
        let literal_total = weights.iter().try_fold(0u32, |sum, w| match w {
            Weight::Literal(v) => sum.checked_add(*v),
            Weight::Const(_) => Some(sum),
        });
        if literal_total.is_none() {
            errors.at(span, "the weights add up to more than `u32::MAX`; scale them down");
        }
        *w = weights;
    }
    node
}

/// `sequence(a, b)`: children written in parentheses, as in function calls or
/// behavior3's constructors, for a node that takes no arguments and no braces
/// after them. One error that says where children go, instead of "takes no
/// arguments" followed by "empty `sequence`".
pub(super) fn children_in_parentheses(word: &WordNode, span: Span, label: String, errors: &mut Errors) -> Option<Node> {
    let args = word.args.as_ref()?;
    let name = word.name.to_string();
    // The kinds that hold nothing but their children and take no condition.
    let braced = NodeKind::from_dsl_word(&name).is_some_and(|k| {
        k.holds_only_children() && k.arity() != behaved_runtime::Arity::Leaf && k.slots() != Slots::ConditionChild
    });
    if !braced || word.children.is_some() || args.tokens.is_empty() {
        return None;
    }
    let written = match word.reactive {
        Some(_) => format!("reactive {name}"),
        None => name,
    };
    errors.at(
        args.span,
        format!(
            "children go in braces, not parentheses: write `{written} {{ {} }}`",
            render(&args.tokens)
        ),
    );
    Some(plain(Kind::Invalid, span, label))
}

pub(super) fn no_args(kind: Kind, name: &str, args: Option<&Args>, errors: &mut Errors) -> Option<Kind> {
    if let Some(args) = args {
        errors.at(args.span, format!("`{name}` takes no arguments"));
    }
    Some(kind)
}

/// The single argument of `repeat(n)`, `wait(d)`, ...; reports a missing or extra one.
pub(super) fn single_arg(word: &WordNode, what: &str, errors: &mut Errors) -> Option<Expr> {
    let name = &word.name;
    let Some(args) = &word.args else {
        errors.over(&name, format!("`{name}` needs {what}: `{name}(..)`"));
        return None;
    };
    let parsed = Punctuated::<Expr, Token![,]>::parse_terminated.parse2(args.tokens.clone());
    match parsed {
        Ok(list) if list.len() == 1 => list.into_iter().next(),
        Ok(list) if list.is_empty() => {
            errors.at(args.span, format!("`{name}` needs {what}"));
            None
        }
        Ok(list) => {
            errors.at(
                list[1].span(),
                format!("`{name}` takes one argument ({what}), found {}", list.len()),
            );
            None
        }
        Err(e) => {
            match hints::unbraced_statements(&args.tokens) {
                Some((semi, braced)) => errors.at(
                    semi,
                    format!("a closure body with statements goes in braces: `{name}({braced})`"),
                ),
                None => errors.push(e),
            }
            None
        }
    }
}

pub(super) fn subtree(word: &WordNode, errors: &mut Errors) -> Option<Kind> {
    const FORM: &str = "`subtree(Type)` or `subtree(Type, |c| &mut c.part)`";
    let Some(args) = &word.args else {
        errors.over(&word.name, format!("`subtree` needs the tree's type: {FORM}"));
        return None;
    };
    let parser = |input: syn::parse::ParseStream| -> syn::Result<(Type, Option<Expr>)> {
        let ty: Type = input.parse()?;
        if input.is_empty() {
            return Ok((ty, None));
        }
        input.parse::<Token![,]>()?;
        let map: Expr = input.parse()?;
        if !input.is_empty() {
            input.parse::<Token![,]>()?;
        }
        if !input.is_empty() {
            return Err(input.error(format!("unexpected tokens; expected {FORM}")));
        }
        Ok((ty, Some(map)))
    };
    match parser.parse2(args.tokens.clone()) {
        Ok((ty, map)) => {
            if let Some(m) = &map
                && !matches!(m, Expr::Closure(c) if c.inputs.len() == 1)
            {
                errors.over(
                    &m,
                    format!("the context mapping must be a closure `|c| &mut c.part`; expected {FORM}"),
                );
                return None;
            }
            Some(Kind::Subtree {
                ty,
                map,
                remap: Vec::new(),
            })
        }
        Err(e) => {
            errors.push(e);
            None
        }
    }
}

/// `sequence`, `wait(1.0)`, `reactive selector`: the node word and its arguments.
pub(super) fn label_of(word: &WordNode) -> String {
    let mut label = String::new();
    if word.reactive.is_some() {
        label.push_str("reactive ");
    }
    label.push_str(&word.name.to_string());
    if let Some(args) = &word.args {
        label.push('(');
        label.push_str(&render(&args.tokens));
        label.push(')');
    }
    label
}

/// The error of an unknown node word. With a close word, that word (the
/// answer in nearly every case) and where every word is listed; with none,
/// every word, from the catalogue. (Listing them all after a hint, too,
/// made each new kind rewrite the expected output of every test of a
/// misspelt word.)
pub(super) fn unknown_node(name: &str, close: Option<&str>) -> String {
    let leaf = "a leaf value starts with an upper-case type name (`MoveTo { .. }`)";
    let Some(close) = close else {
        let words = NodeKind::dsl_words().collect::<Vec<_>>().join(", ");
        return format!("unknown node `{name}`\nknown nodes: {words}; {leaf}");
    };
    let json = if hints::json_kind(name).is_some() {
        format!(" (`{name}` is its name in the JSON form)")
    } else {
        String::new()
    };
    format!(
        "unknown node `{name}`, did you mean `{close}`?{json}\n\
         every node word is in the README's \"Nodes\" table; {leaf}"
    )
}
