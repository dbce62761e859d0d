//! The Texel fit of an evaluation's weights, for any game whose evaluation is a weighted sum of
//! term counts: given positions labelled with a result (1 a win of the first side, 0.5 a draw, 0
//! a loss), the error of a set of weights is the mean squared difference between each result and
//! `sigmoid(k * eval)`, the evaluation turned into an expected score. [`fit_k`] finds the `k`
//! that fits the starting weights best; [`fit`] then moves one weight at a time by a step (16, 8,
//! 4, 2, then 1) while that lowers the error, until no single step of 1 does: the result is a
//! local minimum, which [`lower_step`] checks. Everything is deterministic (the terms are visited
//! in order, sums are taken in the positions' order), so the same positions and starting weights
//! give the same weights. Terms are named by their index; the game says which may move
//! ([`Bounds`]). Checkers' fit (`checkers_eval::texel`) and Pente's (`pente_eval`) use it; it
//! lives in the crate the dev profile optimises, so that the tests of the shipped weights are
//! quick.

/// One labelled position: its `N` terms' counts, from the first side's point of view, and its
/// result for the first side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample<const N: usize> {
    /// Each term's count, the first side's minus the second's.
    pub features: [i32; N],
    /// 1 a win of the first side, 0.5 a draw, 0 a loss.
    pub result: f64,
}

/// Which terms the fit may move, and to what values.
pub struct Bounds<'a> {
    /// The terms left as they are (by index), such as the unit of the scale.
    pub frozen: &'a [usize],
    /// Whether term `index` may have the weight `value`.
    pub allowed: fn(usize, i32) -> bool,
}

/// The steps a weight is moved by, largest first; the last must be 1.
const STEPS: [i32; 5] = [16, 8, 4, 2, 1];

/// The expected score for the first side of an evaluation.
#[inline]
#[must_use]
pub fn sigmoid(k: f64, eval: i32) -> f64 {
    1.0 / (1.0 + (-k * f64::from(eval)).exp())
}

/// The evaluation of a sample's `features` with `weights`.
#[inline]
#[must_use]
pub fn eval<const N: usize>(weights: &[i32; N], features: &[i32; N]) -> i32 {
    weights.iter().zip(features).map(|(w, f)| w * f).sum()
}

/// The mean squared error of `weights` with scale `k` over `samples` (0 for none).
#[must_use]
pub fn error<const N: usize>(samples: &[Sample<N>], weights: &[i32; N], k: f64) -> f64 {
    mean_loss(samples, k, |index| eval(weights, &samples[index].features))
}

/// The mean of the squared errors, the evaluation of sample `i` being `eval_of(i)`.
fn mean_loss<const N: usize>(samples: &[Sample<N>], k: f64, eval_of: impl Fn(usize) -> i32) -> f64 {
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
pub fn fit_k<const N: usize>(samples: &[Sample<N>], weights: &[i32; N]) -> f64 {
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

/// What one pass over the terms reached, for a progress display.
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
pub struct Fit<W> {
    /// The fitted weights.
    pub weights: W,
    /// The starting weights' error.
    pub start_error: f64,
    /// The fitted weights' error.
    pub error: f64,
    /// Passes over the terms it took.
    pub passes: u32,
}

impl<W> Fit<W> {
    /// The same fit with its weights turned into another form (a game's `Weights`).
    #[must_use]
    pub fn map<V>(self, into: impl FnOnce(W) -> V) -> Fit<V> {
        Fit {
            weights: into(self.weights),
            start_error: self.start_error,
            error: self.error,
            passes: self.passes,
        }
    }
}

/// Fits the weights from `start` with scale `k`, moving only what `bounds` allows, calling
/// `progress` after every pass.
#[must_use]
pub fn fit<const N: usize>(
    samples: &[Sample<N>],
    start: &[i32; N],
    k: f64,
    bounds: &Bounds<'_>,
    mut progress: impl FnMut(Progress),
) -> Fit<[i32; N]> {
    let mut weights = *start;
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
            for index in (0..N).filter(|i| !bounds.frozen.contains(i)) {
                for direction in [1, -1] {
                    let mut moved = false;
                    loop {
                        let change = direction * step;
                        if !(bounds.allowed)(index, weights[index] + change) {
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
    Fit {
        error: error(samples, &weights, k),
        weights,
        start_error,
        passes,
    }
}

/// A single step of 1 of one weight that `bounds` lets move and that lowers the error, if there
/// is one: the term's index, the change, and the error it gives. `None` means `weights` is a
/// local minimum of the fit.
#[must_use]
pub fn lower_step<const N: usize>(
    samples: &[Sample<N>],
    weights: &[i32; N],
    k: f64,
    bounds: &Bounds<'_>,
) -> Option<(usize, i32, f64)> {
    let base = error(samples, weights, k);
    for index in (0..N).filter(|i| !bounds.frozen.contains(i)) {
        for change in [1, -1] {
            let mut trial = *weights;
            trial[index] += change;
            if !(bounds.allowed)(index, trial[index]) {
                continue;
            }
            let lowered = error(samples, &trial, k);
            if lowered < base {
                return Some((index, change, lowered));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two terms: the first decides the results, the second is noise the fit should leave near
    /// zero. The fit lowers the error to a local minimum, leaves the frozen term alone and
    /// repeats itself.
    #[test]
    fn the_fit_lowers_the_error_to_a_local_minimum() {
        let samples: Vec<Sample<3>> = [
            ([1, 0, 1], 1.0),
            ([2, 1, 0], 1.0),
            ([-1, 1, 1], 0.0),
            ([-2, 0, 0], 0.0),
            ([0, 1, -1], 0.5),
            ([1, -1, 0], 0.5),
            ([0, 0, 2], 1.0),
        ]
        .iter()
        .map(|&(features, result)| Sample { features, result })
        .collect();
        let start = [100, 0, 0];
        let bounds = Bounds {
            frozen: &[2],
            allowed: |_, value| value.abs() <= 1_000,
        };
        let k = fit_k(&samples, &start);
        assert!(k > 1e-4 && k < 1.0, "{k}");
        assert!(error(&samples, &start, k) <= error(&samples, &start, k * 1.1));
        assert!(error(&samples, &start, k) <= error(&samples, &start, k / 1.1));
        let mut reports = 0;
        let fitted = fit(&samples, &start, k, &bounds, |_| reports += 1);
        assert!(fitted.error < fitted.start_error, "{fitted:?}");
        assert_eq!(fitted.error, error(&samples, &fitted.weights, k));
        assert_eq!(fitted.weights[2], 0, "the third term is frozen");
        assert_eq!(lower_step(&samples, &fitted.weights, k, &bounds), None);
        assert!(lower_step(&samples, &start, k, &bounds).is_some());
        assert_eq!(reports, fitted.passes);
        assert_eq!(fit(&samples, &start, k, &bounds, |_| {}), fitted);
    }

    #[test]
    fn the_sigmoid_is_an_expected_score() {
        assert!((sigmoid(0.01, 0) - 0.5).abs() < 1e-12);
        assert!(sigmoid(0.01, 300) > 0.9);
        assert!((sigmoid(0.01, 120) + sigmoid(0.01, -120) - 1.0).abs() < 1e-12);
        assert_eq!(error::<2>(&[], &[1, 2], 0.01), 0.0);
    }
}
