//! What a node's own code reads, as its leaf declares it, for the studio's
//! data-flow view (`behaved_observe::DataFlow`): the twin of the macro's
//! `READS` for trees loaded from JSON.

use behaved_runtime::NodeKind;

use crate::definition::Definition;

impl<C: 'static> Definition<C> {
    /// The context fields node `id`'s condition reads (a `condition` or
    /// `waitUntil`), as its type declares them with
    /// [`Condition::read_fields`](behaved_runtime::Condition::read_fields);
    /// `None` when unknown: any other node that runs code of the game's
    /// (an action, a `match` value, a `forEach` list), a condition that
    /// declares no names, or an id past the table.
    ///
    /// ```
    /// use behaved_interp::{NoParams, Registry};
    /// use behaved_runtime::Condition;
    /// struct World { night: bool }
    /// struct IsNight;
    /// impl Condition<World> for IsNight {
    ///     fn check(&self, w: &World) -> bool { w.night }
    ///     fn read_fields(&self) -> Option<&'static [&'static str]> { Some(&["night"]) }
    /// }
    /// let mut leaves = Registry::new();
    /// leaves.condition("isNight", |_: NoParams| IsNight);
    /// let tree = leaves.load(r#"{"type": "condition", "condition": {"type": "isNight"}}"#)?;
    /// assert_eq!(tree.read_fields(0), Some(&["night"][..]));
    /// # Ok::<(), behaved_interp::LoadError>(())
    /// ```
    pub fn read_fields(&self, id: u32) -> Option<&'static [&'static str]> {
        let cold = self.cold.get(id as usize)?;
        match cold.op {
            NodeKind::Condition | NodeKind::WaitUntil => {
                let node = self.nodes.get(id as usize)?;
                self.conds.get(node.arg as usize)?.read_fields()
            }
            _ => None,
        }
    }

    /// The blackboard entries node `id`'s ports read (all of them) and,
    /// second, those its output ports write (`Port`, `OutPort`); both
    /// empty for a node without ports.
    pub fn entries(&self, id: u32) -> (&[String], &[String]) {
        match self.entries.binary_search_by_key(&id, |(node, ..)| *node) {
            Ok(i) => (&self.entries[i].1, &self.entries[i].2),
            Err(_) => (&[], &[]),
        }
    }
}
