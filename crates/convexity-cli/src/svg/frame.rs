//! The picture's frame: the world-to-pixel map of the plot area and the numbered axes
//! (ticks at 1, 2 or 5 times a power of ten, about six per axis).

use super::labels::{text_width, TextBox};
use glam::DVec2;

/// Height of the title band, pixels.
pub const TITLE_H: f64 = 34.0;
/// Room left of the plot area for the y-axis numbers, and below it for the x-axis numbers.
pub const LEFT: f64 = 70.0;
pub const BELOW: f64 = 26.0;
/// Longer side of the plot area, pixels.
pub const PLOT: f64 = 640.0;
/// Font size of the tick numbers.
pub const TICK_FONT: f64 = 11.0;

/// World box [lo, hi] mapped onto the plot area (y up in the world, down in the picture).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub lo: DVec2,
    pub hi: DVec2,
    pub scale: f64,
    /// Pixel corners of the plot area.
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

impl Frame {
    pub fn new(lo: DVec2, hi: DVec2) -> Frame {
        let span = (hi - lo).max(DVec2::splat(1e-12));
        let scale = PLOT / span.x.max(span.y);
        let (left, top) = (LEFT, TITLE_H + 10.0);
        Frame {
            lo,
            hi,
            scale,
            left,
            top,
            right: left + span.x * scale,
            bottom: top + span.y * scale,
        }
    }

    pub fn map(&self, p: DVec2) -> DVec2 {
        DVec2::new(
            self.left + (p.x - self.lo.x) * self.scale,
            self.top + (self.hi.y - p.y) * self.scale,
        )
    }

    /// `p` clamped into the world view.
    pub fn clamp(&self, p: DVec2) -> DVec2 {
        p.clamp(self.lo, self.hi)
    }

    pub fn contains(&self, p: DVec2) -> bool {
        p.cmpge(self.lo).all() && p.cmple(self.hi).all()
    }
}

/// Tick positions in [lo, hi] and the number of decimals their numbers need.
fn ticks(lo: f64, hi: f64) -> (Vec<f64>, usize) {
    let span = hi - lo;
    if span.is_nan() || span <= 0.0 || !span.is_finite() {
        return (vec![], 0);
    }
    let raw = span / 6.0;
    let p = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * p);
    let decimals = (-step.log10().floor()).max(0.0) as usize;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    let ts = (first..=last.min(first + 50))
        .map(|k| k as f64 * step)
        .collect();
    (ts, decimals)
}

fn number(x: f64, decimals: usize) -> String {
    let s = format!("{x:.decimals$}");
    match s.strip_prefix('-') {
        Some(rest) if rest.chars().all(|c| c == '0' || c == '.') => rest.to_string(),
        _ => s,
    }
}

/// The frame rectangle, tick marks (SVG) and the tick numbers as text boxes.
pub fn axes(f: &Frame) -> (String, Vec<TextBox>) {
    let mut svg = format!(
        r##"<rect class="frame" x="{:.2}" y="{:.2}" width="{:.2}" height="{:.2}" fill="none" stroke="#888" stroke-width="1"/>"##,
        f.left,
        f.top,
        f.right - f.left,
        f.bottom - f.top
    );
    svg.push('\n');
    let mut texts = Vec::new();
    let (xs, dx) = ticks(f.lo.x, f.hi.x);
    for x in xs {
        let px = f.map(DVec2::new(x, f.lo.y)).x;
        svg.push_str(&format!(
            r##"<line class="tick" x1="{px:.2}" y1="{:.2}" x2="{px:.2}" y2="{:.2}" stroke="#888"/>"##,
            f.bottom,
            f.bottom + 5.0
        ));
        svg.push('\n');
        let t = number(x, dx);
        let w = text_width(&t, TICK_FONT);
        texts.push(TextBox::new(
            px - w / 2.0,
            f.bottom + 18.0,
            t,
            TICK_FONT,
            "#444",
        ));
    }
    let (ys, dy) = ticks(f.lo.y, f.hi.y);
    for y in ys {
        let py = f.map(DVec2::new(f.lo.x, y)).y;
        svg.push_str(&format!(
            r##"<line class="tick" x1="{:.2}" y1="{py:.2}" x2="{:.2}" y2="{py:.2}" stroke="#888"/>"##,
            f.left - 5.0,
            f.left
        ));
        svg.push('\n');
        let t = number(y, dy);
        let w = text_width(&t, TICK_FONT);
        texts.push(TextBox::new(
            f.left - 8.0 - w,
            py + 4.0,
            t,
            TICK_FONT,
            "#444",
        ));
    }
    (svg, texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers_inside_the_range() {
        let (t, d) = ticks(-0.3, 2.7);
        assert_eq!(d, 1);
        assert!(t.iter().all(|x| (-0.3..=2.7).contains(x)), "{t:?}");
        assert!(t.len() >= 4 && t.len() <= 13, "{t:?}");
        assert_eq!(number(0.0, 1), "0.0");
        assert_eq!(number(-0.0, 0), "0");
        assert_eq!(number(-1.5, 1), "-1.5");
        assert!(ticks(1.0, 1.0).0.is_empty());
    }
}
