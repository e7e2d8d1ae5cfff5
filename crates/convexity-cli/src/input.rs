//! Reading input files: the one place that opens a file (or standard input for `-`) and parses
//! JSON strictly.
//!
//! Strict means two things serde_json's `Value` does not do by itself:
//! * a key repeated in one object is an error naming the key, its line and column (serde_json
//!   keeps the last value silently);
//! * a number too large for a 64-bit float (`1e400`) does not fail the whole file: it is read
//!   as the string `"1e400"`, which [`crate::fields::number`] then rejects for the one field
//!   that holds it, so only the pair or shape using it fails.

use crate::Fatal;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::borrow::Cow;
use std::fmt;

/// What to call `path` in messages.
pub fn display_name(path: &str) -> &str {
    if path == "-" {
        "standard input"
    } else {
        path
    }
}

/// The bytes of `path`, or of standard input for `-`.
pub fn read_bytes(path: &str) -> Result<Vec<u8>, Fatal> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
            .map_err(|e| Fatal::input(format!("cannot read standard input: {e}")))?;
        return Ok(buf);
    }
    std::fs::read(path).map_err(|e| Fatal::input(format!("cannot read {path}: {}", why(&e))))
}

/// A short reason for an I/O error.
pub fn why(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Reads and strictly parses a JSON file (or standard input for `-`).
pub fn read_json(path: &str) -> Result<Value, Fatal> {
    let bytes = read_bytes(path)?;
    parse(&bytes).map_err(|e| {
        Fatal::input(format!(
            "malformed JSON in {} at line {}, column {}: {}",
            display_name(path),
            e.line,
            e.column,
            e.message
        ))
    })
}

/// Where and why a JSON text is malformed.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed JSON at line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// Strictly parses one JSON text.
pub fn parse(bytes: &[u8]) -> Result<Value, JsonError> {
    let text = quote_huge_numbers(bytes);
    let mut de = serde_json::Deserializer::from_slice(&text);
    let v = StrictValue::deserialize_from(&mut de).and_then(|v| de.end().map(|()| v));
    v.map(|s| s.0).map_err(|e| {
        let msg = e.to_string();
        let message = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        JsonError {
            line: e.line(),
            column: e.column(),
            message,
        }
    })
}

/// Number tokens (outside strings) whose value overflows a 64-bit float, quoted as strings.
/// Borrowed unchanged when there are none (the usual case): one pass over the bytes.
fn quote_huge_numbers(bytes: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut copied) = (0, 0);
    let mut in_string = false;
    while i < bytes.len() {
        let c = bytes[i];
        if in_string {
            match c {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match c {
            b'"' => {
                in_string = true;
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                let tok = &bytes[start..i];
                let huge = tok.iter().any(|b| matches!(b, b'e' | b'E')) || tok.len() > 300;
                let overflow = huge
                    && std::str::from_utf8(tok)
                        .ok()
                        .and_then(|s| s.parse::<f64>().ok())
                        .is_some_and(|x| x.is_infinite());
                if overflow {
                    let o = out.get_or_insert_with(|| Vec::with_capacity(bytes.len() + 16));
                    o.extend_from_slice(&bytes[copied..start]);
                    o.push(b'"');
                    o.extend_from_slice(tok);
                    o.push(b'"');
                    copied = i;
                }
            }
            _ => i += 1,
        }
    }
    match out {
        Some(mut o) => {
            o.extend_from_slice(&bytes[copied..]);
            Cow::Owned(o)
        }
        None => Cow::Borrowed(bytes),
    }
}

/// A `serde_json::Value` whose objects refuse duplicate keys.
struct StrictValue(Value);

impl StrictValue {
    fn deserialize_from<'de, D: Deserializer<'de>>(d: D) -> Result<StrictValue, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

impl<'de> de::Deserialize<'de> for StrictValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        StrictValue::deserialize_from(d)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = StrictValue;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Bool(b)))
    }
    fn visit_i64<E>(self, n: i64) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::from(n)))
    }
    fn visit_u64<E>(self, n: u64) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::from(n)))
    }
    fn visit_f64<E>(self, x: f64) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::from(x)))
    }
    fn visit_str<E>(self, s: &str) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::String(s.to_owned())))
    }
    fn visit_string<E>(self, s: String) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::String(s)))
    }
    fn visit_unit<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Null))
    }
    fn visit_none<E>(self) -> Result<StrictValue, E> {
        Ok(StrictValue(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StrictValue, A::Error> {
        let mut v = Vec::new();
        while let Some(StrictValue(x)) = seq.next_element()? {
            v.push(x);
        }
        Ok(StrictValue(Value::Array(v)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StrictValue, A::Error> {
        let mut m = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if m.contains_key(&k) {
                return Err(de::Error::custom(format!(
                    "duplicate key {} (a key may appear once per object)",
                    crate::fields::quote(&k)
                )));
            }
            let StrictValue(v) = map.next_value()?;
            m.insert(k, v);
        }
        Ok(StrictValue(Value::Object(m)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_keys_are_errors_with_position() {
        let e = parse(
            br#"{"a": 1,
 "a": 2}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("duplicate key \"a\""), "{e}");
        assert!(e.contains("line 2"), "{e}");
        assert!(parse(br#"{"a": {"a": 1}, "b": [{"a": 1}, {"a": 2}]}"#).is_ok());
    }

    #[test]
    fn huge_numbers_become_strings_only_outside_strings() {
        let v = parse(br#"{"x": 1e400, "s": "1e400", "y": -2.5e-3, "z": [1E+999]}"#).unwrap();
        assert_eq!(v["x"], Value::String("1e400".into()));
        assert_eq!(v["s"], Value::String("1e400".into()));
        assert_eq!(v["y"].as_f64(), Some(-2.5e-3));
        assert_eq!(v["z"][0], Value::String("1E+999".into()));
        let v = parse(br#"{"q": "a \" 1e400", "n": 1e308}"#).unwrap();
        assert_eq!(v["n"].as_f64(), Some(1e308));
    }
}
