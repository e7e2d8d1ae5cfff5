//! Fuzz target: arbitrary bytes as a `convexity query` scene (JSON), through the CLI's strict
//! JSON reader, the scene parser, the pair resolver and the answering of each pair with the
//! default method (gjk). Mesh files are refused here (`Files::refused`), so the run never
//! touches the file system; the mesh readers have their own targets (`mesh_*`).
//!
//! Properties: never a panic; every error names where it is (a shape by name, a pair by
//! index, or the line and column of malformed JSON); every output line is one JSON object
//! naming its pair; the batched answering of the same pairs (`answer_pairs`: the library's
//! batch API through `query::run_many`) prints as many lines, with the same verdicts and
//! checks, and distances and depths within 1e-9 relative (the batch contract is 1e-12 plus the
//! rounding floor; this catches a wrong row, not the last bits).
#![no_main]

use convexity::query::Method;
use convexity_cli::query_cmd::{answer_pair, answer_pairs, Plan};
use convexity_cli::scene::{Files, Scene};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let value = match convexity_cli::input::parse(data) {
        Ok(v) => v,
        Err(e) => {
            assert!(e.line > 0 || data.is_empty() || e.column == 0, "{e}");
            return;
        }
    };
    let scene = match Scene::from_value(value, Files::refused("fuzzing reads no files")) {
        Ok(s) => s,
        Err(e) => {
            assert!(!e.0.is_empty());
            return;
        }
    };
    let plan = Plan {
        methods: vec![Method::Gjk],
        several: false,
        contact: true,
        force: false,
    };
    for (name, s) in &scene.shapes {
        if let Err(e) = s {
            assert!(e.starts_with("shape \""), "{name}: {e}");
        }
    }
    let n = scene.pairs.len().min(16);
    let batched = answer_pairs(&plan, (0..n).map(|i| (i, scene.resolve(i))).collect());
    assert_eq!(batched.len(), n);
    for (i, (b, _)) in batched.iter().enumerate() {
        let pair = scene.resolve(i);
        if let Err(e) = &pair {
            assert!(e.starts_with("pairs[") || e.starts_with("shape \""), "{e}");
        }
        let (lines, _) = answer_pair(&plan, i, pair);
        assert_eq!(lines.len(), b.len(), "pair {i}");
        for (l, lb) in lines.iter().zip(b) {
            let v: serde_json::Value = serde_json::from_str(l).expect("an output line is JSON");
            let w: serde_json::Value = serde_json::from_str(lb).expect("an output line is JSON");
            assert_eq!(v["pair"].as_u64(), Some(i as u64), "{l}");
            assert_eq!(w["pair"].as_u64(), Some(i as u64), "{lb}");
            for key in ["intersecting", "check", "error", "skipped"] {
                assert_eq!(v[key], w[key], "{key}: {l} {lb}");
            }
            for key in ["distance", "penetration_depth"] {
                if let (Some(x), Some(y)) = (v[key].as_f64(), w[key].as_f64()) {
                    // The coordinates' size too: the rounding floor grows with the offset.
                    let reach = ["point_a", "point_b"]
                        .iter()
                        .filter_map(|k| v[*k].as_array())
                        .flatten()
                        .filter_map(serde_json::Value::as_f64)
                        .fold(0.0f64, |m, c| m.max(c.abs()));
                    let scale = 1.0f64.max(x.abs()).max(y.abs()).max(reach);
                    assert!((x - y).abs() <= 1e-9 * scale, "{key}: {l} {lb}");
                }
            }
        }
    }
});
