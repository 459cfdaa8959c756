//! Ports' text: a leaf's literal port as the JSON value of its parameter,
//! by its type, and the `{key}` blackboard ports' keys.

use serde_json::{Number, Value};

use super::PortType;
use crate::document::shown;

/// Whether `text` is a BT.CPP blackboard reference (`{key}`, `{=}`): braces
/// around a name, not a JSON object.
pub(crate) fn is_blackboard(text: &str) -> bool {
    let t = text.trim();
    t.len() >= 2 && t.starts_with('{') && t.ends_with('}') && !t[1..t.len() - 1].contains(['"', ':', '{', '}', ','])
}

/// The blackboard entry a port's text `text` names (`{key}`; `{=}`: the
/// entry named as the port `port`), or why it cannot be one of ours.
pub(crate) fn blackboard_key(port: &str, text: &str) -> Result<String, String> {
    let t = text.trim();
    let Some(key) = t.strip_prefix('{').and_then(|k| k.strip_suffix('}')) else {
        return Err(format!(
            "the port `{port}` is {}, not a blackboard entry `{{key}}`",
            shown(t)
        ));
    };
    let key = key.trim();
    if key == "=" {
        Ok(port.to_string())
    } else if let Some(root_key) = key.strip_prefix('@') {
        Err(format!(
            "the port `{port}` is {}, an entry of the root blackboard (`@`): ours has one blackboard, the context; write {}",
            shown(t),
            shown(&format!("{{{root_key}}}"))
        ))
    } else if key.is_empty() {
        Err(format!(
            "the port `{port}` is {}, which names no blackboard entry",
            shown(t)
        ))
    } else {
        Ok(key.to_string())
    }
}

/// The JSON value of port text `text` of type `ty`, or what is wrong.
pub(crate) fn port_value(text: &str, ty: PortType) -> Result<Value, String> {
    let expected = |what: &str| format!("expected {what}, found {}", shown(text));
    match ty {
        PortType::String => Ok(Value::String(text.to_string())),
        PortType::Boolean => match text.trim() {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err(expected("`true` or `false`")),
        },
        PortType::Integer => match serde_json::from_str::<Number>(text.trim()) {
            Ok(n) if n.is_i64() || n.is_u64() => Ok(Value::Number(n)),
            _ => Err(expected("an integer")),
        },
        PortType::Number => serde_json::from_str::<Number>(text.trim())
            .map(Value::Number)
            .map_err(|_| expected("a number")),
        PortType::Json => serde_json::from_str::<Value>(text).map_err(|e| format!("expected JSON text: {e}")),
    }
}

/// A whole number of milliseconds, at least `least`.
pub(crate) fn millis(text: &str, least: u64) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if n >= least => Ok(n),
        Ok(n) => Err(format!("must be at least {least}, found {n}")),
        Err(_) => Err(format!(
            "expected a whole number of milliseconds, found {}",
            shown(text)
        )),
    }
}

/// A BT.CPP count (`int`): its value, or what is wrong.
pub(crate) fn count(text: &str) -> Result<i64, String> {
    text.trim()
        .parse::<i64>()
        .map_err(|_| format!("expected an integer, found {}", shown(text)))
}

/// The text of a parameter's JSON value as a port: strings as they are,
/// other values as JSON; and the port type that reads it back.
pub(crate) fn port_text(value: &Value) -> (String, PortType) {
    match value {
        Value::String(s) => (s.clone(), PortType::String),
        Value::Bool(b) => (b.to_string(), PortType::Boolean),
        Value::Number(n) if n.is_f64() => (n.to_string(), PortType::Number),
        Value::Number(n) => (n.to_string(), PortType::Integer),
        other => (other.to_string(), PortType::Json),
    }
}
