//! Whether a trace's node table agrees with its events.
//!
//! behaved-observe's reader checks that every event names a node of the
//! table and that ticks come in order, but a table of the same size from
//! another tree (or another version of the tree) passes: the page would draw
//! the events on the wrong nodes with no warning. A node returns (`ticked`)
//! before its parent does, within the tick that ticked it, so a node that
//! returned and whose parent did not return after it in that tick is a sign
//! that the table is not the one the events were recorded with. The first
//! such event is reported with the payload (`disagreement`), and the page
//! shows it.

use behaved_observe::{Event, Trace};

/// The first event where `trace`'s events disagree with its node table, said
/// in words; `None` when they agree.
pub fn first_disagreement(trace: &Trace) -> Option<String> {
    let parent = |node: u32| trace.nodes.get(node as usize).and_then(|n| n.parent);
    let label = |node: u32| {
        trace
            .nodes
            .get(node as usize)
            .map_or_else(|| format!("#{node}"), |n| format!("#{node} {}", n.label))
    };
    // Within a tick: the parents still owed a return, each with the event and child that owe it.
    let mut owed: Vec<(u32, usize, u32)> = Vec::new();
    let mut tick: Option<u64> = None;
    let report = |owed: &[(u32, usize, u32)], tick: u64| {
        owed.iter().min_by_key(|o| o.1).map(|&(p, event, child)| {
            format!(
                "the node table does not match the events: at event {event} (tick {tick}) {} returns, \
                 but its parent in the table, {}, does not return after it in that tick",
                label(child),
                label(p)
            )
        })
    };
    for (i, event) in trace.events.iter().enumerate() {
        match *event {
            Event::TickStarted { tick: t, .. } => {
                if let Some(t) = tick
                    && let Some(why) = report(&owed, t)
                {
                    return Some(why);
                }
                owed.clear();
                tick = Some(t);
            }
            Event::Ticked { node, .. } if tick.is_some() => {
                let node = node.0;
                owed.retain(|o| o.0 != node);
                if let Some(p) = parent(node)
                    && !owed.iter().any(|o| o.0 == p)
                {
                    owed.push((p, i, node));
                }
            }
            _ => {}
        }
    }
    tick.and_then(|t| report(&owed, t))
}
