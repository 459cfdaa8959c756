//! The camp of the `for` tests: targets hit one by one, a script of what each
//! hit returns and a log. The compiled trees' tests (`tests/for_each.rs`) and
//! the interpreter's (`bt-interp/tests/for_each.rs`) share it, with the
//! leaves of the JSON form: the list [`Targets`], the action [`Hit`] and the
//! condition [`Alarm`].

use std::collections::BTreeMap;

use behaved_runtime::{Action, Condition, ItemList, Status};

/// A camp of targets; leaves log what they do to which target.
#[derive(Debug, Default)]
pub struct Camp {
    /// The targets, in the order a loop reads them.
    pub targets: Vec<u32>,
    /// Names, for loops over owned items.
    pub names: Vec<String>,
    /// What hitting each target returns (Success when not listed).
    pub script: BTreeMap<u32, Status>,
    /// What the leaves did since the last [`Camp::take`].
    pub log: Vec<String>,
    /// What [`Alarm`] reads.
    pub alarm: bool,
    /// The current target of a JSON tree's `forEach` (where [`Targets`]'s
    /// `select` puts it).
    pub target: u32,
}

impl Camp {
    /// A camp with `targets` and nothing else.
    pub fn with(targets: &[u32]) -> Camp {
        Camp {
            targets: targets.to_vec(),
            ..Camp::default()
        }
    }

    /// Hits target `t`: logs `"hit t"` and returns what the script says.
    pub fn hit(&mut self, t: u32) -> Status {
        self.log.push(format!("hit {t}"));
        self.script.get(&t).copied().unwrap_or(Status::Success)
    }

    /// The log since the last call.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }
}

/// The targets as a JSON tree's list: the current one goes to [`Camp::target`].
pub struct Targets;

impl ItemList<Camp> for Targets {
    type Item = u32;
    fn items<'c>(&'c self, camp: &'c Camp) -> impl Iterator<Item = u32> + 'c {
        camp.targets.iter().copied()
    }
    fn select(&self, camp: &mut Camp, target: &u32) {
        camp.target = *target;
    }
}

/// Hits the current target of a JSON tree's loop; logs `"halt t"` when halted.
#[derive(Debug, Clone)]
pub struct Hit;

impl Action<Camp> for Hit {
    fn tick(&mut self, camp: &mut Camp) -> Status {
        let target = camp.target;
        camp.hit(target)
    }
    fn halt(&mut self, camp: &mut Camp) {
        camp.log.push(format!("halt {}", camp.target));
    }
}

/// Holds while the camp's alarm is raised.
#[derive(Debug)]
pub struct Alarm;

impl Condition<Camp> for Alarm {
    fn check(&self, camp: &Camp) -> bool {
        camp.alarm
    }
}
