//! `convexity`: the command-line tool of the convexity collision-detection library.
//!
//! Arguments are parsed by clap (derive): each subcommand's `--help` documents its own input
//! format, `--version` prints the version, misspelt commands and options get suggestions,
//! and `convexity completions SHELL` prints a completion script.
//!
//! Exit status ([`exit`]): 0 success; 1 a check failed (the demo found a disagreement,
//! `separate`/`contains` could not prove an answer); 2 bad usage or bad input; 70 internal
//! error (a bug: a panic is caught by a hook that prints one line, never a trace); 74 the
//! output (standard output or a file) could not be written.

use clap::{CommandFactory, Parser, Subcommand};
use convexity_cli::{
    batch_run, contains_cmd, demo, emit, exit, polygon_cmd, query_cmd, separate_cmd, toi_cmd, Fatal,
};

const EXIT_HELP: &str = "\
EXIT STATUS:
  0   success
  1   a check failed: the demo found a disagreement, or separate/contains could not prove an
      answer (or a certificate was rejected)
  2   bad usage or bad input (bad pairs are reported as {\"pair\": i, \"error\": ...} lines
      and the other pairs are still answered)
  70  internal error (a bug in convexity; please report it)
  74  the output could not be written (standard output or an --svg file)";

/// convexity: collision detection between convex shapes, with checkable answers
#[derive(Parser, Debug)]
#[command(name = "convexity", version, after_help = EXIT_HELP, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Answer every pair of a JSON scene (or NDJSON stream), one JSON line per answer
    #[command(after_help = query_cmd::FORMAT_HELP)]
    Query(query_cmd::QueryArgs),
    /// Linear separability of two labelled point sets in any dimension (JSON or CSV)
    #[command(after_help = separate_cmd::FORMAT_HELP)]
    Separate(separate_cmd::SeparateArgs),
    /// For each pair of a scene, whether shape a is contained in shape b, with a certificate
    #[command(after_help = contains_cmd::FORMAT_HELP)]
    Contains {
        /// The scene file (the query format); '-' reads standard input
        file: String,
    },
    /// Point-in-polygon, polyline/polygon intersections and convex polygon contacts
    #[command(after_help = polygon_cmd::FORMAT_HELP)]
    Polygon {
        /// The input file (JSON); '-' reads standard input
        file: String,
        /// Draw the scene to this SVG file
        #[arg(long, value_name = "OUT")]
        svg: Option<String>,
        /// Fill rule of the picture: the polygons' fill and the points' colours
        #[arg(long, default_value = "even-odd", value_parser = ["even-odd", "non-zero"])]
        fill_rule: String,
    },
    /// Time of impact of moving 2D/3D bodies over a step h, one JSON line per pair
    #[command(after_help = toi_cmd::FORMAT_HELP)]
    Toi {
        /// The input file (JSON); '-' reads standard input
        file: String,
    },
    /// Run a built-in collection of pairs through every method and cross-check the answers
    Demo {
        /// Where to draw the 2D picture (default: target/convexity-demo.svg or a temp dir)
        #[arg(long, value_name = "PATH")]
        svg: Option<String>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

fn run(cli: Cli) -> Result<i32, Fatal> {
    match cli.command {
        Command::Query(args) => batch_run::run(&args),
        Command::Separate(args) => separate_cmd::run(&args),
        Command::Contains { file } => contains_cmd::run(&file),
        Command::Polygon {
            file,
            svg,
            fill_rule,
        } => {
            let rule = if fill_rule == "non-zero" {
                convexity::primitives::polygon::FillRule::NonZero
            } else {
                convexity::primitives::polygon::FillRule::EvenOdd
            };
            polygon_cmd::run(&file, svg.as_deref(), rule)
        }
        Command::Toi { file } => toi_cmd::run(&file),
        Command::Demo { svg } => demo::run(svg.as_deref()),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "convexity", &mut out);
            emit(&String::from_utf8_lossy(&out))?;
            Ok(exit::OK)
        }
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
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print to standard output and succeed; usage errors (with
            // clap's suggestions for misspelt commands and options) exit 2.
            let _ = e.print();
            std::process::exit(if e.use_stderr() {
                exit::INPUT
            } else {
                exit::OK
            });
        }
    };
    let code = match run(cli) {
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
