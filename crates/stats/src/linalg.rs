//! The little dense linear algebra the rating fit needs: Cholesky factorisation
//! of a symmetric positive-definite matrix, solving with it, and inverting it.
//!
//! Matrices are row-major `Vec<f64>` of size `n * n`. The fit has one row per bot
//! plus two model parameters, so `n` is in the hundreds at most and an O(n^3)
//! factorisation costs well under a millisecond.

/// Lower-triangular Cholesky factor `L` with `A = L L^T`.
#[derive(Debug, Clone)]
pub struct Cholesky {
    n: usize,
    l: Vec<f64>,
}

impl Cholesky {
    /// Factorises `a` (n x n, symmetric; only the lower triangle is read).
    /// `None` when `a` is not numerically positive definite.
    pub fn new(a: &[f64], n: usize) -> Option<Cholesky> {
        assert_eq!(a.len(), n * n, "matrix size");
        let mut l = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let mut sum = a[i * n + j];
                for k in 0..j {
                    sum -= l[i * n + k] * l[j * n + k];
                }
                if i == j {
                    if sum.is_nan() || sum <= 0.0 || sum.is_infinite() {
                        return None;
                    }
                    l[i * n + i] = sum.sqrt();
                } else {
                    l[i * n + j] = sum / l[j * n + j];
                }
            }
        }
        Some(Cholesky { n, l })
    }

    /// Solves `A x = b`.
    pub fn solve(&self, b: &[f64]) -> Vec<f64> {
        let n = self.n;
        assert_eq!(b.len(), n, "right-hand side size");
        let l = &self.l;
        let mut y = b.to_vec();
        for i in 0..n {
            let mut sum = y[i];
            for k in 0..i {
                sum -= l[i * n + k] * y[k];
            }
            y[i] = sum / l[i * n + i];
        }
        for i in (0..n).rev() {
            let mut sum = y[i];
            for k in i + 1..n {
                sum -= l[k * n + i] * y[k];
            }
            y[i] = sum / l[i * n + i];
        }
        y
    }

    /// `A^-1`, row-major.
    pub fn inverse(&self) -> Vec<f64> {
        let n = self.n;
        let mut inv = vec![0.0; n * n];
        let mut e = vec![0.0; n];
        for col in 0..n {
            e.iter_mut().for_each(|v| *v = 0.0);
            e[col] = 1.0;
            let x = self.solve(&e);
            for row in 0..n {
                inv[row * n + col] = x[row];
            }
        }
        inv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_and_inverts_a_known_matrix() {
        // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]]
        let a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let ch = Cholesky::new(&a, 3).expect("positive definite");
        let x = ch.solve(&[2.0, 7.0, 4.0]);
        // A * [0, 1, 1] = [2, 6, 4] ... check by multiplying back.
        for i in 0..3 {
            let row: f64 = (0..3).map(|j| a[i * 3 + j] * x[j]).sum();
            assert!((row - [2.0, 7.0, 4.0][i]).abs() < 1e-12);
        }
        let inv = ch.inverse();
        for i in 0..3 {
            for j in 0..3 {
                let v: f64 = (0..3).map(|k| a[i * 3 + k] * inv[k * 3 + j]).sum();
                let expected = if i == j { 1.0 } else { 0.0 };
                assert!((v - expected).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn rejects_singular_and_indefinite_matrices() {
        assert!(Cholesky::new(&[1.0, 1.0, 1.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[f64::NAN], 1).is_none());
    }
}
