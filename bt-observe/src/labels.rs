//! The score parts' labels of a recording, each kept once.

use std::collections::HashMap;

/// The score parts' labels an observer has seen, each once, with their
/// indices: what a `considered` event holds instead of the text. The trace
/// recorder and the studio's live agents intern their labels with it.
#[derive(Debug, Clone, Default)]
pub struct Labels {
    all: Vec<String>,
    index: HashMap<String, u32>,
}

impl Labels {
    /// `label`'s index, adding it the first time it is seen (the only
    /// allocation of a recording that considers).
    pub fn index(&mut self, label: &str) -> u32 {
        self.index_or_add(label, |_| {})
    }

    /// `label`'s index as [`index`](Labels::index) gives it; `added` hears
    /// a label the first time it is seen, before its index is handed out
    /// (to share it with whoever reads the events).
    pub fn index_or_add(&mut self, label: &str, added: impl FnOnce(&str)) -> u32 {
        if let Some(&i) = self.index.get(label) {
            return i;
        }
        let i = self.all.len() as u32;
        added(label);
        self.all.push(label.to_owned());
        self.index.insert(label.to_owned(), i);
        i
    }

    /// Every label, by index.
    pub fn all(&self) -> &[String] {
        &self.all
    }
}
