//! The Texel fit of the evaluation's weights: given positions labelled with a result (1 a Black
//! win, 0.5 a draw, 0 a White win), the error of a set of weights is the mean squared difference
//! between each result and `sigmoid(k * eval)`, the evaluation turned into an expected score.
//! [`fit_k`] finds the `k` that fits the starting weights best; [`fit`] then moves one weight at a
//! time by a step (16, 8, 4, 2, then 1) while that lowers the error, until no single step of 1 does:
//! the result is a local minimum, which [`lower_step`] checks. Everything is deterministic (the
//! terms are visited in order, sums are taken in the positions' order), so the same positions and
//! starting weights give the same weights. `kingme tune` drives it; it lives here, in the crate
//! the dev profile optimises, so that the test of the shipped weights is quick.

use super::weights::{MAX_WEIGHT, TERMS, Term, Weights};

/// One labelled position: its terms' counts ([`super::features`]) and its result for Black.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// Each term's count, Black's minus White's.
    pub features: [i32; TERMS],
    /// 1 a Black win, 0.5 a draw, 0 a White win.
    pub result: f64,
}

/// The steps a weight is moved by, largest first; the last must be 1.
const STEPS: [i32; 5] = [16, 8, 4, 2, 1];

/// The expected score for Black of an evaluation.
#[inline]
#[must_use]
pub fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + (-k * f64::from(eval)).exp())
}

/// The evaluation of a sample with `weights`.
#[inline]
#[must_use]
pub fn eval(weights: &[i32; TERMS], features: &[i32; TERMS]) -> i32 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// The mean squared error of `weights` with scale `k` over `samples` (0 for none).
#[must_use]
pub fn error(samples: &[Sample], weights: &Weights, k: f64) -> f64 {
    let values = weights.values();
    mean_loss(samples, k, |index| eval(&values, &samples[index].features))
}

/// The mean of the squared errors, the evaluation of sample `i` being `eval_of(i)`.
fn mean_loss(samples: &[Sample], k: f64, eval_of: impl Fn(usize) -> i32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .enumerate()
        .map(|(index, sample)| {
            let miss = sample.result - sigmoid(k, eval_of(index));
            miss * miss
        })
        .sum();
    total / samples.len() as f64
}

/// The scale `k` that gives `weights` the least error: a golden-section search over its
/// logarithm between 10^-4 and 1 (the error is smooth and has one minimum there in practice).
#[must_use]
pub fn fit_k(samples: &[Sample], weights: &Weights) -> f64 {
    let of = |log_k: f64| error(samples, weights, log_k.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut low, mut high) = (1e-4f64.ln(), 0.0f64);
    for _ in 0..80 {
        let left = high - ratio * (high - low);
        let right = low + ratio * (high - low);
        if of(left) <= of(right) {
            high = right;
        } else {
            low = left;
        }
    }
    ((low + high) / 2.0).exp()
}

/// What one accepted step changed, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// The step size being tried.
    pub step: i32,
    /// Passes over the terms made so far.
    pub passes: u32,
    /// The error now.
    pub error: f64,
}

/// The fit's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The fitted weights.
    pub weights: Weights,
    /// The starting weights' error.
    pub start_error: f64,
    /// The fitted weights' error.
    pub error: f64,
    /// Passes over the terms it took.
    pub passes: u32,
}

/// Fits the weights from `start` with scale `k`, keeping `frozen` terms as they are (the man,
/// which sets the scale), calling `progress` after every pass.
#[must_use]
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    k: f64,
    frozen: &[Term],
    mut progress: impl FnMut(Progress),
) -> Fit {
    let mut weights = start.values();
    let mut evals: Vec<i32> = samples
        .iter()
        .map(|s| eval(&weights, &s.features))
        .collect();
    let start_error = mean_loss(samples, k, |i| evals[i]);
    let mut current = start_error;
    let mut passes = 0;
    for step in STEPS {
        loop {
            passes += 1;
            let mut improved = false;
            for term in Term::ALL.into_iter().filter(|t| !frozen.contains(t)) {
                let index = term as usize;
                for direction in [1, -1] {
                    let mut moved = false;
                    loop {
                        let change = direction * step;
                        if !allowed(term, weights[index] + change) {
                            break;
                        }
                        let trial = mean_loss(samples, k, |i| {
                            evals[i] + change * samples[i].features[index]
                        });
                        if trial >= current {
                            break;
                        }
                        weights[index] += change;
                        for (value, sample) in evals.iter_mut().zip(samples) {
                            *value += change * sample.features[index];
                        }
                        current = trial;
                        moved = true;
                        improved = true;
                    }
                    if moved {
                        break;
                    }
                }
            }
            progress(Progress {
                step,
                passes,
                error: current,
            });
            if !improved {
                break;
            }
        }
    }
    let weights = Weights::from_values(weights).unwrap_or(*start);
    Fit {
        error: error(samples, &weights, k),
        weights,
        start_error,
        passes,
    }
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
    let base = error(samples, weights, k);
    let values = weights.values();
    for term in Term::ALL.into_iter().filter(|t| !frozen.contains(t)) {
        for change in [1, -1] {
            let mut trial = values;
            trial[term as usize] += change;
            if !allowed(term, trial[term as usize]) {
                continue;
            }
            let Ok(trial) = Weights::from_values(trial) else {
                continue;
            };
            let lowered = error(samples, &trial, k);
            if lowered < base {
                return Some((term, change, lowered));
            }
        }
    }
    None
}

/// Whether the fit may give `term` the weight `value`.
fn allowed(term: Term, value: i32) -> bool {
    value.abs() <= MAX_WEIGHT && (!matches!(term, Term::Man | Term::King) || value > 0)
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

    #[test]
    fn the_sigmoid_is_an_expected_score() {
        assert!((sigmoid(0.01, 0) - 0.5).abs() < 1e-12);
        assert!(sigmoid(0.01, 300) > 0.9);
        assert!((sigmoid(0.01, 120) + sigmoid(0.01, -120) - 1.0).abs() < 1e-12);
        assert_eq!(error(&[], Weights::hand(), 0.01), 0.0);
    }
}
