//! Drawing the document: title, frame and axes, the marks (clipped to the plot area, dots and
//! outliers on top), the legend under the x axis, then the labels placed around their anchors.

use super::frame::{axes, Frame, BELOW, TITLE_H};
use super::labels::{place, text_width, TextBox};
use super::{escape, Item, Mark, Svg};
use glam::DVec2;
use std::fmt::Write;

const TITLE_FONT: f64 = 15.0;
const LABEL_FONT: f64 = 13.0;
const LEGEND_FONT: f64 = 12.0;
/// Width of a legend swatch and the gap after an entry, pixels.
const SWATCH: f64 = 22.0;
const LEGEND_GAP: f64 = 18.0;

fn points_attr(f: &Frame, points: &[DVec2]) -> String {
    points
        .iter()
        .map(|&p| {
            let q = f.map(p);
            format!("{:.2},{:.2}", q.x, q.y)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An outlier marker: a diamond with a black rim, filled with the point's colour (it has the
/// classes of both marks: the outlier and the point's colour).
fn diamond(q: DVec2, color: &str) -> String {
    let r = 6.5;
    format!(
        r#"<polygon class="m-outlier {}" points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2} {:.2},{:.2}" fill="{color}" stroke="black" stroke-width="1.5"/>"#,
        Mark::Dot.class(color),
        q.x,
        q.y - r,
        q.x + r,
        q.y,
        q.x,
        q.y + r,
        q.x - r,
        q.y
    )
}

/// One mark (not a dot) as SVG, with its class.
fn mark(f: &Frame, it: &Item) -> String {
    match it {
        Item::Polygon {
            points,
            stroke,
            fill,
        } => format!(
            r#"<polygon class="{}" points="{}" stroke="{stroke}" fill="{fill}" fill-opacity="0.35" stroke-width="1.5"/>"#,
            Mark::Area.class(stroke),
            points_attr(f, points)
        ),
        Item::Polyline {
            points,
            stroke,
            dashed,
        } => {
            let (m, dash) = if *dashed {
                (Mark::DashedPath, r#" stroke-dasharray="6 4""#)
            } else {
                (Mark::Path, "")
            };
            format!(
                r#"<polyline class="{}" points="{}" stroke="{stroke}" fill="none" stroke-width="1.5"{dash}/>"#,
                m.class(stroke),
                points_attr(f, points)
            )
        }
        Item::Arrow { from, to, color } => {
            let (a, b) = (f.map(*from), f.map(*to));
            let class = Mark::Arrow.class(color);
            let mut s = format!(
                r#"<g class="{class}"><line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="2"/>"#,
                a.x, a.y, b.x, b.y
            );
            // The head as a filled triangle in the arrow's colour (markers with
            // `context-stroke` are not supported by every renderer).
            if let Some(d) = (b - a).try_normalize() {
                let n = d.perp();
                let (l, r) = (b - d * 10.0 + n * 4.0, b - d * 10.0 - n * 4.0);
                let _ = write!(
                    s,
                    r#"<polygon points="{:.2},{:.2} {:.2},{:.2} {:.2},{:.2}" fill="{color}"/>"#,
                    b.x, b.y, l.x, l.y, r.x, r.y
                );
            }
            s.push_str("</g>");
            s
        }
        Item::Line {
            through,
            dir,
            color,
        } => match clip_line(*through, *dir, f.lo, f.hi) {
            Some((p, q)) => {
                let (a, b) = (f.map(p), f.map(q));
                format!(
                    r#"<line class="{}" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="1.2" stroke-dasharray="8 5"/>"#,
                    Mark::Line.class(color),
                    a.x,
                    a.y,
                    b.x,
                    b.y
                )
            }
            None => String::new(),
        },
        Item::Rings {
            rings,
            stroke,
            fill,
            even_odd,
        } => {
            let d: String = rings
                .iter()
                .filter(|r| !r.is_empty())
                .map(|r| format!("M{}Z", points_attr(f, r).replace(' ', " L")))
                .collect::<Vec<_>>()
                .join(" ");
            let rule = if *even_odd { "evenodd" } else { "nonzero" };
            format!(
                r#"<path class="{}" d="{d}" stroke="{stroke}" fill="{fill}" fill-opacity="0.35" fill-rule="{rule}" stroke-width="1.5"/>"#,
                Mark::Area.class(stroke)
            )
        }
        Item::Segment {
            from,
            to,
            color,
            width_px,
        } => {
            let (a, b) = (f.map(*from), f.map(*to));
            format!(
                r#"<line class="{}" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{color}" stroke-width="{width_px}" stroke-linecap="round" stroke-opacity="0.8"/>"#,
                Mark::Segment.class(color),
                a.x,
                a.y,
                b.x,
                b.y
            )
        }
        Item::Dot { .. } => String::new(),
    }
}

/// A legend swatch for `mark` in `color` with its top-left corner at (x, y).
fn swatch(mark: Mark, color: &str, x: f64, y: f64) -> String {
    let (cx, cy) = (x + SWATCH / 2.0, y + 6.0);
    let data = format!(r#"class="legend-swatch" data-mark="{}""#, mark.class(color));
    match mark {
        Mark::Area => format!(
            r#"<rect {data} x="{x:.2}" y="{y:.2}" width="{SWATCH}" height="12" stroke="{color}" fill="{color}" fill-opacity="0.35"/>"#
        ),
        Mark::Dot => {
            format!(r#"<circle {data} cx="{cx:.2}" cy="{cy:.2}" r="4.5" fill="{color}"/>"#)
        }
        Mark::Outlier => {
            let d = diamond(DVec2::new(cx, cy), "white");
            let own = format!(r#"class="m-outlier {}""#, Mark::Dot.class("white"));
            d.replacen(&own, &data, 1)
        }
        _ => {
            let (w, dash) = match mark {
                Mark::Segment => (5.0, ""),
                Mark::DashedPath => (1.5, r#" stroke-dasharray="6 4""#),
                Mark::Line => (1.2, r#" stroke-dasharray="8 5""#),
                Mark::Arrow => (2.0, ""),
                _ => (1.5, ""),
            };
            format!(
                r#"<line {data} x1="{x:.2}" y1="{cy:.2}" x2="{:.2}" y2="{cy:.2}" stroke="{color}" stroke-width="{w}"{dash}/>"#,
                x + SWATCH
            )
        }
    }
}

fn text(b: &TextBox) -> String {
    format!(
        r#"<text x="{:.2}" y="{:.2}" font-size="{}" fill="{}">{}</text>"#,
        b.x,
        b.y,
        b.font,
        b.color,
        escape(&b.text)
    )
}

pub fn render(svg: &Svg) -> String {
    let (lo, hi) = svg.view();
    let f = Frame::new(lo, hi);
    let mut body = String::new();
    let mut texts: Vec<TextBox> = vec![TextBox::new(
        f.left,
        TITLE_H - 12.0,
        svg.title.clone(),
        TITLE_FONT,
        "black",
    )];
    let (frame_svg, ticks) = axes(&f);
    body.push_str(&frame_svg);
    texts.extend(ticks);

    // Marks, clipped to the plot area; dots after them, outliers at the border.
    let _ = writeln!(
        body,
        r#"<clipPath id="plot"><rect x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}"/></clipPath>"#,
        f.left,
        f.top,
        f.right - f.left,
        f.bottom - f.top
    );
    body.push_str("<g clip-path=\"url(#plot)\">\n");
    for it in &svg.items {
        let m = mark(&f, it);
        if !m.is_empty() {
            body.push_str(&m);
            body.push('\n');
        }
    }
    body.push_str("</g>\n");
    let mut legend: Vec<(Mark, String, String)> = svg
        .legend
        .iter()
        .map(|e| (e.mark, e.color.clone(), e.text.clone()))
        .collect();
    let mut outliers = false;
    for it in &svg.items {
        if let Item::Dot {
            at,
            color,
            radius_px,
        } = it
        {
            if !at.is_finite() {
                continue;
            }
            if f.contains(*at) {
                let q = f.map(*at);
                let _ = writeln!(
                    body,
                    r#"<circle class="{}" cx="{:.2}" cy="{:.2}" r="{radius_px}" fill="{color}"/>"#,
                    Mark::Dot.class(color),
                    q.x,
                    q.y
                );
            } else {
                outliers = true;
                body.push_str(&diamond(f.map(f.clamp(*at)), color));
                body.push('\n');
            }
        }
    }
    if outliers {
        legend.push((
            Mark::Outlier,
            String::new(),
            "point outside the view, drawn at the border in its colour".into(),
        ));
    }

    // The legend: rows of swatch + text under the x-axis numbers.
    let row_h = LEGEND_FONT + 8.0;
    let (mut x, mut y) = (f.left, f.bottom + BELOW + 14.0);
    let row_end = f.right.max(f.left + 480.0);
    for (m, color, t) in &legend {
        let w = SWATCH + 6.0 + text_width(t, LEGEND_FONT);
        if x > f.left && x + w > row_end {
            x = f.left;
            y += row_h;
        }
        body.push_str(&swatch(*m, color, x, y));
        body.push('\n');
        texts.push(TextBox::new(
            x + SWATCH + 6.0,
            y + 10.0,
            t.clone(),
            LEGEND_FONT,
            "#222",
        ));
        x += w + LEGEND_GAP;
    }

    // Labels around their anchors (clamped into the view), inside the plot area when a spot
    // is free there, else in a column right of it.
    let region = (DVec2::new(f.left, f.top), DVec2::new(f.right, f.bottom));
    for l in &svg.labels {
        if !l.at.is_finite() {
            continue;
        }
        let q = f.map(f.clamp(l.at));
        let b = place(
            q,
            &l.text,
            LABEL_FONT,
            &l.color,
            &texts,
            region,
            f.right + 14.0,
        );
        if let Some(a) = b.leader {
            let _ = writeln!(
                body,
                r#"<line class="leader" x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{}" stroke-width="0.6" stroke-opacity="0.6"/>"#,
                a.x,
                a.y,
                b.x - 2.0,
                b.y - 0.3 * b.font,
                l.color
            );
        }
        texts.push(b);
    }
    for t in &texts {
        body.push_str(&text(t));
        body.push('\n');
    }

    let mut max = DVec2::new(f.right + 20.0, y + row_h + 10.0);
    for t in &texts {
        max = max.max(t.rect().1 + DVec2::splat(10.0));
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0}" height="{h:.0}" viewBox="0 0 {w:.0} {h:.0}" font-family="sans-serif">"#,
        w = max.x.ceil(),
        h = max.y.ceil()
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    s.push_str(&body);
    s.push_str("</svg>\n");
    s
}

/// The part of the line `through + t·dir` inside the box [lo, hi] (Liang–Barsky).
pub fn clip_line(through: DVec2, dir: DVec2, lo: DVec2, hi: DVec2) -> Option<(DVec2, DVec2)> {
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
