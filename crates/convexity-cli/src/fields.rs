//! Reading typed values out of parsed JSON, with errors that name the field and the value.
//!
//! Every reader returns [`InputError`] with a path relative to the object being read
//! (`radius`, `points[2][1]`, ...); callers prefix it with `InputError::within`.
//!
//! JSON has no NaN or infinity, so wherever a number is expected the strings `"NaN"`, `"inf"`,
//! `"-inf"`, `"Infinity"` and `"-Infinity"` (and `"nan"`, `"+inf"`, `"+Infinity"`) are read as
//! the corresponding non-finite value. They are then rejected by the validating constructors
//! with a message such as `points[2][1]: value NaN is not finite`; accepting them here is what
//! lets such inputs be written down and reported precisely.

use convexity::{InputError, Problem};
use serde_json::{Map, Value};

/// A JSON object.
pub type Object = Map<String, Value>;

/// A short description of a JSON value for error messages (`the string "x"`, `an array of 2
/// elements`, ...).
pub fn describe(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {}", quote(s)),
        Value::Array(a) => match a.len() {
            0 => "an empty array".to_string(),
            1 => "an array of 1 element".to_string(),
            n => format!("an array of {n} elements"),
        },
        Value::Object(_) => "an object".to_string(),
    }
}

/// A string in double quotes, with JSON escaping, shortened if very long.
pub fn quote(s: &str) -> String {
    const MAX: usize = 60;
    let shown: String = if s.chars().count() > MAX {
        let mut t: String = s.chars().take(MAX).collect();
        t.push('…');
        t
    } else {
        s.to_string()
    };
    serde_json::to_string(&shown).unwrap_or_else(|_| format!("\"{shown}\""))
}

fn invalid(field: impl Into<String>, what: String) -> InputError {
    InputError::new(field, Problem::Invalid(what))
}

/// The non-finite value spelled by one of the accepted strings.
pub fn non_finite_word(s: &str) -> Option<f64> {
    match s {
        "NaN" | "nan" => Some(f64::NAN),
        "inf" | "+inf" | "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-inf" | "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// A number (possibly non-finite, spelled as a string).
pub fn number(v: &Value, field: &str) -> Result<f64, InputError> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| invalid(field, format!("number {n} is not representable"))),
        Value::String(s)
            if s.parse::<f64>().is_ok_and(f64::is_infinite) && non_finite_word(s).is_none() =>
        {
            // A number token beyond the range of a 64-bit float, quoted by `input::parse`.
            Err(invalid(
                field,
                format!("number {s} is out of the range of a 64-bit float (about ±1.8e308)"),
            ))
        }
        Value::String(s) => non_finite_word(s).ok_or_else(|| {
            invalid(
                field,
                format!(
                    "expected a number, found the string {} (the only strings accepted as \
                     numbers are \"NaN\", \"inf\", \"-inf\", \"Infinity\", \"-Infinity\")",
                    quote(s)
                ),
            )
        }),
        other => Err(invalid(
            field,
            format!("expected a number, found {}", describe(other)),
        )),
    }
}

/// An array of numbers of any length; element errors are named `field[i]`.
pub fn numbers(v: &Value, field: &str) -> Result<Vec<f64>, InputError> {
    let arr = v.as_array().ok_or_else(|| {
        invalid(
            field,
            format!("expected an array of numbers, found {}", describe(v)),
        )
    })?;
    arr.iter()
        .enumerate()
        .map(|(i, x)| number(x, &format!("{field}[{i}]")))
        .collect()
}

/// An array of rows of numbers (a point list); errors name `field[i]` or `field[i][k]`.
pub fn rows(v: &Value, field: &str) -> Result<Vec<Vec<f64>>, InputError> {
    let arr = v.as_array().ok_or_else(|| {
        invalid(
            field,
            format!(
                "expected an array of points (arrays of numbers), found {}",
                describe(v)
            ),
        )
    })?;
    arr.iter()
        .enumerate()
        .map(|(i, r)| numbers(r, &format!("{field}[{i}]")))
        .collect()
}

/// Checks that every coordinate is finite, naming the first bad one as `field[i]`.
pub fn finite_coords(field: &str, c: &[f64]) -> Result<(), InputError> {
    match c.iter().position(|x| !x.is_finite()) {
        Some(i) => Err(InputError::new(
            format!("{field}[{i}]"),
            Problem::NotFinite(c[i]),
        )),
        None => Ok(()),
    }
}

/// A field that must be present. `what` says what requires it, e.g. `a "sphere"`. Every
/// object is key-checked first ([`check_keys`]), which refuses a misspelt key with a
/// suggestion, so a missing field is named without guessing (a guess could only name another
/// valid field: `b` for a missing `a`).
pub fn required<'a>(obj: &'a Object, key: &str, what: &str) -> Result<&'a Value, InputError> {
    obj.get(key)
        .ok_or_else(|| invalid(key, format!("missing field (required for {what})")))
}

/// Checks that every key of `obj` is one of `allowed` (plus `"meta"`, free-form metadata that
/// is never read). An unknown key is an error naming it, with a "did you mean" suggestion:
/// input that would change the answer is never ignored.
pub fn check_keys(obj: &Object, allowed: &[&str], what: &str) -> Result<(), InputError> {
    for k in obj.keys() {
        if k == "meta" || allowed.contains(&k.as_str()) {
            continue;
        }
        let hint = suggestion(k, allowed)
            .map(|s| format!("; did you mean \"{s}\"?"))
            .unwrap_or_default();
        return Err(invalid(
            k.as_str(),
            format!(
                "unknown field in {what}{hint} (fields are: {}; put metadata under \"meta\")",
                allowed.join(", ")
            ),
        ));
    }
    Ok(())
}

/// An optional boolean field: `false` when absent.
pub fn optional_bool(obj: &Object, key: &str) -> Result<bool, InputError> {
    match obj.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(invalid(
            key,
            format!("expected true or false, found {}", describe(v)),
        )),
    }
}

/// A required number field.
pub fn number_field(obj: &Object, key: &str, what: &str) -> Result<f64, InputError> {
    number(required(obj, key, what)?, key)
}

/// A required array-of-numbers field.
pub fn numbers_field(obj: &Object, key: &str, what: &str) -> Result<Vec<f64>, InputError> {
    numbers(required(obj, key, what)?, key)
}

/// A required string field.
pub fn string_field<'a>(obj: &'a Object, key: &str, what: &str) -> Result<&'a str, InputError> {
    let v = required(obj, key, what)?;
    v.as_str()
        .ok_or_else(|| invalid(key, format!("expected a string, found {}", describe(v))))
}

/// The "did you mean" rule, shared with the Python binding.
pub use convexity::error::{edit_distance, suggestion};

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_and_words() {
        assert_eq!(number(&json!(1.5), "x"), Ok(1.5));
        assert!(number(&json!("NaN"), "x").is_ok_and(|v| v.is_nan()));
        assert_eq!(number(&json!("-Infinity"), "x"), Ok(f64::NEG_INFINITY));
        let e = number(&json!("1.5"), "x").err().map(|e| e.to_string());
        assert!(e.is_some_and(|m| m.contains("the string \"1.5\"")));
        let e = numbers(&json!([1, true]), "a").err().map(|e| e.field);
        assert_eq!(e.as_deref(), Some("a[1]"));
    }

    #[test]
    fn typo_hints() {
        assert_eq!(edit_distance("spehre", "sphere"), 2);
        assert_eq!(
            suggestion("spehre", &["sphere", "box", "cone"]),
            Some("sphere")
        );
        assert_eq!(suggestion("Box", &["sphere", "box"]), Some("box"));
        assert_eq!(suggestion("zzzzzz", &["sphere", "box"]), None);
    }
}
