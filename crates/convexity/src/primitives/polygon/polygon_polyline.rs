//! Intersections of a general polygon (rings: outer boundaries, holes, islands) with an open
//! polyline, reported with the polygon's own input edge indices.
//!
//! Each ring is closed into a chain (its first vertex repeated at the end), the rings are
//! joined into one NaN-separated polyline, and [`polyline_intersections`] (exact predicates,
//! sweep over segment bounding boxes) finds the hits. The chain's segment indices are then
//! remapped to the polygon's input edges: edge `k` runs from input vertex `k` to the next
//! vertex of its ring (the ring's last vertex back to its first on the closing edge). A hit at
//! a ring's first vertex touches both the first and the closing edge; it is reported once, on
//! the closing edge, as [`polygon_intersections`](super::polygon_intersections) does.
//!
//! Cost: that of [`polyline_intersections`] on `n + r` polygon segments (`r` rings) and the
//! polyline's `m` segments, plus `O(k log k)` to sort `k` hits. Errors: a non-finite or
//! out-of-range polyline vertex (from [`polyline_intersections`]).

use super::segments::{polyline_intersections, HitKind, SegmentHit};
use super::Polygon;
use crate::error::InputError;
use glam::DVec2;

/// A polygon's rings as one closed polyline (NaN-separated, first vertex repeated), the input
/// vertex index of each polyline vertex (`usize::MAX` for separators), and the polyline index
/// of each ring's first vertex.
fn closed_rings(p: &Polygon) -> (Vec<DVec2>, Vec<usize>, Vec<usize>) {
    let mut pts = Vec::new();
    let mut index = Vec::new();
    let mut ring_starts = Vec::new();
    for r in p.rings() {
        if !pts.is_empty() {
            pts.push(DVec2::NAN);
            index.push(usize::MAX);
        }
        ring_starts.push(pts.len());
        for k in r.clone() {
            pts.push(p.vertices()[k]);
            index.push(k);
        }
        pts.push(p.vertices()[r.start]);
        index.push(r.start);
    }
    (pts, index, ring_starts)
}

/// Intersections of polygon `p` with polyline `l`. With `polygon_is_a`, `a_index` is the
/// polygon's input edge and `b_index` the polyline's segment; otherwise the other way round.
/// Sorted by `(a_index, b_index)`.
pub fn polygon_polyline_intersections(
    p: &Polygon,
    l: &[DVec2],
    polygon_is_a: bool,
) -> Result<Vec<SegmentHit>, InputError> {
    let (pts, index, starts) = closed_rings(p);
    let raw = if polygon_is_a {
        polyline_intersections(&pts, l)?
    } else {
        polyline_intersections(l, &pts)?
    };
    let mut out: Vec<SegmentHit> = raw
        .into_iter()
        .filter_map(|mut h| {
            let k = if polygon_is_a { h.a_index } else { h.b_index };
            if let HitKind::Point(x) = h.kind {
                // The ring's first vertex as the start of its first edge: reported on the
                // closing edge instead.
                if starts.contains(&k) && pts.get(k) == Some(&x) {
                    return None;
                }
            }
            let mapped = *index.get(k)?;
            if polygon_is_a {
                h.a_index = mapped;
            } else {
                h.b_index = mapped;
            }
            Some(h)
        })
        .collect();
    out.sort_by_key(|h| (h.a_index, h.b_index));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    #[test]
    fn hits_are_named_by_input_edges_of_each_ring() {
        // A square frame with a square hole (separator between the rings), crossed by a
        // horizontal line at y = 5: it crosses the outer ring's edges 1 and 3 and the hole's
        // edges (input vertices 5.. are the hole, after the separator at 4).
        let frame = [
            v(0.0, 0.0),
            v(10.0, 0.0),
            v(10.0, 10.0),
            v(0.0, 10.0),
            DVec2::NAN,
            v(3.0, 3.0),
            v(3.0, 7.0),
            v(7.0, 7.0),
            v(7.0, 3.0),
        ];
        let p = Polygon::new(&frame).unwrap();
        let line = [v(-1.0, 5.0), v(11.0, 5.0)];
        let hits = polygon_polyline_intersections(&p, &line, true).unwrap();
        let edges: Vec<usize> = hits.iter().map(|h| h.a_index).collect();
        assert_eq!(edges, vec![1, 3, 5, 7]);
        assert!(hits.iter().all(|h| h.b_index == 0));
        // Swapping the sides swaps the indices.
        let swapped = polygon_polyline_intersections(&p, &line, false).unwrap();
        let mut edges: Vec<usize> = swapped.iter().map(|h| h.b_index).collect();
        edges.sort_unstable();
        assert_eq!(edges, vec![1, 3, 5, 7]);
    }

    #[test]
    fn a_touch_at_the_first_vertex_is_reported_once_on_the_closing_edge() {
        let square = [v(0.0, 0.0), v(4.0, 0.0), v(4.0, 4.0), v(0.0, 4.0)];
        let p = Polygon::new(&square).unwrap();
        let line = [v(-1.0, 1.0), v(0.0, 0.0), v(-1.0, -1.0)];
        let hits = polygon_polyline_intersections(&p, &line, true).unwrap();
        let at_origin: Vec<&SegmentHit> = hits
            .iter()
            .filter(|h| h.kind == HitKind::Point(v(0.0, 0.0)))
            .collect();
        assert!(!at_origin.is_empty());
        assert!(at_origin.iter().all(|h| h.a_index == 3), "{hits:?}");
    }
}
