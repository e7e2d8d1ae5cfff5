//! Are two labelled point clouds (a CSV table) linearly separable? The maximum-margin
//! hyperplane and its certificate, in any dimension.
//!
//! The CSV here is inline (`x,y,z,label`); `convexity separate FILE.csv` on the command line
//! reads files with quoting, delimiters and label-column options. `nd::separate` finds the
//! closest pair of the two hulls by n-D GJK; the hyperplane certificate is checked with
//! `nd::points::verify_n`.
//!
//! Run: `cargo run -p convexity --example separability_csv`.

use convexity::nd::points::{verify_n, PointsN, VerdictN};
use convexity::nd::{separate, Separation};

const TABLE: &str = "\
x,y,z,label
0.0,0.0,0.0,red
1.0,0.0,0.0,red
0.5,1.0,0.5,red
0.2,0.1,1.0,red
3.0,0.0,0.0,blue
4.0,1.0,0.5,blue
3.5,0.5,1.0,blue
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut red = Vec::new();
    let mut blue = Vec::new();
    for (n, line) in TABLE.lines().enumerate().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        let (label, coords) = fields.split_last().ok_or("empty line")?;
        let p: Vec<f64> = coords
            .iter()
            .map(|f| f.parse::<f64>().map_err(|e| format!("line {}: {e}", n + 1)))
            .collect::<Result<_, _>>()?;
        match *label {
            "red" => red.push(p),
            "blue" => blue.push(p),
            other => return Err(format!("line {}: unknown label {other}", n + 1).into()),
        }
    }
    let (a, b) = (PointsN::from_rows(&red)?, PointsN::from_rows(&blue)?);
    match separate(&a, &b)? {
        Separation::Separable {
            margin,
            certificate,
            ..
        } => {
            println!(
                "separable: margin {margin:.4}, normal {:?}",
                certificate.normal
            );
            verify_n(&VerdictN::Separated(certificate), &a, &b, 1e-9)?;
            println!("certificate verified");
            assert!((margin - 1.0).abs() < 1e-9, "the closest pair is 2 apart");
        }
        other => return Err(format!("expected separable, got {other:?}").into()),
    }
    Ok(())
}

#[test]
fn runs() {
    main().unwrap();
}
