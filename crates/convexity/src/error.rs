//! Input validation errors.
//!
//! Every constructor in the public API validates its input and returns [`InputError`], which
//! names the offending field (as a path such as `points[3][1]` or `shapes.A.radius`) and the
//! value. Nothing on the public path panics on user input.

use core::fmt;

/// Largest accepted magnitude of a coordinate, translation, radius or extent.
///
/// The simplex solver multiplies dot products of differences (fourth powers of lengths), which
/// overflows f64 past about 1e77; 1e60 leaves room for sums and tolerances. No physical scene
/// comes near it, and rejecting it up front is what guarantees that no query returns NaN.
pub const MAX_MAGNITUDE: f64 = 1e60;

/// The Levenshtein distance between two words, for "did you mean" hints.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The closest of `candidates` to `word` (compared in lower case), if it is close enough to be
/// a likely typo: within 2 edits, or a third of the candidate's length. The one rule of the
/// CLI's and the Python binding's "did you mean" hints.
///
/// ```
/// use convexity::error::suggestion;
/// assert_eq!(suggestion("spehre", &["sphere", "box"]), Some("sphere"));
/// assert_eq!(suggestion("Box", &["sphere", "box"]), Some("box"));
/// assert_eq!(suggestion("zzzzzz", &["sphere", "box"]), None);
/// ```
pub fn suggestion<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    let lower = word.to_ascii_lowercase();
    candidates
        .iter()
        .map(|c| (edit_distance(&lower, c), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// What is wrong with a value.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// A coordinate or scalar is NaN or infinite.
    NotFinite(f64),
    /// A finite value whose magnitude exceeds [`MAX_MAGNITUDE`].
    OutOfRange(f64),
    /// A set that must have at least one element is empty.
    Empty,
    /// A length or radius is negative.
    Negative(f64),
    /// A rotation is not of unit norm; carries the norm.
    NotUnit(f64),
    /// A row has the wrong number of coordinates.
    DimensionMismatch {
        /// The number of coordinates the field needs (the dimension of the rest of the input).
        expected: usize,
        /// The number of coordinates the row actually has.
        found: usize,
    },
    /// A polygon is not convex (or not simple); carries the vertex index where it turns the wrong way.
    NotConvex(usize),
    /// Anything else, described in words.
    Invalid(String),
}

/// A rejected input: which field, and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct InputError {
    /// Path of the offending field, e.g. `points[3][1]` or `shapes.A.radius` (empty when the
    /// whole input is at fault and no prefix was added yet).
    pub field: String,
    /// What is wrong with the value.
    pub problem: Problem,
}

impl InputError {
    /// An error for the field at path `field` (extend it later with [`InputError::within`]).
    pub fn new(field: impl Into<String>, problem: Problem) -> Self {
        InputError {
            field: field.into(),
            problem,
        }
    }

    /// Prefixes the field path, e.g. `radius` within `shapes.A` becomes `shapes.A.radius`.
    pub fn within(mut self, prefix: &str) -> Self {
        self.field = if self.field.is_empty() {
            prefix.to_string()
        } else if self.field.starts_with('[') {
            format!("{prefix}{}", self.field)
        } else {
            format!("{prefix}.{}", self.field)
        };
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.problem {
            Problem::NotFinite(v) => write!(f, "{}: value {v} is not finite", self.field),
            // `{:e}`: a value beyond 1e60 written out in full would be 60+ digits long.
            Problem::OutOfRange(v) => write!(
                f,
                "{}: value {v:e} exceeds the supported magnitude {MAX_MAGNITUDE:e}",
                self.field
            ),
            Problem::Empty => write!(f, "{}: must not be empty", self.field),
            Problem::Negative(v) => write!(f, "{}: value {v} must not be negative", self.field),
            Problem::NotUnit(n) => write!(
                f,
                "{}: rotation must be a unit quaternion, its norm is {n}",
                self.field
            ),
            Problem::DimensionMismatch { expected, found } => write!(
                f,
                "{}: expected {expected} coordinates, found {found}",
                self.field
            ),
            Problem::NotConvex(i) => {
                write!(f, "{}: polygon is not convex at vertex {i}", self.field)
            }
            Problem::Invalid(s) => write!(f, "{}: {s}", self.field),
        }
    }
}

impl std::error::Error for InputError {}

/// Checks that a scalar is finite and within [`MAX_MAGNITUDE`].
pub(crate) fn finite(field: &str, v: f64) -> Result<f64, InputError> {
    if !v.is_finite() {
        Err(InputError::new(field, Problem::NotFinite(v)))
    } else if v.abs() > MAX_MAGNITUDE {
        Err(InputError::new(field, Problem::OutOfRange(v)))
    } else {
        Ok(v)
    }
}

/// Checks that a scalar is finite and not negative.
pub(crate) fn non_negative(field: &str, v: f64) -> Result<f64, InputError> {
    finite(field, v)?;
    if v < 0.0 {
        Err(InputError::new(field, Problem::Negative(v)))
    } else {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_values_are_printed_in_exponent_form() {
        let e = InputError::new("points[1][0]", Problem::OutOfRange(1e300));
        assert_eq!(
            e.to_string(),
            "points[1][0]: value 1e300 exceeds the supported magnitude 1e60"
        );
    }
}
