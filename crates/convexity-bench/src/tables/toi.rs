//! `toi.md` from the `toi` group (bench `toi`): polynomial root solves and swept GJK time of
//! impact vs parry3d-f64 `cast_shapes`.

use super::{
    div, header, log_lines, per_item, quote_lines, ratio_wide, t, with_summary, Raw, Results,
};
use std::fmt::Write as _;

/// The whole `toi.md`.
fn roots_section(s: &mut String, r: &Results, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## TOI: polynomial solves per second\n");
    let _ = writeln!(
        s,
        "Bench `toi`, groups `roots` (4,096 seeded polynomials with real roots in [−0.5, 1.5], \
         roots wanted in [0, 1]; `quadratic_roots`, `quartic_roots`) and `vertex-edge` (a moving \
         point against a moving segment in 2D: constant velocities give a quadratic, constant \
         accelerations a quartic). Batches of 256. No numeric target.\n"
    );
    let _ = writeln!(s, "| group | solve | time per solve | solves per second |");
    let _ = writeln!(s, "|---|---|---:|---:|");
    let mut sps = Vec::new();
    for g in ["roots", "vertex-edge"] {
        for m in ["quadratic", "quartic"] {
            let x = per_item(r, g, m, 256.0);
            let rate = x.map(|v| 1e9 / v);
            if g == "roots" {
                sps.push(format!(
                    "{m} {}",
                    rate.map_or("—".into(), |v| format!("{:.1} M/s", v / 1e6))
                ));
            }
            let _ = writeln!(
                s,
                "| {g} | {m} | {} | {} |",
                t(x),
                rate.map_or("—".into(), |v| format!("{:.2} M", v / 1e6))
            );
        }
    }
    s.push('\n');
    summary.push(format!("Root solves: {}", sps.join(", ")));
}

fn swept_section(s: &mut String, r: &Results, log: &str, summary: &mut Vec<String>) {
    let _ = writeln!(s, "## Swept GJK TOI vs parry3d-f64 `cast_shapes`\n");
    let _ = writeln!(
        s,
        "Bench `toi`, groups `swept-<set>`: the foundation hull sets (the same shapes and the \
         first 2,000 pose pairs for both libraries); A still, B moving toward A's origin by \
         s·(t_A − t_B) over the step h = 1, s cycling through 0.25, 0.75, 1.5. Ours: \
         `toi::swept_toi`; parry: `query::cast_shapes` with max TOI 1. Times per query.\n"
    );
    let _ = writeln!(
        s,
        "| set | ours swept_toi | parry cast_shapes | parry ÷ ours |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|");
    let mut sw = Vec::new();
    for set in ["hull8", "hull32"] {
        let g = format!("swept-{set}");
        let ours = per_item(r, &g, "convexity", 256.0);
        let parry = per_item(r, &g, "parry3d-f64", 256.0);
        sw.push(format!("{set} {}", ratio_wide(div(parry, ours))));
        let _ = writeln!(
            s,
            "| {set} | {} | {} | {} |",
            t(ours),
            t(parry),
            ratio_wide(div(parry, ours))
        );
    }
    s.push('\n');
    quote_lines(s, &log_lines(log, &["swept-"]));
    summary.push(format!(
        "Swept TOI vs parry cast_shapes (parry ÷ ours): {}",
        sw.join(", ")
    ));
}

pub fn table(raw: &Raw) -> String {
    let r = &raw.crit;
    let log = raw.text("toi-bench.log");
    let mut s = header(
        "Time of impact: root solves and swept GJK vs parry3d-f64",
        "toi",
        raw,
        "Times are per query unless a column says otherwise. Ratios are peer ÷ ours (above 1: \
         convexity is faster). Our code and the peer run in the same bench process on the same \
         seeded inputs, one after the other.",
    );
    let mut summary = Vec::new();

    roots_section(&mut s, r, &mut summary);
    swept_section(&mut s, r, &log, &mut summary);
    with_summary(s, &summary)
}
