//! Tokens printed the way a person writes them, for node labels and messages.
//!
//! Token streams carry no spaces, so the spacing is decided per token from
//! what came before it: an operator after an operand is binary (`a - 1`,
//! `a * b`, `a & b`), elsewhere it is unary (`-1`, `*t`, `&mut x`, `!done`);
//! `.`, `::`, ranges and generics are tight (`a.b`, `Vec<u8>`, `0..n`).

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// Tokens printed the way a person writes them (`c.hp < 10`, `Foo { a: 1 }`,
/// `*t`), for node labels.
pub fn render(tokens: &TokenStream) -> String {
    let mut out = String::new();
    render_into(tokens, &mut out);
    out
}

/// One unit of spacing: a word, a literal, a lifetime, an operator (its
/// joint characters together) or a delimited group.
enum Atom {
    Word(String),
    Literal(String),
    Lifetime(String),
    Op(&'static str),
    Group(Delimiter, TokenStream),
}

/// What the last atom printed asks of the next one.
#[derive(Clone, Copy, PartialEq)]
enum Prev {
    /// Nothing yet, or just after an opening delimiter: no space.
    Start,
    /// A value ended (`x`, `1`, `)`, `?`): a word after it is spaced, an
    /// operator after it is binary, a `(` or `[` is a call or an index.
    Operand,
    /// A keyword (`as`, `mut`, `move`, `in`) or a lifetime: spaced on both sides.
    Keyword,
    /// A binary operator or a separator (`+`, `=`, `,`, `:`): the next atom is spaced.
    Spaced,
    /// `.`, `::`, a unary operator, a range or a generic `<`: the next atom is tight.
    Glue,
}

/// Operators of two or three characters, longest first: a run of joint
/// punctuation is split into these (`-*x` is `-` then `*`).
const OPS: &[&str] = &[
    "..=", "...", "<<=", ">>=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=",
    "^=", "&=", "|=", "<<", ">>", "..",
];

/// Keywords that are not values: a group after them is spaced (`if (a)`),
/// an operator after them is unary (`return -1`).
const KEYWORDS: &[&str] = &[
    "as", "async", "box", "break", "const", "continue", "dyn", "else", "enum", "extern", "for", "if", "impl", "in",
    "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static", "unsafe", "where",
];

fn render_into(tokens: &TokenStream, out: &mut String) {
    let atoms = atoms(tokens);
    let mut prev = Prev::Start;
    // The word before the current atom, for `name!(..)` and `Type<..>`.
    let mut last_word: Option<&str> = None;
    // Open generic brackets (`Vec<Option<u8>>`).
    let mut generics = 0usize;
    // Between the `|` and `|` of closure parameters.
    let mut in_params = false;
    for (i, atom) in atoms.iter().enumerate() {
        let next_is_group = matches!(atoms.get(i + 1), Some(Atom::Group(..)));
        let spaced_before = matches!(prev, Prev::Operand | Prev::Keyword | Prev::Spaced);
        let word = last_word.take();
        match atom {
            Atom::Word(w) => {
                push(out, spaced_before, w);
                prev = if KEYWORDS.contains(&w.as_str()) {
                    Prev::Keyword
                } else {
                    Prev::Operand
                };
                last_word = Some(w);
            }
            Atom::Literal(l) => {
                push(out, spaced_before, l);
                prev = Prev::Operand;
            }
            Atom::Lifetime(l) => {
                push(out, spaced_before, l);
                prev = Prev::Keyword;
            }
            Atom::Group(delimiter, stream) => {
                let call = prev == Prev::Operand && *delimiter != Delimiter::Brace;
                push(out, spaced_before && !call, "");
                render_group(*delimiter, stream, out);
                prev = Prev::Operand;
            }
            Atom::Op(op) => {
                let unary = !matches!(prev, Prev::Operand);
                prev = match *op {
                    "." | "::" | ".." | "..=" | "..." => {
                        push(out, matches!(prev, Prev::Keyword | Prev::Spaced), op);
                        Prev::Glue
                    }
                    "," | ";" | ":" => {
                        out.push_str(op);
                        Prev::Spaced
                    }
                    "?" => {
                        out.push('?');
                        Prev::Operand
                    }
                    "!" if word.is_some() && prev == Prev::Operand && next_is_group => {
                        out.push('!');
                        Prev::Glue
                    }
                    "|" if in_params => {
                        in_params = false;
                        out.push('|');
                        Prev::Spaced
                    }
                    "|" | "||" if unary => {
                        push(out, spaced_before, op);
                        in_params = *op == "|";
                        if in_params { Prev::Start } else { Prev::Spaced }
                    }
                    "<" if generics > 0 && word.is_some() || opens_generics(prev, word, &atoms[..i]) => {
                        generics += 1;
                        push(out, matches!(prev, Prev::Keyword | Prev::Spaced), "<");
                        Prev::Glue
                    }
                    ">" if generics > 0 => {
                        generics -= 1;
                        out.push('>');
                        Prev::Operand
                    }
                    ">>" if generics > 1 => {
                        generics -= 2;
                        out.push_str(">>");
                        Prev::Operand
                    }
                    "!" | "-" | "*" | "&" | "&&" | "#" if unary => {
                        push(out, spaced_before, op);
                        Prev::Glue
                    }
                    _ => {
                        push(out, prev != Prev::Start, op);
                        Prev::Spaced
                    }
                };
            }
        }
    }
}

/// Whether `<` after `prev` opens generic arguments rather than comparing:
/// after `::` (`f::<T>`), at the start (`<T as Trait>`), or after a type's
/// name (`Vec<u8>`: capitalised, not an all-caps constant).
fn opens_generics(prev: Prev, word: Option<&str>, before: &[Atom]) -> bool {
    match prev {
        Prev::Start => true,
        Prev::Glue => matches!(before.last(), Some(Atom::Op("::"))),
        Prev::Operand => word.is_some_and(|w| {
            w.starts_with(|c: char| c.is_ascii_uppercase()) && w.chars().any(|c| c.is_ascii_lowercase())
        }),
        _ => false,
    }
}

fn render_group(delimiter: Delimiter, stream: &TokenStream, out: &mut String) {
    let (open, close) = match delimiter {
        Delimiter::Parenthesis => ("(", ")"),
        Delimiter::Bracket => ("[", "]"),
        Delimiter::Brace if stream.is_empty() => ("{", "}"),
        Delimiter::Brace => ("{ ", " }"),
        Delimiter::None => ("", ""),
    };
    out.push_str(open);
    render_into(stream, out);
    out.push_str(close);
}

/// Appends `text`, after a space if `spaced` and `out` does not already end
/// in one or in an opening delimiter.
fn push(out: &mut String, spaced: bool, text: &str) {
    if spaced && !(out.is_empty() || out.ends_with([' ', '(', '[', '{'])) {
        out.push(' ');
    }
    out.push_str(text);
}

/// The stream as atoms: joint punctuation split into Rust's operators,
/// invisible groups (from macro input) flattened, `'a` one lifetime.
fn atoms(tokens: &TokenStream) -> Vec<Atom> {
    let mut atoms = Vec::new();
    let mut puncts = String::new();
    let mut tokens = tokens.clone().into_iter().peekable();
    while let Some(tt) = tokens.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '\'' => {
                split_ops(&puncts, &mut atoms);
                puncts.clear();
                if let Some(TokenTree::Ident(name)) = tokens.peek() {
                    atoms.push(Atom::Lifetime(format!("'{name}")));
                    tokens.next();
                } else {
                    atoms.push(Atom::Op("'"));
                }
            }
            TokenTree::Punct(p) => {
                puncts.push(p.as_char());
                if p.spacing() == Spacing::Alone || !matches!(tokens.peek(), Some(TokenTree::Punct(_))) {
                    split_ops(&puncts, &mut atoms);
                    puncts.clear();
                }
            }
            TokenTree::Ident(i) => atoms.push(Atom::Word(i.to_string())),
            TokenTree::Literal(l) => atoms.push(Atom::Literal(l.to_string())),
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => atoms.extend(self::atoms(&g.stream())),
            TokenTree::Group(g) => atoms.push(Atom::Group(g.delimiter(), g.stream())),
        }
    }
    atoms
}

/// Splits a run of joint punctuation into operators, longest first.
fn split_ops(mut run: &str, atoms: &mut Vec<Atom>) {
    while !run.is_empty() {
        let op = OPS
            .iter()
            .find(|op| run.starts_with(*op))
            .copied()
            .unwrap_or_else(|| single(run.as_bytes()[0]));
        atoms.push(Atom::Op(op));
        run = &run[op.len()..];
    }
}

/// A one-character operator as a `'static` string.
fn single(c: u8) -> &'static str {
    const SINGLE: &str = "!#$%&*+,-./:;<=>?@^|~";
    SINGLE.find(c as char).map_or("?", |i| &SINGLE[i..=i])
}

#[cfg(test)]
mod tests {
    use super::render;
    use proc_macro2::TokenStream;

    /// Source text, then its label. Each is rendered both from the source's
    /// own tokens and from syn's re-printing of it as an expression or type
    /// (labels come from both).
    const CASES: &[(&str, &str)] = &[
        ("*t", "*t"),
        ("c.x = *t", "c.x = *t"),
        ("&x", "&x"),
        ("&mut c.cells", "&mut c.cells"),
        ("&mut *x", "&mut *x"),
        ("&&x", "&&x"),
        ("-1", "-1"),
        ("f(-1, - 2)", "f(-1, -2)"),
        ("a - 1", "a - 1"),
        ("a-1", "a - 1"),
        ("a - -1", "a - -1"),
        ("a * *b", "a * *b"),
        ("a & b", "a & b"),
        ("a . b", "a.b"),
        ("c.hp < 10 && c.x >= 3", "c.hp < 10 && c.x >= 3"),
        ("c.hp -= 1", "c.hp -= 1"),
        ("!c.done", "!c.done"),
        ("a != b", "a != b"),
        ("!matches!(c.mode, Mode::Idle)", "!matches!(c.mode, Mode::Idle)"),
        ("vec![1, 2]", "vec![1, 2]"),
        ("c.items[*i]", "c.items[*i]"),
        ("c.cells.iter().map(|v| v * 2)", "c.cells.iter().map(|v| v * 2)"),
        ("|c| c.hp > 0", "|c| c.hp > 0"),
        ("|c: &mut Ctx| c.hp += 1", "|c: &mut Ctx| c.hp += 1"),
        ("move || c.ready", "move || c.ready"),
        ("a || b", "a || b"),
        ("a | b", "a | b"),
        ("x as u8", "x as u8"),
        ("(a) as u8", "(a) as u8"),
        ("0..n", "0..n"),
        ("0..=3", "0..=3"),
        ("c.v[1..]", "c.v[1..]"),
        ("Foo { a: 1, b: c.x }", "Foo { a: 1, b: c.x }"),
        ("Foo { a: 1, ..Foo::default() }", "Foo { a: 1, ..Foo::default() }"),
        ("Foo {}", "Foo {}"),
        ("Patrol::new(3)", "Patrol::new(3)"),
        ("leaf::<Vec<u8>>(Vec::new())", "leaf::<Vec<u8>>(Vec::new())"),
        ("c.xs.iter().collect::<Vec<_>>()", "c.xs.iter().collect::<Vec<_>>()"),
        ("Vec::<Option<u8>>::new()", "Vec::<Option<u8>>::new()"),
        ("a < MAX", "a < MAX"),
        ("c.a > 1 && c.b < 2", "c.a > 1 && c.b < 2"),
        ("c.find()?", "c.find()?"),
        ("x.0.1", "x.0.1"),
        ("1.5", "1.5"),
        ("\"a b\"", "\"a b\""),
        ("::core::cmp::max(a, b)", "::core::cmp::max(a, b)"),
        ("x = ::core::u8::MAX", "x = ::core::u8::MAX"),
        ("if c.a { 1 } else { 2 }", "if c.a { 1 } else { 2 }"),
        ("match c.m { A => 1, _ => 2 }", "match c.m { A => 1, _ => 2 }"),
        ("return -1", "return -1"),
    ];

    const TYPES: &[(&str, &str)] = &[
        ("(u8, u8)", "(u8, u8)"),
        ("Vec<Vec<u8>>", "Vec<Vec<u8>>"),
        ("&'a str", "&'a str"),
        ("&'static mut [u8; 4]", "&'static mut [u8; 4]"),
        ("Patrol<3>", "Patrol<3>"),
        ("<T as Trait>::Item", "<T as Trait>::Item"),
        ("Box<dyn Fn(u8) -> u8>", "Box<dyn Fn(u8) -> u8>"),
        ("fn(u8) -> bool", "fn(u8) -> bool"),
        ("HashMap<u8, Vec<u8>>", "HashMap<u8, Vec<u8>>"),
    ];

    fn check(source: &str, label: &str, reprinted: TokenStream) {
        let raw: TokenStream = source.parse().unwrap();
        assert_eq!(render(&raw), label, "from the source tokens of `{source}`");
        assert_eq!(render(&reprinted), label, "from syn's tokens of `{source}`");
    }

    #[test]
    fn expressions_read_as_written() {
        for (source, label) in CASES {
            let expr: syn::Expr = syn::parse_str(source).unwrap();
            check(source, label, quote::ToTokens::to_token_stream(&expr));
        }
    }

    #[test]
    fn types_read_as_written() {
        for (source, label) in TYPES {
            let ty: syn::Type = syn::parse_str(source).unwrap();
            check(source, label, quote::ToTokens::to_token_stream(&ty));
        }
    }
}
