//! Shapes and the support-map trait, the one capability GJK and EPA need.
//!
//! A support map returns, for a direction `d`, a point of the shape maximising `d·x`. Every
//! shape is split into a *core* and a *radius*: the full shape is `core ⊕ ball(radius)`. A
//! sphere's core is a point, a capsule's a segment, `Rounded<S>` adds to the radius of `S`.
//! GJK runs on the cores and subtracts the radii, which is exact and cheap, and EPA only runs
//! when the cores themselves overlap.
//!
//! Invariant checked by the tests: `support(d) = core_support(d) + radius · d/|d|`.

mod basic;
mod dispatch;
mod halfspaces;
mod points;
mod polygon;
mod polytope;
mod wrappers;

pub use crate::math::halfspaces::{Farkas, FarkasCheck, Halfspaces, MAX_HULL3_POINTS};
pub use basic::{Ball, Capsule, Cone, Cuboid, Cylinder, Segment, Triangle};
pub use dispatch::{Shape2, Shape3};
pub use halfspaces::BoundedHalfspaces;
pub use points::Points;
pub(crate) use points::SupportIndex;
pub use polygon::ConvexPolygon;
pub use polytope::Polytope;
pub use wrappers::{Custom, Rounded, Transformed};

/// The shape objects of the scene format (read by the `convexity` command-line tool and by the
/// Python binding's `shape_from_dict`): every `type` with the fields it takes, besides `type`
/// and the free-form `"meta"`. A key outside them is an error in both readers, never ignored.
/// The names are [`Shape2::kind`] / [`Shape3::kind`] (pinned by a CLI test), plus `mesh`,
/// which names a file rather than a shape kind.
pub const SCENE_FIELDS: &[(&str, &[&str])] = &[
    ("points", &["points", "index"]),
    ("sphere", &["radius"]),
    ("circle", &["radius"]),
    ("box", &["half_extents"]),
    ("capsule", &["a", "b", "radius"]),
    ("cylinder", &["half_height", "radius"]),
    ("cone", &["half_height", "radius"]),
    ("segment", &["a", "b"]),
    ("triangle", &["a", "b", "c"]),
    ("polygon", &["points"]),
    ("halfspaces", &["normals", "offsets"]),
    ("rounded", &["shape", "radius"]),
    ("transformed", &["shape", "pose"]),
    ("mesh", &["file", "as", "index"]),
];

use crate::math::vector::Vector;

/// A convex shape described by its support function, in its local frame.
pub trait SupportMap<V: Vector> {
    /// A point of the core maximising `dir · x`. `dir` need not be unit and may be zero, in
    /// which case any point of the core is returned.
    fn core_support(&self, dir: V) -> V;

    /// Radius of the ball added to the core (0 for polytopes).
    #[inline]
    fn core_radius(&self) -> f64 {
        0.0
    }

    /// A hint that [`SupportMap::core_support`] along `dir` comes next: shapes whose support
    /// walks a table (hill climbing) start fetching it, so that two shapes' walks wait on
    /// memory at the same time. Never changes an answer; a no-op by default.
    #[inline(always)]
    fn prefetch_support(&self, _dir: V) {}

    /// A point of the full shape maximising `dir · x`.
    #[inline]
    fn support(&self, dir: V) -> V {
        let p = self.core_support(dir);
        let r = self.core_radius();
        if r > 0.0 {
            if let Some(n) = dir.try_normalize() {
                return p + n * r;
            }
        }
        p
    }

    /// A point in the interior (or relative interior) of the core; seeds the search direction.
    fn center(&self) -> V;

    /// A characteristic length of the full shape (its radius about `center`, up to a small
    /// factor). Tolerances are relative to it.
    fn size(&self) -> f64;

    /// Radius of a ball about the local origin that contains the full shape (an upper bound;
    /// used for rounding floors and quick rejection). The default bounds it by
    /// `|center| + size`, which holds when `size` bounds the radius about the centre.
    #[inline]
    fn bounding_radius(&self) -> f64 {
        self.center().length() + self.size()
    }

    /// The shape as a closed-form primitive, when it is one; `Primitive::Other` (the default)
    /// otherwise. GJK, the boolean test and EPA answer pairs of primitives in closed form
    /// ([`crate::gjk::closed_form`]); for every other shape the default is a constant and the
    /// check costs nothing.
    #[inline(always)]
    fn primitive(&self) -> Primitive<'_, V> {
        Primitive::Other
    }

    /// The concrete shape behind a runtime-dispatch enum ([`Shape3`], [`Shape2`]) when it is
    /// one of the common leaf types, so that a query can run monomorphised on it (see
    /// [`Leaf`]); [`Leaf::Other`] (the default, a constant) for everything else.
    #[doc(hidden)]
    #[inline(always)]
    fn leaf(&self) -> Leaf<'_, V> {
        Leaf::Other
    }
}

/// Returns `$body` from the enclosing function with `$a` and `$b` bound to the concrete shapes
/// when both `$la` and `$lb` (two [`Leaf`]s) are leaves; does nothing otherwise. Every pair of
/// leaf types is its own monomorphised query: 16 arms.
macro_rules! on_leaves {
    ($la:expr, $lb:expr, |$a:ident, $b:ident| $body:expr) => {
        match ($la, $lb) {
            ($crate::shape::Leaf::Other, _) | (_, $crate::shape::Leaf::Other) => {}
            ($crate::shape::Leaf::Points($a), $crate::shape::Leaf::Points($b)) => return $body,
            ($crate::shape::Leaf::Points($a), $crate::shape::Leaf::Cuboid($b)) => return $body,
            ($crate::shape::Leaf::Points($a), $crate::shape::Leaf::Ball($b)) => return $body,
            ($crate::shape::Leaf::Points($a), $crate::shape::Leaf::Capsule($b)) => return $body,
            ($crate::shape::Leaf::Cuboid($a), $crate::shape::Leaf::Points($b)) => return $body,
            ($crate::shape::Leaf::Cuboid($a), $crate::shape::Leaf::Cuboid($b)) => return $body,
            ($crate::shape::Leaf::Cuboid($a), $crate::shape::Leaf::Ball($b)) => return $body,
            ($crate::shape::Leaf::Cuboid($a), $crate::shape::Leaf::Capsule($b)) => return $body,
            ($crate::shape::Leaf::Ball($a), $crate::shape::Leaf::Points($b)) => return $body,
            ($crate::shape::Leaf::Ball($a), $crate::shape::Leaf::Cuboid($b)) => return $body,
            ($crate::shape::Leaf::Ball($a), $crate::shape::Leaf::Ball($b)) => return $body,
            ($crate::shape::Leaf::Ball($a), $crate::shape::Leaf::Capsule($b)) => return $body,
            ($crate::shape::Leaf::Capsule($a), $crate::shape::Leaf::Points($b)) => return $body,
            ($crate::shape::Leaf::Capsule($a), $crate::shape::Leaf::Cuboid($b)) => return $body,
            ($crate::shape::Leaf::Capsule($a), $crate::shape::Leaf::Ball($b)) => return $body,
            ($crate::shape::Leaf::Capsule($a), $crate::shape::Leaf::Capsule($b)) => return $body,
        }
    };
}
pub(crate) use on_leaves;

/// The common leaf shapes of the dispatch enums, by reference. `gjk::distance` and
/// `gjk::intersects` match a pair of enums on this once and run on the concrete types
/// (`epa::penetration` its closed forms): through the enum, every trait call of a query (a
/// support call per iteration and side, the centre, size and radii, the closed-form checks)
/// dispatched again (callgrind, `profile_driver enum-SET distance`: ball–ball 361 instructions
/// a query against 213 for `Ball`, box 1,825 against 1,539, hull8 4,916 against 4,309). The
/// answers are the same bit for bit: the enum forwards every trait method to its variant.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Leaf<'s, V: Vector> {
    /// A point set.
    Points(&'s Points<V>),
    /// A box.
    Cuboid(&'s Cuboid<V>),
    /// A ball.
    Ball(&'s Ball<V>),
    /// A capsule.
    Capsule(&'s Capsule<V>),
    /// Anything else: the query runs on the type it was given.
    Other,
}

/// A shape in a form with closed-form queries, in the shape's local frame. Every variant is a
/// core plus a `radius` (the full shape is `core ⊕ ball(radius)`), as in [`SupportMap`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Primitive<'s, V> {
    /// No closed form: the query runs GJK / EPA.
    Other,
    /// The segment `a`–`b` swept by `radius`: a capsule; a ball when `a == b`; a bare segment
    /// when `radius == 0`.
    Capsule {
        /// One end of the core segment.
        a: V,
        /// The other end of the core segment.
        b: V,
        /// Radius swept around the core (0: the bare core).
        radius: f64,
    },
    /// The axis-aligned box `[-h, h]` about the local origin, swept by `radius`.
    Cuboid {
        /// The box's half extents `h` (each ≥ 0).
        half_extents: V,
        /// Radius swept around the core (0: the bare core).
        radius: f64,
    },
    /// The triangle `v[0] v[1] v[2]` (3D), swept by `radius`.
    Triangle {
        /// The three corners.
        v: [V; 3],
        /// Radius swept around the core (0: the bare core).
        radius: f64,
    },
    /// A convex polygon (2D, counter-clockwise vertices), swept by `radius`.
    Polygon {
        /// The vertices, counter-clockwise.
        vertices: &'s [V],
        /// Radius swept around the core (0: the bare core).
        radius: f64,
    },
}

impl<V: Copy> Primitive<'_, V> {
    /// The same primitive swept by `extra` more radius (what [`Rounded`] does).
    #[inline]
    pub fn rounded(self, extra: f64) -> Self {
        match self {
            Primitive::Other => Primitive::Other,
            Primitive::Capsule { a, b, radius } => Primitive::Capsule {
                a,
                b,
                radius: radius + extra,
            },
            Primitive::Cuboid {
                half_extents,
                radius,
            } => Primitive::Cuboid {
                half_extents,
                radius: radius + extra,
            },
            Primitive::Triangle { v, radius } => Primitive::Triangle {
                v,
                radius: radius + extra,
            },
            Primitive::Polygon { vertices, radius } => Primitive::Polygon {
                vertices,
                radius: radius + extra,
            },
        }
    }
}

macro_rules! forward_support_map {
    ($($ptr:ty),*) => {$(
        impl<V: Vector, S: SupportMap<V> + ?Sized> SupportMap<V> for $ptr {
            #[inline]
            fn core_support(&self, dir: V) -> V {
                (**self).core_support(dir)
            }
            #[inline(always)]
            fn prefetch_support(&self, dir: V) {
                (**self).prefetch_support(dir)
            }
            #[inline]
            fn core_radius(&self) -> f64 {
                (**self).core_radius()
            }
            #[inline]
            fn support(&self, dir: V) -> V {
                (**self).support(dir)
            }
            #[inline]
            fn center(&self) -> V {
                (**self).center()
            }
            #[inline]
            fn size(&self) -> f64 {
                (**self).size()
            }
            #[inline]
            fn bounding_radius(&self) -> f64 {
                (**self).bounding_radius()
            }
            #[inline(always)]
            fn primitive(&self) -> Primitive<'_, V> {
                (**self).primitive()
            }
            #[inline(always)]
            fn leaf(&self) -> Leaf<'_, V> {
                (**self).leaf()
            }
        }
    )*};
}
forward_support_map!(&S, Box<S>, std::sync::Arc<S>);
