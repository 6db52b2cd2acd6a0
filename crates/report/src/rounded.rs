//! Numbers as the CSV files write them: the rounding of
//! [`arena_tournament::rounded`], which certificate.csv shares.

pub use arena_tournament::rounded::{dp1, dp2, dp4, opt_dp2, round};
