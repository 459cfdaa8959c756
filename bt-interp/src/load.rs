//! Loading: JSON text, or a checked model, through a [`Registry`] to a
//! [`Definition`] that agents share.

use std::sync::Arc;

use behaved_format::decode::LeafFamily;
use behaved_format::messages::{did_you_mean, one_of};
use behaved_format::model::Node;
use behaved_format::{Library, LoadError, Problems, Reader, shown};

use crate::compile::LISTED;
use crate::definition::Definition;
use crate::registry::Registry;

impl<C: 'static> Registry<C> {
    /// Loads a tree from JSON text, with no subtree library.
    pub fn load(&self, json: &str) -> Result<Arc<Definition<C>>, LoadError> {
        self.load_with(json, &Library::new())
    }

    /// Loads a tree from JSON text; its `subtree` nodes refer to `library`.
    /// Unknown leaf types are reported with the tree's other problems.
    pub fn load_with(&self, json: &str, library: &Library) -> Result<Arc<Definition<C>>, LoadError> {
        let unknown = |family: LeafFamily, name: &str| self.unknown_leaf(family, name);
        // The JSON document is dropped before the tree is built: one of them in memory at a time.
        let node = Reader::new()
            .max_depth(self.max_depth)
            .check_leaves(&unknown)
            .node(json)?;
        // The line and column of each problem's path in the text.
        self.build(&node, library).map_err(|e| e.located(json))
    }

    /// The message for a leaf type not registered in `family`, if it is not.
    pub(crate) fn unknown_leaf(&self, family: LeafFamily, name: &str) -> Option<String> {
        let (registered, family) = match family {
            LeafFamily::Condition => (self.conditions.contains_key(name), "condition"),
            LeafFamily::Action => (self.actions.contains_key(name), "action"),
            LeafFamily::Value => (self.values.contains_key(name), "value"),
            LeafFamily::List => (self.lists.contains_key(name), "list"),
            LeafFamily::Consideration => (self.considerations.contains_key(name), "consideration"),
        };
        (!registered).then(|| self.unknown_message(family, name))
    }

    /// "unknown condition type" with the best hint: another family, a close name, or the list.
    pub(crate) fn unknown_message(&self, family: &str, name: &str) -> String {
        let families: [(&str, Vec<&str>); 5] = [
            ("condition", Registry::<C>::names(&self.conditions)),
            ("action", Registry::<C>::names(&self.actions)),
            ("value", Registry::<C>::names(&self.values)),
            ("list", Registry::<C>::names(&self.lists)),
            ("consideration", Registry::<C>::names(&self.considerations)),
        ];
        let shown_name = shown(name);
        if let Some((other, _)) = families.iter().find(|(f, names)| *f != family && names.contains(&name)) {
            return format!(
                "{shown_name} is registered as {} {other} type, not as {} {family} type",
                article(other),
                article(family)
            );
        }
        let known = &families.iter().find(|(f, _)| *f == family).expect("a known family").1;
        let hint = did_you_mean(name, known.iter().copied());
        if !hint.is_empty() {
            format!("unknown {family} type {shown_name}{hint}")
        } else if known.is_empty() {
            format!("unknown {family} type {shown_name}; no {family} types are registered")
        } else if known.len() > LISTED {
            format!(
                "unknown {family} type {shown_name}; {} {family} types are registered",
                known.len()
            )
        } else {
            format!(
                "unknown {family} type {shown_name}; registered {family} types: {}",
                one_of(known)
            )
        }
    }

    /// Builds a tree from its checked model; its `subtree` nodes refer to `library`.
    pub fn build(&self, root: &Node, library: &Library) -> Result<Arc<Definition<C>>, LoadError> {
        crate::compile::compile(self, root, library).map(Arc::new)
    }

    /// Checks every subtree of `library` against this registry (leaf types,
    /// parameters, references, cycles, and its size once inlined), including
    /// those no tree uses yet. A subtree is checked alone (the subtrees it
    /// uses are not inlined into it), once through the remaps of each
    /// place that uses it, composed as loading inlines them: its leaves'
    /// `{goal}` is the caller's `{target}` under `"remap": {"goal":
    /// "target"}`, which must be an entry of the right type; a subtree that
    /// no other uses (or that only a cycle no such subtree reaches uses) is
    /// checked with its own keys. Each (subtree, renames) pair is checked
    /// once, so cycles end and a library without remaps costs its size; the
    /// nodes checked and the renamed keys kept in all are bounded by the
    /// library's size or `max_nodes`, the larger (remaps that multiply
    /// through nested subtrees past it are an error). The nesting and work
    /// limits, which depend on where a subtree is used, are checked when a
    /// tree using it loads.
    pub fn check_library(&self, library: &Library) -> Result<(), LoadError> {
        let mut problems = Problems::default();
        // The cycles once, not once per subtree.
        let cycles = if self.max_recursion == 0 {
            library.cycles()
        } else {
            Vec::new()
        };
        for cycle in &cycles {
            let (at, message) = crate::compile::cycle_problem(cycle);
            problems.push(at, message);
        }
        let sizes = library.inlined_sizes();
        let mut too_large = std::collections::HashSet::new();
        for (id, body) in library.ids().filter_map(|id| Some((id, library.get(id)?))) {
            // Refused before anything is built.
            let at = behaved_format::path::subtree(id);
            if let Some((at, message)) = crate::size::too_large(self, body, library, &sizes, &at, Some(id)) {
                problems.push(&at, message);
                too_large.insert(id);
            }
        }
        let contexts = crate::remaps::contexts(library, self.max_nodes as u64, &too_large);
        for (id, renames) in &contexts.pairs {
            let Some(body) = library.get(id).filter(|_| !too_large.contains(id)) else {
                continue;
            };
            if let Err(e) = crate::compile::compile_with(self, body, library, &cycles, Some(id), renames) {
                problems.extend(&e);
            }
        }
        if let Some((at, message)) = contexts.over {
            problems.push(&at, message);
        }
        problems.into_result(())
    }
}

/// "a" or "an", for `word`.
fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}
