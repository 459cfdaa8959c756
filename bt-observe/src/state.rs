//! What a snapshot shows for one node: its last status, or idle.

use behaved_runtime::Status;
use serde::{Deserialize, Serialize};

/// The observable state of one node: the [`Status`] it last returned, or
/// [`Idle`](NodeState::Idle) when it is not part of a live activation
/// (never ticked, halted, or its parent completed since; see
/// [`StatusSnapshot`](crate::StatusSnapshot) for the exact rules).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeState {
    /// Not ticked since the tree started, since it was halted, or since an ancestor completed.
    #[default]
    Idle,
    /// Returned `Running` from its last tick.
    Running,
    /// Returned `Success` from its last tick and no ancestor has completed since.
    Success,
    /// Returned `Failure` from its last tick and no ancestor has completed since.
    Failure,
}

impl NodeState {
    /// The lower-case name used in traces and views (`"idle"`, `"running"`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            NodeState::Idle => "idle",
            NodeState::Running => "running",
            NodeState::Success => "success",
            NodeState::Failure => "failure",
        }
    }

    /// The status behind this state, `None` when idle.
    pub const fn status(self) -> Option<Status> {
        match self {
            NodeState::Idle => None,
            NodeState::Running => Some(Status::Running),
            NodeState::Success => Some(Status::Success),
            NodeState::Failure => Some(Status::Failure),
        }
    }

    /// `true` for [`NodeState::Idle`].
    pub const fn is_idle(self) -> bool {
        matches!(self, NodeState::Idle)
    }
}

impl From<Status> for NodeState {
    fn from(status: Status) -> NodeState {
        match status {
            Status::Success => NodeState::Success,
            Status::Failure => NodeState::Failure,
            Status::Running => NodeState::Running,
        }
    }
}

impl core::fmt::Display for NodeState {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_statuses_agree() {
        for s in [Status::Success, Status::Failure, Status::Running] {
            let state = NodeState::from(s);
            assert_eq!(state.status(), Some(s));
            assert_eq!(state.name(), s.name());
        }
        assert_eq!(NodeState::Idle.status(), None);
        assert!(NodeState::default().is_idle());
    }
}
