//! Checks of finished pictures: well-formed XML, every legend entry names a mark class drawn
//! and every mark class drawn has a legend entry, no two text boxes overlap (width estimated
//! as characters × 0.6 × font size), and every point drawn lies inside the view box.

use super::frame::Frame;
use super::render::clip_line;
use super::*;
use std::collections::BTreeSet;

/// Asserts the picture invariants on a finished document; returns the parsed mark classes.
pub(crate) fn check_picture(s: &str) -> BTreeSet<String> {
    let doc = roxmltree::Document::parse(s).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    let root = doc.root_element();
    let view: Vec<f64> = root
        .attribute("viewBox")
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    assert_eq!(view.len(), 4, "viewBox");
    let (w, h) = (view[2], view[3]);
    let num = |n: &roxmltree::Node, a: &str| -> f64 {
        n.attribute(a)
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{} without a numeric {a}", n.tag_name().name()))
    };
    let mut used = BTreeSet::new();
    let mut legend = BTreeSet::new();
    let mut boxes: Vec<(String, f64, f64, f64, f64)> = Vec::new();
    for n in root.descendants().filter(|n| n.is_element()) {
        match n.attribute("class") {
            Some("legend-swatch") => {
                legend.insert(n.attribute("data-mark").unwrap_or("").to_string());
            }
            Some(c) if c.starts_with("m-") => {
                used.extend(c.split_whitespace().map(str::to_string));
            }
            _ => {}
        }
        if n.tag_name().name() == "circle" {
            let (cx, cy) = (num(&n, "cx"), num(&n, "cy"));
            assert!(
                (0.0..=w).contains(&cx) && (0.0..=h).contains(&cy),
                "point outside the view box"
            );
        }
        if n.attribute("class")
            .is_some_and(|c| c.starts_with("m-outlier"))
        {
            for t in n.attribute("points").unwrap_or("").split([' ', ',']) {
                let v: f64 = t.parse().unwrap_or(-1.0);
                assert!(
                    v >= 0.0 && v <= w.max(h),
                    "outlier marker outside the view box"
                );
            }
        }
        if n.tag_name().name() == "text" {
            let text = n.text().unwrap_or("");
            let font = num(&n, "font-size");
            let (x, y) = (num(&n, "x"), num(&n, "y"));
            let tw = text.chars().count() as f64 * 0.6 * font;
            assert!(
                x >= 0.0 && x + tw <= w + 0.5 && y <= h,
                "text {text:?} outside the view box"
            );
            boxes.push((text.to_string(), x, y - 0.8 * font, x + tw, y + 0.2 * font));
        }
    }
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[..i] {
            let overlap = a.1 < b.3 && b.1 < a.3 && a.2 < b.4 && b.2 < a.4;
            assert!(!overlap, "labels {:?} and {:?} overlap", a.0, b.0);
        }
    }
    for l in &legend {
        assert!(used.contains(l), "legend entry {l} has no mark");
    }
    for u in &used {
        assert!(legend.contains(u), "mark class {u} is not in the legend");
    }
    used
}

#[test]
fn document_is_well_formed_with_legend_axes_and_free_labels() {
    let mut svg = Svg::new("a < b");
    svg.polygon(&[DVec2::ZERO, DVec2::X, DVec2::Y], "#1f77b4", "#1f77b4");
    svg.legend(Mark::Area, "#1f77b4", "triangle");
    svg.line(DVec2::new(0.5, 0.5), DVec2::new(1.0, -1.0), "gray");
    svg.legend(Mark::Line, "gray", "separating line");
    svg.arrow(DVec2::ZERO, DVec2::new(0.5, 0.5), "red");
    svg.legend(Mark::Arrow, "red", "axis");
    svg.dot(DVec2::new(0.2, 0.2), "black", 3.0);
    svg.legend(Mark::Dot, "black", "point");
    // Twelve labels on nearly the same spot.
    for k in 0..12 {
        svg.label(
            DVec2::new(0.2, 0.2 + 1e-3 * k as f64),
            &format!("p{k}"),
            "black",
        );
    }
    let s = svg.finish();
    assert!(s.contains("a &lt; b"));
    let used = check_picture(&s);
    assert_eq!(used.len(), 4, "{used:?}");
    assert!(s.matches(r#"class="tick""#).count() >= 6, "numbered axes");
}

#[test]
fn outliers_are_clamped_to_the_border_with_their_own_marker() {
    let mut svg = Svg::new("outliers");
    let square = vec![DVec2::ZERO, DVec2::X, DVec2::ONE, DVec2::Y];
    svg.rings(&[square], "#1f77b4", "#1f77b4", false);
    svg.legend(Mark::Area, "#1f77b4", "square");
    svg.fit_to(DVec2::ZERO, DVec2::ONE);
    svg.dot(DVec2::new(0.5, 0.5), "#2ca02c", 5.0);
    svg.legend(Mark::Dot, "#2ca02c", "inside");
    svg.dot(DVec2::new(1e6, -3e5), "#d62728", 5.0);
    svg.legend(Mark::Dot, "#d62728", "outside");
    svg.label(DVec2::new(1e6, -3e5), "far", "#d62728");
    let s = svg.finish();
    let used = check_picture(&s);
    assert!(used.contains("m-outlier"));
    assert!(s.contains(r#"fill-rule="nonzero""#));
    // The scene keeps its size: the square spans the 640-pixel plot (plus the 5% padding).
    let f = Frame::new(DVec2::splat(-0.05), DVec2::splat(1.05));
    let corner = f.map(DVec2::ONE);
    assert!(s.contains(&format!("{:.2},{:.2}", corner.x, corner.y)));
}

#[test]
fn rings_and_segments() {
    let mut svg = Svg::new("rings");
    let outer = vec![DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::splat(4.0)];
    let hole = vec![
        DVec2::new(2.0, 0.5),
        DVec2::new(3.0, 0.5),
        DVec2::new(3.0, 1.5),
    ];
    svg.rings(&[outer, hole], "black", "blue", true);
    svg.segment(DVec2::ZERO, DVec2::X, "red", 5.0);
    let s = svg.finish();
    assert_eq!(s.matches("<path").count(), 1);
    assert_eq!(s.matches('M').count(), 2, "two subpaths");
    assert!(s.contains(r#"fill-rule="evenodd""#));
    assert!(s.contains(r#"stroke-width="5""#));
}

#[test]
fn clip_line_cases() {
    let (lo, hi) = (DVec2::ZERO, DVec2::ONE);
    let (p, q) = clip_line(DVec2::splat(0.5), DVec2::X, lo, hi).unwrap();
    assert_eq!((p, q), (DVec2::new(0.0, 0.5), DVec2::new(1.0, 0.5)));
    assert!(clip_line(DVec2::new(0.5, 2.0), DVec2::X, lo, hi).is_none());
    assert!(clip_line(DVec2::ZERO, DVec2::ZERO, lo, hi).is_none());
}

#[test]
fn demo_picture_passes_the_picture_checks() {
    let path = std::env::temp_dir().join(format!("convexity-svg-test-{}.svg", std::process::id()));
    let (_text, ok) = crate::demo::polygons::section(&path);
    let s = std::fs::read_to_string(&path).unwrap_or_default();
    let _ = std::fs::remove_file(&path);
    assert!(ok);
    let used = check_picture(&s);
    assert!(used.len() >= 10, "{used:?}");
}

#[test]
fn polygon_picture_fits_the_polygons_clamps_outliers_and_follows_the_fill_rule() {
    use convexity::primitives::polygon::FillRule;
    // "ring" is a square with a same-orientation square inside: (5, 5) is outside under
    // even-odd and inside under non-zero.
    let v = serde_json::json!({
        "polygons": {
            "L": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]],
            "ring": [[0, 0], [10, 0], [10, 10], [0, 10], null, [2, 2], [8, 2], [8, 8], [2, 8]]
        },
        "polylines": {"cut": [[-1, 0.5], [11, 0.5]]},
        "points": [[0.5, 0.5], [5, 5], [1e6, 1e6], [-50, 3], [0.5, 0.6], [0.6, 0.5]],
        "pairs": [{"a": "L", "b": "cut"}]
    });
    for (rule, green, css_rule) in [
        (FillRule::EvenOdd, 3, "evenodd"),
        (FillRule::NonZero, 4, "nonzero"),
    ] {
        let r = crate::polygon_cmd::answer_all(&v, "polygon picture", rule).unwrap();
        let used = check_picture(&r.svg);
        assert!(used.contains("m-outlier"), "{used:?}");
        assert_eq!(r.svg.matches(r#"<polygon class="m-outlier "#).count(), 2);
        assert_eq!(
            r.svg.matches(r#"class="m-dot-2ca02c""#).count(),
            green,
            "{css_rule}"
        );
        assert!(r.svg.contains(&format!(r#"fill-rule="{css_rule}""#)));
        // The view is the polygons' box (padded): [-1, 11] wide, not a million.
        assert!(!r.svg.contains(">1000000<") && r.svg.contains(">10<"));
    }
}
