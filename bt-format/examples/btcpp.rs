//! Converts trees between BehaviorTree.CPP v4 XML (Groot2's files) and the
//! JSON form, checking them on the way (SEMANTICS.md, "BehaviorTree.CPP XML"):
//!
//! ```text
//! btcpp check tree.xml
//! btcpp to-json tree.xml tree.json [library.json]
//! btcpp to-xml tree.json [library.json] [MainId] > tree.xml
//! btcpp palette leaves.json > palette.xml
//! ```
//!
//! `palette` writes a registry's leaf manifest (`Registry::manifest()`'s
//! JSON, `"format": "bt-leaves"`) as a `<TreeNodesModel>` for Groot2's
//! palette, as `Registry::tree_nodes_model` does in the game's code.
//! `to-json` writes the main tree and, when the file has other trees, its
//! library (`{"subtrees": ..}`, the main tree included). Without a registry,
//! a compact leaf (`<FindTarget/>`) must be declared in the file's
//! `<TreeNodesModel>`. `<include>`s are read relative to the file's folder.

use std::path::Path;
use std::process::ExitCode;

use behaved_format::model::Node;
use behaved_format::xml::{LeafKind, LeafModel, PortType, XmlReader, XmlTrees, nodes_model, to_xml};
use behaved_format::{Library, LoadError};
use serde_json::Value;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let result = match args.as_slice() {
        ["check", xml] => read(xml).map(|trees| {
            let n = trees.library().ids().count();
            println!("{xml}: ok; runs {:?}, {n} tree(s)", trees.main_id());
        }),
        ["to-json", xml, tree, rest @ ..] if rest.len() <= 1 => read(xml).and_then(|trees| {
            write(tree, &pretty(&trees.main().to_json()))?;
            match rest {
                [library] => write(library, &pretty(&trees.library().to_json())),
                _ if trees.library().ids().count() > 1 => {
                    Err("the file has other trees: name a library file to write them to".into())
                }
                _ => Ok(()),
            }
        }),
        ["to-xml", tree, rest @ ..] if rest.len() <= 2 => to_btcpp(tree, rest.first().copied(), rest.get(1).copied()),
        ["palette", leaves] => palette(leaves),
        _ => {
            eprintln!(
                "usage: btcpp check tree.xml | to-json tree.xml tree.json [library.json] | to-xml tree.json [library.json] [MainId] | palette leaves.json"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads and checks a BT.CPP file, its includes beside it.
fn read(path: &str) -> Result<XmlTrees, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let dir = Path::new(path).parent().unwrap_or(Path::new(".")).to_path_buf();
    let load = |p: &str| std::fs::read_to_string(dir.join(p)).map_err(|e| e.to_string());
    XmlReader::new()
        .includes(&load)
        .read(&text)
        .map_err(|e| format!("{path}: {e}"))
}

/// Writes a JSON tree (and library) as a BT.CPP file on standard output.
fn to_btcpp(tree: &str, library: Option<&str>, main: Option<&str>) -> Result<(), String> {
    let text = std::fs::read_to_string(tree).map_err(|e| format!("{tree}: {e}"))?;
    let node = Node::parse(&text).map_err(|e: LoadError| format!("{tree}: {e}"))?;
    let library = match library {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
            Library::from_json(&text).map_err(|e| format!("{path}: {e}"))?
        }
        None => Library::new(),
    };
    let xml = to_xml(main.unwrap_or("Main"), &node, &library).map_err(|e| format!("{tree}: {e}"))?;
    print!("{xml}");
    Ok(())
}

/// Writes a leaf manifest's conditions and actions as a `<TreeNodesModel>`
/// on standard output: each parameter a port typed as the manifest says,
/// an output (`"output": true`) an `<output_port>`.
fn palette(path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let manifest: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    if manifest["format"] != "bt-leaves" {
        return Err(format!("{path}: not a leaf manifest (\"format\": \"bt-leaves\")"));
    }
    let mut leaves = Vec::new();
    for (family, kind) in [("conditions", LeafKind::Condition), ("actions", LeafKind::Action)] {
        for (name, doc) in manifest[family].as_object().into_iter().flatten() {
            let params = doc["params"].as_array().map(Vec::as_slice).unwrap_or_default();
            let name_of = |p: &Value| p["name"].as_str().unwrap_or_default().to_string();
            leaves.push((
                name.clone(),
                LeafModel {
                    kind,
                    ports: params.iter().map(|p| (name_of(p), port_type(&p["type"]))).collect(),
                    outputs: params.iter().filter(|p| p["output"] == true).map(name_of).collect(),
                },
            ));
        }
    }
    print!("{}", nodes_model(&leaves));
    Ok(())
}

/// The port type of a manifest parameter's `"type"`.
fn port_type(ty: &Value) -> PortType {
    match ty.as_str() {
        Some("string" | "choice") => PortType::String,
        Some("boolean") => PortType::Boolean,
        Some("integer") => PortType::Integer,
        Some("number") => PortType::Number,
        _ => PortType::Json,
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON values print") + "\n"
}

fn write(path: &str, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))
}
