//! ClosureBT's recursive crafting planner, as an interpreted tree: to acquire
//! an item, have it, or collect it if it lies in the world, or craft it if it
//! has a recipe, acquiring each of the recipe's items the same way first.
//!
//! `acquire` and `craft` are subtrees of a library that refer to each other;
//! `Registry::max_recursion` bounds how deep they may nest (SEMANTICS.md,
//! "Recursion"). The item being acquired lives on a stack in the context:
//! the recursive reference pushes the missing ingredient when it enters and
//! pops it when it exits (its `onEnter` / `onExit` hooks).
//!
//! `cargo run --example crafting` prints the plan tick by tick;
//! `cargo test --example crafting` checks it (CI runs it).
use std::collections::BTreeMap;

use behaved::{Action, Condition, Status};
use behaved_interp::{Agent, Library, NoParams, Registry};

/// What the planner works on.
#[derive(Debug, Default)]
struct Workshop {
    inventory: BTreeMap<&'static str, u32>,
    /// Item => the items it is crafted from (an item twice is needed twice).
    recipes: BTreeMap<&'static str, Vec<&'static str>>,
    /// Items that can be collected from the world.
    in_world: Vec<&'static str>,
    /// The items being acquired, innermost last, with how many are needed.
    wanted: Vec<(&'static str, u32)>,
    log: Vec<String>,
}

impl Workshop {
    fn top(&self) -> (&'static str, u32) {
        *self.wanted.last().expect("an item is being acquired")
    }

    fn count(&self, item: &str) -> u32 {
        self.inventory.get(item).copied().unwrap_or(0)
    }

    /// The first ingredient of the top item's recipe that is short, with how many the recipe needs.
    fn missing_ingredient(&self) -> Option<(&'static str, u32)> {
        let recipe = self.recipes.get(self.top().0)?;
        recipe.iter().find_map(|&part| {
            let needed = recipe.iter().filter(|&&p| p == part).count() as u32;
            (self.count(part) < needed).then_some((part, needed))
        })
    }
}

/// The planner's conditions, by name.
#[derive(Clone, Copy)]
enum Check {
    Have,
    InWorld,
    Craftable,
    MissingIngredient,
}

impl Condition<Workshop> for Check {
    fn check(&self, w: &Workshop) -> bool {
        let (item, needed) = w.top();
        match self {
            Check::Have => w.count(item) >= needed,
            Check::InWorld => w.in_world.contains(&item),
            Check::Craftable => w.recipes.contains_key(item),
            Check::MissingIngredient => w.missing_ingredient().is_some(),
        }
    }
}

/// Collecting or crafting takes a tick of work: `Running` on entry, then done.
#[derive(Clone, Copy)]
enum Work {
    Collect,
    Craft,
}

#[derive(Clone)]
struct Working(Work, bool);

impl Action<Workshop> for Working {
    fn enter(&mut self, _: &mut Workshop) {
        self.1 = false;
    }
    fn tick(&mut self, w: &mut Workshop) -> Status {
        if !self.1 {
            self.1 = true;
            return Status::Running;
        }
        let (item, _) = w.top();
        if let Work::Craft = self.0 {
            for part in w.recipes[item].clone() {
                *w.inventory.get_mut(part).expect("the ingredients were acquired") -= 1;
            }
        }
        *w.inventory.entry(item).or_insert(0) += 1;
        let verb = match self.0 {
            Work::Collect => "collect",
            Work::Craft => "craft",
        };
        w.log.push(format!("{}{verb} {item}", "  ".repeat(w.wanted.len() - 1)));
        Status::Success
    }
}

/// The hooks of the recursive reference: push the missing ingredient, pop it.
#[derive(Clone, Copy)]
enum Stack {
    PushMissing,
    Pop,
}

impl Action<Workshop> for Stack {
    fn tick(&mut self, w: &mut Workshop) -> Status {
        match self {
            Stack::PushMissing => {
                let missing = w.missing_ingredient().expect("the loop checked it");
                w.wanted.push(missing);
            }
            Stack::Pop => drop(w.wanted.pop()),
        }
        Status::Success
    }
}

/// `acquire` and `craft`, which refer to each other.
const LIBRARY: &str = r#"{"subtrees": {
    "acquire": {"type": "selector", "name": "Acquire", "children": [
        {"type": "condition", "condition": "have"},
        {"type": "sequence", "children": [
            {"type": "condition", "condition": "inWorld"},
            {"type": "action", "action": "collect"}]},
        {"type": "sequence", "children": [
            {"type": "condition", "condition": "craftable"},
            {"type": "subtree", "subtreeId": "craft"}]}]},
    "craft": {"type": "sequence", "name": "Craft", "children": [
        {"type": "while",
         "condition": {"type": "condition", "condition": "missingIngredient"},
         "child": {"type": "subtree", "subtreeId": "acquire",
                   "onEnter": "pushMissing", "onExit": "pop"}},
        {"type": "action", "action": "craft"}]}
}}"#;

/// The planner, with recursion up to `depth` levels.
fn planner(depth: usize) -> Agent<Workshop> {
    let mut registry = Registry::<Workshop>::new();
    registry
        .condition("have", |_: NoParams| Check::Have)
        .condition("inWorld", |_: NoParams| Check::InWorld)
        .condition("craftable", |_: NoParams| Check::Craftable)
        .condition("missingIngredient", |_: NoParams| Check::MissingIngredient)
        .action("collect", |_: NoParams| Working(Work::Collect, false))
        .action("craft", |_: NoParams| Working(Work::Craft, false))
        .action("pushMissing", |_: NoParams| Stack::PushMissing)
        .action("pop", |_: NoParams| Stack::Pop)
        .max_recursion(depth);
    let library = Library::from_json(LIBRARY).expect("the library reads");
    let tree = registry
        .load_with(r#"{"type": "subtree", "subtreeId": "acquire"}"#, &library)
        .expect("the planner loads");
    Agent::new(tree)
}

/// A small tech tree: a pickaxe from two sticks and an iron ingot, and so on.
fn workshop(goal: &'static str) -> Workshop {
    Workshop {
        recipes: BTreeMap::from([
            ("pickaxe", vec!["stick", "stick", "iron ingot"]),
            ("stick", vec!["plank"]),
            ("plank", vec!["log"]),
            ("iron ingot", vec!["iron ore", "coal"]),
        ]),
        in_world: vec!["log", "iron ore", "coal"],
        wanted: vec![(goal, 1)],
        ..Workshop::default()
    }
}

/// Ticks until the planner completes; returns the status and the ticks taken.
fn run(agent: &mut Agent<Workshop>, w: &mut Workshop) -> (Status, u32) {
    for tick in 1..=200 {
        let status = agent.tick_at(w, f64::from(tick));
        if status != Status::Running {
            return (status, tick);
        }
    }
    (Status::Running, 200)
}

fn main() {
    let mut w = workshop("pickaxe");
    let mut agent = planner(4);
    let (status, ticks) = run(&mut agent, &mut w);
    for line in &w.log {
        println!("{line}");
    }
    println!(
        "acquire pickaxe: {status} after {ticks} ticks; inventory {:?}",
        w.inventory
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_planner_collects_and_crafts_each_ingredient_recursively() {
        let mut w = workshop("pickaxe");
        let (status, _) = run(&mut planner(4), &mut w);
        assert_eq!(status, Status::Success);
        assert_eq!(
            w.log,
            [
                "      collect log",
                "    craft plank",
                "  craft stick",
                "      collect log",
                "    craft plank",
                "  craft stick",
                "    collect iron ore",
                "    collect coal",
                "  craft iron ingot",
                "craft pickaxe",
            ],
            "depth first, each ingredient acquired the same way"
        );
        assert_eq!(w.inventory.get("pickaxe"), Some(&1));
        assert!(
            w.inventory.iter().all(|(&k, &n)| k == "pickaxe" || n == 0),
            "{:?}",
            w.inventory
        );
        assert_eq!(w.wanted, [("pickaxe", 1)], "every push was popped");
    }

    #[test]
    fn what_is_at_hand_is_not_acquired_again() {
        let mut w = workshop("pickaxe");
        w.inventory.insert("stick", 2);
        let (status, _) = run(&mut planner(4), &mut w);
        assert_eq!(status, Status::Success);
        assert_eq!(
            w.log,
            [
                "    collect iron ore",
                "    collect coal",
                "  craft iron ingot",
                "craft pickaxe"
            ]
        );
    }

    #[test]
    fn an_item_neither_in_the_world_nor_craftable_fails_the_plan() {
        let mut w = workshop("pickaxe");
        w.in_world.retain(|&i| i != "coal");
        let (status, _) = run(&mut planner(4), &mut w);
        assert_eq!(status, Status::Failure);
        assert!(!w.log.iter().any(|l| l.contains("craft iron ingot")));
        assert_eq!(w.wanted, [("pickaxe", 1)], "the failed levels popped what they pushed");
    }

    #[test]
    fn a_plan_deeper_than_the_bound_fails_at_the_cut() {
        // pickaxe -> stick -> plank -> log needs `acquire` three levels inside itself.
        let mut w = workshop("pickaxe");
        let (status, _) = run(&mut planner(2), &mut w);
        assert_eq!(status, Status::Failure);
        assert!(
            w.log.is_empty(),
            "the log is three levels down: cut before it is collected"
        );
    }
}
