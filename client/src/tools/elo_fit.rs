//! Elo ratings fitted to a whole tournament at once: the maximum-likelihood ratings under the
//! logistic Elo model (a player `d` points above another scores `1 / (1 + 10^(-d/400))` on
//! average, a draw counting one half), found by Newton's method over every result together,
//! with one player held at a fixed anchor. The error bars are one standard error from the
//! curvature of the likelihood (the inverse of the observed information).
//!
//! A player who won or lost every game has no finite maximum; `virtual_draws` adds that many
//! drawn games between every pair that met (a weak prior towards equality, as BayesElo does), so
//! the fit stays finite. With none the fit is plain maximum likelihood.

/// The results between two players, from `a`'s side: points scored by `a` in `games` games.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub points: f64,
}

/// What the fit found, one entry per player.
#[derive(Debug, Clone, PartialEq)]
pub struct Fitted {
    pub ratings: Vec<f64>,
    /// One standard error of each rating (0 for the anchor).
    pub errors: Vec<f64>,
}

/// How to fit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FitConfig {
    /// The player whose rating is fixed.
    pub anchor: usize,
    /// The anchor's rating.
    pub anchor_rating: f64,
    /// Drawn games added to every pairing that met.
    pub virtual_draws: f64,
}

/// Elo points per natural-log unit of odds: `400 / ln 10`.
const SCALE: f64 = 400.0 / std::f64::consts::LN_10;

/// The expected score of a player `difference` points above its opponent.
#[must_use]
pub fn expected(difference: f64) -> f64 {
    1.0 / (1.0 + (-difference / SCALE).exp())
}

/// The rating difference at which a player is expected to score `score` (strictly between 0 and
/// 1): the inverse of [`expected`].
#[must_use]
pub fn difference(score: f64) -> f64 {
    SCALE * (score / (1.0 - score)).ln()
}

/// How many rating points one more point of expected score is worth at `score`: the slope of
/// [`difference`], which turns a score's error bar into a rating difference's.
#[must_use]
pub fn points_per_score(score: f64) -> f64 {
    SCALE / (score * (1.0 - score))
}

/// Fits `players` ratings to the pairings. Players who never played keep the anchor's rating
/// with no error bar (there is nothing to measure them by).
#[must_use]
pub fn fit(players: usize, pairings: &[Pairing], config: &FitConfig) -> Fitted {
    let mut ratings = vec![config.anchor_rating; players];
    let free: Vec<usize> = (0..players)
        .filter(|&p| p != config.anchor && pairings.iter().any(|g| g.a == p || g.b == p))
        .collect();
    let slot = |player: usize| free.iter().position(|&p| p == player);
    let pairings: Vec<Pairing> = pairings
        .iter()
        .map(|g| Pairing {
            games: g.games + config.virtual_draws,
            points: g.points + config.virtual_draws / 2.0,
            ..*g
        })
        .collect();
    let mut information = vec![vec![0.0; free.len()]; free.len()];
    for _ in 0..200 {
        // The gradient of the log-likelihood and its negated Hessian, in rating points.
        let mut gradient = vec![0.0; free.len()];
        for row in &mut information {
            row.fill(0.0);
        }
        for g in &pairings {
            let p = expected(ratings[g.a] - ratings[g.b]);
            let pull = (g.points - g.games * p) / SCALE;
            let curve = g.games * p * (1.0 - p) / (SCALE * SCALE);
            let (sa, sb) = (slot(g.a), slot(g.b));
            if let Some(i) = sa {
                gradient[i] += pull;
                information[i][i] += curve;
            }
            if let Some(j) = sb {
                gradient[j] -= pull;
                information[j][j] += curve;
            }
            if let (Some(i), Some(j)) = (sa, sb) {
                information[i][j] -= curve;
                information[j][i] -= curve;
            }
        }
        let Some(step) = solve(&information, &gradient) else {
            break;
        };
        let mut largest: f64 = 0.0;
        for (&player, change) in free.iter().zip(step) {
            // Long steps are cut so that a far start cannot overshoot.
            let change = change.clamp(-400.0, 400.0);
            ratings[player] += change;
            largest = largest.max(change.abs());
        }
        if largest < 1e-9 {
            break;
        }
    }
    let mut errors = vec![0.0; players];
    for (i, &player) in free.iter().enumerate() {
        let mut unit = vec![0.0; free.len()];
        unit[i] = 1.0;
        if let Some(column) = solve(&information, &unit) {
            errors[player] = column[i].max(0.0).sqrt();
        }
    }
    Fitted { ratings, errors }
}

/// Solves `matrix * x = right` by Gaussian elimination with partial pivoting; `None` when the
/// matrix is singular (players not connected to the anchor by any game).
fn solve(matrix: &[Vec<f64>], right: &[f64]) -> Option<Vec<f64>> {
    let n = right.len();
    let mut rows: Vec<Vec<f64>> = matrix
        .iter()
        .zip(right)
        .map(|(row, &r)| {
            let mut row = row.clone();
            row.push(r);
            row
        })
        .collect();
    for column in 0..n {
        let pivot =
            (column..n).max_by(|&x, &y| rows[x][column].abs().total_cmp(&rows[y][column].abs()))?;
        if rows[pivot][column].abs() < 1e-15 {
            return None;
        }
        rows.swap(column, pivot);
        let pivot_row = rows[column].clone();
        for (index, row) in rows.iter_mut().enumerate() {
            if index != column {
                let factor = row[column] / pivot_row[column];
                for (value, &above) in row.iter_mut().zip(&pivot_row).skip(column) {
                    *value -= factor * above;
                }
            }
        }
    }
    Some((0..n).map(|i| rows[i][n] / rows[i][i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(virtual_draws: f64) -> FitConfig {
        FitConfig {
            anchor: 0,
            anchor_rating: 0.0,
            virtual_draws,
        }
    }

    /// Results exactly as expected between players of known ratings, every pair meeting.
    fn ideal(truth: &[f64], games: f64) -> Vec<Pairing> {
        let mut pairings = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                pairings.push(Pairing {
                    a,
                    b,
                    games,
                    points: games * expected(truth[a] - truth[b]),
                });
            }
        }
        pairings
    }

    #[test]
    fn a_difference_is_the_inverse_of_its_expected_score() {
        for points in [-600.0, -35.0, 0.0, 120.0, 400.0] {
            let score = expected(points);
            assert!((difference(score) - points).abs() < 1e-6, "{points}");
            // The slope: a small change of score moves the difference by the slope's amount.
            let step = 1e-6;
            let numeric = (difference(score + step) - difference(score - step)) / (2.0 * step);
            assert!(
                (numeric - points_per_score(score)).abs() < 1e-3 * numeric,
                "{points}"
            );
        }
    }

    #[test]
    fn the_expected_score_is_the_elo_curve() {
        assert!((expected(0.0) - 0.5).abs() < 1e-12);
        // 400 points up: odds of 10 to 1.
        assert!((expected(400.0) - 10.0 / 11.0).abs() < 1e-12);
        assert!((expected(-200.0) + expected(200.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn ideal_results_give_back_the_true_ratings() {
        let truth = [0.0, 180.0, 420.0, 590.0, 850.0];
        let fitted = fit(truth.len(), &ideal(&truth, 40.0), &config(0.0));
        for (got, want) in fitted.ratings.iter().zip(truth) {
            assert!((got - want).abs() < 1e-6, "{got} vs {want}");
        }
        assert_eq!(fitted.errors[0], 0.0);
        assert!(fitted.errors[1..].iter().all(|&e| e > 0.0 && e < 200.0));
    }

    #[test]
    fn the_fit_uses_every_result_at_once() {
        // A chain: 0 meets 1 and 1 meets 2, never 0 and 2; 2 is placed through 1.
        let pairings = [
            Pairing {
                a: 1,
                b: 0,
                games: 100.0,
                points: 100.0 * expected(200.0),
            },
            Pairing {
                a: 2,
                b: 1,
                games: 100.0,
                points: 100.0 * expected(300.0),
            },
        ];
        let fitted = fit(3, &pairings, &config(0.0));
        assert!((fitted.ratings[2] - 500.0).abs() < 1e-6, "{fitted:?}");
        // Known only through a chain, 2 is less certain than 1.
        assert!(fitted.errors[2] > fitted.errors[1]);
    }

    #[test]
    fn more_games_give_smaller_error_bars_of_the_known_size() {
        let truth = [0.0, 0.0];
        let few = fit(2, &ideal(&truth, 16.0), &config(0.0));
        let many = fit(2, &ideal(&truth, 64.0), &config(0.0));
        assert!((few.errors[1] / many.errors[1] - 2.0).abs() < 1e-9);
        // Two equal players over n games: the error is SCALE / sqrt(n / 4).
        assert!((many.errors[1] - SCALE / (64.0f64 / 4.0).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn a_clean_sweep_stays_finite_with_virtual_draws() {
        let pairings = [Pairing {
            a: 1,
            b: 0,
            games: 10.0,
            points: 10.0,
        }];
        let fitted = fit(2, &pairings, &config(1.0));
        // 10.5 points of 11 games: exactly the rating with that expected score.
        let want = SCALE * (10.5f64 / 0.5).ln();
        assert!((fitted.ratings[1] - want).abs() < 1e-6, "{fitted:?}");
        // A player who never played is left at the anchor, with no error bar.
        let lonely = fit(3, &pairings, &config(1.0));
        assert_eq!((lonely.ratings[2], lonely.errors[2]), (0.0, 0.0));
    }
}
