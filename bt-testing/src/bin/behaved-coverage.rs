//! `behaved-coverage <dir>`: the coverage tables of a test suite run with
//! `BEHAVED_COVERAGE=<dir>`, one per tree, merged across test processes.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let (Some(dir), None) = (args.next(), args.next()) else {
        eprintln!("usage: behaved-coverage <dir>   (the folder a test run wrote with BEHAVED_COVERAGE=<dir>)");
        return ExitCode::from(2);
    };
    match behaved_testing::print_coverage_dir(std::path::Path::new(&dir)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("behaved-coverage: {e}");
            ExitCode::FAILURE
        }
    }
}
