//! The commands that read what a server remembers: `kingme history`, `kingme leaderboard`,
//! `kingme export`, `kingme replay` (a stored game fetched and stepped through),
//! `kingme import` (a PDN or kingme text record file stepped through) and `kingme review` (a
//! game looked at move by move by the engine, [`review`]). Each asks one question over
//! the ordinary connection (so the name's secret is presented as in play) to `--server`, or to
//! the embedded server and its local database when none is given.

mod full_screen;
pub mod replay;
pub mod review;

use crate::game::board_geometry::BoardGeometry;
use crate::launch::GlobalArgs;
use crate::net::embedded::EmbeddedServer;
use crate::net::event::{Event, LinkEvent};
use crate::net::{Net, NetConfig};
use anyhow::{Context, bail};
use kingme_shared::protocol::{ClientMessage, GameId, ServerMessage};
use kingme_shared::record::pdn;
use kingme_shared::record::{GameRecord, text};
use kingme_shared::{GameKind, Side};
use replay::Replay;
use std::io::Write;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// `kingme history`: finished games, newest first.
#[derive(Debug, Clone, clap::Args)]
pub struct HistoryArgs {
    /// Only games this player played.
    #[arg(long)]
    pub player: Option<String>,
    /// Only games of this kind: checkers, pente or tictactoe.
    #[arg(long)]
    pub game: Option<GameKind>,
}

/// `kingme leaderboard`: the ratings, best first.
#[derive(Debug, Clone, clap::Args)]
pub struct LeaderboardArgs {
    /// Only this game's ratings.
    #[arg(long)]
    pub game: Option<GameKind>,
}

/// `kingme export`: a stored game as PDN (checkers) or the kingme text record.
#[derive(Debug, Clone, clap::Args)]
pub struct ExportArgs {
    /// The game's number, as `kingme history` lists it.
    pub game: u64,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<std::path::PathBuf>,
}

/// `kingme replay`: step through a stored game.
#[derive(Debug, Clone, clap::Args)]
pub struct ReplayArgs {
    /// The game's number, as `kingme history` lists it.
    pub game: u64,
}

/// `kingme import`: step through a game from a PDN or kingme text record file.
#[derive(Debug, Clone, clap::Args)]
pub struct ImportArgs {
    /// The file: PDN (checkers) or a kingme text record (any game).
    pub file: std::path::PathBuf,
}

/// Asks the server (or the embedded one) one question and returns the first answer `pick`
/// accepts; a refusal is an error with the server's reason.
pub(crate) async fn ask<T>(
    global: &GlobalArgs,
    request: ClientMessage,
    mut pick: impl FnMut(ServerMessage) -> Option<T>,
) -> anyhow::Result<T> {
    let embedded = match &global.server {
        Some(_) => None,
        None => Some(EmbeddedServer::start(None).await?),
    };
    let (address, security) = match (&global.server, &embedded) {
        (Some(address), _) => (address.clone(), global.security()),
        (None, Some(server)) => (server.address().to_string(), server.security()),
        (None, None) => bail!("no server to ask"),
    };
    let name = my_name(global).context(crate::identity::name::NO_NAME)?;
    let shutdown = CancellationToken::new();
    let (events_tx, mut events) = mpsc::channel::<Event>(64);
    let config = NetConfig {
        guest: global.guest,
        security,
        ..NetConfig::new(address, name)
    };
    let net = Net::spawn(config, events_tx, shutdown.clone());
    let mut request = Some(request);
    let answer = loop {
        let Some(event) = events.recv().await else {
            break Err(anyhow::anyhow!("the connection ended without an answer"));
        };
        match event {
            Event::Link(LinkEvent::Connected { .. }) => {
                if let Some(request) = request.take() {
                    net.outgoing.send(request).await?;
                }
            }
            Event::Link(LinkEvent::Closed { reason }) => {
                break Err(anyhow::anyhow!(
                    "the server closed the connection: {reason}"
                ));
            }
            Event::Server(ServerMessage::Error { message, .. }) => {
                break Err(anyhow::anyhow!("the server refused: {message}"));
            }
            Event::Server(message) => {
                if let Some(found) = pick(message) {
                    break Ok(found);
                }
            }
            _ => {}
        }
    };
    net.close().await;
    shutdown.cancel();
    if let Some(server) = embedded {
        server.stop().await;
    }
    answer
}

/// Fetches a stored game's record.
async fn fetch(global: &GlobalArgs, game: u64) -> anyhow::Result<GameRecord> {
    let game = GameId(game);
    ask(
        global,
        ClientMessage::Export { game },
        |message| match message {
            ServerMessage::Record { game: id, record } if id == game => Some(record),
            _ => None,
        },
    )
    .await
}

/// A record as the file `kingme export` writes: PDN for checkers, the text record otherwise.
pub fn export_text(record: &GameRecord) -> anyhow::Result<String> {
    Ok(match record.kind() {
        GameKind::Checkers => pdn::export(record)?,
        _ => text::write(record),
    })
}

/// Reads a record file: PDN when it starts with a tag or a move, the text record when it starts
/// with `Game:`.
pub fn import_text(contents: &str) -> anyhow::Result<GameRecord> {
    let first = contents
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .unwrap_or("");
    if first.starts_with("Game:") {
        Ok(text::read(contents)?)
    } else {
        Ok(pdn::import(contents)?)
    }
}

/// Formats a Unix time in milliseconds as a UTC date.
fn day(unix_ms: i64) -> String {
    kingme_shared::record::utc_date(unix_ms)
}

/// `kingme history`: prints the finished games the server lists, newest first.
pub async fn history(global: &GlobalArgs, args: &HistoryArgs) -> anyhow::Result<()> {
    let request = ClientMessage::History {
        player: args.player.clone(),
        kind: args.game,
    };
    let games = ask(global, request, |message| match message {
        ServerMessage::History { games } => Some(games),
        _ => None,
    })
    .await?;
    let mut out = std::io::stdout().lock();
    if games.is_empty() {
        writeln!(out, "no finished games")?;
    }
    for game in games {
        let result = kingme_shared::record::RecordResult::from(game.result);
        writeln!(
            out,
            "{:>6}  {}  {:<10} {} vs {}  {} ({}), {} moves{}",
            game.id.0,
            day(game.finished_at_ms),
            game.kind.name(),
            game.players[0],
            game.players[1],
            result.score(),
            game.result.reason,
            game.moves,
            if game.rated { ", rated" } else { "" }
        )?;
    }
    Ok(())
}

/// `kingme leaderboard`: prints the server's rating leaderboard.
pub async fn leaderboard(global: &GlobalArgs, args: &LeaderboardArgs) -> anyhow::Result<()> {
    let request = ClientMessage::Leaderboard { kind: args.game };
    let entries = ask(global, request, |message| match message {
        ServerMessage::Leaderboard { entries } => Some(entries),
        _ => None,
    })
    .await?;
    let mut out = std::io::stdout().lock();
    if entries.is_empty() {
        writeln!(out, "no rated games yet")?;
    }
    for (rank, entry) in entries.iter().enumerate() {
        let who = if entry.bot {
            match entry.player.parse::<kingme_shared::ai::Level>() {
                Ok(level) => format!("{} (bot)", crate::game::words::bot_level(entry.kind, level)),
                Err(_) => format!("{} (bot)", entry.player),
            }
        } else {
            entry.player.clone()
        };
        writeln!(
            out,
            "{:>3}. {:<10} {:<32} {:>5}  {} games: {} won, {} drawn, {} lost",
            rank + 1,
            entry.kind.name(),
            who,
            entry.rating,
            entry.games,
            entry.wins,
            entry.draws,
            entry.losses
        )?;
    }
    Ok(())
}

/// `kingme export`: writes a stored game as PDN or the kingme text record.
pub async fn export(global: &GlobalArgs, args: &ExportArgs) -> anyhow::Result<()> {
    let record = fetch(global, args.game).await?;
    let text = export_text(&record)?;
    match &args.output {
        Some(path) => std::fs::write(path, text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// `kingme replay`: fetches a stored game and steps through it, seen from the person's side.
pub async fn replay(global: &GlobalArgs, args: &ReplayArgs) -> anyhow::Result<()> {
    let record = fetch(global, args.game).await?;
    step_through(global, record)
}

/// `kingme import`: reads a PDN or kingme text record file and steps through it, seen from
/// the person's side.
pub fn import(global: &GlobalArgs, args: &ImportArgs) -> anyhow::Result<()> {
    step_through(global, read_record(&args.file)?)
}

/// Steps through `record`, drawn as the person saw it if they played it.
fn step_through(global: &GlobalArgs, record: GameRecord) -> anyhow::Result<()> {
    let flipped = seen_flipped(&record, my_name(global).as_deref());
    let mut replay = Replay::new(record)?;
    replay.flipped = flipped;
    replay::show(replay)
}

/// The name the person goes by (`--name`, else the one chosen before), if any.
pub(crate) fn my_name(global: &GlobalArgs) -> Option<String> {
    global
        .name
        .clone()
        .or_else(crate::identity::name::default_name)
}

/// Whether `record`'s board is drawn flipped for `me`: as the game screen showed it to them
/// if they played it (the first side when they played both), else the diagram's way.
pub(crate) fn seen_flipped(record: &GameRecord, me: Option<&str>) -> bool {
    let side = me.and_then(|me| {
        [Side::First, Side::Second]
            .into_iter()
            .find(|side| record.players[side.index()] == me)
    });
    BoardGeometry::flipped_for(record.kind(), side)
}

/// Reads a PDN or kingme text record file, refusing one larger than a record can be.
fn read_record(path: &std::path::Path) -> anyhow::Result<GameRecord> {
    let size = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .len();
    if size > pdn::MAX_PDN as u64 {
        bail!(
            "{} is {size} bytes; a game record is read up to {} bytes",
            path.display(),
            pdn::MAX_PDN
        );
    }
    let contents = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {} as text", path.display()))?;
    import_text(&contents).with_context(|| format!("{}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_seen_as_its_player_saw_the_game() {
        let mut record = GameRecord::new(GameKind::Checkers);
        record.players = ["ann".into(), "bob".into()];
        for (me, side) in [
            (Some("ann"), Some(Side::First)),
            (Some("bob"), Some(Side::Second)),
            (Some("cy"), None),
            (None, None),
        ] {
            assert_eq!(
                seen_flipped(&record, me),
                BoardGeometry::flipped_for(GameKind::Checkers, side),
                "{me:?}"
            );
        }
        // Checkers puts White (the second side) at the bottom: Black's player sees it flipped.
        assert!(seen_flipped(&record, Some("ann")));
        assert!(!seen_flipped(&record, Some("bob")));
        record.players = ["bob".into(), "bob".into()];
        assert!(
            seen_flipped(&record, Some("bob")),
            "both sides: as the first"
        );
    }

    #[test]
    fn exported_files_import_back_for_every_game() {
        for (kind, moves) in [
            (GameKind::Checkers, vec!["11-15", "22-18", "15x22"]),
            (GameKind::Pente, vec!["K10", "L9", "N10"]),
            (GameKind::TicTacToe, vec!["5", "1"]),
        ] {
            let mut record = GameRecord::new(kind);
            record.players = ["ann".into(), "bob".into()];
            record.moves = moves.into_iter().map(str::to_owned).collect();
            let text = export_text(&record).unwrap();
            let back = import_text(&text).unwrap();
            assert_eq!(back.kind(), kind);
            assert_eq!(back.moves, record.moves, "{text}");
        }
        let err = import_text("[Event \"x\"]\n1. 11-99").unwrap_err();
        assert!(format!("{err:#}").contains("11-99"), "{err:#}");
    }
}
