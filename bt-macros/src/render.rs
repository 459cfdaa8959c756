//! Tokens printed the way a person writes them, for node labels and messages.

use proc_macro2::{TokenStream, TokenTree};

/// Tokens printed the way a person writes them (`c.hp < 10`, `Foo { a: 1 }`),
/// for node labels.
pub fn render(tokens: &TokenStream) -> String {
    let mut out = String::new();
    render_into(tokens, &mut out);
    out
}

fn render_into(tokens: &TokenStream, out: &mut String) {
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    // Between `|` and `|` of closure parameters.
    let mut in_params = false;
    for (i, tt) in tokens.iter().enumerate() {
        let prev = i.checked_sub(1).map(|p| &tokens[p]);
        match tt {
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let joint_prev =
                    matches!(prev, Some(TokenTree::Punct(q)) if q.spacing() == proc_macro2::Spacing::Joint);
                match c {
                    '.' | ':' if joint_prev || p.spacing() == proc_macro2::Spacing::Joint || c == '.' => out.push(c),
                    ',' | ';' => {
                        out.push(c);
                        out.push(' ');
                    }
                    ':' => out.push_str(": "),
                    '&' | '!' if !joint_prev && (p.spacing() == proc_macro2::Spacing::Alone || c == '!') => {
                        if !(c == '!' && matches!(prev, Some(TokenTree::Ident(_)))) {
                            space_before(out);
                        }
                        out.push(c);
                    }
                    '|' if !in_params
                        && (prev.is_none() || matches!(prev, Some(TokenTree::Punct(q)) if q.as_char() == ',')) =>
                    {
                        space_before(out);
                        out.push('|');
                        in_params = true;
                    }
                    '|' if in_params => {
                        out.push_str("| ");
                        in_params = false;
                    }
                    _ if joint_prev => {
                        out.push(c);
                        if p.spacing() == proc_macro2::Spacing::Alone {
                            out.push(' ');
                        }
                    }
                    _ => {
                        space_before(out);
                        out.push(c);
                        if p.spacing() == proc_macro2::Spacing::Alone {
                            out.push(' ');
                        }
                    }
                }
            }
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    proc_macro2::Delimiter::Parenthesis => ("(", ")"),
                    proc_macro2::Delimiter::Bracket => ("[", "]"),
                    proc_macro2::Delimiter::Brace => ("{ ", " }"),
                    proc_macro2::Delimiter::None => ("", ""),
                };
                if g.delimiter() == proc_macro2::Delimiter::Brace {
                    space_before(out);
                }
                out.push_str(open);
                render_into(&g.stream(), out);
                out.push_str(close);
            }
            TokenTree::Ident(_) | TokenTree::Literal(_) => {
                if matches!(
                    prev,
                    Some(TokenTree::Ident(_) | TokenTree::Literal(_) | TokenTree::Group(_))
                ) {
                    out.push(' ');
                }
                out.push_str(&tt.to_string());
            }
        }
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
}

fn space_before(out: &mut String) {
    if !(out.is_empty() || out.ends_with([' ', '(', '[', '&', '!', '|'])) {
        out.push(' ');
    }
}
