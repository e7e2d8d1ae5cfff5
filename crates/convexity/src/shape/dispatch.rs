//! Runtime dispatch: exhaustive enums over every shape, with a custom support-map arm.
//!
//! Generic code takes `S: SupportMap<V>` and is monomorphised; code that reads shapes from
//! files (the CLI, Python bindings) uses these enums. There is no downcasting anywhere.

use super::*;
use glam::{DVec2, DVec3};

/// Any 3D shape.
#[derive(Clone, Debug)]
pub enum Shape3 {
    /// The convex hull of a point set (`"points"`).
    Points(Points<DVec3>),
    /// A ball about the local origin (`"sphere"`).
    Sphere(Ball<DVec3>),
    /// An axis-aligned box about the local origin (`"box"`).
    Cuboid(Cuboid<DVec3>),
    /// A segment swept by a ball (`"capsule"`).
    Capsule(Capsule<DVec3>),
    /// A solid cylinder along local z (`"cylinder"`).
    Cylinder(Cylinder),
    /// A solid cone along local z, apex up (`"cone"`).
    Cone(Cone),
    /// A line segment (`"segment"`).
    Segment(Segment<DVec3>),
    /// A filled triangle (`"triangle"`).
    Triangle(Triangle),
    /// A bounded intersection of half-spaces (vertices enumerated at construction).
    Halfspaces(BoundedHalfspaces<DVec3>),
    /// Another shape grown by a ball of some radius (`"rounded"`).
    Rounded(Box<Rounded<Shape3>>),
    /// Another shape at a fixed pose in this shape's local frame (`"transformed"`).
    Transformed(Box<Transformed<Shape3, DVec3>>),
    /// A user-supplied support function (`"custom"`; not readable from JSON).
    Custom(Custom<DVec3>),
}

/// Any 2D shape.
#[derive(Clone, Debug)]
pub enum Shape2 {
    /// The convex hull of a point set (`"points"`).
    Points(Points<DVec2>),
    /// A disc about the local origin (`"circle"`).
    Circle(Ball<DVec2>),
    /// An axis-aligned rectangle about the local origin (`"box"`).
    Rect(Cuboid<DVec2>),
    /// A segment swept by a disc: a stadium (`"capsule"`).
    Capsule(Capsule<DVec2>),
    /// A convex polygon with its vertex order (`"polygon"`).
    Polygon(ConvexPolygon),
    /// A line segment (`"segment"`).
    Segment(Segment<DVec2>),
    /// A bounded intersection of half-planes (vertices enumerated at construction).
    Halfspaces(BoundedHalfspaces<DVec2>),
    /// Another shape grown by a disc of some radius (`"rounded"`).
    Rounded(Box<Rounded<Shape2>>),
    /// Another shape at a fixed pose in this shape's local frame (`"transformed"`).
    Transformed(Box<Transformed<Shape2, DVec2>>),
    /// A user-supplied support function (`"custom"`; not readable from JSON).
    Custom(Custom<DVec2>),
}

macro_rules! dispatch {
    ($enum:ident, $v:ty, [$points:ident, $ball:ident, $cuboid:ident, $capsule:ident], $($arm:ident),*) => {
        impl SupportMap<$v> for $enum {
            #[inline(always)]
            fn leaf(&self) -> Leaf<'_, $v> {
                match self {
                    $enum::$points(s) => Leaf::Points(s),
                    $enum::$ball(s) => Leaf::Ball(s),
                    $enum::$cuboid(s) => Leaf::Cuboid(s),
                    $enum::$capsule(s) => Leaf::Capsule(s),
                    _ => Leaf::Other,
                }
            }
            #[inline]
            fn core_support(&self, dir: $v) -> $v {
                match self { $($enum::$arm(s) => s.core_support(dir),)* }
            }
            #[inline(always)]
            fn prefetch_support(&self, dir: $v) {
                match self { $($enum::$arm(s) => s.prefetch_support(dir),)* }
            }
            #[inline]
            fn core_radius(&self) -> f64 {
                match self { $($enum::$arm(s) => s.core_radius(),)* }
            }
            fn center(&self) -> $v {
                match self { $($enum::$arm(s) => s.center(),)* }
            }
            fn size(&self) -> f64 {
                match self { $($enum::$arm(s) => s.size(),)* }
            }
            #[inline]
            fn bounding_radius(&self) -> f64 {
                match self { $($enum::$arm(s) => s.bounding_radius(),)* }
            }
            #[inline(always)]
            fn primitive(&self) -> Primitive<'_, $v> {
                self.leaf_primitive()
            }
        }
    };
}

dispatch!(
    Shape3,
    DVec3,
    [Points, Sphere, Cuboid, Capsule],
    Points,
    Sphere,
    Cuboid,
    Capsule,
    Cylinder,
    Cone,
    Segment,
    Triangle,
    Halfspaces,
    Rounded,
    Transformed,
    Custom
);
dispatch!(
    Shape2,
    DVec2,
    [Points, Circle, Rect, Capsule],
    Points,
    Circle,
    Rect,
    Capsule,
    Polygon,
    Segment,
    Halfspaces,
    Rounded,
    Transformed,
    Custom
);

impl Shape3 {
    /// The shape's type name as used in the JSON scene format.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape3::Points(_) => "points",
            Shape3::Sphere(_) => "sphere",
            Shape3::Cuboid(_) => "box",
            Shape3::Capsule(_) => "capsule",
            Shape3::Cylinder(_) => "cylinder",
            Shape3::Cone(_) => "cone",
            Shape3::Segment(_) => "segment",
            Shape3::Triangle(_) => "triangle",
            Shape3::Halfspaces(_) => "halfspaces",
            Shape3::Rounded(_) => "rounded",
            Shape3::Transformed(_) => "transformed",
            Shape3::Custom(_) => "custom",
        }
    }
}

impl Shape2 {
    /// The shape's type name as used in the JSON scene format.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape2::Points(_) => "points",
            Shape2::Circle(_) => "circle",
            Shape2::Rect(_) => "box",
            Shape2::Capsule(_) => "capsule",
            Shape2::Polygon(_) => "polygon",
            Shape2::Segment(_) => "segment",
            Shape2::Halfspaces(_) => "halfspaces",
            Shape2::Rounded(_) => "rounded",
            Shape2::Transformed(_) => "transformed",
            Shape2::Custom(_) => "custom",
        }
    }
}

// `primitive()` of the enums: the leaf arms inline, the nested ones (`Rounded`, `Transformed`,
// which recurse into the enum) behind a call, so that the recursion does not keep the whole
// match from being inlined into the closed-form check at the top of every query.
impl Shape3 {
    #[inline(always)]
    fn leaf_primitive(&self) -> Primitive<'_, DVec3> {
        match self {
            Shape3::Sphere(s) => s.primitive(),
            Shape3::Cuboid(s) => s.primitive(),
            Shape3::Capsule(s) => s.primitive(),
            Shape3::Segment(s) => s.primitive(),
            Shape3::Triangle(s) => s.primitive(),
            Shape3::Rounded(_) | Shape3::Transformed(_) => self.nested_primitive(),
            Shape3::Points(_)
            | Shape3::Cylinder(_)
            | Shape3::Cone(_)
            | Shape3::Halfspaces(_)
            | Shape3::Custom(_) => Primitive::Other,
        }
    }

    #[inline(never)]
    fn nested_primitive(&self) -> Primitive<'_, DVec3> {
        match self {
            Shape3::Rounded(s) => s.primitive(),
            Shape3::Transformed(s) => s.primitive(),
            _ => Primitive::Other,
        }
    }
}

impl Shape2 {
    #[inline(always)]
    fn leaf_primitive(&self) -> Primitive<'_, DVec2> {
        match self {
            Shape2::Circle(s) => s.primitive(),
            Shape2::Rect(s) => s.primitive(),
            Shape2::Capsule(s) => s.primitive(),
            Shape2::Polygon(s) => s.primitive(),
            Shape2::Segment(s) => s.primitive(),
            Shape2::Rounded(_) | Shape2::Transformed(_) => self.nested_primitive(),
            Shape2::Points(_) | Shape2::Halfspaces(_) | Shape2::Custom(_) => Primitive::Other,
        }
    }

    #[inline(never)]
    fn nested_primitive(&self) -> Primitive<'_, DVec2> {
        match self {
            Shape2::Rounded(s) => s.primitive(),
            Shape2::Transformed(s) => s.primitive(),
            _ => Primitive::Other,
        }
    }
}
