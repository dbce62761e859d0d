//! `kingme analyze`: searches one position and prints what the engine found: best move, score,
//! depth, nodes, nodes per second (of the clock, and of the searching thread's own processor time
//! where the system tells it) and the principal variation. With `--minimax` it searches the
//! same fixed depth twice, with and without alpha-beta pruning, and prints both node counts. For
//! checkers the expert consults the endgame database (`--egdb FILE`, or the largest one in the
//! data directory's egdb folder) and its verdict on the position is printed.

use anyhow::Context;
use kingme_shared::ai::budget::TimeUse;
use kingme_shared::ai::egdb::Egdb;
use kingme_shared::ai::{Level, Limits, Report, ThinkOptions, think_with};
use kingme_shared::{AnyGame, GameKind};
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `kingme analyze`.
#[derive(Debug, clap::Args)]
pub struct AnalyzeArgs {
    /// The game: checkers, pente or tictactoe.
    #[arg(long, default_value = "checkers")]
    pub game: GameKind,
    /// The position in the game's position text (checkers: a PDN FEN such as "B:W18:B14"); the
    /// start position if left out.
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// The level that searches: any level, random to expert (`kingme bot --help` names them).
    #[arg(long, default_value = "expert")]
    pub level: Level,
    /// Search this many plies.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search for this many seconds (the expert's budget; default 1).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Seed for the random choice among equally good moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Also search the same depth without alpha-beta pruning and print both node counts.
    #[arg(long)]
    pub minimax: bool,
    /// A checkers endgame database (from `kingme egdb build`; default: the largest in the data
    /// directory's egdb folder): the search consults it, and its verdict on the position is
    /// printed when the position is in it.
    #[arg(long, value_name = "FILE")]
    pub egdb: Option<std::path::PathBuf>,
    /// Search without an endgame database.
    #[arg(long, conflicts_with = "egdb")]
    pub no_egdb: bool,
    /// Search the position for this many seconds first and print only what that took, so the
    /// report is of a search that finds the endgame database already open and its cache
    /// filled, as a bot's search does in the middle of a game (the first search of a process
    /// also pays for mapping the cache and decoding its first blocks).
    #[arg(long, value_name = "SECONDS", conflicts_with = "minimax")]
    pub warm_up: Option<f64>,
}

/// Runs `kingme analyze` and prints the report.
pub fn run(args: &AnalyzeArgs) -> anyhow::Result<()> {
    let game = match &args.position {
        Some(text) => AnyGame::from_position_text(args.game, text)
            .with_context(|| format!("cannot read the {} position {text:?}", args.game))?,
        None => AnyGame::start(args.game),
    };
    // The time asked for is the time spent, however sharp the position.
    let mut limits = Limits {
        depth: args.depth,
        time: args.time.map(seconds).transpose()?,
        time_use: TimeUse::Flat,
        ..Limits::default()
    };
    println!("game      {}", args.game);
    println!("position  {}", game.position_text());
    if let Some((path, db)) = egdb_for(&game, args)? {
        println!("egdb      {}: {}", path.display(), egdb_verdict(&game, &db));
        limits.egdb = Some(db);
    }
    if let Some(warm_up) = args.warm_up {
        let warm_limits = Limits {
            depth: None,
            time: Some(seconds(warm_up)?),
            ..limits.clone()
        };
        let report = search(&game, args, &warm_limits, ThinkOptions::default())?;
        println!(
            "warm-up   {} nodes in {:.3} s",
            report.nodes,
            report.elapsed.as_secs_f64()
        );
    }
    if !args.minimax {
        let cpu_before = thread_cpu_time();
        let report = search(&game, args, &limits, ThinkOptions::default())?;
        print!("{}", describe(&report));
        if let (Some(before), Some(after)) = (cpu_before, thread_cpu_time()) {
            let cpu = after.saturating_sub(before).as_secs_f64();
            if cpu > 0.0 {
                println!("cpu       {cpu:.3} s");
                println!("nodes/cpu {:.0}", report.nodes as f64 / cpu);
            }
        }
        return Ok(());
    }
    let limits = Limits {
        depth: Some(
            args.depth
                .unwrap_or_else(|| default_minimax_depth(args.game, &game)),
        ),
        time: None,
        ..limits
    };
    let (with, without) = compare_with_minimax(&game, args, &limits)?;
    println!("alpha-beta, {} plies:", with.depth);
    print!("{}", describe(&with));
    println!("plain minimax, {} plies:", without.depth);
    print!("{}", describe(&without));
    if with.nodes > 0 {
        println!(
            "minimax needs {:.1} times the nodes of alpha-beta for the same score",
            without.nodes as f64 / with.nodes as f64
        );
    }
    Ok(())
}

/// The endgame database the search consults: none for other games or with `--no-egdb`; the
/// file given, or the largest in the data directory (none there is not an error).
fn egdb_for(
    game: &AnyGame,
    args: &AnalyzeArgs,
) -> anyhow::Result<Option<(std::path::PathBuf, Arc<Egdb>)>> {
    if args.no_egdb {
        return Ok(None);
    }
    if !matches!(game, AnyGame::Checkers(_)) {
        if args.egdb.is_some() {
            anyhow::bail!(
                "endgame databases are for checkers; leave out --egdb for {}",
                game.kind()
            );
        }
        return Ok(None);
    }
    let path = match &args.egdb {
        Some(path) => Some(path.clone()),
        // Without a data directory there is simply no default database.
        None => super::egdb::locate(None, None).ok().flatten(),
    };
    path.map(|path| Ok((path.clone(), super::egdb::open(&path)?)))
        .transpose()
}

/// The endgame database's verdict on a checkers position, or why there is none.
fn egdb_verdict(game: &AnyGame, db: &Egdb) -> String {
    let verdict = match game {
        AnyGame::Checkers(checkers) => db.verdict(checkers.position()),
        _ => None,
    };
    match verdict {
        Some(verdict) => verdict.describe().to_owned(),
        None => format!(
            "not in the database (it holds positions of up to {} pieces)",
            db.max_pieces()
        ),
    }
}

/// The same fixed-depth search twice: with alpha-beta pruning, then as plain minimax.
fn compare_with_minimax(
    game: &AnyGame,
    args: &AnalyzeArgs,
    limits: &Limits,
) -> anyhow::Result<(Report, Report)> {
    let pruned = ThinkOptions {
        fixed_depth: true,
        ..ThinkOptions::default()
    };
    let plain = ThinkOptions {
        minimax: true,
        ..ThinkOptions::default()
    };
    Ok((
        search(game, args, limits, pruned)?,
        search(game, args, limits, plain)?,
    ))
}

/// A depth a plain minimax finishes in seconds: the whole game for noughts and crosses.
fn default_minimax_depth(kind: GameKind, game: &AnyGame) -> u32 {
    match kind {
        GameKind::TicTacToe => game.legal_moves().len().max(1) as u32,
        GameKind::Checkers => 6,
        GameKind::Pente => 3,
    }
}

fn search(
    game: &AnyGame,
    args: &AnalyzeArgs,
    limits: &Limits,
    options: ThinkOptions,
) -> anyhow::Result<Report> {
    think_with(game, args.level, limits, args.seed, &options).ok_or_else(|| {
        anyhow::anyhow!(
            "the game is over in this position ({:?}): there is no move to find",
            game.outcome()
        )
    })
}

/// The processor time this thread has run so far (Linux's `/proc/thread-self/schedstat`, in
/// nanoseconds), or `None` where the system does not say. The search runs on this thread, so
/// its nodes over this time are its speed whatever else shares the machine's cores.
fn thread_cpu_time() -> Option<Duration> {
    let schedstat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = schedstat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Seconds from the command line as a duration, refusing what is not a positive finite number.
pub fn seconds(value: f64) -> anyhow::Result<Duration> {
    if value.is_finite() && value > 0.0 && value < 1e6 {
        Ok(Duration::from_secs_f64(value))
    } else {
        anyhow::bail!("expected a time in seconds like 0.5 or 2, got {value}")
    }
}

/// The report as the tool prints it.
#[must_use]
pub fn describe(report: &Report) -> String {
    let seconds = report.elapsed.as_secs_f64();
    let speed = if seconds > 0.0 {
        format!("{:.0}", report.nodes as f64 / seconds)
    } else {
        "too fast to measure".to_owned()
    };
    format!(
        "best      {}\nscore     {}\ndepth     {}\nnodes     {}\ntime      {:.3} s\nnodes/s   {speed}\npv        {}\n",
        report.text,
        report.score,
        report.depth,
        report.nodes,
        seconds,
        report.pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimax_and_alpha_beta_agree_on_noughts_and_crosses() {
        let args = AnalyzeArgs {
            game: GameKind::TicTacToe,
            position: None,
            level: Level::Expert,
            depth: None,
            time: None,
            seed: 0,
            minimax: true,
            egdb: None,
            no_egdb: false,
            warm_up: None,
        };
        let game = AnyGame::start(GameKind::TicTacToe);
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        let (with, without) = compare_with_minimax(&game, &args, &limits).expect("a move");
        assert_eq!(with.score, without.score);
        assert!(with.nodes * 10 < without.nodes);
        assert!(describe(&with).contains("nodes/s"));
        assert!(run(&args).is_ok());
    }

    #[test]
    fn bad_times_are_refused_with_the_reason() {
        assert!(seconds(0.5).is_ok());
        let err = seconds(-1.0).expect_err("negative");
        assert!(
            err.to_string().contains("expected a time in seconds"),
            "{err}"
        );
        assert!(seconds(f64::NAN).is_err());
    }
}
