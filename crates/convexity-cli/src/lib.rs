//! The library half of the `convexity` command-line tool: every command's input parsing and
//! answering, so that `main.rs` stays a thin clap front end and the parsers (the scene format,
//! the labelled-points CSV) can be fuzzed (`fuzz/fuzz_targets/cli_scene.rs`, `cli_csv.rs`).
//!
//! Not a stable API: the modules are public for the binary and the fuzz targets only.

pub mod batch_run;
pub mod contains_cmd;
pub mod demo;
pub mod fields;
pub mod input;
pub mod labelled;
pub mod output;
pub mod polygon_cmd;
pub mod query_cmd;
pub mod rng;
pub mod scene;
pub mod separate_cmd;
pub mod svg;
pub mod toi_cmd;

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
    /// A file the user asked for (`--svg OUT`) could not be written.
    pub fn write_file(path: &str, e: &std::io::Error) -> Fatal {
        Fatal {
            message: format!("cannot write {path}: {}", crate::input::why(e)),
            code: exit::OUTPUT,
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

/// Writes `text` to standard output, turning a write error into a [`Fatal`].
pub fn emit(text: &str) -> Result<(), Fatal> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(Fatal::output)
}
