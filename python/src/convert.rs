//! Python values to Rust: float arrays with their shape, errors naming the field, and the
//! last line of defence that turns a Rust panic into an ordinary Python exception.

use convexity::InputError;
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyFloat, PyInt, PyList, PyString, PyTuple};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// `ValueError("field: problem")`.
pub fn value_error(field: &str, problem: impl std::fmt::Display) -> PyErr {
    if field.is_empty() {
        PyValueError::new_err(problem.to_string())
    } else {
        PyValueError::new_err(format!("{field}: {problem}"))
    }
}

/// A library `InputError` as a `ValueError`, its field prefixed by the argument's name
/// (`radius` of argument `b` becomes `b.radius`; an error of the argument itself stays `b`).
pub fn input_error(arg: &str, e: InputError) -> PyErr {
    let e = if arg.is_empty() { e } else { e.within(arg) };
    PyValueError::new_err(e.to_string())
}

/// Runs `f`, turning a panic into `RuntimeError` (a Rust panic must never reach Python as
/// `PanicException`, which derives from `BaseException` and escapes `except Exception`).
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(PyRuntimeError::new_err(format!(
            "internal error in convexity (please report): {}",
            panic_message(&p)
        ))),
    }
}

pub fn panic_message(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_string()
    }
}

/// A float64 array copied out of Python: its shape and its values in C order.
#[derive(Clone, Debug)]
pub struct Arr {
    pub shape: Vec<usize>,
    pub data: Vec<f64>,
}

impl Arr {
    pub fn ndim(&self) -> usize {
        self.shape.len()
    }
    pub fn shape_str(&self) -> String {
        shape_str(&self.shape)
    }
}

pub fn shape_str(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        s => format!(
            "({})",
            s.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn numpy(py: Python<'_>) -> PyResult<&Bound<'_, PyModule>> {
    static NP: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    NP.get_or_try_init(py, || py.import("numpy").map(Bound::unbind))
        .map(|m| m.bind(py))
}

/// The scene format's spellings of NaN and infinity, accepted wherever a number is expected.
fn special_number(s: &str) -> Option<f64> {
    match s {
        "NaN" | "nan" => Some(f64::NAN),
        "inf" | "+inf" | "Infinity" | "+Infinity" => Some(f64::INFINITY),
        "-inf" | "-Infinity" => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// Replaces the scene format's NaN/infinity strings inside nested lists by floats, so that a
/// scene file's shape object loads unchanged.
fn replace_specials<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = obj.py();
    if let Ok(s) = obj.cast::<PyString>() {
        if let Some(v) = special_number(&s.to_cow()?) {
            return Ok(PyFloat::new(py, v).into_any());
        }
        return Ok(obj.clone());
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'py, PyAny>> = obj
            .try_iter()?
            .map(|x| x.and_then(|x| replace_specials(&x)))
            .collect::<PyResult<_>>()?;
        return Ok(PyList::new(py, items)?.into_any());
    }
    Ok(obj.clone())
}

/// Any array-like of numbers as float64 (numpy arrays, nested lists and tuples, scalars).
/// Errors name `field`.
pub fn array(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Arr> {
    let py = obj.py();
    if obj.is_none() {
        return Err(value_error(field, "expected numbers, found None"));
    }
    if obj.is_instance_of::<PyString>() {
        if let Some(v) = special_number(&obj.cast::<PyString>()?.to_cow()?) {
            return Ok(Arr {
                shape: vec![],
                data: vec![v],
            });
        }
        return Err(value_error(
            field,
            format!("expected numbers, found the string {}", obj.repr()?),
        ));
    }
    if let Ok(a) = obj.cast::<PyArrayDyn<f64>>() {
        // SAFETY: the values are copied out at once while this thread holds the GIL, so no
        // Python code can resize or write the array meanwhile; skipping rust-numpy's borrow
        // tracking saves most of the per-call cost of a small pose array.
        if let Ok(s) = unsafe { a.as_slice() } {
            return Ok(Arr {
                shape: a.shape().to_vec(),
                data: s.to_vec(),
            });
        }
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        // Fast path for a flat sequence of numbers (a pose given as a list).
        if let Ok(v) = obj.extract::<Vec<f64>>() {
            return Ok(Arr {
                shape: vec![v.len()],
                data: v,
            });
        }
    }
    let np = numpy(py)?;
    let source = if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        replace_specials(obj)?
    } else {
        obj.clone()
    };
    let converted = np
        .call_method1("asarray", (source, np.getattr("float64")?))
        .and_then(|a| np.call_method1("ascontiguousarray", (a,)))
        .map_err(|e| {
            value_error(
                field,
                format!(
                    "expected an array of numbers ({})",
                    e.value(py).str().map(|s| s.to_string()).unwrap_or_default()
                ),
            )
        })?;
    let a = converted
        .cast::<PyArrayDyn<f64>>()
        .map_err(|_| value_error(field, "expected an array of float64"))?;
    let ro = a.readonly();
    let data = ro
        .as_slice()
        .map_err(|_| value_error(field, "expected a contiguous array"))?
        .to_vec();
    Ok(Arr {
        shape: ro.shape().to_vec(),
        data,
    })
}

/// A `True` / `False` field (a Python or numpy bool; not a number).
pub fn flag(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<bool> {
    obj.extract::<bool>().map_err(|_| {
        let ty = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string());
        value_error(field, format!("expected True or False, found a {ty}"))
    })
}

/// One number (a Python float or int, a 0-d or one-element array, or a NaN/infinity string).
pub fn number(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<f64> {
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Err(value_error(field, "expected a number, found a bool"));
        }
        return obj
            .extract::<f64>()
            .map_err(|e| value_error(field, e.value(obj.py())));
    }
    let a = array(obj, field)?;
    if a.shape.iter().product::<usize>() != 1 || a.ndim() > 1 {
        return Err(value_error(
            field,
            format!(
                "expected one number, found an array of shape {}",
                a.shape_str()
            ),
        ));
    }
    Ok(a.data[0])
}

/// A vector of coordinates (a 1-d array).
pub fn vector(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<f64>> {
    let a = array(obj, field)?;
    if a.ndim() != 1 {
        return Err(value_error(
            field,
            format!(
                "expected a 1-d array of coordinates, found shape {}",
                a.shape_str()
            ),
        ));
    }
    if a.data.is_empty() {
        return Err(value_error(field, "must not be empty"));
    }
    Ok(a.data)
}

/// Rows of coordinates (a 2-d array `(n, d)`), returned with `d`.
pub fn rows(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<(usize, Vec<f64>)> {
    let a = array(obj, field)?;
    match a.shape.as_slice() {
        [0, ..] | [] if a.data.is_empty() => Err(value_error(field, "must not be empty")),
        [_, 0] => Err(value_error(
            field,
            "a point needs at least one coordinate, found shape (n, 0)",
        )),
        [_, d] => Ok((*d, a.data)),
        _ => Err(value_error(
            field,
            format!(
                "expected a 2-d array of shape (n, d), found shape {}",
                a.shape_str()
            ),
        )),
    }
}

/// Checks that every value is finite, naming `field[i]` (or `field[i][j]` with `cols`).
pub fn finite(field: &str, data: &[f64], cols: Option<usize>) -> PyResult<()> {
    for (k, v) in data.iter().enumerate() {
        if !v.is_finite() {
            let at = match cols {
                Some(c) if c > 0 => format!("{field}[{}][{}]", k / c, k % c),
                _ => format!("{field}[{k}]"),
            };
            return Err(value_error(&at, format!("value {v} is not finite")));
        }
    }
    Ok(())
}
