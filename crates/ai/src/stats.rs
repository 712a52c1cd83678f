//! The arena's statistics: a win rate's Wilson interval and a mean's
//! confidence interval.

/// The normal quantile for a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A proportion with its 95 % Wilson score interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Proportion {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
    pub n: f64,
}

/// The Wilson score interval for `successes` out of `n` trials at normal
/// quantile `z` (a tie may count as half a success, so both are real).
/// With no trials the interval is all of 0..1.
pub fn wilson(successes: f64, n: f64, z: f64) -> Proportion {
    if n <= 0.0 {
        return Proportion { rate: 0.0, low: 0.0, high: 1.0, n: 0.0 };
    }
    let p = successes / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    Proportion { rate: p, low: (centre - half).max(0.0), high: (centre + half).min(1.0), n }
}

/// A sample mean with its 95 % confidence interval (Student's t).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Mean {
    pub mean: f64,
    pub low: f64,
    pub high: f64,
    /// Sample standard deviation.
    pub sd: f64,
    pub n: usize,
}

/// The mean of `xs` with a 95 % t interval (unbounded with fewer than two
/// values: one observation says nothing of the spread).
pub fn mean_ci(xs: &[f64]) -> Mean {
    let n = xs.len();
    let mean = if n == 0 { 0.0 } else { xs.iter().sum::<f64>() / n as f64 };
    // The squares about the mean.
    let squares = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>();
    with_interval(mean, squares, n)
}

/// The [`Mean`] of `n` values with this mean and sum of squares about it.
fn with_interval(mean: f64, squares: f64, n: usize) -> Mean {
    if n == 0 {
        return Mean { mean: 0.0, low: 0.0, high: 0.0, sd: 0.0, n };
    }
    if n < 2 {
        return Mean { mean, low: f64::NEG_INFINITY, high: f64::INFINITY, sd: 0.0, n };
    }
    let sd = (squares / (n - 1) as f64).sqrt();
    let half = t975(n - 1) * sd / (n as f64).sqrt();
    Mean { mean, low: mean - half, high: mean + half, sd, n }
}

/// The mean and interval of several samples taken as one, from each
/// one's [`Mean`] (its mean, standard deviation and size): what
/// [`mean_ci`] gives for all their values at once.
pub fn pool_means(parts: &[Mean]) -> Mean {
    let n: usize = parts.iter().map(|m| m.n).sum();
    let mean = if n == 0 { 0.0 } else { parts.iter().map(|m| m.n as f64 * m.mean).sum::<f64>() / n as f64 };
    // The squares about the pooled mean: each part's about its own, and
    // its mean's distance from the pooled one.
    let squares: f64 = parts
        .iter()
        .filter(|m| m.n > 0)
        .map(|m| (m.n - 1) as f64 * m.sd * m.sd + m.n as f64 * (m.mean - mean) * (m.mean - mean))
        .sum();
    with_interval(mean, squares, n)
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom: exact
/// table values up to 30, then the Cornish–Fisher expansion around the
/// normal quantile (error below 1e-4).
pub fn t975(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    if df == 0 {
        return f64::INFINITY;
    }
    if df <= 30 {
        return TABLE[df - 1];
    }
    let z = Z95;
    let v = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v * v * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_published_values() {
        // 8 of 10: the textbook Wilson interval is 0.4902–0.9433.
        let w = wilson(8.0, 10.0, Z95);
        assert!(close(w.rate, 0.8, 1e-12));
        assert!(close(w.low, 0.4902, 1e-4) && close(w.high, 0.9433, 1e-4), "{w:?}");
        // 0 of 10: 0–0.2775 (the interval does not collapse at 0).
        let w = wilson(0.0, 10.0, Z95);
        assert!(close(w.low, 0.0, 1e-12) && close(w.high, 0.2775, 1e-4), "{w:?}");
        // 380 of 400 (95 %): 0.9240–0.9674, asymmetric about 0.95.
        let w = wilson(380.0, 400.0, Z95);
        assert!(close(w.low, 0.9240, 1e-4) && close(w.high, 0.9674, 1e-4), "{w:?}");
        assert_eq!(wilson(0.0, 0.0, Z95).high, 1.0);
    }

    #[test]
    fn mean_interval_matches_a_hand_computation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample sd 2.138, t(7) = 2.365,
        // half-width 2.365 * 2.138 / sqrt(8) = 1.788.
        let m = mean_ci(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!(close(m.mean, 5.0, 1e-12));
        assert!(close(m.sd, 2.13809, 1e-4));
        assert!(close(m.high - m.mean, 1.7875, 1e-3), "{m:?}");
        assert!(close(m.mean - m.low, m.high - m.mean, 1e-12));
        let one = mean_ci(&[3.0]);
        assert_eq!((one.mean, one.low, one.high), (3.0, f64::NEG_INFINITY, f64::INFINITY));
        assert_eq!(mean_ci(&[]).n, 0);
    }

    #[test]
    fn pooled_means_are_the_mean_of_all_the_values() {
        let values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0, -3.0, 11.0];
        let whole = mean_ci(&values);
        for parts in [vec![&values[..3], &values[3..]], vec![&values[..1], &values[1..1], &values[1..6], &values[6..]]]
        {
            let pooled = pool_means(&parts.iter().map(|p| mean_ci(p)).collect::<Vec<_>>());
            assert_eq!(pooled.n, whole.n);
            for (a, b) in
                [(pooled.mean, whole.mean), (pooled.sd, whole.sd), (pooled.low, whole.low), (pooled.high, whole.high)]
            {
                assert!(close(a, b, 1e-9), "{pooled:?} against {whole:?}");
            }
        }
        assert_eq!(pool_means(&[]).n, 0);
        assert_eq!(pool_means(&[mean_ci(&[3.0])]).high, f64::INFINITY);
    }

    #[test]
    fn t_quantiles_approach_the_normal() {
        assert!(close(t975(40), 2.0211, 1e-3));
        assert!(close(t975(120), 1.9799, 1e-3));
        assert!(close(t975(100_000), Z95, 1e-3));
        assert!(t975(31) < t975(30) && t975(31) > t975(40));
    }
}
