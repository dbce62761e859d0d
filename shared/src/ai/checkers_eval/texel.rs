//! The Texel fit of the checkers evaluation's weights ([`crate::ai::texel`], shared with
//! Pente's), in checkers' terms: samples whose features are [`super::features`], Black's counts,
//! labelled with Black's result (1 a Black win, 0.5 a draw, 0 a White win), and weights as
//! [`Weights`] and [`Term`]s. `kingme tune` drives it.

use super::weights::{MAX_WEIGHT, TERMS, Term, Weights};
use crate::ai::texel::{self, Bounds};
pub use crate::ai::texel::{Progress, sigmoid};

/// One labelled position: its terms' counts ([`super::features`]) and its result for Black.
pub type Sample = texel::Sample<TERMS>;

/// The fit's answer, in checkers' weights.
pub type Fit = texel::Fit<Weights>;

/// The mean squared error of `weights` with scale `k` over `samples` (0 for none).
#[must_use]
pub fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    texel::error(samples, &weights.values(), k)
}

/// The scale `k` that gives `weights` the least error.
#[must_use]
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    texel::fit_k(samples, &weights.values())
}

/// Fits the weights from `start` with scale `k`, keeping `frozen` terms as they are (the man,
/// which sets the scale), calling `progress` after every pass.
#[must_use]
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    k: f64,
    frozen: &[Term],
    progress: impl FnMut(Progress),
) -> Fit {
    let frozen = indices(frozen);
    texel::fit(samples, &start.values(), k, &bounds(&frozen), progress)
        .map(|values| Weights::from_values(values).unwrap_or(*start))
}

/// A single step of 1 of one weight (other than the `frozen` ones) that lowers the error, if
/// there is one: the term, the change, and the error it gives. `None` means `weights` is a
/// local minimum of the fit.
#[must_use]
pub fn lower_step(
    samples: &[Sample],
    weights: &Weights,
    k: f64,
    frozen: &[Term],
) -> Option<(Term, i32, f64)> {
    let frozen = indices(frozen);
    texel::lower_step(samples, &weights.values(), k, &bounds(&frozen))
        .map(|(index, change, error)| (Term::ALL[index], change, error))
}

/// The terms' indices.
fn indices(terms: &[Term]) -> Vec<usize> {
    terms.iter().map(|&term| term as usize).collect()
}

/// The fit's bounds: the `frozen` terms stay, the others within [`MAX_WEIGHT`], and a man and a
/// king worth more than 0.
fn bounds(frozen: &[usize]) -> Bounds<'_> {
    Bounds {
        frozen,
        allowed: |index, value| {
            value.abs() <= MAX_WEIGHT
                && (!matches!(Term::ALL[index], Term::Man | Term::King) || value > 0)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::checkers_eval::features;
    use crate::games::checkers::parse_fen;

    /// Samples where a king is worth exactly what the results say: the fit must move the king's
    /// weight towards it and reach a local minimum.
    #[test]
    fn the_fit_lowers_the_error_to_a_local_minimum() {
        let labelled = [
            ("B:W21,22:BK1,K5", 0.5),
            ("B:W21,22,23:BK1,K5", 0.0),
            ("B:W21:BK1,K5", 1.0),
            ("B:W21,22:B1,K5", 0.5),
            ("B:W21,22:B1,2", 0.5),
            ("W:W21,22,23:B1,2", 0.0),
            ("W:WK21,K22:B1,2,3", 0.5),
        ];
        let samples: Vec<Sample> = labelled
            .iter()
            .map(|(fen, result)| Sample {
                features: features(&parse_fen(fen).expect(fen)),
                result: *result,
            })
            .collect();
        let start = *Weights::hand();
        let k = fit_k(&samples, &start);
        assert!(k > 1e-4 && k < 1.0, "{k}");
        // k is the best scale: a little more or less is worse.
        assert!(error(&samples, &start, k) <= error(&samples, &start, k * 1.1));
        assert!(error(&samples, &start, k) <= error(&samples, &start, k / 1.1));
        let mut reports = 0;
        let fitted = fit(&samples, &start, k, &[Term::Man], |_| reports += 1);
        assert!(fitted.error < fitted.start_error, "{fitted:?}");
        assert_eq!(fitted.error, error(&samples, &fitted.weights, k));
        assert_eq!(fitted.weights.get(Term::Man), 100, "the man is frozen");
        assert_eq!(lower_step(&samples, &fitted.weights, k, &[Term::Man]), None);
        assert!(lower_step(&samples, &start, k, &[Term::Man]).is_some());
        assert_eq!(reports, fitted.passes);
        // The same data give the same weights.
        let again = fit(&samples, &start, k, &[Term::Man], |_| {});
        assert_eq!(again.weights, fitted.weights);
    }
}
