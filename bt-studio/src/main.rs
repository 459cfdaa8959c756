//! `behaved-studio open <trace.json> [--diff other.json] [--port N] [--host ADDR]`:
//! serves the trace's replay on the loopback interface and prints the page's
//! URL. `behaved-studio diff a.json b.json` prints where two traces first differ.
//! `behaved-studio edit <tree.json|tree.xml> [--library DIR] [--leaves MANIFEST] [--trace TRACE] [--push URL]`
//! serves the tree editor. `behaved-studio check <tree.json|tree.xml> [--library DIR] [--leaves MANIFEST]`
//! prints the loader's problems with a tree file.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use behaved_observe::Trace;
use behaved_studio::diff::Comparison;
use clap::{Arg, Command, value_parser};

fn port_arg() -> Arg {
    Arg::new("port")
        .long("port")
        .default_value("7878")
        .value_parser(value_parser!(u16))
        .help("the port to serve on; 0 picks a free one")
}

fn host_arg() -> Arg {
    Arg::new("host")
        .long("host")
        .default_value("127.0.0.1")
        .value_parser(value_parser!(IpAddr))
        .help("the address to serve on; anything but loopback exposes your files to the network")
}

/// Binds `host:port` and returns the listener and the page's URL.
fn listen(host: IpAddr, port: u16) -> Result<(TcpListener, String), String> {
    let listener = TcpListener::bind((host, port)).map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    Ok((listener, format!("http://{addr}/")))
}

/// The editor of the `tree` argument, with its `--library` and `--leaves`.
fn editor_of(args: &clap::ArgMatches) -> Result<behaved_studio::Editor, String> {
    let tree: &PathBuf = args.get_one("tree").expect("required");
    let mut editor = behaved_studio::Editor::new(tree);
    if let Some(dir) = args.get_one::<PathBuf>("library") {
        if !dir.is_dir() {
            return Err(format!("{} is not a folder", dir.display()));
        }
        editor = editor.with_library(dir);
    }
    if let Some(path) = args.get_one::<PathBuf>("leaves") {
        let manifest = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| behaved_interp::Manifest::from_json(&text))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        editor = editor.with_leaves(manifest);
    }
    Ok(editor)
}

/// `behaved-studio check tree.json ..`: exit 0 when the loader accepts the
/// tree, 1 with its problems, 2 when it cannot be checked.
fn check(args: &clap::ArgMatches) -> ExitCode {
    let tree: &PathBuf = args.get_one("tree").expect("required");
    match editor_of(args).and_then(|editor| editor.check_file()) {
        Ok(problems) if problems.is_empty() => {
            println!("{}: the loader accepts it", tree.display());
            ExitCode::SUCCESS
        }
        Ok(problems) => {
            for p in problems {
                println!("{}: {p}", tree.display());
            }
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            ExitCode::from(2)
        }
    }
}

/// `behaved-studio edit tree.json ..`.
fn edit(args: &clap::ArgMatches) -> ExitCode {
    let tree: &PathBuf = args.get_one("tree").expect("required");
    let mut editor = match editor_of(args) {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(trace) = args.get_one::<PathBuf>("trace") {
        editor = editor.with_trace(trace);
    }
    if let Some(url) = args.get_one::<String>("push") {
        match editor.push_to(url) {
            Ok(e) => editor = e,
            Err(e) => {
                eprintln!("behaved-studio: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let host: IpAddr = args.get_one("host").copied().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let (listener, url) = match listen(host, *args.get_one("port").expect("defaulted")) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("behaved-studio: editing {} at {url}", tree.display());
    let _ = std::io::stdout().flush();
    match behaved_studio::edit::serve_editor_blocking(listener, editor) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The tree file, `--library` and `--leaves`: what `edit` and `check` read.
fn tree_args(tree: &'static str) -> [Arg; 3] {
    [
        Arg::new("tree")
            .required(true)
            .value_parser(value_parser!(PathBuf))
            .help(tree),
        Arg::new("library")
            .long("library")
            .value_name("DIR")
            .value_parser(value_parser!(PathBuf))
            .help("a folder of subtrees: each .json file one subtree named by its stem, or a library file"),
        Arg::new("leaves")
            .long("leaves")
            .value_name("MANIFEST")
            .value_parser(value_parser!(PathBuf))
            .help("the game's leaf manifest (Registry::manifest); without it any leaf name is accepted"),
    ]
}

fn cli() -> Command {
    Command::new("behaved-studio")
        .about("A browser viewer for behaved trees")
        .subcommand_required(true)
        .subcommand(
            Command::new("open")
                .about("Serve the replay of a trace file (see behaved-observe's TRACE_FORMAT.md)")
                .arg(
                    Arg::new("trace")
                        .required(true)
                        .value_parser(value_parser!(PathBuf))
                        .help("the trace file, as written by TraceRecorder::trace().write_json"),
                )
                .arg(
                    Arg::new("diff")
                        .long("diff")
                        .value_name("OTHER")
                        .value_parser(value_parser!(PathBuf))
                        .help("a second trace of the same tree: the page shows where the two first differ"),
                )
                .arg(port_arg())
                .arg(host_arg()),
        )
        .subcommand(
            Command::new("edit")
                .about("Edit a JSON (or BehaviorTree.CPP .xml) tree in the browser, checked by behaved-interp's loader as you go")
                .args(tree_args("the tree file (behaved-interp's FORMAT.md, or BehaviorTree.CPP v4 .xml: its main tree, its other trees as subtrees); saves go to it or to new files beside it"))
                .arg(
                    Arg::new("trace")
                        .long("trace")
                        .value_name("TRACE")
                        .value_parser(value_parser!(PathBuf))
                        .help("a recorded trace of this tree to replay edits against (the preview)"),
                )
                .arg(
                    Arg::new("push")
                        .long("push")
                        .value_name("URL")
                        .help("a running game's live view (http://127.0.0.1:7878/): each saved tree that loads goes to it (Studio::take_reload)"),
                )
                .arg(port_arg())
                .arg(host_arg()),
        )
        .subcommand(
            Command::new("check")
                .about("Check a JSON or BehaviorTree.CPP .xml tree with behaved-interp's loader, as the editor does (exit 0: it loads, 1: its problems, 2: trouble)")
                .args(tree_args("the tree file (.json, or BehaviorTree.CPP v4 .xml)")),
        )
        .subcommand(
            Command::new("diff")
                .about("Print where two traces of the same tree first differ (exit 0: same, 1: different, 2: trouble)")
                .arg(Arg::new("a").required(true).value_parser(value_parser!(PathBuf)))
                .arg(Arg::new("b").required(true).value_parser(value_parser!(PathBuf))),
        )
}

/// `behaved-studio diff a b`.
fn diff(a: &Path, b: &Path) -> ExitCode {
    let read = |path: &Path| {
        std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
            .and_then(|f| Trace::read_json(std::io::BufReader::new(f)).map_err(|e| format!("{}: {e}", path.display())))
    };
    let (ta, tb) = match (read(a), read(b)) {
        (Ok(ta), Ok(tb)) => (ta, tb),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("behaved-studio: {e}");
            return ExitCode::from(2);
        }
    };
    match behaved_studio::diff::compare(&ta, &tb) {
        Ok(comparison) => {
            println!("{}", comparison.describe(&ta, &tb));
            match comparison {
                Comparison::Same { .. } => ExitCode::SUCCESS,
                Comparison::Diverge(_) => ExitCode::from(1),
            }
        }
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let matches = cli().get_matches();
    let open = match matches.subcommand() {
        Some(("open", open)) => open,
        Some(("edit", args)) => return edit(args),
        Some(("check", args)) => return check(args),
        Some(("diff", args)) => {
            let path = |name| args.get_one::<PathBuf>(name).expect("required");
            return diff(path("a"), path("b"));
        }
        _ => unreachable!("clap requires a known subcommand"),
    };
    let trace: &PathBuf = open.get_one("trace").expect("required");
    let port: u16 = *open.get_one("port").expect("defaulted");
    let host: IpAddr = open.get_one("host").copied().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    let other: Option<&PathBuf> = open.get_one("diff");
    for path in std::iter::once(trace).chain(other) {
        if !path.is_file() {
            eprintln!("behaved-studio: {} is not a file", path.display());
            return ExitCode::FAILURE;
        }
    }
    let listener = match TcpListener::bind((host, port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("behaved-studio: cannot listen on {host}:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}/"),
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut files = behaved_studio::Files::new(trace);
    match other {
        Some(other) => {
            println!(
                "behaved-studio: comparing {} with {} at {url}",
                trace.display(),
                other.display()
            );
            files = files.with_diff(other);
        }
        None => println!("behaved-studio: replaying {} at {url}", trace.display()),
    }
    let _ = std::io::stdout().flush();
    match behaved_studio::serve_blocking(listener, files) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("behaved-studio: {e}");
            ExitCode::FAILURE
        }
    }
}
