//! Text boxes and label placement.
//!
//! A text's box is estimated from its length: width = characters × 0.6 × font size, height =
//! font size (from the baseline up 0.8, down 0.2). Every text of the picture (title, tick
//! numbers, legend, labels) is a [`TextBox`]; [`place`] puts each label at the first of a
//! ring of candidate spots around its anchor (8 directions, growing distance) whose box is
//! inside the allowed region and overlaps no box placed before, and otherwise stacks it in a
//! column right of the plot with a leader line, stepping down until it is free. The column
//! always ends with a free spot (it only moves away from finitely many boxes), so no two boxes
//! overlap.

use glam::DVec2;

/// Estimated advance width of `text` at `font` pixels.
pub fn text_width(text: &str, font: f64) -> f64 {
    text.chars().count() as f64 * 0.6 * font
}

/// A text drawn with `text-anchor` start at (x, baseline y).
#[derive(Clone, Debug)]
pub struct TextBox {
    pub x: f64,
    pub y: f64,
    pub text: String,
    pub font: f64,
    pub color: String,
    /// The anchor a moved label points back to (a leader line is drawn).
    pub leader: Option<DVec2>,
}

impl TextBox {
    pub fn new(x: f64, y: f64, text: String, font: f64, color: &str) -> TextBox {
        TextBox {
            x,
            y,
            text,
            font,
            color: color.into(),
            leader: None,
        }
    }

    /// (min, max) corners, with a 1-pixel gap around the glyphs.
    pub fn rect(&self) -> (DVec2, DVec2) {
        (
            DVec2::new(self.x - 1.0, self.y - 0.8 * self.font - 1.0),
            DVec2::new(
                self.x + text_width(&self.text, self.font) + 1.0,
                self.y + 0.2 * self.font + 1.0,
            ),
        )
    }

    pub fn overlaps(&self, other: &TextBox) -> bool {
        let (a0, a1) = self.rect();
        let (b0, b1) = other.rect();
        a0.x < b1.x && b0.x < a1.x && a0.y < b1.y && b0.y < a1.y
    }
}

/// Places a label of `text` anchored at pixel `q` so that it overlaps nothing in `placed`,
/// staying inside `region` (min, max) when a nearby spot is free, else in the column that
/// starts at `column_x`. Returns the box (not yet added to `placed`).
pub fn place(
    q: DVec2,
    text: &str,
    font: f64,
    color: &str,
    placed: &[TextBox],
    region: (DVec2, DVec2),
    column_x: f64,
) -> TextBox {
    let w = text_width(text, font);
    let free = |b: &TextBox| placed.iter().all(|p| !p.overlaps(b));
    let inside = |b: &TextBox| {
        let (lo, hi) = b.rect();
        lo.cmpge(region.0).all() && hi.cmple(region.1).all()
    };
    for ring in 1..=6 {
        let d = 4.0 * ring as f64;
        let h = 0.8 * font;
        let spots = [
            (q.x + d, q.y - d),                 // north-east
            (q.x + d, q.y + d + h),             // south-east
            (q.x - d - w, q.y - d),             // north-west
            (q.x - d - w, q.y + d + h),         // south-west
            (q.x + d + 2.0, q.y + h / 2.0),     // east
            (q.x - d - 2.0 - w, q.y + h / 2.0), // west
            (q.x - w / 2.0, q.y - d - 2.0),     // north
            (q.x - w / 2.0, q.y + d + 2.0 + h), // south
        ];
        for (x, y) in spots {
            let b = TextBox::new(x, y, text.to_string(), font, color);
            if inside(&b) && free(&b) {
                return b;
            }
        }
    }
    // The column: step down from the anchor's height until the box is free. Each step moves
    // past at most one box's worth of height, so the loop ends within placed.len() + 1 steps
    // of `font + 4` pixels beyond the lowest box.
    let mut y = q.y.max(region.0.y + font);
    let mut b = TextBox::new(column_x, y, text.to_string(), font, color);
    for _ in 0..(placed.len() * 4 + 4) {
        if free(&b) {
            break;
        }
        y += font + 4.0;
        b.y = y;
    }
    if !free(&b) {
        // Past every box: below the lowest one.
        let lowest = placed.iter().map(|p| p.rect().1.y).fold(y, f64::max);
        b.y = lowest + font + 2.0;
    }
    b.leader = Some(q);
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crowded_labels_never_overlap() {
        let region = (DVec2::ZERO, DVec2::new(300.0, 300.0));
        let mut placed: Vec<TextBox> = Vec::new();
        // Forty labels on one spot: the ring fills up, then the column takes the rest.
        for k in 0..40 {
            let b = place(
                DVec2::splat(150.0),
                &format!("label {k}"),
                13.0,
                "black",
                &placed,
                region,
                320.0,
            );
            placed.push(b);
        }
        for i in 0..placed.len() {
            for j in 0..i {
                assert!(!placed[i].overlaps(&placed[j]), "{i} and {j}");
            }
        }
        assert!(placed.iter().any(|b| b.leader.is_some()));
    }
}
