//! `convexity`: the command-line tool of the convexity collision-detection library.
//!
//! * `convexity query FILE [--algorithm NAME | --all] [--contact]`: answers the pairs of a
//!   JSON scene, one JSON line per answer (format documented in the README).
//! * `convexity demo`: runs a built-in collection of pairs through every method, cross-checks
//!   them and prints a table.
//! * `convexity help`: usage.
//!
//! Exit status: 0 success, 1 the demo found a disagreement, 2 bad usage or bad input, 70 an
//! internal error (a bug: a panic is caught by a hook that prints one line, never a trace).

mod contains_cmd;
mod demo;
mod fields;
mod labelled;
mod output;
mod polygon_cmd;
mod query_cmd;
mod rng;
mod scene;
mod separate_cmd;
mod svg;
mod toi_cmd;

/// Exit statuses.
pub mod exit {
    pub const OK: i32 = 0;
    /// The demo found a disagreement or a failed certificate.
    pub const CHECK_FAILED: i32 = 1;
    /// Bad usage or bad input.
    pub const INPUT: i32 = 2;
    /// Writing the output failed.
    pub const OUTPUT: i32 = 74;
    /// A bug in convexity (a panic).
    pub const INTERNAL: i32 = 70;
}

/// An error that ends the program with a message and an exit status.
#[derive(Debug, PartialEq)]
pub struct Fatal {
    pub message: String,
    pub code: i32,
    pub show_usage: bool,
}

impl Fatal {
    pub fn usage(message: String) -> Fatal {
        Fatal {
            message,
            code: exit::INPUT,
            show_usage: true,
        }
    }
    pub fn input(message: String) -> Fatal {
        Fatal {
            message,
            code: exit::INPUT,
            show_usage: false,
        }
    }
    pub fn output(e: std::io::Error) -> Fatal {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            // The reader went away (`convexity query s.json | head`): stop quietly.
            return Fatal {
                message: String::new(),
                code: exit::OK,
                show_usage: false,
            };
        }
        Fatal {
            message: format!("cannot write output: {e}"),
            code: exit::OUTPUT,
            show_usage: false,
        }
    }
}

const USAGE: &str = "\
convexity: collision detection between convex shapes, with checkable answers

usage:
  convexity query FILE [--algorithm NAME | --all] [--contact] [--force]
      Answer every pair of the JSON scene FILE ('-' reads standard input), one JSON
      object per line, in input order.
        --algorithm NAME  method to use (default gjk); one of: {METHODS}
        --all             run every method on every pair, one line each, and print an
                          agreement summary on standard error
        --contact         for intersecting pairs, add penetration_depth, the
                          separating normal and contact points
        --force           run methods on shapes beyond their practical size (otherwise
                          refused with the reason, e.g. the boundary test on 5,000+ vertices)
      Every certificate is verified before printing (\"verified\", \"check\" fields); a
      rejected one is withdrawn (intersecting: null).
  convexity separate FILE
      Linear separability of two labelled point sets in any dimension (JSON, or CSV with a
      header row and one label column holding two distinct values): separable or
      overlapping, the maximum margin, the hyperplane w·x = c and a certificate checked
      before printing; one JSON object on standard output, a summary line on standard
      error. Exit status 1 if no answer could be proved.
  convexity contains FILE
      For each pair of the JSON scene FILE, whether shape a is contained in shape b (vertex
      sets in any dimension), with a certificate: convex weights over b's vertices for every
      vertex of a, or a vertex of a outside b with a separating hyperplane. One JSON line per
      pair.
  convexity polygon FILE [--svg OUT]
      Point-in-polygon (both fill rules), polyline/polygon segment intersections and,
      for convex polygon pairs, SAT and contact classification, one JSON line per
      result; --svg OUT draws the scene.
  convexity toi FILE
      Time of impact of moving 2D/3D bodies over a step h, one JSON line per pair.
  convexity demo
      Run a built-in collection of pairs through every method, cross-check the answers
      against each other, against exact answers and with the certificate checker, and
      print a table. Exit status 1 if anything disagrees.
  convexity help | --help | -h
      Show this help.

exit status: 0 ok; 1 the demo found a disagreement; 2 bad usage or bad input (bad
pairs are reported as {\"pair\": i, \"error\": ...} lines and the other pairs are
still answered); 70 internal error.
";

/// Writes `text` to standard output, turning a write error into a [`Fatal`].
pub fn emit(text: &str) -> Result<(), Fatal> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Fatal::output)
}

fn usage() -> String {
    USAGE.replace("{METHODS}", &query_cmd::method_names())
}

fn run(args: &[String]) -> Result<i32, Fatal> {
    let Some(cmd) = args.first() else {
        eprint!("{}", usage());
        return Ok(exit::INPUT);
    };
    match cmd.as_str() {
        "help" | "--help" | "-h" => {
            emit(&usage())?;
            Ok(exit::OK)
        }
        "query" => {
            if args[1..].iter().any(|a| a == "--help" || a == "-h") {
                emit(&usage())?;
                return Ok(exit::OK);
            }
            query_cmd::run(&query_cmd::parse_args(&args[1..])?)
        }
        "separate" => separate_cmd::run(&args[1..]),
        "contains" => contains_cmd::run(&args[1..]),
        "demo" => match args.get(1).map(String::as_str) {
            None => demo::run(),
            Some("--help" | "-h") => {
                emit(&usage())?;
                Ok(exit::OK)
            }
            Some(other) => Err(Fatal::usage(format!(
                "demo takes no arguments; unexpected {other}"
            ))),
        },
        "polygon" | "toi" if args[1..].iter().any(|a| a == "--help" || a == "-h") => {
            emit(&usage())?;
            Ok(exit::OK)
        }
        "polygon" => polygon_cmd::run(&args[1..]),
        "toi" => toi_cmd::run(&args[1..]),
        other => Err(Fatal::usage(format!("unknown command {other}"))),
    }
}

fn main() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!("convexity: internal error (please report): {msg}{at}");
        std::process::exit(exit::INTERNAL);
    }));
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let code = match run(&args) {
        Ok(code) => code,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("error: {}", f.message);
            }
            if f.show_usage {
                eprintln!("run 'convexity help' for usage");
            }
            f.code
        }
    };
    std::process::exit(code);
}
