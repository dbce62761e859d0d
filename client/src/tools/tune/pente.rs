//! The positions `kingme tune --game pente` fits to, made by self-play: game `i` starts from the
//! seeded random opening the matches use (the centre stone and a random second stone), plays 0
//! to `--random-plies` random moves near the stones drawn from the seed so that no two games are
//! alike, and is then played out by the expert against itself at a node budget (so that the games
//! do not depend on how busy the machine is) with the weights the fit starts from. A few quiet
//! positions of each game ([`pente_eval::is_quiet`]: nobody has won on the board and the side to
//! move faces no four) are kept, labelled with the game's result for the first player.

use super::positions::{self, Labelled};
use super::{TuneArgs, fit, output};
use indicatif::ProgressBar;
use kingme_shared::ai::pente_eval::{self, Weights};
use kingme_shared::ai::{Level, Limits, ThinkOptions, think_with};
use kingme_shared::games::pente::{Pente, Point};
use kingme_shared::{AnyGame, AnyMove, Game, GameKind, Side};
use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, index};
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Fits Pente's weights: plays the games (or reads `--positions`), fits, writes the weights file.
pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    let commit = output::commit();
    let start = super::pente_weights_named(&args.start)?;
    let (positions, positions_file) = match &args.positions {
        Some(path) => (positions::read::<Pente>(path)?, path.clone()),
        None => (make_positions(args, start, &commit)?, args.save_positions()),
    };
    let held = held_terms(&args.held.join(","))?;
    let samples = samples(&positions);
    let fitted = super::fit_with_bar(&samples, |samples, bar| {
        fit::run_pente(samples, start, &held, bar)
    })?;
    let title = "The expert's Pente evaluation weights, fitted to game results by `kingme tune \
                 --game pente`\n(a Texel fit: see docs/engine.md). The unit: a three's window is 60.";
    let provenance = args.provenance(&commit, &positions_file, positions.len());
    super::finish(args, &fitted, &provenance, title, started)
}

/// The terms named in `names` (separated by commas; none for an empty text).
pub fn held_terms(names: &str) -> anyhow::Result<Vec<pente_eval::Term>> {
    names
        .split(',')
        .filter(|name| !name.is_empty())
        .map(|name| {
            pente_eval::Term::ALL
                .into_iter()
                .find(|term| term.name() == name)
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "--hold {name}: no such term of Pente's evaluation; the terms are {}",
                        pente_eval::Term::NAMES.join(", ")
                    )
                })
        })
        .collect()
}

/// The fit's samples of `positions` (the quiet ones: a file written by the games has no other).
#[must_use]
pub fn samples(
    positions: &[Labelled<Pente>],
) -> Vec<kingme_shared::ai::texel::Sample<{ pente_eval::TERMS }>> {
    positions
        .iter()
        .filter_map(|labelled| pente_eval::sample(&labelled.position, labelled.result))
        .collect()
}

/// Plays the games, writes the positions file and returns its positions.
fn make_positions(
    args: &TuneArgs,
    start: &'static Weights,
    commit: &str,
) -> anyhow::Result<Vec<Labelled<Pente>>> {
    let settings = args.settings(start);
    let bar = args.games_bar()?;
    let made = generate(&settings, &bar)?;
    bar.finish_and_clear();
    let comments = vec![
        "Pente positions for kingme tune --game pente: the position text, then the result for \
         the first player (1, 0.5, 0)."
            .to_owned(),
        format!(
            "{} games (seed {}, {} nodes a move, up to {} random moves after the opening, {} \
             positions a game, {} weights); the first player won {}, drawn {}, the second won {}.",
            args.games,
            args.seed,
            args.nodes,
            args.random_plies,
            args.per_game,
            args.start,
            made.results[0],
            made.results[1],
            made.results[2]
        ),
        format!("{} positions; commit {}.", made.positions.len(), commit),
    ];
    super::write(
        &args.save_positions(),
        &positions::to_text(&comments, &made.positions),
    )?;
    println!("{}", comments[1..].join(" "));
    Ok(made.positions)
}

/// How the games are played and sampled.
pub type Settings = super::generate::Settings<Weights>;

/// What the generation made.
#[derive(Debug, Clone, Default)]
pub struct Generated {
    /// The labelled positions, game after game.
    pub positions: Vec<Labelled<Pente>>,
    /// Games won by the first player, drawn, won by the second.
    pub results: [u32; 3],
}

/// Plays the games and labels their positions, advancing `bar` a game at a time.
pub fn generate(settings: &Settings, bar: &ProgressBar) -> anyhow::Result<Generated> {
    let openings =
        super::super::openings::openings(GameKind::Pente, settings.games * 2, settings.seed)?;
    let limits = Limits {
        nodes: Some(settings.nodes),
        ..Limits::default()
    };
    let mut generated = Generated::default();
    for (index, opening) in (0..settings.games).zip(openings) {
        let mut rng = StdRng::seed_from_u64(
            settings
                .seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(index)),
        );
        let (quiet, winner) = play(opening, settings, &limits, &mut rng)?;
        let (result, slot) = match winner {
            Some(Side::First) => (1.0, 0),
            None => (0.5, 1),
            Some(Side::Second) => (0.0, 2),
        };
        generated.results[slot] += 1;
        let keep = (settings.per_game as usize).min(quiet.len());
        let mut chosen = index::sample(&mut rng, quiet.len(), keep).into_vec();
        chosen.sort_unstable();
        for i in chosen {
            generated.positions.push(Labelled {
                position: quiet[i].clone(),
                result,
            });
        }
        bar.inc(1);
        bar.set_message(format!(
            "{} positions; first {} draws {} second {}",
            generated.positions.len(),
            generated.results[0],
            generated.results[1],
            generated.results[2]
        ));
    }
    Ok(generated)
}

/// Plays one game from `opening`: the random moves, then the expert on both sides. Returns the
/// quiet positions after the random moves and the winner.
fn play(
    mut game: AnyGame,
    settings: &Settings,
    limits: &Limits,
    rng: &mut StdRng,
) -> anyhow::Result<(Vec<Pente>, Option<Side>)> {
    for _ in 0..rng.random_range(0..=settings.random_plies) {
        let AnyGame::Pente(pente) = &game else {
            anyhow::bail!("the Pente tuning plays Pente only");
        };
        let near: Vec<Point> = pente
            .legal_moves()
            .into_iter()
            .filter(|&point| near_a_stone(pente, point))
            .collect();
        let Some(&point) = near.choose(rng) else {
            break;
        };
        game.play(&AnyMove::Pente(point))?;
    }
    let options = ThinkOptions {
        pente_weights: Some(settings.weights),
        ..ThinkOptions::default()
    };
    let mut quiet = Vec::new();
    let mut plies = 0;
    while game.outcome().is_none() && plies < settings.max_plies {
        let AnyGame::Pente(pente) = &game else {
            anyhow::bail!("the Pente tuning plays Pente only");
        };
        if pente_eval::is_quiet(pente) {
            quiet.push(pente.clone());
        }
        let report = think_with(&game, Level::Expert, limits, u64::from(plies), &options)
            .ok_or_else(|| anyhow::anyhow!("no move in an unfinished game"))?;
        game.play(&report.best)?;
        plies += 1;
    }
    Ok((quiet, game.outcome().and_then(|outcome| outcome.winner())))
}

/// Whether `point` is within two points of a stone.
fn near_a_stone(game: &Pente, point: Point) -> bool {
    let board = game.board();
    (-2i8..=2).any(|dr| {
        (-2i8..=2).any(|dc| {
            point
                .offset(dr, dc)
                .is_some_and(|near| !board.is_empty(near))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::texel;

    /// The committed fit (`shared/data/pente-weights-fit.toml`) is the fit's: run again on the
    /// committed positions from the recorded starting weights, the fit gives the same scale, the
    /// same weights and the same final error as the provenance records, no step of 1 of any
    /// weight it moves lowers that error, and the error is below the hand-set weights'.
    #[test]
    fn the_fit_of_the_committed_positions_gives_the_committed_fit() {
        use super::super::tests::{assert_as_recorded, committed_text, positions_file, recorded};
        let file = Weights::parse(&committed_text("shared/data/pente-weights-fit.toml"))
            .expect("the fitted weights");
        let positions = positions::read::<Pente>(&positions_file(&file)).expect("the positions");
        assert_eq!(positions.len() as f64, recorded(&file, "positions"));
        let samples = samples(&positions);
        assert_eq!(
            samples.len(),
            positions.len(),
            "every committed position is quiet"
        );
        let start = super::super::pente_weights_named(file.provenance("start").expect("start"))
            .expect("a start");
        let held = held_terms(file.provenance("held").unwrap_or_default()).expect("held terms");
        let fitted = fit::run_pente(&samples, start, &held, &ProgressBar::hidden());
        assert_eq!(fitted.fit.weights, file.weights, "the weights");
        assert_as_recorded(&file, &fitted);
        assert_eq!(
            pente_eval::lower_step(&samples, &file.weights, fitted.k, &held),
            None
        );
        let hand = texel::error(&samples, &Weights::hand().values(), fitted.k);
        assert!(
            fitted.fit.error < hand,
            "{} against {hand}",
            fitted.fit.error
        );
    }

    #[test]
    fn pente_positions_round_trip_through_the_file() {
        let labelled = vec![Labelled {
            position: Pente::from_position_text("2:K10,L11:M12:0,2").expect("a position"),
            result: 0.5,
        }];
        let text = positions::to_text(&["a test".to_owned()], &labelled);
        let back = positions::parse::<Pente>(&text).expect("its own text");
        assert_eq!(back[0].position.position_text(), "2:K10,L11:M12:0,2");
        assert_eq!(back[0].result, 0.5);
        assert!(positions::parse::<Pente>("2:K10,K10:M12:0,2 1\n").is_err());
    }

    #[test]
    fn games_give_quiet_labelled_positions_the_same_for_the_same_seed() {
        let settings = Settings {
            games: 2,
            nodes: 150,
            random_plies: 3,
            per_game: 4,
            max_plies: 40,
            seed: 9,
            weights: Weights::hand(),
        };
        let bar = ProgressBar::hidden();
        let made = generate(&settings, &bar).expect("games");
        assert_eq!(made.results.iter().sum::<u32>(), 2);
        assert!(made.positions.len() <= 8 && !made.positions.is_empty());
        assert!(
            made.positions
                .iter()
                .all(|p| pente_eval::is_quiet(&p.position))
        );
        let texts = |made: &Generated| {
            made.positions
                .iter()
                .map(|p| (p.position.position_text(), p.result))
                .collect::<Vec<_>>()
        };
        let again = generate(&settings, &bar).expect("games");
        assert_eq!(texts(&again), texts(&made));
        let other = generate(
            &Settings {
                seed: 10,
                ..settings
            },
            &bar,
        )
        .expect("games");
        assert_ne!(texts(&other), texts(&made));
    }
}
