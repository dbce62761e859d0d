//! `kingme match`: plays games between two levels and prints wins, draws and losses for each and
//! the score. Colours alternate; checkers games start from the ACF three-move ballots, each
//! played twice with colours reversed. Each game's result is printed as it ends, with the
//! running score, and at the end the search speed of each side. `--egdb a|b|both` gives the
//! checkers endgame database (`--egdb-file`, or the largest in the data directory) to one side
//! or both, so a level can play itself with and without it; `--no-book a|b|both` keeps a side
//! out of the opening book; `--start POS` (repeatable) plays from given positions instead.
//! `--b-binary PATH` has side b played by another kingme binary's expert through `kingme engine`
//! (a frozen yardstick, [`super::external_engine`]). At the end, the score with its error bar
//! and the Elo difference ([`super::match_score`]).
//!
//! `--b-without-threats` gives Pente's second side the search as it was before the threat
//! search, to measure what it gains; `--b-weights hand|FILE` gives the second side other
//! evaluation weights than the shipped ones; `--flat-time a|b|both` keeps a side's time budget
//! flat (the same for every move, as before the sharpness rule), to measure what the rule gains.
//! `--record DIR` writes every game down, to replay or review ([`super::match_record`]).
use super::analyze::seconds;
use super::ballots;
use super::engine_protocol::Budget;
use super::external_engine::{EngineSetup, ExternalEngine};
use super::match_score::{Estimate, Tally};
use anyhow::Context;
use kingme_shared::ai::budget::TimeUse;
use kingme_shared::ai::search::MATE_BOUND;
use kingme_shared::ai::strength::plan;
use kingme_shared::ai::{Level, Limits, ThinkOptions, think_with};
use kingme_shared::domain::GameResult;
use kingme_shared::record::RecordResult;
use kingme_shared::{AnyGame, GameKind, Side};
use std::time::Duration;

/// Arguments of `kingme match`.
#[derive(Debug, clap::Args)]
pub struct MatchArgs {
    /// The game: checkers, pente or tictactoe.
    #[arg(long, default_value = "checkers")]
    pub game: GameKind,
    /// The first side's level.
    #[arg(long)]
    pub a: Level,
    /// The second side's level (the expert of --b-binary when that is given).
    #[arg(
        long,
        required_unless_present = "b_binary",
        conflicts_with = "b_binary"
    )]
    pub b: Option<Level>,
    /// Side b is another kingme binary's expert, played through its `kingme engine` at the
    /// same --time (a frozen yardstick: docs/engine.md).
    #[arg(long, value_name = "PATH", conflicts_with = "b_without_threats")]
    pub b_binary: Option<std::path::PathBuf>,
    /// How many games.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Start at this game (1 is the first): the games from here to --games are those a whole
    /// run plays (the same openings, colours and seeds), so a long match can be played in
    /// parts and the parts' tallies added.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub first_game: u32,
    /// Stop after this game (default: --games, the run's last), so that a part of a long
    /// run ends where the next part begins.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub last_game: Option<u32>,
    /// Seconds per move for the expert (default 1).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Seconds per move for the second side's expert, if not `--time` (to give two ways of
    /// spending time the same mean time a move).
    #[arg(long, value_name = "SECONDS")]
    pub b_time: Option<f64>,
    /// Seed for the levels' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which an unfinished game is scored a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Checkers: side a's contempt for draws, in percent of its root evaluation, instead of
    /// the expert's own (to tune it by matches).
    #[arg(long, value_name = "PERCENT", value_parser = clap::value_parser!(i32).range(0..=200))]
    pub a_contempt: Option<i32>,
    /// Pente: the second side searches as before the threat search (no threat search beyond a
    /// win in two, no capture threats in the evaluation), to measure what it gains.
    #[arg(long)]
    pub b_without_threats: bool,
    /// Which sides consult the checkers endgame database: a, b or both (default neither).
    #[arg(long, value_name = "SIDES")]
    pub egdb: Option<Sides>,
    /// The endgame database file (default: the largest in the data directory's egdb folder).
    #[arg(long, value_name = "FILE", requires = "egdb")]
    pub egdb_file: Option<std::path::PathBuf>,
    /// Start from this position instead of the ballots (repeat for several; each is played
    /// twice, colours reversed).
    #[arg(long = "start", value_name = "POS")]
    pub starts: Vec<String>,
    /// Which sides play without the checkers opening book: a, b or both (default neither).
    #[arg(long, value_name = "SIDES")]
    pub no_book: Option<Sides>,
    /// Checkers and Pente: the second side's expert evaluates with these weights instead of
    /// the shipped ones: "hand" (the hand-set weights the tuning replaced) or a file `kingme
    /// tune` wrote for the game.
    #[arg(long, value_name = "hand|FILE", conflicts_with = "b_binary")]
    pub b_weights: Option<String>,
    /// Which sides spend the same time on every move (a, b or both; default neither): the
    /// Pente expert's budget as before the sharpness rule.
    #[arg(long, value_name = "SIDES")]
    pub flat_time: Option<Sides>,
    /// Side a's level, if it deepens (`master` and the expert; in checkers `skilled` up, in
    /// Pente `advanced` up, in noughts and crosses `strong` up), searches this many nodes a move
    /// instead of its plan's budget or time (to place a level's budget by matches).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub a_nodes: Option<u64>,
    /// Write every game into this folder (made if missing) as `kingme export` writes a game:
    /// game-NNN.pdn for checkers, game-NNN.txt otherwise, NNN its number in the run; step
    /// through one with `kingme import FILE`, or with the engine with `kingme review --file`.
    #[arg(long, value_name = "DIR")]
    pub record: Option<std::path::PathBuf>,
    /// Side b's deepening level searches this many nodes a move, as --a-nodes.
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "b_binary")]
    pub b_nodes: Option<u64>,
}

/// Which sides of a match an option applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Sides {
    A,
    B,
    Both,
}

impl Sides {
    /// Whether side a (index 0) or b (index 1) consults the database.
    fn includes(self, index: usize) -> bool {
        matches!(
            (self, index),
            (Sides::Both, _) | (Sides::A, 0) | (Sides::B, 1)
        )
    }
}

/// Runs `kingme match`, printing each game as it ends and the totals.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    if args.first_game > args.games {
        anyhow::bail!(
            "--first-game {} is past the last game (--games {}): give a first game from 1 to {}",
            args.first_game,
            args.games,
            args.games
        );
    }
    let last_game = args.last_game.unwrap_or(args.games);
    if !(args.first_game..=args.games).contains(&last_game) {
        anyhow::bail!(
            "--last-game {last_game} is outside the games from --first-game to --games ({} to \
             {}): give a last game between them",
            args.first_game,
            args.games
        );
    }
    let played_games = last_game - args.first_game + 1;
    let time = args.time.map(seconds).transpose()?;
    let egdb = match args.egdb {
        Some(sides) => {
            let path = super::egdb::locate(args.egdb_file.as_deref(), None)?.ok_or_else(|| {
                anyhow::anyhow!(
                    "no endgame database in the data directory: build one with kingme egdb \
                     build --pieces 5, or give one with --egdb-file"
                )
            })?;
            let db = super::egdb::open(&path)?;
            println!("endgame database {} for {sides:?}", path.display());
            Some((sides, db))
        }
        None => None,
    };
    let mut limits = side_limits(args)?;
    for (index, side) in limits.iter_mut().enumerate() {
        side.egdb = egdb
            .as_ref()
            .filter(|(sides, _)| sides.includes(index))
            .map(|(_, db)| db.clone());
    }
    let openings: Vec<(AnyGame, String)> = if !args.starts.is_empty() {
        args.starts
            .iter()
            .map(|text| {
                let game = AnyGame::from_position_text(args.game, text)
                    .with_context(|| format!("cannot read the {} position {text:?}", args.game))?;
                Ok((game, format!(" from {text}")))
            })
            .collect::<anyhow::Result<_>>()?
    } else if args.game == GameKind::Checkers {
        ballots::playable()?
            .into_iter()
            .map(|ballot| {
                let label = format!(" ballot {} ({})", ballot.number, ballot.moves);
                (ballot.game, label)
            })
            .collect()
    } else {
        Vec::new()
    };
    // Pente and noughts and crosses: seeded random openings, as the ladder plays them.
    let starts = super::openings::openings(args.game, args.games, args.seed)?;
    let b_options = ThinkOptions {
        without_threats: args.b_without_threats,
        checkers_weights: args
            .b_weights
            .as_deref()
            .filter(|_| args.game == GameKind::Checkers)
            .map(super::tune::weights_named)
            .transpose()?,
        pente_weights: args
            .b_weights
            .as_deref()
            .filter(|_| args.game == GameKind::Pente)
            .map(super::tune::pente_weights_named)
            .transpose()?,
        ..ThinkOptions::default()
    };
    let mut external = match &args.b_binary {
        Some(path) => {
            let with_egdb = egdb.as_ref().is_some_and(|(sides, _)| sides.includes(1));
            let setup = EngineSetup {
                egdb_file: if with_egdb {
                    super::egdb::locate(args.egdb_file.as_deref(), None)?
                } else {
                    None
                },
                no_book: args.no_book.is_some_and(|sides| sides.includes(1)),
            };
            Some(ExternalEngine::start(path, &setup)?)
        }
        None => None,
    };
    let b_level = args.b.unwrap_or(Level::Expert);
    let a_options = ThinkOptions {
        contempt: args.a_contempt,
        ..ThinkOptions::default()
    };
    let flat = |index: usize| args.flat_time.is_some_and(|sides| sides.includes(index));
    let nodes = |name: String, nodes: Option<u64>| match nodes {
        Some(nodes) => format!("{name} ({nodes} nodes)"),
        None => name,
    };
    let a_name = nodes(side_name(args.a, &a_options, None, flat(0)), args.a_nodes);
    let b_name = match &args.b_binary {
        Some(path) => format!("{} (expert)", path.display()),
        None => nodes(
            side_name(b_level, &b_options, args.b_weights.as_deref(), flat(1)),
            args.b_nodes,
        ),
    };
    let which = if played_games == args.games {
        format!("{} games", args.games)
    } else {
        format!("games {} to {last_game} of {}", args.first_game, args.games)
    };
    println!(
        "{a_name} vs {b_name} at {}, {which}{}{}",
        args.game,
        time.map_or(String::new(), |t| format!(", {} s a move", t.as_secs_f64())),
        args.b_time
            .map_or(String::new(), |t| format!(" ({t} s for {b_name})"))
    );
    let recorder = args
        .record
        .as_deref()
        .map(|folder| super::match_record::Recorder::create(folder, args.game))
        .transpose()?;
    let (mut a, mut b) = (Tally::default(), Tally::default());
    for index in args.first_game - 1..last_game {
        // Game 2k and 2k+1 share an opening; a has the first side in even games.
        let a_side = if index % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let (start, opening) = match openings.get((index / 2) as usize % openings.len().max(1)) {
            Some((game, label)) => (game.clone(), label.clone()),
            None => (
                starts
                    .get((index / 2) as usize)
                    .cloned()
                    .unwrap_or_else(|| AnyGame::start(args.game)),
                format!(" opening {}", index / 2 + 1),
            ),
        };
        let seed = args
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(index));
        let b_player = match external.as_mut() {
            Some(engine) => Player::External(engine),
            None => Player::Level(b_level, b_options),
        };
        let played = play_game_with(
            start,
            [Player::Level(args.a, a_options), b_player],
            a_side,
            &limits,
            seed,
            args.max_plies,
        )?;
        if let Some(recorder) = &recorder {
            let names = [a_name.as_str(), b_name.as_str()];
            let names = if a_side == Side::First {
                names
            } else {
                [names[1], names[0]]
            };
            recorder.write(
                index + 1,
                names,
                &played.start,
                &played.texts,
                played.result,
            )?;
        }
        a.nodes += played.nodes[0];
        a.thinking += played.thinking[0];
        a.moves += played.moves[0];
        b.nodes += played.nodes[1];
        b.thinking += played.thinking[1];
        b.moves += played.moves[1];
        a.quick += played.quick[0];
        a.proven += played.proven[0];
        b.quick += played.quick[1];
        b.proven += played.proven[1];
        let result = match played.winner {
            Some(side) if side == a_side => {
                a.wins += 1;
                b.losses += 1;
                format!("{a_name} wins")
            }
            Some(_) => {
                b.wins += 1;
                a.losses += 1;
                format!("{b_name} wins")
            }
            None => {
                a.draws += 1;
                b.draws += 1;
                "draw".to_owned()
            }
        };
        println!(
            "game {:>3}/{}: {} has {}{opening}: {result} after {} plies ({}) | {} {} - {} {}",
            index + 1,
            args.games,
            a_name,
            AnyGame::kind_side_name(args.game, a_side),
            played.plies,
            played.how,
            a_name,
            a.points(),
            b.points(),
            b_name
        );
    }
    println!();
    for (level, tally) in [(&a_name, a), (&b_name, b)] {
        println!(
            "{level:<12} wins {:>3}  draws {:>3}  losses {:>3}  score {:.1}/{} ({:.0}%)  {:.0} nodes/s  {:.3} s/move over {} \
             moves, {} under half the time ({} a proven win or loss)",
            tally.wins,
            tally.draws,
            tally.losses,
            tally.points(),
            played_games,
            100.0 * tally.points() / f64::from(played_games),
            tally.speed(),
            tally.seconds_per_move(),
            tally.moves,
            tally.quick,
            tally.proven
        );
    }
    if let Some(estimate) = Estimate::of(a.wins, a.draws, a.losses) {
        println!("{a_name} against {b_name}: {}", estimate.describe());
    }
    Ok(())
}

/// Each side's limits from the arguments (the endgame database aside): its time, its way of
/// spending it and whether it uses the opening book.
fn side_limits(args: &MatchArgs) -> anyhow::Result<[Limits; 2]> {
    let sides = [(Some(args.a), args.a_nodes), (args.b, args.b_nodes)];
    for (level, nodes) in sides {
        if let (Some(level), Some(_)) = (level, nodes)
            && !plan(args.game, level).deepens
        {
            let deepening: Vec<&str> = Level::ALL
                .into_iter()
                .filter(|&other| plan(args.game, other).deepens)
                .map(Level::name)
                .collect();
            anyhow::bail!(
                "{level} searches a fixed depth in {}, so a node budget would change nothing: \
                 give one to a level that deepens ({})",
                args.game,
                deepening.join(", ")
            );
        }
    }
    let time = args.time.map(seconds).transpose()?;
    let b_time = match args.b_time {
        Some(b) => Some(seconds(b)?),
        None => time,
    };
    Ok(std::array::from_fn(|index| Limits {
        time: if index == 0 { time } else { b_time },
        nodes: sides[index].1,
        no_book: args.no_book.is_some_and(|sides| sides.includes(index)),
        time_use: if args.flat_time.is_some_and(|sides| sides.includes(index)) {
            TimeUse::Flat
        } else {
            TimeUse::default()
        },
        ..Limits::default()
    }))
}

/// A side's name in the match's lines: its level, and the switches that change it.
fn side_name(
    level: Level,
    options: &ThinkOptions,
    weights: Option<&str>,
    flat_time: bool,
) -> String {
    let mut name = level.to_string();
    if options.without_threats {
        name.push_str(" (without threats)");
    }
    if let Some(weights) = weights {
        name.push_str(&format!(" ({weights} weights)"));
    }
    if flat_time {
        name.push_str(" (flat time)");
    }
    if let Some(percent) = options.contempt {
        name.push_str(&format!(" (contempt {percent}%)"));
    }
    name
}

/// Who plays a side: a level of this build, or another binary's expert.
pub(super) enum Player<'a> {
    /// A level of this build, with its engine options.
    Level(Level, ThinkOptions),
    /// Another binary's expert, through `kingme engine`.
    External(&'a mut ExternalEngine),
}

impl Player<'_> {
    /// The level that plays: an external engine plays its expert.
    fn level(&self) -> Level {
        match self {
            Player::Level(level, _) => *level,
            Player::External(_) => Level::Expert,
        }
    }
}

/// One finished game.
pub(super) struct Played {
    pub(super) winner: Option<Side>,
    plies: u32,
    how: String,
    /// Where it started, in the game's position text.
    pub(super) start: String,
    /// Every move in notation, in order.
    pub(super) texts: Vec<String>,
    /// How it ended, for a record: `None` when stopped at the ply limit.
    pub(super) result: Option<RecordResult>,
    /// Nodes, thinking time and moves of levels[0] and levels[1].
    nodes: [u64; 2],
    thinking: [Duration; 2],
    moves: [u32; 2],
    /// Moves in under half a time budget, and those of them with a proven win or loss.
    quick: [u32; 2],
    proven: [u32; 2],
}

/// Plays `players[0]` (on `first_side`) against `players[1]` from `start`, each a level and its
/// engine options. `time` is for the levels that search under a time budget (the expert); the
/// others search their depth or nodes whatever it takes.
pub(super) fn play_game(
    start: AnyGame,
    players: [(Level, ThinkOptions); 2],
    first_side: Side,
    time: Option<Duration>,
    seed: u64,
    max_plies: u32,
) -> anyhow::Result<Played> {
    let limits = Limits {
        time,
        ..Limits::default()
    };
    play_game_with(
        start,
        players.map(|(level, options)| Player::Level(level, options)),
        first_side,
        &[limits.clone(), limits],
        seed,
        max_plies,
    )
}

/// [`play_game`] with each side's own limits (its time, endgame database and book); the time
/// applies only to the levels that search under a time budget.
pub(super) fn play_game_with(
    start: AnyGame,
    mut players: [Player<'_>; 2],
    first_side: Side,
    limits: &[Limits; 2],
    seed: u64,
    max_plies: u32,
) -> anyhow::Result<Played> {
    // What an external engine is sent: the start and every move since, in notation.
    let mut game = start;
    let mut played = Played {
        winner: None,
        plies: 0,
        how: String::new(),
        start: game.position_text(),
        texts: Vec::new(),
        result: None,
        nodes: [0; 2],
        thinking: [Duration::ZERO; 2],
        moves: [0; 2],
        quick: [0; 2],
        proven: [0; 2],
    };
    let kind = game.kind();
    let limits: [Limits; 2] = std::array::from_fn(|index| {
        let plan = plan(kind, players[index].level());
        Limits {
            time: limits[index]
                .time
                .filter(|_| plan.deepens && plan.nodes.is_none() && limits[index].nodes.is_none()),
            ..limits[index].clone()
        }
    });
    while game.outcome().is_none() && played.plies < max_plies {
        let who = usize::from(game.side_to_move() != first_side);
        let seed = seed ^ u64::from(played.plies);
        let report = match &mut players[who] {
            Player::Level(level, options) => think_with(&game, *level, &limits[who], seed, options)
                .ok_or_else(|| anyhow::anyhow!("no move in an unfinished game"))?,
            Player::External(engine) => {
                let budget = Budget {
                    time: limits[who].time,
                    seed,
                    ..Budget::default()
                };
                engine.report(&game, &played.start, &played.texts, &budget)?
            }
        };
        played.nodes[who] += report.nodes;
        played.thinking[who] += report.elapsed;
        played.moves[who] += 1;
        if limits[who]
            .time
            .is_some_and(|budget| report.elapsed < budget / 2)
        {
            played.quick[who] += 1;
            played.proven[who] += u32::from(report.score.abs() >= MATE_BOUND);
        }
        played.texts.push(game.move_text(&report.best));
        game.play(&report.best).map_err(|err| {
            anyhow::anyhow!(
                "the {} level played an illegal move: {err}",
                players[who].level()
            )
        })?;
        played.plies += 1;
    }
    match game.outcome() {
        Some(outcome) => {
            let result = GameResult::from(outcome);
            played.winner = result.winner;
            played.how = result.reason.to_string();
            played.result = Some(result.into());
        }
        None => played.how = format!("stopped at {max_plies} plies"),
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_side_gets_its_own_time_and_way_of_spending_it() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        let parse = |line: &str| Cli::parse_from(line.split(' ')).args;
        let both = side_limits(&parse("kingme --a expert --b expert --time 1")).unwrap();
        assert_eq!(both[0].time, Some(Duration::from_secs(1)));
        assert_eq!(both[1].time, both[0].time);
        assert!(both.iter().all(|side| side.time_use == TimeUse::default()));
        let args = parse("kingme --a expert --b expert --time 1 --b-time 0.5 --flat-time b");
        let [a, b] = side_limits(&args).unwrap();
        assert_eq!(b.time, Some(Duration::from_millis(500)));
        assert_eq!(
            (a.time_use, b.time_use),
            (TimeUse::default(), TimeUse::Flat)
        );
        assert_eq!(
            side_name(Level::Expert, &ThinkOptions::default(), None, true),
            "expert (flat time)"
        );
    }

    #[test]
    fn a_node_budget_goes_to_its_side_and_only_to_a_deepening_level() {
        use clap::Parser;
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        let parse = |line: &str| Cli::parse_from(line.split(' ')).args;
        let [a, b] = side_limits(&parse(
            "kingme --a strong --a-nodes 700 --b expert --b-nodes 9000",
        ))
        .unwrap();
        assert_eq!((a.nodes, b.nodes), (Some(700), Some(9000)));
        let [a, b] = side_limits(&parse("kingme --a strong --b expert --time 1")).unwrap();
        assert_eq!((a.nodes, b.nodes), (None, None));
        let refused = side_limits(&parse("kingme --a beginner --a-nodes 700 --b expert"))
            .unwrap_err()
            .to_string();
        assert!(
            refused.contains("beginner searches a fixed depth"),
            "{refused}"
        );
        assert!(refused.contains("strong, master, expert"), "{refused}");
    }

    #[test]
    fn a_short_match_counts_every_game_once() {
        let (mut wins, mut draws) = (0, 0);
        for index in 0..4u32 {
            let a_side = if index % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let played = play_game(
                AnyGame::start(GameKind::TicTacToe),
                [
                    (Level::Expert, ThinkOptions::default()),
                    (Level::Random, ThinkOptions::default()),
                ],
                a_side,
                None,
                u64::from(index),
                400,
            )
            .expect("a game");
            match played.winner {
                Some(side) => {
                    assert_eq!(side, a_side, "the perfect player never loses");
                    wins += 1;
                }
                None => draws += 1,
            }
            assert!(played.plies <= 9);
        }
        assert_eq!(wins + draws, 4);
    }

    #[test]
    fn other_weights_change_the_expert_s_checkers_scores() {
        use kingme_shared::ai::checkers_eval::Weights;
        let game = AnyGame::from_position_text(GameKind::Checkers, "B:W18,22,24,28:B6,9,11,K15")
            .expect("a position");
        let limits = Limits {
            depth: Some(3),
            no_book: true,
            ..Limits::default()
        };
        let score = |weights: Option<&'static Weights>| {
            let options = ThinkOptions {
                checkers_weights: weights,
                fixed_depth: true,
                ..ThinkOptions::default()
            };
            think_with(&game, Level::Expert, &limits, 0, &options)
                .expect("a move")
                .score
        };
        assert_eq!(score(None), score(Some(Weights::shipped())));
        assert_ne!(score(None), score(Some(Weights::hand())));
        assert_eq!(
            side_name(Level::Expert, &ThinkOptions::default(), Some("hand"), false),
            "expert (hand weights)"
        );
    }

    #[test]
    fn points_and_speed() {
        let tally = Tally {
            wins: 3,
            draws: 1,
            losses: 2,
            nodes: 1000,
            thinking: Duration::from_millis(500),
            moves: 4,
            ..Tally::default()
        };
        assert!((tally.points() - 3.5).abs() < 1e-9);
        assert!((tally.speed() - 2000.0).abs() < 1e-6);
        assert!((tally.seconds_per_move() - 0.125).abs() < 1e-9);
        assert!(Tally::default().seconds_per_move().abs() < 1e-12);
    }
}
