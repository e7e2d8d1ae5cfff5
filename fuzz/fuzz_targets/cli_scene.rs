//! Fuzz target: arbitrary bytes as a `convexity query` scene (JSON), through the CLI's strict
//! JSON reader, the scene parser, the pair resolver and the answering of each pair with the
//! default method (gjk). Mesh files are refused here (`Files::refused`), so the run never
//! touches the file system; the mesh readers have their own targets (`mesh_*`).
//!
//! Properties: never a panic; every error names where it is (a shape by name, a pair by
//! index, or the line and column of malformed JSON); every output line is one JSON object
//! naming its pair.
#![no_main]

use convexity::query::Method;
use convexity_cli::query_cmd::{answer_pair, Plan};
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
    for i in 0..scene.pairs.len().min(16) {
        let pair = scene.resolve(i);
        if let Err(e) = &pair {
            assert!(e.starts_with("pairs[") || e.starts_with("shape \""), "{e}");
        }
        let (lines, _) = answer_pair(&plan, i, pair);
        for l in lines {
            let v: serde_json::Value = serde_json::from_str(&l).expect("an output line is JSON");
            assert_eq!(v["pair"].as_u64(), Some(i as u64), "{l}");
        }
    }
});
