//! The README's "Test your trees" section: its code is this file's code
//! between the markers, and the output it shows is what the kit prints.

// README:begin
use behaved::prelude::*;
use behaved_testing::{Scenario, StandIn, TestTree};

struct Guard {
    alarm: bool,
}

/// The real chase needs the game's navmesh; the tests stand in for it.
struct Chase;

impl Action<Guard> for Chase {
    fn tick(&mut self, _: &mut Guard) -> Status {
        todo!("pathfinding")
    }
}

behave! {
    tree Patrol for Guard {
        reactive selector {
            sequence { cond(|g| g.alarm), Chase },
            wait(5.0),
        }
    }
}

/// The story of one alarm, tick by tick.
fn the_alarm() -> Scenario<Guard> {
    Scenario::new("the alarm interrupts the patrol")
        .tick(0.0)
        .expect(Status::Running)
        .ran("wait(5.0)")
        .tick(4.0)
        .expect(Status::Running)
        .not_ran("Chase")
        .set(|g: &mut Guard| g.alarm = true)
        .tick(5.0)
        .expect(Status::Running)
        .ran("Chase")
        .halted("wait(5.0)")
        .tick(6.0)
        .expect(Status::Success)
}

#[test]
fn the_alarm_interrupts_the_patrol() -> Result<(), behaved_testing::Error> {
    let mut patrol = TestTree::new(Patrol::new());
    patrol.stand_in("Chase", StandIn::statuses([Status::Running, Status::Success]))?;
    the_alarm().run(&mut patrol, &mut Guard { alarm: false })?;
    patrol.golden("tests/golden/patrol.json")?; // BEHAVED_GOLDEN=overwrite records it
    println!("{}", patrol.coverage());
    Ok(())
}
// README:end

/// The patrol with its branches swapped: the README's failing example.
mod shorter {
    use super::{Chase, Guard};
    use behaved::prelude::*;

    behave! {
        pub tree Patrol for Guard {
            reactive selector {
                wait(5.0),
                sequence { cond(|g| g.alarm), Chase },
            }
        }
    }
}

/// The section of the README about the kit, and its fenced blocks in order.
fn readme_blocks() -> Vec<String> {
    let readme = include_str!("../../README.md");
    let start = readme.find("## Test your trees").expect("the README has the section");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut blocks = Vec::new();
    let mut lines = section.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("```") && line.len() > 3 {
            let body: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            blocks.push(format!("{}\n", body.join("\n")));
        }
    }
    blocks
}

#[test]
fn the_readme_shows_this_code() {
    let source = include_str!("readme.rs");
    let code = source
        .split("// README:begin\n")
        .nth(1)
        .unwrap()
        .split("// README:end")
        .next()
        .unwrap();
    let shown = readme_blocks()
        .into_iter()
        .find(|b| b.starts_with("use behaved::prelude::*;"))
        .expect("the code block");
    assert_eq!(shown, code);
}

#[test]
fn the_readme_shows_what_the_kit_prints() -> Result<(), behaved_testing::Error> {
    let blocks = readme_blocks();
    let mut patrol = TestTree::new(Patrol::new());
    patrol.stand_in("Chase", StandIn::statuses([Status::Running, Status::Success]))?;
    the_alarm().run(&mut patrol, &mut Guard { alarm: false })?;
    let table = patrol.coverage().to_string();
    assert!(blocks.contains(&table), "the README shows the coverage table:\n{table}");

    let mut changed = TestTree::new(shorter::Patrol::new());
    changed.stand_in("Chase", StandIn::statuses([Status::Running, Status::Success]))?;
    let failure = the_alarm().run(&mut changed, &mut Guard { alarm: false }).unwrap_err();
    let failure = format!("{}\n", failure.to_string().trim_end());
    assert!(blocks.contains(&failure), "the README shows the failure:\n{failure}");
    Ok(())
}
