//! The editor's stable JSON layout for tree files: the same document is
//! always written to the same bytes, and a subtree that did not change is
//! written as before wherever it stays at the same depth, so that saved
//! trees diff well under version control.
//!
//! Keys come in a fixed order (`type`, `id`, `name`, `label`, the other
//! scalar fields alphabetically, then fields holding objects or arrays
//! alphabetically, `child` and `children` last); two-space indentation; an
//! object or array without nodes inside that fits in [`WIDTH`] columns is
//! written on one line, `{ "type": "wait", "seconds": 1.0 }`.

use serde_json::Value;

/// The widest line an object or array is kept on.
pub const WIDTH: usize = 100;

/// `value` in the stable layout, ending with a newline.
pub fn to_stable_json(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value, 0, 0);
    out.push('\n');
    out
}

/// Where a key goes among its object's keys.
fn rank(key: &str, value: &Value) -> (u8, String) {
    let group = match key {
        "type" => 0,
        "id" => 1,
        "name" => 2,
        "label" => 3,
        "child" => 6,
        "children" => 7,
        _ if value.is_object() || value.is_array() => 5,
        _ => 4,
    };
    (group, key.to_string())
}

/// Whether `value` holds a node below it (then it is never put on one line):
/// it has children, or is an array of nodes.
fn holds_nodes(value: &Value) -> bool {
    match value {
        Value::Object(m) => m.contains_key("child") || m.contains_key("children") || m.values().any(holds_nodes),
        Value::Array(a) => a.iter().any(|v| v.get("type").is_some() || holds_nodes(v)),
        _ => false,
    }
}

/// `value` on one line.
fn inline(value: &Value) -> String {
    match value {
        Value::Object(m) if m.is_empty() => "{}".into(),
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(m) => {
            let mut keys: Vec<(&String, &Value)> = m.iter().collect();
            keys.sort_by_key(|(k, v)| rank(k, v));
            let fields: Vec<String> = keys
                .iter()
                .map(|(k, v)| format!("{}: {}", string(k), inline(v)))
                .collect();
            format!("{{ {} }}", fields.join(", "))
        }
        Value::Array(a) => {
            let items: Vec<String> = a.iter().map(inline).collect();
            format!("[{}]", items.join(", "))
        }
        scalar => scalar.to_string(),
    }
}

/// A JSON string literal.
fn string(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

/// Writes `value` at `indent` levels, its first line already `used` columns wide.
fn write(out: &mut String, value: &Value, indent: usize, used: usize) {
    let one_line = inline(value);
    // The closing comma or bracket of the parent may follow: keep a column for it.
    if !holds_nodes(value) && used + one_line.len() < WIDTH {
        out.push_str(&one_line);
        return;
    }
    let pad = "  ".repeat(indent + 1);
    match value {
        Value::Object(m) => {
            let mut keys: Vec<(&String, &Value)> = m.iter().collect();
            keys.sort_by_key(|(k, v)| rank(k, v));
            out.push('{');
            for (i, (k, v)) in keys.iter().enumerate() {
                out.push('\n');
                out.push_str(&pad);
                let key = format!("{}: ", string(k));
                out.push_str(&key);
                write(out, v, indent + 1, pad.len() + key.len());
                if i + 1 < keys.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, v) in a.iter().enumerate() {
                out.push('\n');
                out.push_str(&pad);
                write(out, v, indent + 1, pad.len());
                if i + 1 < a.len() {
                    out.push(',');
                }
            }
            out.push('\n');
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        _ => out.push_str(&one_line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_in_a_fixed_order_nodes_expanded_small_objects_on_one_line() {
        let doc = json!({"children": [{"seconds": 1.0, "type": "wait"}], "name": "Guard", "type": "sequence"});
        assert_eq!(
            to_stable_json(&doc),
            "{\n  \"type\": \"sequence\",\n  \"name\": \"Guard\",\n  \"children\": [\n    { \"type\": \"wait\", \"seconds\": 1.0 }\n  ]\n}\n"
        );
    }

    #[test]
    fn an_unchanged_subtree_keeps_its_bytes_when_a_sibling_changes() {
        let long = json!({"type": "action", "action": {"type": "dialogue", "dialogueId": "a-rather-long-dialogue-identifier-here", "mood": "grumpy"}});
        let before = json!({"type": "selector", "children": [long, {"type": "success"}]});
        let after =
            json!({"type": "selector", "children": [long, {"type": "failure"}, {"type": "wait", "seconds": 2}]});
        let (a, b) = (to_stable_json(&before), to_stable_json(&after));
        let first = |s: &str| s.lines().skip(3).take(7).collect::<Vec<_>>().join("\n");
        assert_eq!(first(&a), first(&b));
        assert!(a.lines().all(|l| l.len() <= WIDTH), "{a}");
        assert_eq!(
            to_stable_json(&serde_json::from_str(&a).unwrap()),
            a,
            "writing again changes nothing"
        );
    }
}
