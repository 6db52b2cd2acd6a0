//! Numbers as the CSV files write them (the rating files, certificate.csv):
//! rows hold exact values, rounded only as they are written
//! (`serialize_with = "rounded::dpN"`: N decimals).

use serde::Serializer;

pub fn dp1<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round(*value, 1))
}

pub fn dp2<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round(*value, 2))
}

pub fn dp4<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(round(*value, 4))
}

pub fn opt_dp2<S: Serializer>(value: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.serialize_some(&round(*v, 2)),
        None => s.serialize_none(),
    }
}

/// Rounds for output; infinities and NaN pass through.
pub fn round(value: f64, decimals: i32) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let scale = 10f64.powi(decimals);
    (value * scale).round() / scale
}
