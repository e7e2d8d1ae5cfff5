//! A small SVG writer for 2D scenes: polygons, polylines, points, arrows and infinite lines,
//! with a legend, numbered axes and labels that never overlap.
//!
//! World coordinates (y up) are mapped to a picture (y down) whose plot area is at most 640
//! pixels on its longer side. The view is the bounds of every item, or the box given to
//! [`Svg::fit_to`]: dots outside it are drawn at the border with a distinct marker (class
//! `m-outlier`) and the legend says so. Infinite lines are clipped to the view, other marks to
//! the plot area. Every drawn mark carries a class `m-<mark>-<colour>`; [`Svg::legend`] entries
//! name the same classes. Labels are placed by `labels` so that no two text boxes (labels,
//! tick numbers, legend, title) overlap, with a leader line when a label had to move away.
//! Text is escaped; the output is a complete standalone SVG document.

mod frame;
mod labels;
mod render;
#[cfg(test)]
mod tests;

use glam::DVec2;

/// The kind of a drawn mark, for the legend and the marks' class names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A filled polygon or set of rings.
    Area,
    /// An open polyline.
    Path,
    /// A dashed polyline.
    DashedPath,
    /// A point.
    Dot,
    /// An arrow.
    Arrow,
    /// A thick finite segment.
    Segment,
    /// An infinite line (dashed, clipped to the view).
    Line,
    /// A point outside the view, drawn at the border.
    Outlier,
}

impl Mark {
    fn name(self) -> &'static str {
        match self {
            Mark::Area => "area",
            Mark::Path => "path",
            Mark::DashedPath => "dashed",
            Mark::Dot => "dot",
            Mark::Arrow => "arrow",
            Mark::Segment => "segment",
            Mark::Line => "line",
            Mark::Outlier => "outlier",
        }
    }

    /// The class of a mark of this kind in `color` (outliers share one class).
    pub fn class(self, color: &str) -> String {
        if self == Mark::Outlier {
            return "m-outlier".into();
        }
        let slug: String = color
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect();
        format!("m-{}-{slug}", self.name())
    }
}

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

/// A label anchored at a world point.
struct Label {
    at: DVec2,
    text: String,
    color: String,
}

/// A legend entry: a swatch of `mark` in `color`, and its meaning.
struct Entry {
    mark: Mark,
    color: String,
    text: String,
}

/// An SVG picture under construction.
#[derive(Default)]
pub struct Svg {
    items: Vec<Item>,
    labels: Vec<Label>,
    legend: Vec<Entry>,
    view: Option<(DVec2, DVec2)>,
    title: String,
}

impl Svg {
    pub fn new(title: &str) -> Svg {
        Svg {
            title: title.to_string(),
            ..Svg::default()
        }
    }

    /// Fixes the view to the world box [lo, hi] (padded by 5%) instead of the bounds of every
    /// item; dots outside it are drawn at its border as outliers.
    pub fn fit_to(&mut self, lo: DVec2, hi: DVec2) {
        if lo.is_finite() && hi.is_finite() && lo.x <= hi.x && lo.y <= hi.y {
            self.view = Some((lo, hi));
        }
    }

    /// Adds a legend entry for the marks of kind `mark` drawn in `color` (once per pair).
    pub fn legend(&mut self, mark: Mark, color: &str, text: &str) {
        if !self
            .legend
            .iter()
            .any(|e| e.mark == mark && e.color == color)
        {
            self.legend.push(Entry {
                mark,
                color: color.into(),
                text: text.into(),
            });
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

    /// A text label near `at` (moved as needed so that no two texts overlap).
    pub fn label(&mut self, at: DVec2, text: &str, color: &str) {
        self.labels.push(Label {
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

    /// World-space view (min, max): the box of `fit_to`, or the bounds of every finite item,
    /// padded by 5%.
    fn view(&self) -> (DVec2, DVec2) {
        let (lo, hi) = match self.view {
            Some(v) => v,
            None => self.bounds(),
        };
        if !lo.is_finite() || !hi.is_finite() {
            return (DVec2::splat(-1.0), DVec2::splat(1.0));
        }
        let pad = ((hi - lo).max_element() * 0.05).max(1e-9);
        (lo - pad, hi + pad)
    }

    /// Bounds of every finite item and label anchor (lines count by their anchor point).
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
                Item::Dot { at, .. } => add(*at),
                Item::Arrow { from, to, .. } | Item::Segment { from, to, .. } => {
                    add(*from);
                    add(*to);
                }
                Item::Line { through, .. } => add(*through),
                Item::Rings { rings, .. } => rings.iter().flatten().for_each(|&p| add(p)),
            }
        }
        for l in &self.labels {
            add(l.at);
        }
        (lo, hi)
    }

    /// The finished document.
    pub fn finish(&self) -> String {
        render::render(self)
    }
}

/// Escapes text for SVG content and attribute values.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
