//! The fit step of `kingme tune`: the positions' term counts, the scale `k` fitted to the
//! starting weights, then the weights fitted by the Texel local search
//! ([`kingme_shared::ai::texel`], through each game's terms: checkers'
//! [`kingme_shared::ai::checkers_eval::texel`], Pente's [`kingme_shared::ai::pente_eval`]) with a
//! progress bar of the passes.

use super::positions::Labelled;
use indicatif::ProgressBar;
use kingme_shared::ai::checkers_eval::texel::{self, Sample};
use kingme_shared::ai::checkers_eval::{Term, Weights};
use kingme_shared::ai::pente_eval;
use kingme_shared::ai::texel::{Fit, Progress};

/// The terms the fit leaves alone: the man, the unit of the scale; and the three terms that
/// make the search make progress in a won ending (the hunters' distance, the weak kings' moves,
/// the weak kings out of the double corners). Results cannot teach those: the ending is won
/// however the kings stand, and left free the fit turned the hunters' distance into a count of
/// the stronger side's kings (+157 a step: a search that keeps its kings away).
pub const FROZEN: [Term; 4] = [
    Term::Man,
    Term::HunterDistance,
    Term::WeakKingMoves,
    Term::WeakKingsOut,
];

/// A fit and the scale it was made at.
#[derive(Debug, Clone)]
pub struct Fitted<W = Weights> {
    /// The fit.
    pub fit: Fit<W>,
    /// The scale of the sigmoid.
    pub k: f64,
}

/// The samples of `positions`.
#[must_use]
pub fn samples(positions: &[Labelled]) -> Vec<Sample> {
    positions.iter().map(Labelled::sample).collect()
}

/// Fits `k` to the checkers weights `start`, then the weights, showing the passes on `bar`.
#[must_use]
pub fn run(samples: &[Sample], start: &Weights, bar: &ProgressBar) -> Fitted {
    bar.set_message("fitting k");
    let k = texel::fit_k(samples, start);
    let fit = texel::fit(samples, start, k, &FROZEN, show(bar, k));
    Fitted { fit, k }
}

/// Fits `k` to the Pente weights `start`, then the weights (but the `held` terms), showing the
/// passes on `bar`.
#[must_use]
pub fn run_pente(
    samples: &[kingme_shared::ai::texel::Sample<{ pente_eval::TERMS }>],
    start: &pente_eval::Weights,
    held: &[pente_eval::Term],
    bar: &ProgressBar,
) -> Fitted<pente_eval::Weights> {
    bar.set_message("fitting k");
    let k = kingme_shared::ai::texel::fit_k(samples, &start.values());
    let fit = pente_eval::fit(samples, start, k, held, show(bar, k));
    Fitted { fit, k }
}

/// Shows each pass of a fit at scale `k` on `bar`.
fn show(bar: &ProgressBar, k: f64) -> impl FnMut(Progress) + '_ {
    move |progress| {
        bar.inc(1);
        bar.set_message(format!(
            "k {k:.5}, step {}, error {:.6}",
            progress.step, progress.error
        ));
    }
}
