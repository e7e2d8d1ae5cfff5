//! Prints the untimed statistics of every data set (overlap fraction, average iterations,
//! agreement with parry, depth quality) without running any benchmark; the `gjk` bench target
//! computes the same numbers and records them for the tables.
//!
//! Usage: `agreement [set ...]` (all sets by default).

use convexity::{DVec3, SupportMap};
use convexity_bench::{box_set, hull_set, sphere_set, stats, DataSet, Kind};

fn show<S: SupportMap<DVec3>>(set: DataSet<S>) {
    let t = std::time::Instant::now();
    let st = stats(&set);
    println!(
        "{}",
        serde_json::to_string_pretty(&st.to_json()).expect("json")
    );
    eprintln!("[{}] {:.1} s", st.name, t.elapsed().as_secs_f64());
}

fn main() {
    let names: Vec<String> = std::env::args().skip(1).collect();
    for kind in Kind::ALL {
        if !names.is_empty() && !names.contains(&kind.name()) {
            continue;
        }
        match kind {
            Kind::Hull(n) => show(hull_set(n)),
            Kind::Box => show(box_set()),
            Kind::Sphere => show(sphere_set()),
        }
    }
}
