//! Batches: `distance_batch`, `intersects_batch`, `penetration_batch` over N pairs, with the
//! GIL released and all cores in use (rayon).
//!
//! Every row is answered by [`run_batch`], which hands the rows to the library's batch path
//! (`convexity::batch`: SIMD lanes for boxes and small hulls, rayon over chunks of rows) with a
//! shape table built from the Python shapes (each distinct shape once). Shapes of another
//! dimension and non-rigid matrices are caught here, bad `[t, q]` / `[t, angle]` values by the
//! library, whose field names are mapped back to the arguments, so a bad row gets the single
//! call's message naming the argument and row (`poses_b[5][3:7]: ...`); every other row is
//! answered. A panic in the library is caught and the batch re-run row by row
//! with the scalar calls, so that only the row at fault reports it.
//!
//! The answers go straight into the columns handed to Python ([`Columns`], written block by
//! block in place): no per-row `Result` in between, and the shapes' dimension check only for
//! rows whose shapes have no table entry. Against a per-row `Vec<Result<Row, String>>` turned
//! into columns afterwards: sphere rows 114 → 92 ns, box 206 → 188 ns, hull32 660 → 635 ns
//! per distance row on one thread (`distance_batch(..., threads=1)`, 100,000 rows, two
//! interleaved runs of nine); callgrind, the extension's own instructions per sphere row
//! 1,080 → 946.

use crate::convert::{self, guard, panic_message, value_error};
use crate::pose::{self, Layout};
use crate::results::{self, bool_array, status_code, PyBatchResult, ERROR_CODE};
use crate::shapes::{shape_arg, Geom, PyShape, ShapeData};
use crate::single::{dim_name, epa2, epa3};
use convexity::batch::{
    self, BatchOptions, BatchSpace, DistanceOut, IntersectOut, Pair, PenetrationOut,
};
use convexity::gjk;
use convexity::{
    DVec2, DVec3, InputError, Pose, Pose2, Pose3, Problem, Shape2, Shape3, Status, Vector, Verdict,
};
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Distance,
    Intersects,
    Penetration,
}

/// Poses of one side: identity, one pose for every row, or one per row.
pub struct Poses {
    pub layout: Option<Layout>,
    pub data: Vec<f64>,
    /// Number of rows, or None for one pose broadcast to every row.
    pub rows: Option<usize>,
    pub field: &'static str,
}

impl Poses {
    fn row(&self, i: usize) -> Option<(&[f64], Layout)> {
        let l = self.layout?;
        let w = l.width();
        let k = if self.rows.is_some() { i } else { 0 };
        self.data.get(k * w..(k + 1) * w).map(|s| (s, l))
    }
}

/// Shapes of one side: one for every row, or one per row.
pub struct Shapes {
    pub list: Vec<Arc<ShapeData>>,
    pub broadcast: bool,
    pub field: &'static str,
}

impl Shapes {
    fn get(&self, i: usize) -> Option<&ShapeData> {
        self.list
            .get(if self.broadcast { 0 } else { i })
            .map(|s| s.as_ref())
    }
}

/// Everything a batch needs, owned, so that it can run without the GIL.
pub struct Input {
    pub kind: Kind,
    pub dim: usize,
    pub n: usize,
    pub shapes_a: Shapes,
    pub poses_a: Poses,
    pub shapes_b: Shapes,
    pub poses_b: Poses,
}

/// One answered row.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub verdict: i8,
    pub distance: f64,
    pub depth: f64,
    pub point_a: [f64; 3],
    pub point_b: [f64; 3],
    pub normal: [f64; 3],
    pub status: u8,
    pub iterations: u32,
}

fn arr3<V: Vector>(v: V) -> [f64; 3] {
    let mut out = [0.0; 3];
    for (i, o) in out.iter_mut().enumerate().take(V::DIM) {
        *o = v.coord(i);
    }
    out
}

fn verdict_code<V>(v: &Verdict<V>) -> i8 {
    match v.intersecting() {
        Some(true) => 1,
        Some(false) => 0,
        None => -1,
    }
}

const NAN3: [f64; 3] = [f64::NAN; 3];

fn answer<V, S>(
    kind: Kind,
    a: &S,
    pa: &Pose<V>,
    b: &S,
    pb: &Pose<V>,
    epa: impl Fn() -> convexity::gjk::epa::Penetration<V>,
) -> Row
where
    V: Vector,
    S: convexity::SupportMap<V>,
{
    match kind {
        Kind::Distance => {
            let d = gjk::distance(a, pa, b, pb, &gjk::Options::default(), None);
            Row {
                verdict: verdict_code(&d.verdict),
                distance: d.distance,
                depth: f64::NAN,
                point_a: arr3(d.point_a),
                point_b: arr3(d.point_b),
                normal: arr3(d.normal),
                status: status_code(d.status),
                iterations: d.iterations,
            }
        }
        Kind::Intersects => {
            let d = gjk::intersects(a, pa, b, pb, &gjk::Options::default(), None);
            Row {
                verdict: verdict_code(&d.verdict),
                distance: f64::NAN,
                depth: f64::NAN,
                point_a: NAN3,
                point_b: NAN3,
                normal: NAN3,
                status: status_code(d.status),
                iterations: d.iterations,
            }
        }
        Kind::Penetration => {
            let p = epa();
            Row {
                verdict: verdict_code(&p.verdict),
                distance: (-p.depth).max(0.0),
                depth: p.depth,
                point_a: arr3(p.point_a),
                point_b: arr3(p.point_b),
                normal: arr3(p.normal),
                status: status_code(p.status),
                iterations: p.iterations,
            }
        }
    }
}

fn pose3_row(p: &Poses, i: usize) -> Result<Pose3, String> {
    match p.row(i) {
        None => Ok(Pose3::IDENTITY),
        Some((v, l)) => pose::pose3_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field)),
    }
}

fn pose2_row(p: &Poses, i: usize) -> Result<Pose2, String> {
    match p.row(i) {
        None => Ok(Pose2::IDENTITY),
        Some((v, l)) => pose::pose2_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field)),
    }
}

/// The shapes of row `i`, checked to be of the batch's dimension (2D or 3D, not a point set of
/// another dimension).
fn row_shapes(inp: &Input, i: usize) -> Result<(&ShapeData, &ShapeData), String> {
    fn shape(s: &Shapes, i: usize) -> Result<&ShapeData, String> {
        s.get(i)
            .ok_or_else(|| format!("{}[{i}]: no such shape", s.field))
    }
    let a = shape(&inp.shapes_a, i)?;
    let b = shape(&inp.shapes_b, i)?;
    for (s, side) in [(a, &inp.shapes_a), (b, &inp.shapes_b)] {
        if s.dim() != inp.dim || matches!(s.geom, Geom::Nd(_)) {
            let at = if side.broadcast {
                side.field.to_string()
            } else {
                format!("{}[{i}]", side.field)
            };
            return Err(format!(
                "{at}: the shape is {} but the batch is {} (batches take 2D and 3D shapes of \
                 the poses' dimension)",
                dim_name(s.dim()),
                dim_name(inp.dim)
            ));
        }
    }
    Ok((a, b))
}

/// Answers row `i` with the scalar calls, or says why it cannot be answered. Used only to
/// isolate a row after a panic in the batch path (see [`run_batch`]).
fn scalar_row(inp: &Input, i: usize) -> Result<Row, String> {
    let (a, b) = row_shapes(inp, i)?;
    match (&a.geom, &b.geom) {
        (Geom::D3(sa), Geom::D3(sb)) => {
            let pa = pose3_row(&inp.poses_a, i)?;
            let pb = pose3_row(&inp.poses_b, i)?;
            Ok(answer(inp.kind, sa, &pa, sb, &pb, || {
                epa3(sa, &pa, sb, &pb)
            }))
        }
        (Geom::D2(sa), Geom::D2(sb)) => {
            let pa = pose2_row(&inp.poses_a, i)?;
            let pb = pose2_row(&inp.poses_b, i)?;
            Ok(answer(inp.kind, sa, &pa, sb, &pb, || {
                epa2(sa, &pa, sb, &pb)
            }))
        }
        _ => Err(format!("row {i}: shapes a and b cannot be paired")),
    }
}

/// A dimension the Python batches run in: how to read its shapes and raw poses.
trait Dim: BatchSpace + Vector {
    fn shape(g: &Geom) -> Option<&Self::Shape>;
    const IDENTITY: Self::RawPose;
    /// The raw pose of row `i` as `convexity::batch` takes it. Matrices are checked (rigid) and
    /// converted here, with the single calls' messages; `[t, q]` and `[t, angle]` rows go
    /// through as they are and the library checks them (its errors are renamed by
    /// [`library_error`] to the single calls' field names).
    fn raw(p: &Poses, i: usize) -> Result<Self::RawPose, String>;
}

impl Dim for DVec3 {
    fn shape(g: &Geom) -> Option<&Shape3> {
        match g {
            Geom::D3(s) => Some(s),
            _ => None,
        }
    }
    const IDENTITY: [f64; 7] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
    #[inline]
    fn raw(p: &Poses, i: usize) -> Result<[f64; 7], String> {
        // The common case first: one `[t, q]` row per pair, read in place.
        if let (Some(Layout::Quat7), Some(_)) = (p.layout, p.rows) {
            if let Some(Ok(v)) = p.data.get(7 * i..7 * i + 7).map(<[f64; 7]>::try_from) {
                return Ok(v);
            }
        }
        let Some((v, l)) = p.row(i) else {
            return Ok(Self::IDENTITY);
        };
        match (l, v) {
            (Layout::Quat7, &[tx, ty, tz, qx, qy, qz, qw]) => Ok([tx, ty, tz, qx, qy, qz, qw]),
            (Layout::Mat4, _) => {
                pose::pose3_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field))?;
                Ok(pose::mat4_raw(v))
            }
            _ => Err(format!("{}[{i}]: expected a 3D pose", p.field)),
        }
    }
}

impl Dim for DVec2 {
    fn shape(g: &Geom) -> Option<&Shape2> {
        match g {
            Geom::D2(s) => Some(s),
            _ => None,
        }
    }
    const IDENTITY: [f64; 3] = [0.0, 0.0, 0.0];
    fn raw(p: &Poses, i: usize) -> Result<[f64; 3], String> {
        let Some((v, l)) = p.row(i) else {
            return Ok(Self::IDENTITY);
        };
        match (l, v) {
            (Layout::Angle3, &[tx, ty, angle]) => Ok([tx, ty, angle]),
            (Layout::Mat3, _) => {
                pose::pose2_from(v, l).map_err(|e| format!("{}[{i}]{e}", p.field))?;
                Ok(pose::mat3_raw(v))
            }
            _ => Err(format!("{}[{i}]: expected a 2D pose", p.field)),
        }
    }
}

/// Rows per block at most, the unit of work of one thread (fewer when that gives each thread at
/// least eight blocks, not below 256): small enough for the block's buffers to stay
/// in cache and in the allocator's heap (buffers for all N rows at once, fresh pages on every
/// call, cost about 50 ns per row in page faults on sphere pairs).
const BLOCK: usize = 1024;

/// The shape table handed to `convexity::batch` (each distinct Python shape once, so a
/// broadcast shape is one entry) and, per side, the table index of each shape of the Python
/// list (`None`: a shape of another dimension, reported by the row check).
struct Table<V: Dim> {
    shapes: Vec<V::Shape>,
    a: Vec<Option<usize>>,
    b: Vec<Option<usize>>,
}

impl<V: Dim> Table<V>
where
    V::Shape: Clone,
{
    fn new(inp: &Input) -> Self {
        let mut shapes: Vec<V::Shape> = Vec::new();
        let mut seen: HashMap<*const ShapeData, Option<usize>> = HashMap::new();
        let mut side = |s: &Shapes| -> Vec<Option<usize>> {
            let mut last: Option<(*const ShapeData, Option<usize>)> = None;
            s.list
                .iter()
                .map(|d| {
                    let key = Arc::as_ptr(d);
                    if let Some((p, k)) = last {
                        if p == key {
                            return k;
                        }
                    }
                    let k = *seen.entry(key).or_insert_with(|| {
                        V::shape(&d.geom).map(|sh| {
                            shapes.push(sh.clone());
                            shapes.len() - 1
                        })
                    });
                    last = Some((key, k));
                    k
                })
                .collect()
        };
        let a = side(&inp.shapes_a);
        let b = side(&inp.shapes_b);
        Table { shapes, a, b }
    }

    fn index(idx: &[Option<usize>], s: &Shapes, i: usize) -> Option<usize> {
        idx.get(if s.broadcast { 0 } else { i }).copied().flatten()
    }

    /// Row `i` as a pair into the table, or why it cannot be one. A shape of the wrong
    /// dimension has no table index, so the row check (`row_shapes`, with its messages) runs
    /// only for rows without both indices.
    #[inline]
    fn pair(&self, inp: &Input, i: usize) -> Result<Pair<V::RawPose>, String> {
        let a = Self::index(&self.a, &inp.shapes_a, i);
        let b = Self::index(&self.b, &inp.shapes_b, i);
        let (Some(a), Some(b)) = (a, b) else {
            row_shapes(inp, i)?;
            return Err(format!("row {i}: shapes a and b cannot be paired"));
        };
        Ok(Pair {
            a,
            pose_a: V::raw(&inp.poses_a, i)?,
            b,
            pose_b: V::raw(&inp.poses_b, i)?,
        })
    }
}

/// The message of a row the library rejected, named as the single calls name it: the
/// library's `pairs[j].pose_b.translation[1]` is `poses_b[i][1]`, `rotation[k]` is `[3 + k]`,
/// a non-unit `rotation` is `[3:7]` and a 2D `angle` is `[2]`.
fn library_error(inp: &Input, j: usize, i: usize, e: &InputError) -> String {
    let rest = e.field.strip_prefix(&format!("pairs[{j}].")).unwrap_or("");
    let (poses, sub) = if let Some(sub) = rest.strip_prefix("pose_a") {
        (&inp.poses_a, sub.trim_start_matches('.'))
    } else if let Some(sub) = rest.strip_prefix("pose_b") {
        (&inp.poses_b, sub.trim_start_matches('.'))
    } else {
        return format!("row {i}: {e}");
    };
    let index = |name: &str| -> Option<usize> {
        sub.strip_prefix(name)?
            .strip_prefix('[')?
            .strip_suffix(']')?
            .parse()
            .ok()
    };
    let at = if let Some(k) = index("translation") {
        format!("[{k}]")
    } else if let Some(k) = index("rotation") {
        format!("[{}]", 3 + k)
    } else if sub == "rotation" {
        if let Problem::NotUnit(n) = e.problem {
            return format!(
                "{}[{i}][3:7]: the quaternion [qx, qy, qz, qw] must have unit norm (within \
                 1e-6), its norm is {n}",
                poses.field
            );
        }
        "[3:7]".to_string()
    } else if sub == "angle" {
        "[2]".to_string()
    } else if sub.is_empty() {
        String::new()
    } else {
        format!(".{sub}")
    };
    InputError::new(format!("{}[{i}]{at}", poses.field), e.problem.clone()).to_string()
}

/// Output buffers for `m` answered rows.
struct Buffers<V> {
    value: Vec<f64>,
    point_a: Vec<V>,
    point_b: Vec<V>,
    normal: Vec<V>,
    status: Vec<Status>,
    iterations: Vec<u32>,
    verdict: Vec<Verdict<V>>,
    error: Vec<Option<InputError>>,
}

impl<V: Vector> Buffers<V> {
    fn new(m: usize) -> Self {
        Buffers {
            value: vec![0.0; m],
            point_a: vec![V::ZERO; m],
            point_b: vec![V::ZERO; m],
            normal: vec![V::ZERO; m],
            status: vec![Status::Degenerate; m],
            iterations: vec![0; m],
            verdict: vec![Verdict::Undetermined; m],
            error: vec![None; m],
        }
    }
}

/// The answers of a batch, column by column: the arrays handed to Python (points `n × dim`),
/// and the rows that could not be answered with their messages, in row order.
pub struct Columns {
    pub distance: Vec<f64>,
    pub depth: Vec<f64>,
    pub intersecting: Vec<bool>,
    pub verdict: Vec<i8>,
    pub point_a: Vec<f64>,
    pub point_b: Vec<f64>,
    pub normal: Vec<f64>,
    pub iterations: Vec<u32>,
    pub status: Vec<u8>,
    pub errors: Vec<(usize, String)>,
}

/// A status no row keeps: the mark of a row not written yet.
const UNWRITTEN: u8 = u8::MAX;

impl Columns {
    fn new(n: usize, dim: usize) -> Self {
        Columns {
            distance: vec![f64::NAN; n],
            depth: vec![f64::NAN; n],
            intersecting: vec![false; n],
            verdict: vec![-1; n],
            point_a: vec![f64::NAN; n * dim],
            point_b: vec![f64::NAN; n * dim],
            normal: vec![f64::NAN; n * dim],
            iterations: vec![0; n],
            status: vec![UNWRITTEN; n],
            errors: Vec::new(),
        }
    }

    /// The columns of rows answered one by one (the scalar fallback).
    fn from_rows(rows: Vec<Result<Row, String>>, dim: usize) -> Self {
        let mut c = Columns::new(rows.len(), dim);
        let mut errors = Vec::new();
        if let Some(mut b) = c.blocks(dim, rows.len().max(1)).pop() {
            for (k, r) in rows.into_iter().enumerate() {
                match r {
                    Ok(row) => b.set(k, &row),
                    Err(e) => {
                        b.set_error(k);
                        errors.push((k, e));
                    }
                }
            }
        }
        c.errors = errors;
        c
    }

    /// The columns cut into blocks of `rows` rows, in order.
    fn blocks(&mut self, dim: usize, rows: usize) -> Vec<Block<'_>> {
        self.distance
            .chunks_mut(rows)
            .zip(self.depth.chunks_mut(rows))
            .zip(self.intersecting.chunks_mut(rows))
            .zip(self.verdict.chunks_mut(rows))
            .zip(self.point_a.chunks_mut(rows * dim))
            .zip(self.point_b.chunks_mut(rows * dim))
            .zip(self.normal.chunks_mut(rows * dim))
            .zip(self.iterations.chunks_mut(rows))
            .zip(self.status.chunks_mut(rows))
            .map(
                |(
                    (
                        (
                            (((((distance, depth), intersecting), verdict), point_a), point_b),
                            normal,
                        ),
                        iterations,
                    ),
                    status,
                )| {
                    Block {
                        dim,
                        distance,
                        depth,
                        intersecting,
                        verdict,
                        point_a,
                        point_b,
                        normal,
                        iterations,
                        status,
                    }
                },
            )
            .collect()
    }
}

/// One block's rows of the [`Columns`].
struct Block<'a> {
    dim: usize,
    distance: &'a mut [f64],
    depth: &'a mut [f64],
    intersecting: &'a mut [bool],
    verdict: &'a mut [i8],
    point_a: &'a mut [f64],
    point_b: &'a mut [f64],
    normal: &'a mut [f64],
    iterations: &'a mut [u32],
    status: &'a mut [u8],
}

impl Block<'_> {
    fn set(&mut self, k: usize, row: &Row) {
        let d = self.dim;
        self.distance[k] = row.distance;
        self.depth[k] = row.depth;
        self.intersecting[k] = row.verdict == 1;
        self.verdict[k] = row.verdict;
        self.point_a[k * d..(k + 1) * d].copy_from_slice(&row.point_a[..d]);
        self.point_b[k * d..(k + 1) * d].copy_from_slice(&row.point_b[..d]);
        self.normal[k * d..(k + 1) * d].copy_from_slice(&row.normal[..d]);
        self.iterations[k] = row.iterations;
        self.status[k] = row.status;
    }

    /// An error row: NaN values, verdict −1, status "error" (the columns' other defaults).
    fn set_error(&mut self, k: usize) {
        self.status[k] = ERROR_CODE;
    }
}

/// All rows, block by block into `cols`: in parallel (rayon, in the caller's pool) when
/// `parallel` and there is more than one block, else on the calling thread (handing a single
/// block to the pool only adds the wake-up of a pool thread: a one-row call took 5.6 µs).
fn run_dim<V: Dim>(inp: &Input, cols: &mut Columns, parallel: bool)
where
    V::Shape: Clone,
{
    let table = Table::<V>::new(inp);
    // At least eight blocks a thread when the batch allows it (five blocks of 1,024 for two
    // threads left one idle for a fifth of a 5,000-row call), at least 256 rows a block.
    let block = inp
        .n
        .div_ceil(8 * rayon::current_num_threads())
        .clamp(256, BLOCK);
    let blocks = cols.blocks(inp.dim, block);
    let run = |(c, mut b): (usize, Block<'_>)| run_block(inp, &table, c * block, &mut b);
    let errors: Vec<Vec<(usize, String)>> = if parallel && blocks.len() > 1 {
        blocks.into_par_iter().enumerate().map(run).collect()
    } else {
        blocks.into_iter().enumerate().map(run).collect()
    };
    cols.errors = errors.into_iter().flatten().collect();
}

/// Rows `first..` of `out` (a block): checked and turned into pairs here, answered by the
/// library's batch call of `inp.kind` (single-threaded: the blocks are the parallel unit),
/// each answer written into the block; returns the rows that could not be answered.
fn run_block<V: Dim>(
    inp: &Input,
    table: &Table<V>,
    first: usize,
    out: &mut Block<'_>,
) -> Vec<(usize, String)>
where
    V::Shape: Clone,
{
    let m = out.status.len();
    let mut errors = Vec::new();
    let mut pairs = Vec::with_capacity(m);
    let mut rows = Vec::with_capacity(m);
    for k in 0..m {
        match table.pair(inp, first + k) {
            Ok(p) => {
                pairs.push(p);
                rows.push(k);
            }
            Err(e) => {
                out.set_error(k);
                errors.push((first + k, e));
            }
        }
    }
    if pairs.is_empty() {
        return errors;
    }
    let table = &table.shapes;
    let opts = BatchOptions {
        parallel: false,
        ..BatchOptions::default()
    };
    let mut b = Buffers::<V>::new(pairs.len());
    let done = match inp.kind {
        Kind::Distance => batch::distance::<V>(
            table,
            &pairs,
            &opts,
            DistanceOut {
                distance: &mut b.value,
                point_a: &mut b.point_a,
                point_b: &mut b.point_b,
                normal: &mut b.normal,
                status: &mut b.status,
                iterations: &mut b.iterations,
                verdict: &mut b.verdict,
                error: &mut b.error,
            },
        ),
        Kind::Intersects => batch::intersects::<V>(
            table,
            &pairs,
            &opts,
            IntersectOut {
                status: &mut b.status,
                iterations: &mut b.iterations,
                verdict: &mut b.verdict,
                error: &mut b.error,
            },
        ),
        Kind::Penetration => batch::penetration::<V>(
            table,
            &pairs,
            &opts,
            PenetrationOut {
                depth: &mut b.value,
                point_a: &mut b.point_a,
                point_b: &mut b.point_b,
                normal: &mut b.normal,
                status: &mut b.status,
                iterations: &mut b.iterations,
                verdict: &mut b.verdict,
                error: &mut b.error,
            },
        ),
    };
    if let Err(e) = done {
        // Only an empty call or mis-sized buffers, neither of which can happen here.
        for &k in &rows {
            out.set_error(k);
            errors.push((
                first + k,
                format!(
                    "row {}: internal error in convexity (please report): {e}",
                    first + k
                ),
            ));
        }
        errors.sort_by_key(|e| e.0);
        return errors;
    }
    for (j, &k) in rows.iter().enumerate() {
        let i = first + k;
        if let Some(e) = &b.error[j] {
            out.set_error(k);
            errors.push((i, library_error(inp, j, i, e)));
            continue;
        }
        let (distance, depth) = match inp.kind {
            Kind::Distance => (b.value[j], f64::NAN),
            Kind::Intersects => (f64::NAN, f64::NAN),
            Kind::Penetration => ((-b.value[j]).max(0.0), b.value[j]),
        };
        let points = |v: V| {
            if inp.kind == Kind::Intersects {
                NAN3
            } else {
                arr3(v)
            }
        };
        out.set(
            k,
            &Row {
                verdict: verdict_code(&b.verdict[j]),
                distance,
                depth,
                point_a: points(b.point_a[j]),
                point_b: points(b.point_b[j]),
                normal: points(b.normal[j]),
                status: status_code(b.status[j]),
                iterations: b.iterations[j],
            },
        );
    }
    errors.sort_by_key(|e| e.0);
    errors
}

/// The batch kernel: every row through `convexity::batch` (SIMD lanes for boxes and small
/// hulls, rayon over chunks of rows), on `threads` threads (all cores by default), written
/// column by column. A panic in the library is caught; the rows are then answered one by one
/// with the scalar calls so that the row at fault gets the error and every other row its
/// answer.
pub fn run_batch(inp: &Input, threads: Option<usize>) -> Columns {
    let work = |parallel: bool| -> Columns {
        let batched = catch_unwind(AssertUnwindSafe(|| {
            let mut cols = Columns::new(inp.n, inp.dim);
            if inp.dim == 2 {
                run_dim::<DVec2>(inp, &mut cols, parallel);
            } else {
                run_dim::<DVec3>(inp, &mut cols, parallel);
            }
            let missed: Vec<usize> = (0..inp.n)
                .filter(|&i| cols.status[i] == UNWRITTEN)
                .collect();
            if !missed.is_empty() {
                for &i in &missed {
                    cols.status[i] = ERROR_CODE;
                    cols.errors.push((
                        i,
                        format!(
                            "row {i}: internal error in convexity (please report): not answered"
                        ),
                    ));
                }
                cols.errors.sort_by_key(|e| e.0);
            }
            cols
        }));
        match batched {
            Ok(cols) => cols,
            Err(_) => Columns::from_rows(scalar_rows(inp), inp.dim),
        }
    };
    match threads {
        // One thread: the calling one (no pool, no thread hop).
        Some(1) => work(false),
        Some(t) => match pool(t) {
            Some(pool) => pool.install(|| work(true)),
            None => work(true),
        },
        None => work(true),
    }
}

/// A rayon pool of `t` threads, built on first use and kept for the next call with the same
/// `t`: building one per call (a thread spawned and joined) cost about 50 µs, more than a
/// 100-row batch (`distance_batch(..., threads=1)`: 54 µs for 10 rows). `None` if the pool
/// cannot be built (the caller then runs on the global pool).
fn pool(t: usize) -> Option<std::sync::Arc<rayon::ThreadPool>> {
    use std::sync::{Arc, Mutex, PoisonError};
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == t) {
        return Some(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .ok()?,
    );
    pools.push((t, p.clone()));
    Some(p)
}

/// Every row through the scalar calls, each under its own `catch_unwind`.
fn scalar_rows(inp: &Input) -> Vec<Result<Row, String>> {
    (0..inp.n)
        .into_par_iter()
        .with_min_len(64)
        .map(
            |i| match catch_unwind(AssertUnwindSafe(|| scalar_row(inp, i))) {
                Ok(r) => r,
                Err(p) => Err(format!(
                    "row {i}: internal error in convexity (please report): {}",
                    panic_message(&p)
                )),
            },
        )
        .collect()
}

fn read_shapes(obj: &Bound<'_, PyAny>, field: &'static str) -> PyResult<Shapes> {
    if let Ok(s) = obj.cast::<PyShape>() {
        return Ok(Shapes {
            list: vec![s.get().data.clone()],
            broadcast: true,
            field,
        });
    }
    if obj.is_instance_of::<pyo3::types::PyString>() || obj.is_instance_of::<pyo3::types::PyDict>()
    {
        return Err(value_error(
            field,
            "expected a shape or a sequence of shapes",
        ));
    }
    let iter = obj
        .try_iter()
        .map_err(|_| value_error(field, "expected a shape or a sequence of shapes"))?;
    let mut list = Vec::new();
    for (i, item) in iter.enumerate() {
        list.push(shape_arg(&item?, &format!("{field}[{i}]"))?);
    }
    Ok(Shapes {
        list,
        broadcast: false,
        field,
    })
}

fn read_poses(obj: &Bound<'_, PyAny>, field: &'static str) -> PyResult<Poses> {
    if obj.is_none() {
        return Ok(Poses {
            layout: None,
            data: Vec::new(),
            rows: None,
            field,
        });
    }
    let a = convert::array(obj, field)?;
    let bad = || {
        value_error(
            field,
            format!(
                "expected poses of shape (N, 7) [tx, ty, tz, qx, qy, qz, qw], (N, 4, 4), \
                 (N, 3) [tx, ty, angle] or (N, 3, 3), one pose (7,) or (4, 4) for every row, \
                 or None; found shape {}",
                a.shape_str()
            ),
        )
    };
    let (layout, rows) = match a.shape.as_slice() {
        [7] => (Layout::Quat7, None),
        [4, 4] => (Layout::Mat4, None),
        [n, 7] => (Layout::Quat7, Some(*n)),
        [n, 3] => (Layout::Angle3, Some(*n)),
        [n, 4, 4] => (Layout::Mat4, Some(*n)),
        [n, 3, 3] => (Layout::Mat3, Some(*n)),
        [3] => (Layout::Angle3, None),
        _ => return Err(bad()),
    };
    Ok(Poses {
        layout: Some(layout),
        data: a.data,
        rows,
        field,
    })
}

/// Reads and checks the arguments of a batch call.
fn input(
    kind: Kind,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
) -> PyResult<Input> {
    let sa = read_shapes(shapes_a, "shapes_a")?;
    let sb = read_shapes(shapes_b, "shapes_b")?;
    let pa = read_poses(poses_a, "poses_a")?;
    let pb = read_poses(poses_b, "poses_b")?;
    let mut n: Option<(usize, &str)> = None;
    let counts = [
        ((!sa.broadcast).then_some(sa.list.len()), "shapes_a"),
        (pa.rows, "poses_a"),
        ((!sb.broadcast).then_some(sb.list.len()), "shapes_b"),
        (pb.rows, "poses_b"),
    ];
    for (c, field) in counts {
        let Some(c) = c else { continue };
        match n {
            None => n = Some((c, field)),
            Some((m, first)) if m != c => {
                return Err(value_error(
                    first,
                    format!(
                        "has {m} rows but {field} has {c}; every per-row input needs the same N"
                    ),
                ))
            }
            _ => {}
        }
    }
    let n = n.map_or(1, |(m, _)| m);
    let dims: Vec<(usize, &str)> = [(&pa, "poses_a"), (&pb, "poses_b")]
        .iter()
        .filter_map(|(p, f)| p.layout.map(|l| (l.dim(), *f)))
        .collect();
    let dim = match dims.as_slice() {
        [] => sa.list.first().map_or(3, |s| s.dim()),
        [(d, _)] => *d,
        [(d1, _), (d2, f2)] => {
            if d1 != d2 {
                return Err(value_error(
                    f2,
                    format!("poses are {}D but poses_a are {}D", d2, d1),
                ));
            }
            *d1
        }
        _ => 3,
    };
    if dim != 2 && dim != 3 {
        return Err(value_error(
            "shapes_a",
            format!(
                "batches take 2D and 3D shapes, found {} ones (use distance_nd for point sets)",
                dim_name(dim)
            ),
        ));
    }
    // A broadcast pose is not a row: a bad one fails the whole call.
    for p in [&pa, &pb] {
        if p.rows.is_none() {
            if let Some((v, l)) = p.row(0) {
                let r = if dim == 3 {
                    pose::pose3_from(v, l).map(|_| ())
                } else {
                    pose::pose2_from(v, l).map(|_| ())
                };
                r.map_err(|e| value_error("", format!("{}{e}", p.field)))?;
            }
        }
    }
    Ok(Input {
        kind,
        dim,
        n,
        shapes_a: sa,
        poses_a: pa,
        shapes_b: sb,
        poses_b: pb,
    })
}

fn batch(
    py: Python<'_>,
    kind: Kind,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    if threads == Some(0) {
        return Err(value_error(
            "threads",
            "must be at least 1 (or None for all cores)",
        ));
    }
    let inp = input(kind, shapes_a, poses_a, shapes_b, poses_b)?;
    let cols = py.detach(|| run_batch(&inp, threads));
    let (n, dim) = (inp.n, inp.dim);
    Ok(PyBatchResult {
        n,
        distance: cols.distance.into_pyarray(py).into_any().unbind(),
        depth: cols.depth.into_pyarray(py).into_any().unbind(),
        intersecting: bool_array(py, cols.intersecting).unbind(),
        verdict: cols.verdict.into_pyarray(py).into_any().unbind(),
        point_a: results::matrix(py, cols.point_a, dim)?.unbind(),
        point_b: results::matrix(py, cols.point_b, dim)?.unbind(),
        normal: results::matrix(py, cols.normal, dim)?.unbind(),
        iterations: cols.iterations.into_pyarray(py).into_any().unbind(),
        status_codes: PyArray1::from_vec(py, cols.status).into_any().unbind(),
        errors: cols.errors,
    })
}

/// Distances for N pairs (GJK), in parallel with the GIL released.
///
/// `shapes_a`, `shapes_b`: one shape (used for every row) or a sequence of N shapes.
/// `poses_a`, `poses_b`: (N, 7) `[tx, ty, tz, qx, qy, qz, qw]`, (N, 4, 4), or one (7,) /
/// (4, 4) pose for every row, or None; in 2D (N, 3) `[tx, ty, angle]` or (N, 3, 3).
/// `threads`: number of threads (default: all cores). `threads=1` runs on the calling thread;
/// another count runs on a pool of that many threads, built on first use and kept (idle) for
/// the rest of the process.
/// A bad row gets its message in `error` and `status == "error"`; the others are answered.
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.zeros((3, 7)); poses[:, 6] = 1; poses[:, 0] = [1, 2, 3]
/// >>> r = cx.distance_batch(cx.Sphere(0.5), None, cx.Sphere(0.5), poses)
/// >>> r.distance.round(12).tolist()
/// [0.0, 1.0, 2.0]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn distance_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Distance,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}

/// Boolean intersection tests for N pairs (GJK with early exit); arguments as in
/// `distance_batch`. `distance` and the points are NaN (not computed).
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.zeros((2, 7)); poses[:, 6] = 1; poses[:, 0] = [0.5, 3.0]
/// >>> cx.intersects_batch(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), poses).intersecting.tolist()
/// [True, False]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn intersects_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Intersects,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}

/// Penetration depths, normals and contact points for N pairs (GJK + EPA); arguments as in
/// `distance_batch`. `depth` is minus the distance for separated rows.
///
/// >>> import numpy as np, convexity as cx
/// >>> poses = np.array([[1.5, 0, 0, 0, 0, 0, 1]])
/// >>> cx.penetration_batch(cx.Box([1, 1, 1]), None, cx.Box([1, 1, 1]), poses).depth.round(12).tolist()
/// [0.5]
#[pyfunction]
#[pyo3(signature = (shapes_a, poses_a, shapes_b, poses_b, threads = None))]
pub fn penetration_batch(
    py: Python<'_>,
    shapes_a: &Bound<'_, PyAny>,
    poses_a: &Bound<'_, PyAny>,
    shapes_b: &Bound<'_, PyAny>,
    poses_b: &Bound<'_, PyAny>,
    threads: Option<usize>,
) -> PyResult<PyBatchResult> {
    guard(|| {
        batch(
            py,
            Kind::Penetration,
            shapes_a,
            poses_a,
            shapes_b,
            poses_b,
            threads,
        )
    })
}
