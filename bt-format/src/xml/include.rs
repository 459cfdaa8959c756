//! `<include path="..">`: the included files' texts, read through the
//! caller's loader, nested and counted within bounds, each file once.

use std::collections::HashSet;

use roxmltree::Document;

use super::read::{Cursor, in_file, parse_document};
use super::{MAX_INCLUDE_DEPTH, MAX_INCLUDED_FILES, XmlReader};
use crate::document::shown;
use crate::error::{Problem, Problems};

/// Reads, into `out` (file name and text), every file that `doc` (the
/// included file `file`, or the file itself) includes, directly or not;
/// problems (an unreadable file, too deep, too many) go to `problems`.
pub(super) fn gather(
    options: &XmlReader<'_>,
    doc: &Document<'_>,
    file: Option<&str>,
    out: &mut Vec<(String, String)>,
    problems: &mut Problems,
) {
    let mut seen = HashSet::new();
    let mut left = options.max_bytes.saturating_sub(doc.input_text().len());
    walk(options, doc, file, 1, &mut seen, &mut left, out, problems);
}

/// `left`: the bytes the files still to be read may have in all
/// ([`XmlReader::max_bytes`] less what was read).
#[allow(clippy::too_many_arguments)]
fn walk(
    options: &XmlReader<'_>,
    doc: &Document<'_>,
    file: Option<&str>,
    depth: usize,
    seen: &mut HashSet<String>,
    left: &mut usize,
    out: &mut Vec<(String, String)>,
    problems: &mut Problems,
) {
    let root = doc.root_element();
    if root.tag_name().name() != "root" {
        return;
    }
    // Positions in one pass over the text: the includes come in its order.
    let mut cursor = Cursor::new(doc.input_text());
    for include in root.children().filter(|c| c.has_tag_name("include")) {
        let pos = include.range().start;
        let mut problem = |message: String| {
            let mut p = Problem::new("", in_file(file, message));
            p.location = Some(cursor.location(pos));
            problems.add(p);
        };
        let Some(path) = include.attribute("path") else {
            problem("an `<include>` needs a `path`".into());
            continue;
        };
        let Some(load) = options.includes else {
            problem(format!(
                "cannot include {}: the reader was given no way to read files (`XmlReader::includes`)",
                shown(path)
            ));
            continue;
        };
        if depth > MAX_INCLUDE_DEPTH {
            problem(format!(
                "cannot include {}: includes nest deeper than {MAX_INCLUDE_DEPTH} files",
                shown(path)
            ));
            continue;
        }
        if !seen.insert(path.to_string()) {
            // Read once: a second include of a file adds nothing (and a cycle ends here).
            continue;
        }
        if out.len() >= MAX_INCLUDED_FILES {
            problem(format!(
                "cannot include {}: more than {MAX_INCLUDED_FILES} files are included",
                shown(path)
            ));
            continue;
        }
        let text = match load(path) {
            Ok(text) => text,
            Err(why) => {
                problem(format!("cannot read the included file {}: {why}", shown(path)));
                continue;
            }
        };
        if text.len() > *left {
            problem(format!(
                "cannot include {}: its {} bytes take the document past the reader's limit of {} bytes in all (`XmlReader::max_bytes`)",
                shown(path),
                text.len(),
                options.max_bytes
            ));
            continue;
        }
        *left -= text.len();
        match parse_document(&text) {
            Ok(included) => walk(options, &included, Some(path), depth + 1, seen, left, out, problems),
            Err(mut p) => {
                p.message = in_file(Some(path), p.message);
                problems.add(p);
                continue;
            }
        }
        out.push((path.to_string(), text));
    }
}
