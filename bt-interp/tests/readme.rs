//! The README's "Trees as data" example: its code is this file's code between
//! the markers, run here, where `behaved-interp` is a dependency (the facade's
//! doctests cannot reach a crate published after it).

// README:begin
use behaved::{Action, Status};
use behaved_interp::{Agent, NoParams, Registry};

struct Npc {
    steps: u32,
}

#[derive(Clone)]
struct Walk;

impl Action<Npc> for Walk {
    fn tick(&mut self, npc: &mut Npc) -> Status {
        npc.steps += 1;
        if npc.steps.is_multiple_of(3) {
            Status::Success
        } else {
            Status::Running
        }
    }
}

fn main() -> Result<(), behaved_interp::LoadError> {
    let mut leaves = Registry::new();
    leaves.action("walk", |_: NoParams| Walk);
    let tree = leaves.load(r#"{"type": "repeater", "count": 2, "child": {"type": "action", "action": "walk"}}"#)?;
    let mut npc = Agent::new(tree);
    let mut ctx = Npc { steps: 0 };
    let statuses: Vec<Status> = (0..5).map(|t| npc.tick_at(&mut ctx, t as f64)).collect();
    use Status::{Running as R, Success as S};
    // The third step completes the first walk and starts the second in the same tick.
    assert_eq!(statuses, [R, R, R, R, S]);
    Ok(())
}
// README:end

#[test]
fn the_readme_example_runs() {
    main().unwrap();
}

#[test]
fn the_readme_shows_this_code() {
    let readme = include_str!("../../README.md");
    let start = readme.find("## Trees as data").expect("the README has the section");
    let block = readme[start..]
        .split("```rust,ignore\n")
        .nth(1)
        .expect("its first Rust block");
    let shown = block.split("\n```").next().unwrap();
    let source = include_str!("readme.rs");
    let code = source
        .split("// README:begin\n")
        .nth(1)
        .unwrap()
        .split("\n// README:end")
        .next()
        .unwrap();
    assert_eq!(shown, code);
}
