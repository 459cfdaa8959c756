//! `bt-studio open <trace.json> [--port N] [--host ADDR]`: serves the trace's
//! replay on the loopback interface and prints the page's URL.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, TcpListener};
use std::path::PathBuf;
use std::process::ExitCode;

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
}

fn main() -> ExitCode {
    let matches = cli().get_matches();
    let Some(("open", open)) = matches.subcommand() else {
        unreachable!("clap requires a subcommand");
    };
    let trace: &PathBuf = open.get_one("trace").expect("required");
    let port: u16 = *open.get_one("port").expect("defaulted");
    let host: IpAddr = open.get_one("host").copied().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
    if !trace.is_file() {
        eprintln!("bt-studio: {} is not a file", trace.display());
        return ExitCode::FAILURE;
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
    println!("bt-studio: replaying {} at {url}", trace.display());
    let _ = std::io::stdout().flush();
    match bt_studio::serve_blocking(listener, bt_studio::Files::new(trace)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bt-studio: {e}");
            ExitCode::FAILURE
        }
    }
}
