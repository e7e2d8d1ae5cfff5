//! A small SVG writer for 2D scenes: polygons, polylines, points, arrows and infinite lines.
//!
//! World coordinates (y up) are mapped to an 800-pixel-wide picture (y down) that fits every
//! item with a margin; infinite lines (separating lines) are clipped to that view. Labels are
//! escaped. The output is a complete standalone SVG document.

use glam::DVec2;
use std::fmt::Write;

enum Item {
    Polygon {
        points: Vec<DVec2>,
        stroke: String,
        fill: String,
    },
    Polyline {
        points: Vec<DVec2>,
        stroke: String,
        dashed: bool,
    },
    Dot {
        at: DVec2,
        color: String,
        radius_px: f64,
    },
    Arrow {
        from: DVec2,
        to: DVec2,
        color: String,
    },
    /// The infinite line through `through` with direction `dir`.
    Line {
        through: DVec2,
        dir: DVec2,
        color: String,
    },
    Label {
        at: DVec2,
        text: String,
        color: String,
    },
    /// Several closed rings filled as one shape under a fill rule.
    Rings {
        rings: Vec<Vec<DVec2>>,
        stroke: String,
        fill: String,
        even_odd: bool,
    },
    /// A thick finite segment (a collinear overlap).
    Segment {
        from: DVec2,
        to: DVec2,
        color: String,
        width_px: f64,
    },
}

/// An SVG picture under construction.
#[derive(Default)]
pub struct Svg {
    items: Vec<Item>,
    title: String,
}

const WIDTH: f64 = 800.0;
const MARGIN: f64 = 40.0;

impl Svg {
    pub fn new(title: &str) -> Svg {
        Svg {
            items: Vec::new(),
            title: title.to_string(),
        }
    }

    pub fn polygon(&mut self, points: &[DVec2], stroke: &str, fill: &str) {
        self.items.push(Item::Polygon {
            points: points.to_vec(),
            stroke: stroke.into(),
            fill: fill.into(),
        });
    }

    pub fn polyline(&mut self, points: &[DVec2], stroke: &str, dashed: bool) {
        self.items.push(Item::Polyline {
            points: points.to_vec(),
            stroke: stroke.into(),
            dashed,
        });
    }

    pub fn dot(&mut self, at: DVec2, color: &str, radius_px: f64) {
        self.items.push(Item::Dot {
            at,
            color: color.into(),
            radius_px,
        });
    }

    pub fn arrow(&mut self, from: DVec2, to: DVec2, color: &str) {
        self.items.push(Item::Arrow {
            from,
            to,
            color: color.into(),
        });
    }

    pub fn line(&mut self, through: DVec2, dir: DVec2, color: &str) {
        self.items.push(Item::Line {
            through,
            dir,
            color: color.into(),
        });
    }

    pub fn label(&mut self, at: DVec2, text: &str, color: &str) {
        self.items.push(Item::Label {
            at,
            text: text.into(),
            color: color.into(),
        });
    }

    /// Closed rings (outer boundaries and holes) filled as one shape: `even_odd` selects the
    /// SVG fill rule `evenodd`, otherwise `nonzero`.
    pub fn rings(&mut self, rings: &[Vec<DVec2>], stroke: &str, fill: &str, even_odd: bool) {
        self.items.push(Item::Rings {
            rings: rings.to_vec(),
            stroke: stroke.into(),
            fill: fill.into(),
            even_odd,
        });
    }

    /// A finite segment drawn `width_px` wide.
    pub fn segment(&mut self, from: DVec2, to: DVec2, color: &str, width_px: f64) {
        self.items.push(Item::Segment {
            from,
            to,
            color: color.into(),
            width_px,
        });
    }

    /// World-space bounds of every finite item (lines excluded), as (min, max).
    fn bounds(&self) -> (DVec2, DVec2) {
        let mut lo = DVec2::splat(f64::INFINITY);
        let mut hi = DVec2::splat(f64::NEG_INFINITY);
        let mut add = |p: DVec2| {
            if p.is_finite() {
                lo = lo.min(p);
                hi = hi.max(p);
            }
        };
        for it in &self.items {
            match it {
                Item::Polygon { points, .. } | Item::Polyline { points, .. } => {
                    points.iter().for_each(|&p| add(p))
                }
                Item::Dot { at, .. } | Item::Label { at, .. } => add(*at),
                Item::Arrow { from, to, .. } | Item::Segment { from, to, .. } => {
                    add(*from);
                    add(*to);
                }
                Item::Line { through, .. } => add(*through),
                Item::Rings { rings, .. } => rings.iter().flatten().for_each(|&p| add(p)),
            }
        }
        if !lo.is_finite() {
            return (DVec2::splat(-1.0), DVec2::splat(1.0));
        }
        let pad = ((hi - lo).max_element() * 0.05).max(1e-9);
        (lo - pad, hi + pad)
    }

    /// The finished document.
    pub fn finish(&self) -> String {
        let (lo, hi) = self.bounds();
        let span = (hi - lo).max(DVec2::splat(1e-12));
        let scale = (WIDTH - 2.0 * MARGIN) / span.x.max(span.y);
        let height = span.y * scale + 2.0 * MARGIN + 30.0;
        let width = span.x * scale + 2.0 * MARGIN;
        let map = |p: DVec2| {
            DVec2::new(
                MARGIN + (p.x - lo.x) * scale,
                MARGIN + 30.0 + (hi.y - p.y) * scale,
            )
        };
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif" font-size="13">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="{MARGIN}" y="22" font-size="15">{}</text>"#,
            escape(&self.title)
        );
        let path = |points: &[DVec2]| {
            points
                .iter()
                .map(|&p| {
                    let q = map(p);
                    format!("{:.2},{:.2}", q.x, q.y)
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        for it in &self.items {
            match it {
                Item::Polygon {
                    points,
                    stroke,
                    fill,
                } => {
                    let _ = writeln!(
                        s,
                        r#"<polygon points="{}" stroke="{stroke}" fill="{fill}" fill-opacity="0.35" stroke-width="1.5"/>"#,
                        path(points)
                    );
                }
                Item::Polyline {
                    points,
                    stroke,
                    dashed,
                } => {
                    let dash = if *dashed {
                        r#" stroke-dasharray="6 4""#
                    } else {
                        ""
                    };
                    let _ = writeln!(
                        s,
                        r#"<polyline points="{}" stroke="{stroke}" fill="none" stroke-width="1.5"{dash}/>"#,
                        path(points)
                    );
                }
                Item::Dot {
                    at,
                    color,
                    radius_px,
                } => {
                    let q = map(*at);
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{:.2}" cy="{:.2}" r="{radius_px}" fill="{color}"/>"#,
                        q.x, q.y
                    );
                }
                Item::Arrow { from, to, color } => {
                    let (a, b) = (map(*from), map(*to));
                    let _ = writeln!(
                        s,
                        r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="2"/>"#,
                        a.x, a.y, b.x, b.y
                    );
                    // The head as a filled triangle in the arrow's colour (markers with
                    // `context-stroke` are not supported by every renderer).
                    if let Some(d) = (b - a).try_normalize() {
                        let n = d.perp();
                        let (l, r) = (b - d * 10.0 + n * 4.0, b - d * 10.0 - n * 4.0);
                        let _ = writeln!(
                            s,
                            r#"<polygon points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2}" fill="{color}"/>"#,
                            b.x, b.y, l.x, l.y, r.x, r.y
                        );
                    }
                }
                Item::Line {
                    through,
                    dir,
                    color,
                } => {
                    if let Some((p, q)) = clip_line(*through, *dir, lo, hi) {
                        let (a, b) = (map(p), map(q));
                        let _ = writeln!(
                            s,
                            r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="1.2" stroke-dasharray="8 5"/>"#,
                            a.x, a.y, b.x, b.y
                        );
                    }
                }
                Item::Rings {
                    rings,
                    stroke,
                    fill,
                    even_odd,
                } => {
                    let d: String = rings
                        .iter()
                        .filter(|r| !r.is_empty())
                        .map(|r| format!("M{}Z", path(r).replace(' ', " L")))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let rule = if *even_odd { "evenodd" } else { "nonzero" };
                    let _ = writeln!(
                        s,
                        r#"<path d="{d}" stroke="{stroke}" fill="{fill}" fill-opacity="0.35" fill-rule="{rule}" stroke-width="1.5"/>"#
                    );
                }
                Item::Segment {
                    from,
                    to,
                    color,
                    width_px,
                } => {
                    let (a, b) = (map(*from), map(*to));
                    let _ = writeln!(
                        s,
                        r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="{width_px}" stroke-linecap="round" stroke-opacity="0.8"/>"#,
                        a.x, a.y, b.x, b.y
                    );
                }
                Item::Label { at, text, color } => {
                    let q = map(*at);
                    let _ = writeln!(
                        s,
                        r#"<text x="{:.2}" y="{:.2}" fill="{color}">{}</text>"#,
                        q.x + 4.0,
                        q.y - 4.0,
                        escape(text)
                    );
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The part of the line `through + t·dir` inside the box [lo, hi] (Liang–Barsky).
fn clip_line(through: DVec2, dir: DVec2, lo: DVec2, hi: DVec2) -> Option<(DVec2, DVec2)> {
    if !through.is_finite() || !dir.is_finite() || dir.length_squared() == 0.0 {
        return None;
    }
    let (mut t0, mut t1) = (f64::NEG_INFINITY, f64::INFINITY);
    for k in 0..2 {
        let (p, d, l, h) = (through[k], dir[k], lo[k], hi[k]);
        if d == 0.0 {
            if p < l || p > h {
                return None;
            }
        } else {
            let (a, b) = ((l - p) / d, (h - p) / d);
            t0 = t0.max(a.min(b));
            t1 = t1.min(a.max(b));
        }
    }
    (t0 <= t1).then(|| (through + dir * t0, through + dir * t1))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_is_well_formed_and_fits() {
        let mut svg = Svg::new("a < b");
        svg.polygon(&[DVec2::ZERO, DVec2::X, DVec2::Y], "#1f77b4", "#1f77b4");
        svg.line(DVec2::new(0.5, 0.5), DVec2::new(1.0, -1.0), "gray");
        svg.arrow(DVec2::ZERO, DVec2::new(0.5, 0.5), "red");
        svg.dot(DVec2::new(0.2, 0.2), "black", 3.0);
        let s = svg.finish();
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert!(s.contains("a &lt; b"));
        assert_eq!(
            s.matches("<polygon").count(),
            2,
            "the triangle and the arrow head"
        );
        assert_eq!(s.matches("<line").count(), 2);
        // Every coordinate drawn (after the header lines) lies inside the picture.
        let body: String = s.lines().skip(2).collect();
        for num in body
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|t| t.parse::<f64>().ok())
        {
            assert!((-1.0..=900.0).contains(&num), "{num}");
        }
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
}
