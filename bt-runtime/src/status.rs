//! The result of ticking a node.

/// What a node reports after one tick.
///
/// A node that has not been ticked since it was last reset or halted is *idle*;
/// idleness is a state of the node, not a status it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "lowercase")
)]
pub enum Status {
    /// The node finished and achieved what it set out to do.
    Success,
    /// The node finished without achieving it.
    Failure,
    /// The node needs more ticks; its parent resumes it on the next tick.
    Running,
}

impl Status {
    /// `true` for `Success` and `Failure`.
    #[inline]
    pub const fn is_done(self) -> bool {
        !matches!(self, Status::Running)
    }

    /// Success and Failure swapped, Running unchanged (the `invert` decorator).
    #[inline]
    pub const fn invert(self) -> Status {
        match self {
            Status::Success => Status::Failure,
            Status::Failure => Status::Success,
            Status::Running => Status::Running,
        }
    }

    /// The lower-case name used in the DSL, the JSON form and traces.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Failure => "failure",
            Status::Running => "running",
        }
    }
}

impl core::fmt::Display for Status {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

impl From<bool> for Status {
    /// `true` is `Success`, `false` is `Failure`.
    #[inline]
    fn from(ok: bool) -> Status {
        if ok { Status::Success } else { Status::Failure }
    }
}

/// What an inline action (`act(|c| ..)`) may return: a [`Status`], a `bool`
/// (`true` = Success) or `()` (always Success).
#[diagnostic::on_unimplemented(
    message = "an inline action must return `Status`, `bool` or `()`, not `{Self}`",
    label = "this returns `{Self}`"
)]
pub trait IntoStatus {
    /// Converts the value into the status the action reports.
    fn into_status(self) -> Status;
}

impl IntoStatus for Status {
    #[inline(always)]
    fn into_status(self) -> Status {
        self
    }
}

impl IntoStatus for bool {
    #[inline(always)]
    fn into_status(self) -> Status {
        Status::from(self)
    }
}

impl IntoStatus for () {
    #[inline(always)]
    fn into_status(self) -> Status {
        Status::Success
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invert_swaps_only_completed_statuses() {
        assert_eq!(Status::Success.invert(), Status::Failure);
        assert_eq!(Status::Failure.invert(), Status::Success);
        assert_eq!(Status::Running.invert(), Status::Running);
    }

    #[test]
    fn into_status_of_bool_and_unit() {
        assert_eq!(true.into_status(), Status::Success);
        assert_eq!(false.into_status(), Status::Failure);
        assert_eq!(().into_status(), Status::Success);
        assert!(Status::Failure.is_done() && !Status::Running.is_done());
    }
}
