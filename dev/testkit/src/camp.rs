//! The camp of the `for` and `pick` tests: targets hit one by one, a script
//! of what each hit returns and a log. The compiled trees' tests
//! (`tests/for_each.rs`, `tests/json_pick.rs`) and the interpreter's
//! (`bt-interp/tests/for_each.rs`, `bt-interp/tests/pick.rs`) share it, with
//! the leaves of the JSON form: the lists [`Targets`] and [`LoggedTargets`],
//! the actions [`Hit`] and [`Attack`], the condition [`Alarm`] and the
//! consideration [`Health`].

use std::collections::BTreeMap;

use behaved_runtime::utility::Consideration;
use behaved_runtime::{Action, Condition, ItemList, Status};

/// A camp of targets; leaves log what they do to which target.
#[derive(Debug, Clone)]
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
    /// Each target's health, by id, for `pick`'s [`Health`] to score.
    pub health: [f32; 8],
    /// What an [`Attack`] returns.
    pub status: Status,
}

impl Default for Camp {
    /// No targets; an attack runs.
    fn default() -> Camp {
        Camp {
            targets: Vec::new(),
            names: Vec::new(),
            script: BTreeMap::new(),
            log: Vec::new(),
            alarm: false,
            target: 0,
            health: [0.0; 8],
            status: Status::Running,
        }
    }
}

impl Camp {
    /// A camp with `targets` and nothing else.
    pub fn with(targets: &[u32]) -> Camp {
        Camp {
            targets: targets.to_vec(),
            ..Camp::default()
        }
    }

    /// A camp of `pick`'s tests: `targets`, each with its `health` (by id);
    /// an attack runs.
    pub fn with_health(targets: &[u32], health: [f32; 8]) -> Camp {
        Camp {
            health,
            ..Camp::with(targets)
        }
    }

    /// Hits target `t`: logs `"hit t"` and returns what the script says.
    pub fn hit(&mut self, t: u32) -> Status {
        self.log.push(format!("hit {t}"));
        self.script.get(&t).copied().unwrap_or(Status::Success)
    }

    /// Attacks target `t`, as a compiled tree's closure does with the
    /// candidate it binds: logs `"attack t"` and returns [`Camp::status`]
    /// (what [`Attack`] does to the selected one).
    pub fn attack(&mut self, t: u32) -> Status {
        self.log.push(format!("attack {t}"));
        self.status
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

/// [`Targets`] that also log `"select t"` each time a loop or a `pick`
/// selects one, to show when candidates are read.
pub struct LoggedTargets;

impl ItemList<Camp> for LoggedTargets {
    type Item = u32;
    fn items<'c>(&'c self, camp: &'c Camp) -> impl Iterator<Item = u32> + 'c {
        Targets.items(camp)
    }
    fn select(&self, camp: &mut Camp, target: &u32) {
        camp.log.push(format!("select {target}"));
        Targets.select(camp, target);
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

/// The selected candidate's health, for a `pick`'s curve to turn into a score.
#[derive(Debug)]
pub struct Health;

impl Consideration<Camp> for Health {
    fn score(&self, camp: &Camp) -> f32 {
        camp.health[camp.target as usize]
    }
}

/// Attacks the selected candidate: logs `"attack t"` and returns
/// [`Camp::status`]; logs `"halt t"` when halted.
#[derive(Debug, Clone)]
pub struct Attack;

impl Action<Camp> for Attack {
    fn tick(&mut self, camp: &mut Camp) -> Status {
        camp.log.push(format!("attack {}", camp.target));
        camp.status
    }
    fn halt(&mut self, camp: &mut Camp) {
        camp.log.push(format!("halt {}", camp.target));
    }
}
