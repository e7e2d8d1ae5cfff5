//! The text of `convexity query --help` after the options: the scene format, mesh files, the
//! NDJSON form, the output and the exit status.

/// The input format, shown by `convexity query --help`.
pub const FORMAT_HELP: &str = "\
INPUT (JSON scene):
  {\"shapes\": {\"A\": {\"type\": \"box\", \"half_extents\": [1, 1, 1]},
              \"B\": {\"type\": \"sphere\", \"radius\": 0.5}},
   \"pairs\": [{\"a\": \"A\", \"b\": \"B\",
              \"pose_b\": {\"translation\": [2, 0, 0], \"rotation\": [0, 0, 0, 1]}}]}
  Shape types and their fields: points (points), sphere/circle (radius), box (half_extents,
  2 or 3 numbers), capsule (a, b, radius), cylinder/cone (half_height, radius), segment (a, b),
  triangle (a, b, c), polygon (points, 2D), halfspaces (normals, offsets), rounded (shape,
  radius), transformed (shape, pose), mesh (file, as; see MESH FILES). A pair takes a, b (a
  shape name or an inline shape object), pose_a, pose_b (2D: translation [x, y], angle; 3D:
  translation, rotation as a unit quaternion [x, y, z, w]); n-dimensional point sets take no
  pose. Any object may carry a free-form \"meta\" field; every other unknown field is an
  error.

MESH FILES: {\"type\": \"mesh\", \"file\": \"part.obj\", \"as\": \"hull\"} reads an OBJ, STL or PLY
  file; a relative path is relative to the scene file's directory (to the current directory
  when the scene is read from standard input). \"as\" is required: \"hull\" is the convex hull
  of the file's vertices (the points shape; every method), \"parts\" one convex part per OBJ
  object/group (else per connected component), \"mesh\" a closed triangle mesh (a solid: a
  shape wholly inside it intersects it). Parts and meshes are answered by gjk only (other
  methods print a \"skipped\" line with the reason), with no penetration depth (--contact
  says so in contact_status). Their certificates name the element (part or triangle):
  {common_point, element_a, element_b} or {separated: [{element_a, element_b,
  separating_axis, gap, tolerance}, ...]}. A file error names the file and the line or face.

INPUT (--ndjson): one JSON object per line: a pair as above (shapes inline or by name), or
  {\"shapes\": {...}} defining named shapes for the lines after it. Read as a stream with
  bounded memory.

OUTPUT: one JSON line per pair and method, in input order: pair, algorithm, intersecting,
  distance, [penetration_depth], point_a, point_b, normal, status, iterations,
  [contact_status], certificate ({common_point} or {separating_axis, gap}), tolerance,
  verified, check. normal is null where it means nothing (an intersecting pair without a
  penetration depth). Bad pairs print {\"pair\": i, \"error\": ...} and the rest go on.

EXIT STATUS: 0 ok; 2 bad usage or some pair could not be answered; 74 the output could not be
  written; 70 internal error.";
