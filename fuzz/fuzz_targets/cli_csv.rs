//! Fuzz target: arbitrary bytes as the labelled-points input of `convexity separate` (CSV,
//! read with and without a header, with the label column guessed or named), and the answer
//! on whatever parses.
//!
//! Properties: never a panic; an error is a non-empty message (naming the line for CSV
//! problems); parsed data has two non-empty classes of points of one dimension with finite
//! coordinates, and is answered without a panic.
#![no_main]

use convexity_cli::labelled::{from_csv, CsvOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let options = [
        CsvOptions::default(),
        CsvOptions {
            header: false,
            ..CsvOptions::default()
        },
        CsvOptions {
            label: Some("label".into()),
            delimiter: b';',
            ..CsvOptions::default()
        },
    ];
    for opts in &options {
        match from_csv(text, opts) {
            Err(e) => assert!(!e.is_empty()),
            Ok(l) => {
                assert!(!l.a.is_empty() && !l.b.is_empty());
                let dim = l.a[0].len();
                assert!(dim > 0 && dim == l.columns.len(), "{l:?}");
                for p in l.a.iter().chain(&l.b) {
                    assert_eq!(p.len(), dim);
                    assert!(p.iter().all(|x| x.is_finite()), "{p:?}");
                }
                let _ = convexity_cli::separate_cmd::answer(&l);
            }
        }
    }
});
