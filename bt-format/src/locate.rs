//! Where a JSON path is in a tree file's text: the line and column that a
//! [`Problem`](crate::Problem) gives beside its path
//! (`` at `children[1].count` (line 4, column 7): .. ``).
//!
//! The checks work on the document, which keeps no positions; when they
//! report problems, one pass over the text finds every problem's path. It
//! reads only what leads to those paths and skips every other value, so it
//! costs a scan of the text, and nothing when a file loads.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

use crate::error::{LoadError, path};

/// A place in a text: its line and column, both from 1; the column counts
/// characters (not bytes) from the start of the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location {
    /// The line, from 1.
    pub line: u32,
    /// The column, from 1, in characters.
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Where the value at JSON path `path` (in the messages' notation:
/// `children[2].child.count`; empty for the root) is written in the JSON
/// `text`: the start of its key in an object, of the value itself in an
/// array or at the root. `None` when the text has no such value.
///
/// ```
/// use behaved_format::{Location, locate};
///
/// let text = "{\"type\": \"sequence\",\n \"children\": [\n  {\"type\": \"waitt\"}]}";
/// assert_eq!(locate(text, "children[0].type"), Some(Location { line: 3, column: 4 }));
/// assert_eq!(locate(text, "children[0]"), Some(Location { line: 3, column: 3 }));
/// assert_eq!(locate(text, "children[1]"), None);
/// ```
pub fn locate(text: &str, path: &str) -> Option<Location> {
    locate_all(text, "", false, &[path]).pop().flatten()
}

impl LoadError {
    /// This error with the line and column in `text` (the JSON it was read
    /// from) of each problem's path, where the text has it and the problem has
    /// none yet. Paths elsewhere (`subtrees["patrol"]..` of a library, for a
    /// tree's text) stay without one.
    pub fn located(self, text: &str) -> LoadError {
        self.located_in(text, "", false)
    }

    /// [`LoadError::located`] for a text whose root is at `root` (a subtree
    /// added to a library: `subtrees["id"]`), or that is a whole library
    /// (`library`: its subtrees' paths read `subtrees["id"]..`).
    pub(crate) fn located_in(mut self, text: &str, root: &str, library: bool) -> LoadError {
        let open: Vec<usize> = (0..self.problems.len())
            .filter(|&i| self.problems[i].location.is_none())
            .collect();
        let paths: Vec<String> = open.iter().map(|&i| self.problems[i].path.clone()).collect();
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let found = locate_all(text, root, library, &paths);
        for (i, location) in open.into_iter().zip(found) {
            self.problems[i].location = location;
        }
        self
    }
}

/// The location of each of `paths` in `text`, whose root is at path `root`;
/// with `library`, the keys of the top-level `"subtrees"` object read as
/// `subtrees["id"]`, as the library's problems name them.
pub(crate) fn locate_all(text: &str, root: &str, library: bool, paths: &[&str]) -> Vec<Option<Location>> {
    let mut wanted: Vec<&str> = paths.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let mut scan = Scan {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        wanted,
        found: HashMap::new(),
        library,
    };
    let mut at = root.to_owned();
    scan.ws();
    let start = scan.pos;
    scan.value(&mut at, start);
    let offsets = lines_and_columns(text, scan.found.values().copied().collect());
    paths
        .iter()
        .map(|p| scan.found.get(p).and_then(|o| offsets.get(o).copied()))
        .collect()
}

/// The line and column of each byte offset, in one pass over the text.
fn lines_and_columns(text: &str, mut offsets: Vec<usize>) -> HashMap<usize, Location> {
    offsets.sort_unstable();
    offsets.dedup();
    let (mut out, mut cursor, mut line, mut column) = (HashMap::new(), 0, 1u32, 1u32);
    for offset in offsets {
        let passed = &text[cursor..offset];
        match passed.rfind('\n') {
            Some(last) => {
                line += passed.bytes().filter(|&b| b == b'\n').count() as u32;
                column = passed[last + 1..].chars().count() as u32 + 1;
            }
            None => column += passed.chars().count() as u32,
        }
        cursor = offset;
        out.insert(offset, Location { line, column });
    }
    out
}

/// One pass over a text, looking for the values at `wanted` paths.
struct Scan<'t, 'p> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
    /// The paths looked for, sorted.
    wanted: Vec<&'p str>,
    /// Where each path found is: the byte offset of its key or value (the
    /// last, for a key written twice).
    found: HashMap<&'p str, usize>,
    library: bool,
}

impl<'t> Scan<'t, '_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Whether some wanted path goes below `path`.
    fn leads_below(&self, path: &str) -> bool {
        let next = self.wanted.partition_point(|w| *w <= path);
        self.wanted.get(next).is_some_and(|w| w.starts_with(path))
    }

    /// Reads the value at `pos` (after white space), whose path is `path`
    /// and whose place is `at`; looks inside only where a wanted path leads.
    fn value(&mut self, path: &mut String, at: usize) {
        if let Ok(i) = self.wanted.binary_search(&path.as_str()) {
            self.found.insert(self.wanted[i], at);
        }
        if !self.leads_below(path) {
            self.skip();
            return;
        }
        match self.peek() {
            Some(b'{') => crate::document::deep(|| self.object(path)),
            Some(b'[') => crate::document::deep(|| self.array(path)),
            _ => self.skip(),
        }
    }

    fn object(&mut self, path: &mut String) {
        self.pos += 1;
        loop {
            self.ws();
            match self.peek() {
                Some(b'}') => {
                    self.pos += 1;
                    return;
                }
                Some(b'"') => {}
                _ => return,
            }
            let key_at = self.pos;
            let Some(key) = self.string() else { return };
            self.ws();
            if self.peek() != Some(b':') {
                return;
            }
            self.pos += 1;
            self.ws();
            let len = path.len();
            if self.library && path == "subtrees" {
                *path = path::subtree(&key);
            } else {
                path::push_field(path, &key);
            }
            self.value(path, key_at);
            path.truncate(len);
            if !self.after_item(b'}') {
                return;
            }
        }
    }

    /// Past what follows an item of an object or array: a `,` (true:
    /// another item comes) or the `close` that ends it (false); false at
    /// anything else, where the scan stops.
    fn after_item(&mut self, close: u8) -> bool {
        self.ws();
        match self.peek() {
            Some(b',') => {
                self.pos += 1;
                true
            }
            Some(c) if c == close => {
                self.pos += 1;
                false
            }
            _ => false,
        }
    }

    fn array(&mut self, path: &mut String) {
        self.pos += 1;
        for i in 0.. {
            self.ws();
            match self.peek() {
                Some(b']') => {
                    self.pos += 1;
                    return;
                }
                None => return,
                _ => {}
            }
            let len = path.len();
            path::push_index(path, i);
            let at = self.pos;
            self.value(path, at);
            path.truncate(len);
            if !self.after_item(b']') {
                return;
            }
        }
    }

    /// The string at `pos` (at its opening quote), unescaped; `None` if it does not end.
    fn string(&mut self) -> Option<Cow<'t, str>> {
        let start = self.pos;
        let mut escaped = false;
        self.pos += 1;
        loop {
            match self.peek()? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.pos += 2;
                }
                _ => self.pos += 1,
            }
        }
        self.pos += 1;
        let quoted = self.text.get(start..self.pos)?;
        if escaped {
            serde_json::from_str::<String>(quoted).ok().map(Cow::Owned)
        } else {
            Some(Cow::Borrowed(&quoted[1..quoted.len() - 1]))
        }
    }

    /// Moves past the value at `pos`, whatever it holds.
    fn skip(&mut self) {
        match self.peek() {
            Some(b'"') => drop(self.string()),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                loop {
                    match self.peek() {
                        None => return,
                        Some(b'"') => {
                            if self.string().is_none() {
                                return;
                            }
                        }
                        Some(b'{' | b'[') => {
                            depth += 1;
                            self.pos += 1;
                        }
                        Some(b'}' | b']') => {
                            self.pos += 1;
                            depth -= 1;
                            if depth == 0 {
                                return;
                            }
                        }
                        Some(_) => self.pos += 1,
                    }
                }
            }
            _ => {
                while !matches!(
                    self.peek(),
                    None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                ) {
                    self.pos += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Location, locate, locate_all};

    fn at(line: u32, column: u32) -> Option<Location> {
        Some(Location { line, column })
    }

    const TREE: &str = r#"{
  "type": "sequence",
  "children": [
    {"type": "wait", "seconds": 1},
    { "type": "repeater",
      "count": -2, "child": {"type": "success"} },
    "é", {"type": "action", "action": {"type": "say", "text": "a \" [ { , b"}}
  ]
}"#;

    #[test]
    fn a_path_is_found_at_its_key_or_array_element() {
        for (path, want) in [
            ("", at(1, 1)),
            ("type", at(2, 3)),
            ("children", at(3, 3)),
            ("children[0]", at(4, 5)),
            ("children[0].seconds", at(4, 22)),
            ("children[1]", at(5, 5)),
            ("children[1].count", at(6, 7)),
            ("children[1].child.type", at(6, 30)),
            ("children[2]", at(7, 5)),
            ("children[3].action.text", at(7, 55)),
            ("children[3].action.type", at(7, 40)),
            ("children[4]", None),
            ("children[1].kid", None),
            ("type.x", None),
        ] {
            assert_eq!(locate(TREE, path), want, "{path}");
        }
    }

    #[test]
    fn columns_count_characters_and_escaped_keys_are_read() {
        // "é" is two bytes; the column after it counts it once.
        assert_eq!(locate(TREE, "children[3]"), at(7, 10));
        let text = "{\"a\\u0062\": [1, {\"c\": 2}]}";
        assert_eq!(locate(text, "ab[1].c"), at(1, 18));
    }

    #[test]
    fn several_paths_at_once_in_any_order_and_a_root_elsewhere() {
        let found = locate_all(TREE, "", false, &["children[1].count", "type", "children[9]", "type"]);
        assert_eq!(found, [at(6, 7), at(2, 3), None, at(2, 3)]);
        let sub = r#"{"type": "inverter", "child": {"type": "x"}}"#;
        let root = r#"subtrees["p"]"#;
        assert_eq!(
            locate_all(sub, root, false, &[r#"subtrees["p"].child.type"#, "child.type"]),
            [at(1, 32), None]
        );
    }

    #[test]
    fn a_library_names_its_subtrees_as_its_problems_do() {
        let lib = "{\"subtrees\": {\n \"patrol\": {\"type\": \"x\"}}}";
        assert_eq!(
            locate_all(lib, "", true, &[r#"subtrees["patrol"].type"#, r#"subtrees["patrol"]"#]),
            [at(2, 13), at(2, 2)]
        );
    }

    #[test]
    fn a_repeated_key_is_found_where_it_is_repeated() {
        assert_eq!(locate(r#"{"type": "a", "type": "b"}"#, "type"), at(1, 15));
    }

    #[test]
    fn malformed_text_finds_what_it_can_and_never_panics() {
        for text in [
            "",
            "{",
            "[",
            "{\"a\": [1, 2",
            "{\"a\"",
            "{\"a\": \"b",
            "]",
            "{\"a\": }",
            "\"\\",
        ] {
            let _ = locate(text, "a[1]");
            let _ = locate(text, "");
        }
        assert_eq!(locate("{\"a\": [1, 2", "a[1]"), at(1, 11));
    }
}
