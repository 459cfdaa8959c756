//! The live view's data flow: what each node of an agent's tree reads, as
//! the game declares it, and the wake that started each tick, recorded in
//! the tick's context under [`WOKE_KEY`](behaved_observe::WOKE_KEY) (the page's data-flow panel draws
//! both; `SEMANTICS.md`, "Sleeping on inputs").

use std::sync::Arc;

use behaved_observe::{DataFlow, Error, Woke};
use serde_json::Value;

use super::{AgentShared, ObservedAgent};

impl ObservedAgent {
    /// Declares what each node of the agent's tree reads
    /// (`DataFlow::compiled(MyTree::NODES, MyTree::READS)` for a compiled
    /// tree, `DataFlow::new` over an interpreted definition's
    /// `read_fields`): the page lists it per node and names the inputs of
    /// each recorded wake by it. A tree replaced by
    /// [`replace_nodes`](Self::replace_nodes) needs its own. Fails,
    /// changing nothing, when `flow` has not one entry per node.
    pub fn declare_data_flow(&mut self, flow: DataFlow) -> Result<(), Error> {
        let mut tree = self.shared.tree.lock().unwrap_or_else(|e| e.into_inner());
        if flow.nodes.len() != tree.nodes.len() {
            return Err(Error::FlowCount {
                expected: tree.nodes.len(),
                found: flow.nodes.len(),
            });
        }
        let flow = Arc::new(flow);
        tree.flow = Some(Arc::clone(&flow));
        drop(tree);
        self.flow = Some(flow);
        self.shared.count_change();
        Ok(())
    }

    /// Records why the tick just ticked was started (`Woke::of(last wake,
    /// now, changes marked since)`), under [`WOKE_KEY`](behaved_observe::WOKE_KEY) in its context,
    /// the inputs of a change named by the declared data flow: the page
    /// shows when the agent woke and what woke it. Call it after the
    /// tick's `tick_observed`, like
    /// [`record_context`](Self::record_context). Does nothing while no page
    /// follows the agent.
    pub fn record_wake(&mut self, woke: Woke) {
        if !self.held {
            return;
        }
        let value: Value = woke.value(self.flow.as_deref());
        self.woke.push((self.tick.len(), value));
        // A finished tick waiting for its values goes with them; otherwise now.
        if !(self.finished && self.records_context) {
            self.hand_over();
        }
    }
}

impl AgentShared {
    /// The data flow declared for the agent's tree number `generation`, if
    /// that is still its tree.
    pub(crate) fn flow(&self, generation: u64) -> Option<Arc<DataFlow>> {
        let tree = self.tree.lock().unwrap_or_else(|e| e.into_inner());
        (tree.generation == generation).then(|| tree.flow.clone()).flatten()
    }
}
