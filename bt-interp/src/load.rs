//! Loading: JSON text, or a checked model, through a [`Registry`] to a
//! [`Definition`] that agents share.

use std::sync::Arc;

use bt_format::model::{Node, Params};
use bt_format::{Library, LoadError};

use crate::definition::Definition;
use crate::registry::Registry;

impl<C: 'static> Registry<C> {
    /// Loads a tree from JSON text, with no subtree library.
    pub fn load(&self, json: &str) -> Result<Arc<Definition<C>>, LoadError> {
        self.load_with(json, &Library::new())
    }

    /// Loads a tree from JSON text; its `subtree` nodes refer to `library`.
    pub fn load_with(&self, json: &str, library: &Library) -> Result<Arc<Definition<C>>, LoadError> {
        self.build(&Node::parse(json)?, library)
    }

    /// Builds a tree from its checked model; its `subtree` nodes refer to `library`.
    pub fn build(&self, root: &Node, library: &Library) -> Result<Arc<Definition<C>>, LoadError> {
        crate::compile::compile(self, root, library).map(Arc::new)
    }

    /// Checks every subtree of `library` against this registry (leaf types,
    /// parameters, references), including those no tree uses yet.
    pub fn check_library(&self, library: &Library) -> Result<(), LoadError> {
        let mut problems = Vec::new();
        for id in library.ids() {
            let node = Node {
                kind: bt_runtime::NodeKind::Subtree,
                id: None,
                name: None,
                label: None,
                hooks: None,
                params: Params::Subtree(id.to_string()),
                children: Vec::new(),
            };
            if let Err(e) = self.build(&node, library) {
                for p in e.problems() {
                    if !problems.contains(p) {
                        problems.push(p.clone());
                    }
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(LoadError::new(problems))
        }
    }
}
