//! Fuzz target: arbitrary bytes through the STL reader (`primitives::io`) and every way of
//! loading the result. Properties: never a panic, a hang or an allocation past the input's
//! size; every error names the file; loaded coordinates are finite.
#![no_main]

use convexity::primitives::io::{read_bytes, Format, LoadAs, Loaded};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match read_bytes(data, Format::Stl, "fuzz.stl") {
        Err(e) => assert!(e.to_string().starts_with("fuzz.stl"), "{e}"),
        Ok(d) => {
            assert!(d.vertices.iter().all(|v| v.is_finite()));
            for how in [
                LoadAs::Hull,
                LoadAs::Mesh,
                LoadAs::Parts,
                LoadAs::Components,
            ] {
                match d.clone().into_loaded(how) {
                    Ok(Loaded::Hull(p)) => assert!(!p.is_empty()),
                    Ok(Loaded::Parts(parts)) => assert!(parts.iter().all(|p| !p.points.is_empty())),
                    Ok(Loaded::Mesh(m)) => assert!(!m.triangles().is_empty()),
                    Err(e) => assert!(e.to_string().starts_with("fuzz.stl"), "{e}"),
                }
            }
        }
    }
});
