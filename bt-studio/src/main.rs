//! `bt-studio open <trace.json> [--diff other.json] [--port N] [--host ADDR]`:
//! serves the trace's replay on the loopback interface and prints the page's
//! URL. `bt-studio diff a.json b.json` prints where two traces first differ.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use bt_observe::Trace;
use bt_studio::diff::Comparison;
use clap::{Arg, Command, value_parser};

fn cli() -> Command {
    Command::new("bt-studio")
        .about("A browser viewer for bt trees")
        .subcommand_required(true)
        .subcommand(
            Command::new("open")
                .about("Serve the replay of a trace file (see bt-observe's TRACE_FORMAT.md)")
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
                .arg(
                    Arg::new("port")
                        .long("port")
                        .default_value("7878")
                        .value_parser(value_parser!(u16))
                        .help("the port to serve on; 0 picks a free one"),
                )
                .arg(
                    Arg::new("host")
                        .long("host")
                        .default_value("127.0.0.1")
                        .value_parser(value_parser!(IpAddr))
                        .help("the address to serve on; anything but loopback exposes the trace to the network"),
                ),
        )
        .subcommand(
            Command::new("diff")
                .about("Print where two traces of the same tree first differ (exit 0: same, 1: different, 2: trouble)")
                .arg(Arg::new("a").required(true).value_parser(value_parser!(PathBuf)))
                .arg(Arg::new("b").required(true).value_parser(value_parser!(PathBuf))),
        )
}

/// `bt-studio diff a b`.
fn diff(a: &Path, b: &Path) -> ExitCode {
    let read = |path: &Path| {
        std::fs::File::open(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
            .and_then(|f| Trace::read_json(std::io::BufReader::new(f)).map_err(|e| format!("{}: {e}", path.display())))
    };
    let (ta, tb) = match (read(a), read(b)) {
        (Ok(ta), Ok(tb)) => (ta, tb),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("bt-studio: {e}");
            return ExitCode::from(2);
        }
    };
    match bt_studio::diff::compare(&ta, &tb) {
        Ok(comparison) => {
            println!("{}", comparison.describe(&ta, &tb));
            match comparison {
                Comparison::Same { .. } => ExitCode::SUCCESS,
                Comparison::Diverge(_) => ExitCode::from(1),
            }
        }
        Err(e) => {
            eprintln!("bt-studio: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let matches = cli().get_matches();
    let open = match matches.subcommand() {
        Some(("open", open)) => open,
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
            eprintln!("bt-studio: {} is not a file", path.display());
            return ExitCode::FAILURE;
        }
    }
    let listener = match TcpListener::bind((host, port)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("bt-studio: cannot listen on {host}:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let url = match listener.local_addr() {
        Ok(addr) => format!("http://{addr}/"),
        Err(e) => {
            eprintln!("bt-studio: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut files = bt_studio::Files::new(trace);
    match other {
        Some(other) => {
            println!(
                "bt-studio: comparing {} with {} at {url}",
                trace.display(),
                other.display()
            );
            files = files.with_diff(other);
        }
        None => println!("bt-studio: replaying {} at {url}", trace.display()),
    }
    let _ = std::io::stdout().flush();
    match bt_studio::serve_blocking(listener, files) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bt-studio: {e}");
            ExitCode::FAILURE
        }
    }
}
