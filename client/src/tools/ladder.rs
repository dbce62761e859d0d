//! `kingme ladder`: a round robin between the levels, every pair playing the same number of
//! games with colours alternating (checkers from the ACF ballots, each twice with colours
//! reversed; Pente and noughts and crosses from seeded random openings, also twice), then Elo
//! ratings fitted to all the results at once ([`super::elo_fit`]) with `random` at 0, printed as
//! a table. A progress bar shows the games played and the time left (plain lines now and then
//! where standard error is not a terminal, [`super::progress`]). Every result is appended to
//! a results file as it ends, so an interrupted ladder resumes where it stopped.

use super::analyze::seconds;
use super::elo_fit::{FitConfig, Fitted, Pairing, fit};
use super::engine_match::play_game;
use super::openings::openings;
use super::progress::Progress;
use anyhow::{Context, bail};
use kingme_shared::ai::{Level, ThinkOptions};
use kingme_shared::{AnyGame, GameKind, Side};
use std::collections::HashMap;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `kingme ladder`.
#[derive(Debug, clap::Args)]
pub struct LadderArgs {
    /// The game: checkers, pente or tictactoe.
    #[arg(long, default_value = "checkers")]
    pub game: GameKind,
    /// The levels, weakest first, separated by commas (default: every level).
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<Level>,
    /// Games each pair of levels plays (even numbers give each colour the same openings); 0
    /// plays none and prints the fit of the results file as it is.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub games: u32,
    /// Seconds a move for the levels that search under a time budget (expert).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.1)]
    pub time: f64,
    /// The results file: read first (its games are not played again), each new result
    /// appended. Default: ladder-<game>.tsv in the current folder.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Seed for the levels' random choices and the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Plies after which an unfinished game is scored a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: u32,
    /// Play only the pairs at most this many places apart in the level order (default: every
    /// pair). The fit needs a chain of pairings, not all of them, and far pairs are sweeps that
    /// say little; results already in the file for farther pairs still count.
    #[arg(long, value_name = "PLACES", value_parser = clap::value_parser!(u32).range(1..))]
    pub span: Option<u32>,
}

/// One game of the schedule: the pair's levels and the game's number within the pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Fixture {
    a: Level,
    b: Level,
    index: u32,
}

/// The longest results file read; a ladder of every level at 10,000 games a pair stays far below.
const MAX_RESULTS_BYTES: u64 = 64 << 20;

/// Runs `kingme ladder`.
pub fn run(args: &LadderArgs) -> anyhow::Result<()> {
    let levels = if args.levels.is_empty() {
        Level::ALL.to_vec()
    } else {
        args.levels.clone()
    };
    if !levels.contains(&Level::Random) {
        bail!("the ladder is anchored at random = 0: include random in --levels");
    }
    let time = seconds(args.time)?;
    let path = args
        .results
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("ladder-{}.tsv", args.game)));
    if args.games == 0 && !path.exists() {
        bail!(
            "there is no results file {} to fit: give the file a ladder wrote with --results, \
             or play games with --games N",
            path.display()
        );
    }
    let mut done = read_results(&path, args.game)?;
    let openings = openings(args.game, args.games, args.seed)?;
    let schedule: Vec<Fixture> = pairs(&levels, args.span)
        .flat_map(|(a, b)| (0..args.games).map(move |index| Fixture { a, b, index }))
        .collect();
    let to_play: Vec<Fixture> = schedule
        .iter()
        .copied()
        .filter(|fixture| !done.contains_key(fixture))
        .collect();
    println!(
        "ladder at {}: {} levels, {} games a pair, {} s a move for the timed levels; {} of {} \
         games already in {}",
        args.game,
        levels.len(),
        args.games,
        time.as_secs_f64(),
        schedule.len() - to_play.len(),
        schedule.len(),
        path.display()
    );
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("cannot open the results file {}", path.display()))?;
    let mut bar = Progress::new(
        to_play.len() as u64,
        "games",
        "{bar:30} {pos}/{len} games, {elapsed} spent, about {eta} left  {msg}",
    )?;
    for fixture in to_play {
        bar.set_message(format!("{} vs {}", fixture.a, fixture.b));
        let score = play_fixture(args, fixture, &openings, time)?;
        writeln!(
            file,
            "{}\t{}\t{}\t{}\t{score}",
            args.game, fixture.a, fixture.b, fixture.index
        )
        .with_context(|| format!("cannot write to {}", path.display()))?;
        done.insert(fixture, score);
        bar.inc();
    }
    bar.finish();
    print!("{}", table(&levels, &done));
    Ok(())
}

/// Every pair of levels once, in the order given; with a span, only pairs at most that many
/// places apart.
fn pairs(levels: &[Level], span: Option<u32>) -> impl Iterator<Item = (Level, Level)> + '_ {
    let span = span.map_or(levels.len(), |span| span as usize);
    levels.iter().enumerate().flat_map(move |(i, &a)| {
        levels[i + 1..(i + 1 + span).min(levels.len())]
            .iter()
            .map(move |&b| (a, b))
    })
}

/// Plays one game of the schedule and returns `a`'s score: 1, 0.5 or 0.
fn play_fixture(
    args: &LadderArgs,
    fixture: Fixture,
    openings: &[AnyGame],
    time: Duration,
) -> anyhow::Result<f64> {
    let start = openings
        .get((fixture.index / 2) as usize)
        .cloned()
        .unwrap_or_else(|| AnyGame::start(args.game));
    let a_side = if fixture.index.is_multiple_of(2) {
        Side::First
    } else {
        Side::Second
    };
    let seed = args
        .seed
        .wrapping_mul(1_000_003)
        .wrapping_add(u64::from(fixture.index))
        .wrapping_add((fixture.a.rank() * 31 + fixture.b.rank()) as u64 * 7_919);
    let played = play_game(
        start,
        [
            (fixture.a, ThinkOptions::default()),
            (fixture.b, ThinkOptions::default()),
        ],
        a_side,
        Some(time),
        seed,
        args.max_plies,
    )?;
    Ok(match played.winner {
        Some(side) if side == a_side => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

/// Reads the results already played for `kind`; a missing file is an empty ladder. Lines of
/// other games are skipped (one file may hold several ladders); a line that cannot be read is an
/// error naming it.
fn read_results(path: &Path, kind: GameKind) -> anyhow::Result<HashMap<Fixture, f64>> {
    let mut done = HashMap::new();
    let text = match std::fs::metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(done),
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {}", path.display()));
        }
        Ok(meta) if meta.len() > MAX_RESULTS_BYTES => bail!(
            "{} is {} bytes, more than a results file can be ({MAX_RESULTS_BYTES}): give \
             another --results file",
            path.display(),
            meta.len()
        ),
        Ok(_) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {} as text", path.display()))?,
    };
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (fixture_kind, fixture, score) = parse_line(line).with_context(|| {
            format!(
                "{} line {}: {line:?} is not a result (expected game, level, level, game \
                 number and 1, 0.5 or 0, separated by tabs); mend or delete the line",
                path.display(),
                number + 1
            )
        })?;
        if fixture_kind == kind {
            done.insert(fixture, score);
        }
    }
    Ok(done)
}

fn parse_line(line: &str) -> anyhow::Result<(GameKind, Fixture, f64)> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [kind, a, b, index, score] = fields[..] else {
        bail!("expected five fields, got {}", fields.len());
    };
    let score: f64 = score.parse()?;
    if ![0.0, 0.5, 1.0].contains(&score) {
        bail!("a score is 1, 0.5 or 0, got {score}");
    }
    let kind = kind
        .parse::<GameKind>()
        .map_err(|err| anyhow::anyhow!("{err}"))?;
    let fixture = Fixture {
        a: a.parse()?,
        b: b.parse()?,
        index: index.parse()?,
    };
    Ok((kind, fixture, score))
}

/// The ratings fitted to the results between `levels` (random at 0), with the pairings they were
/// fitted to; results of other levels are passed over.
fn fit_levels(levels: &[Level], done: &HashMap<Fixture, f64>) -> (Vec<Pairing>, Fitted) {
    let slot = |level: Level| levels.iter().position(|&l| l == level);
    let mut sums: HashMap<(usize, usize), (f64, f64)> = HashMap::new();
    for (fixture, &score) in done {
        let (Some(a), Some(b)) = (slot(fixture.a), slot(fixture.b)) else {
            continue;
        };
        let entry = sums.entry((a, b)).or_default();
        entry.0 += 1.0;
        entry.1 += score;
    }
    let pairings: Vec<Pairing> = sums
        .iter()
        .map(|(&(a, b), &(games, points))| Pairing {
            a,
            b,
            games,
            points,
        })
        .collect();
    let anchor = slot(Level::Random).unwrap_or(0);
    let fitted = fit(
        levels.len(),
        &pairings,
        &FitConfig {
            anchor,
            anchor_rating: 0.0,
            virtual_draws: VIRTUAL_DRAWS,
        },
    );
    (pairings, fitted)
}

/// The fitted table: each level's rating with its error bar, games and score, strongest last.
fn table(levels: &[Level], done: &HashMap<Fixture, f64>) -> String {
    let (pairings, fitted) = fit_levels(levels, done);
    let mut out = format!(
        "{:<13} {:>7} {:>7} {:>6} {:>7}\n",
        "level", "Elo", "+/-", "games", "score"
    );
    for (i, level) in levels.iter().enumerate() {
        let (games, points) = pairings.iter().fold((0.0, 0.0), |(g, p), pairing| {
            if pairing.a == i {
                (g + pairing.games, p + pairing.points)
            } else if pairing.b == i {
                (g + pairing.games, p + pairing.games - pairing.points)
            } else {
                (g, p)
            }
        });
        let percent = if games > 0.0 {
            100.0 * points / games
        } else {
            0.0
        };
        out.push_str(&format!(
            "{:<13} {:>7.0} {:>7.0} {:>6} {:>6.0}%\n",
            level.name(),
            fitted.ratings[i],
            fitted.errors[i],
            games,
            percent
        ));
    }
    out.push_str(&format!(
        "(maximum likelihood over all {} games, random = 0, +/- one standard error, {VIRTUAL_DRAWS} \
         virtual draw added to each pairing)\n",
        done.len()
    ));
    out
}

/// The prior of the fit: one drawn game added to every pairing, so a clean sweep (expert against
/// random) gives a large finite gap rather than an infinite one.
const VIRTUAL_DRAWS: f64 = 1.0;

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::ai::ladder::measured_rating;

    #[test]
    fn results_lines_round_trip_and_bad_lines_are_named() {
        let dir = std::env::temp_dir().join(format!("kingme-ladder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("results.tsv");
        std::fs::write(
            &path,
            "checkers\trandom\texpert\t0\t0\npente\trandom\teasy\t1\t0.5\n\ncheckers\tclub\tstrong\t3\t1\n",
        )
        .expect("written");
        let done = read_results(&path, GameKind::Checkers).expect("read");
        assert_eq!(done.len(), 2);
        let key = Fixture {
            a: Level::Club,
            b: Level::Strong,
            index: 3,
        };
        assert_eq!(done.get(&key), Some(&1.0));
        std::fs::write(&path, "checkers\trandom\texpert\t0\t2\n").expect("written");
        let err = read_results(&path, GameKind::Checkers).expect_err("a score of 2");
        assert!(format!("{err:#}").contains("line 1"), "{err:#}");
        assert!(
            read_results(&dir.join("missing.tsv"), GameKind::Checkers)
                .expect("no file")
                .is_empty()
        );
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn the_schedule_pairs_every_level_once_and_openings_repeat_for_both_colours() {
        let levels = [Level::Random, Level::Beginner, Level::Expert];
        assert_eq!(pairs(&levels, None).count(), 3);
        assert!(pairs(&levels, None).all(|(a, b)| a.rank() < b.rank()));
        // A span of one: neighbours only; of two among four levels: all but the far pair.
        let near: Vec<_> = pairs(&levels, Some(1)).collect();
        assert_eq!(
            near,
            [
                (Level::Random, Level::Beginner),
                (Level::Beginner, Level::Expert)
            ]
        );
        let four = [Level::Random, Level::Easy, Level::Club, Level::Expert];
        assert_eq!(pairs(&four, Some(2)).count(), 5);
        assert!(!pairs(&four, Some(2)).any(|pair| pair == (Level::Random, Level::Expert)));
        let starts = openings(GameKind::Pente, 6, 3).expect("openings");
        assert_eq!(starts.len(), 3);
        assert!(starts.iter().all(|g| g.outcome().is_none()));
        let checkers = openings(GameKind::Checkers, 4, 3).expect("ballots");
        assert_ne!(checkers[0].position_text(), checkers[1].position_text());
    }

    /// The results files the measured tables were fitted from, in the repository.
    fn committed_results(kind: GameKind) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/ladder")
            .join(format!("ladder-{kind}.tsv"))
    }

    /// A fitted rating as the measured table holds it: to the nearest 10 points.
    fn as_in_the_table(rating: f64) -> i32 {
        // Ratings are a few thousand points at most: the cast cannot overflow.
        #[allow(clippy::cast_possible_truncation)]
        let tens = (rating / 10.0).round() as i32;
        tens * 10
    }

    /// Where the measured table of `kind` is not the fit of `done`, one line a level.
    fn differences_from_the_table(kind: GameKind, done: &HashMap<Fixture, f64>) -> Vec<String> {
        let (_, fitted) = fit_levels(&Level::ALL, done);
        Level::ALL
            .into_iter()
            .zip(fitted.ratings)
            .filter_map(|(level, rating)| {
                let table = measured_rating(kind, level);
                (table != Some(as_in_the_table(rating))).then(|| {
                    format!("{kind} {level}: the table has {table:?}, the results fit {rating:.1}")
                })
            })
            .collect()
    }

    #[test]
    fn the_measured_tables_are_the_fit_of_the_committed_results_files() {
        let mut wrong = Vec::new();
        for kind in GameKind::ALL {
            let path = committed_results(kind);
            let done = read_results(&path, kind).expect("the committed results file");
            assert!(!done.is_empty(), "{} holds no {kind} games", path.display());
            wrong.extend(differences_from_the_table(kind, &done));
        }
        assert!(
            wrong.is_empty(),
            "the measured tables in shared/src/ai/ladder.rs are not the fit of the results files \
             in shared/data/ladder (`kingme ladder --game GAME --games 0 --results FILE` \
             prints a file's fit): mend the tables and docs/measurements/ladder.md:\n{}",
            wrong.join("\n")
        );
    }

    #[test]
    fn a_changed_result_fails_the_check_of_the_tables() {
        // One game of the committed checkers file turned round moves `beginner` off the table.
        let kind = GameKind::Checkers;
        let mut done = read_results(&committed_results(kind), kind).expect("the results");
        let flipped = Fixture {
            a: Level::Random,
            b: Level::Beginner,
            index: 0,
        };
        let score = done
            .get_mut(&flipped)
            .expect("random against beginner, game 0");
        *score = 1.0 - *score;
        let wrong = differences_from_the_table(kind, &done);
        assert!(
            wrong
                .iter()
                .any(|line| line.starts_with("checkers beginner")),
            "{wrong:?}"
        );
        // The table rounds the fit once, to the nearest 10.
        assert_eq!(as_in_the_table(174.9), 170);
        assert_eq!(as_in_the_table(175.0), 180);
        assert_eq!(as_in_the_table(-4.9), 0);
    }

    #[test]
    fn a_tiny_ladder_ranks_the_perfect_player_above_random() {
        // Noughts and crosses, random against expert (which never loses) for six games.
        let mut done = HashMap::new();
        let args = LadderArgs {
            game: GameKind::TicTacToe,
            levels: vec![Level::Random, Level::Expert],
            games: 6,
            time: 0.01,
            results: None,
            seed: 2,
            max_plies: 20,
            span: None,
        };
        let openings = openings(args.game, args.games, args.seed).expect("openings");
        for index in 0..args.games {
            let fixture = Fixture {
                a: Level::Random,
                b: Level::Expert,
                index,
            };
            let score =
                play_fixture(&args, fixture, &openings, Duration::from_millis(10)).expect("a game");
            assert!(score <= 0.5, "random never beats the perfect player");
            done.insert(fixture, score);
        }
        let shown = table(&args.levels, &done);
        let expert_line = shown
            .lines()
            .find(|line| line.starts_with("expert"))
            .expect("a line for expert");
        let rating: f64 = expert_line
            .split_whitespace()
            .nth(1)
            .and_then(|r| r.parse().ok())
            .expect("a rating");
        assert!(rating > 0.0, "{shown}");
    }

    #[test]
    fn fitting_a_results_file_that_does_not_exist_says_so_and_creates_nothing() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("ladder-tictactoe.tsv");
        let args = LadderArgs {
            game: GameKind::TicTacToe,
            levels: Vec::new(),
            games: 0,
            time: 0.01,
            results: Some(path.clone()),
            seed: 1,
            max_plies: 20,
            span: None,
        };
        let err = run(&args).expect_err("nothing to fit").to_string();
        assert!(err.contains("there is no results file"), "{err}");
        assert!(err.contains("ladder-tictactoe.tsv"), "{err}");
        assert!(!path.exists(), "{err}");
    }
}
