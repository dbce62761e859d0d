//! The positions `kingme tune` fits to, made by self-play: each game starts from an ACF
//! three-move ballot (in turn), plays a few random moves from the seed so that no two games are
//! alike, and is then played out by the expert against itself at a small node budget (a node
//! budget, so that the games do not depend on how busy the machine is), with the weights the fit
//! starts from. A few quiet positions of
//! each game (the side to move has no capture: a capture is not a position to evaluate, the
//! search resolves it) are kept, labelled with the game's result, or exactly by the endgame
//! database when one is given and holds the position.

use super::positions::Labelled;
use indicatif::ProgressBar;
use kingme_shared::ai::checkers_eval::Weights;
use kingme_shared::ai::egdb::{Egdb, Verdict};
use kingme_shared::ai::{Level, Limits, ThinkOptions, think_with};
use kingme_shared::games::checkers::{Position, has_capture};
use kingme_shared::{AnyGame, Side};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, index};
use rand::{Rng, SeedableRng};

/// How the games are played and sampled (in checkers and, with Pente's weights, in Pente).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings<W: 'static = Weights> {
    /// Games to play.
    pub games: u32,
    /// Nodes the expert searches a move.
    pub nodes: u64,
    /// At most this many random moves after the ballot or opening (each game draws 0 to this
    /// many).
    pub random_plies: u32,
    /// Quiet positions kept from each game (all of them if it has fewer).
    pub per_game: u32,
    /// Plies after which an unfinished game is scored a draw.
    pub max_plies: u32,
    /// The seed of the openings, the random moves and the sampling.
    pub seed: u64,
    /// The weights the expert plays the games with (the fit's starting weights, so that a run
    /// plays the same games whatever weights are shipped at the time).
    pub weights: &'static W,
}

/// What the generation made.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// The labelled positions, game after game.
    pub positions: Vec<Labelled>,
    /// Games won by Black, drawn, won by White.
    pub results: [u32; 3],
    /// Positions labelled by the endgame database rather than by their game.
    pub exact: usize,
}

/// Plays the games and labels their positions, advancing `bar` a game at a time.
pub fn generate(
    settings: &Settings,
    egdb: Option<&Egdb>,
    bar: &ProgressBar,
) -> anyhow::Result<Generated> {
    let ballots = super::super::ballots::playable()?;
    let limits = Limits {
        nodes: Some(settings.nodes),
        no_book: true,
        ..Limits::default()
    };
    let mut generated = Generated::default();
    for index in 0..settings.games {
        let ballot = &ballots[index as usize % ballots.len()];
        let mut rng = StdRng::seed_from_u64(
            settings
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(index)),
        );
        let (quiet, winner) = play(ballot.game.clone(), settings, &limits, &mut rng)?;
        let result = match winner {
            Some(Side::First) => 1.0,
            Some(Side::Second) => 0.0,
            None => 0.5,
        };
        generated.results[match winner {
            Some(Side::First) => 0,
            None => 1,
            Some(Side::Second) => 2,
        }] += 1;
        let keep = (settings.per_game as usize).min(quiet.len());
        let mut chosen = index::sample(&mut rng, quiet.len(), keep).into_vec();
        chosen.sort_unstable();
        for position in chosen.into_iter().map(|i| quiet[i]) {
            let exact = egdb
                .and_then(|db| db.verdict(&position))
                .map(|verdict| black_score(verdict, position.side_to_move()));
            generated.exact += usize::from(exact.is_some());
            generated.positions.push(Labelled {
                position,
                result: exact.unwrap_or(result),
            });
        }
        bar.inc(1);
        bar.set_message(format!(
            "{} positions; Black {} draws {} White {}",
            generated.positions.len(),
            generated.results[0],
            generated.results[1],
            generated.results[2]
        ));
    }
    Ok(generated)
}

/// Black's score from a database verdict for `mover`, the side to move.
fn black_score(verdict: Verdict, mover: Side) -> f64 {
    let mover_score = match verdict {
        Verdict::Win => 1.0,
        Verdict::Draw => 0.5,
        Verdict::Loss => 0.0,
    };
    match mover {
        Side::First => mover_score,
        Side::Second => 1.0 - mover_score,
    }
}

/// Plays one game from `game`: the random moves, then the expert on both sides. Returns the
/// quiet positions after the random moves and the winner.
fn play(
    mut game: AnyGame,
    settings: &Settings,
    limits: &Limits,
    rng: &mut StdRng,
) -> anyhow::Result<(Vec<Position>, Option<Side>)> {
    let random = rng.random_range(0..=settings.random_plies);
    for _ in 0..random {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.legal_moves();
        let Some(mv) = moves.choose(rng) else { break };
        game.play(mv)?;
    }
    let mut quiet = Vec::new();
    let mut plies = 0;
    while game.outcome().is_none() && plies < settings.max_plies {
        let AnyGame::Checkers(checkers) = &game else {
            anyhow::bail!("the tuning plays checkers only");
        };
        let position = *checkers.position();
        if !has_capture(&position) {
            quiet.push(position);
        }
        let options = ThinkOptions {
            checkers_weights: Some(settings.weights),
            ..ThinkOptions::default()
        };
        let report = think_with(&game, Level::Expert, limits, u64::from(plies), &options)
            .ok_or_else(|| anyhow::anyhow!("no move in an unfinished game"))?;
        game.play(&report.best)?;
        plies += 1;
    }
    Ok((quiet, game.outcome().and_then(|outcome| outcome.winner())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_for_the_side_to_move_becomes_black_s_score() {
        assert_eq!(black_score(Verdict::Win, Side::First), 1.0);
        assert_eq!(black_score(Verdict::Win, Side::Second), 0.0);
        assert_eq!(black_score(Verdict::Loss, Side::Second), 1.0);
        assert_eq!(black_score(Verdict::Draw, Side::Second), 0.5);
    }

    #[test]
    fn games_give_quiet_labelled_positions_the_same_for_the_same_seed() {
        let settings = Settings {
            games: 3,
            nodes: 200,
            random_plies: 4,
            per_game: 5,
            max_plies: 60,
            seed: 9,
            weights: Weights::hand(),
        };
        let bar = ProgressBar::hidden();
        let made = generate(&settings, None, &bar).expect("games");
        assert_eq!(made.results.iter().sum::<u32>(), 3);
        assert!(made.positions.len() <= 15 && !made.positions.is_empty());
        assert!(made.positions.iter().all(|p| !has_capture(&p.position)));
        assert_eq!(made.exact, 0);
        let again = generate(&settings, None, &bar).expect("games");
        assert_eq!(again.positions, made.positions);
        let other = generate(
            &Settings {
                seed: 10,
                ..settings
            },
            None,
            &bar,
        )
        .expect("games");
        assert_ne!(other.positions, made.positions);
    }
}
