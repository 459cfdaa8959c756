//! Debugging a guard: log its state changes, record a trace, travel back to
//! the moment an intruder interrupted the patrol, and draw the tree.
//!
//! ```text
//! cargo run --example debug_trace [-- OUTPUT_DIR]
//! cargo run --example debug_trace -- --studio   # then watch the guard live at http://127.0.0.1:7878/
//! cargo run -p behaved-studio -- open /tmp/bt-debug-trace/guard.trace.json   # or replay the trace
//! ```
//!
//! With `--studio` the guard then patrols on in real time (two ticks a second,
//! the intruder coming back every 24 ticks) for behaved-studio's live view, until Ctrl-C.
//!
//! Writes `guard.trace.json` (the trace file, see `bt-observe/TRACE_FORMAT.md`,
//! with the post's values after each tick as context)
//! and `guard.dot` (Graphviz: `dot -Tsvg guard.dot -o guard.svg`) to
//! `OUTPUT_DIR`, by default `bt-debug-trace` in the system's temp directory.

#[path = "support/guard_post.rs"]
mod guard_post;

use std::error::Error;
use std::path::PathBuf;

use behaved::prelude::*;
use behaved_observe::{ConsoleLogger, Cursor, Event, Tee, TraceRecorder, View};
use guard_post::{Guard, Post};

fn main() -> Result<(), Box<dyn Error>> {
    let studio = std::env::args_os().any(|a| a == "--studio");
    let dir = std::env::args_os()
        .skip(1)
        .find(|a| a != "--studio")
        .map_or_else(|| std::env::temp_dir().join("bt-debug-trace"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;

    let mut guard = Guard::new();
    let mut post = Post::default();
    // Record everything and log the changes as they happen.
    let mut watch = Tee(
        TraceRecorder::new(Guard::NODES, 10_000)?,
        ConsoleLogger::io(Guard::NODES, std::io::stdout())?.show_ended(false),
    );
    println!("== Console log ==");
    for tick in 1..=24 {
        let now = f64::from(tick - 1) * 0.5;
        post.now = now;
        if tick == 10 {
            post.intruder = Some(7.5); // behind the tower, out of sight until the guard comes back
        }
        guard.tick_observed(&mut post, now, &mut watch);
        watch.0.record_context(&post.watched())?;
    }
    if let Some(e) = watch.1.error() {
        return Err(format!("console log: {e}").into());
    }

    let trace = watch.0.trace();
    let path = dir.join("guard.trace.json");
    trace.write_json(std::io::BufWriter::new(std::fs::File::create(&path)?))?;
    println!(
        "\nTrace of ticks {}..={} written to {}",
        trace.first_tick(),
        trace.last_tick(),
        path.display()
    );

    // Time travel: find the tick the chase began, and look around it.
    let chase = Guard::NODES
        .iter()
        .find(|n| n.label == "Chase")
        .ok_or("no Chase node")?
        .id;
    let interrupted = trace
        .ticks()
        .find(|t| t.events.contains(&Event::Entered { node: chase }))
        .ok_or("the chase never began")?
        .tick;
    let mut cursor = Cursor::new(&trace)?;
    let moments = [
        (interrupted - 1, "patrolling"),
        (interrupted, "intruder seen: the patrol is halted"),
        (interrupted + 1, "caught"),
        (cursor.last_tick(), "patrolling again"),
    ];
    for (tick, what) in moments {
        cursor.seek(tick)?;
        let view = View::new(cursor.nodes())?.with_statuses(cursor.statuses())?;
        let now = cursor.now().unwrap_or(0.0);
        print!("\n== Tick {tick} (t = {now:.1} s): {what} ==\n{}", view.ascii());
    }

    cursor.seek(interrupted)?;
    let dot = View::new(Guard::NODES)?.with_statuses(cursor.statuses())?.dot();
    let path = dir.join("guard.dot");
    std::fs::write(&path, dot)?;
    println!("\nGraphviz view of tick {interrupted} written to {}", path.display());
    println!("Alarms raised: {}", post.alarms);
    if studio {
        patrol_live()?;
    }
    Ok(())
}

/// Serves the guard to behaved-studio's live view and patrols in real time, forever.
fn patrol_live() -> Result<(), Box<dyn Error>> {
    let studio = behaved_studio::Studio::serve("127.0.0.1:7878")?;
    let mut observer = studio.agent("guard", Guard::NODES)?;
    println!("\nbt-studio: watch the guard at {} (Ctrl-C to stop)", studio.url());
    let mut guard = Guard::new();
    let mut post = Post::default();
    for tick in 1u32.. {
        let now = f64::from(tick - 1) * 0.5;
        post.now = now;
        if tick % 24 == 10 {
            post.intruder = Some(7.5);
        }
        guard.tick_observed(&mut post, now, &mut observer);
        observer.record_context(&post.watched())?;
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    Ok(())
}
