//! `kingme bot`: a built-in strategy playing over the network, which is how someone attaches
//! bots to a remote server. It joins an open game (of the chosen kind) or opens one and waits
//! for an opponent, thinks with [`kingme_shared::ai::think`] on the blocking pool (never on the
//! async reactor), and prints one line per finished game.

use crate::event::{Event, LinkEvent};
use crate::net::{Net, NetConfig};
use crate::table::Table;
use crate::words::result_sentence;
use kingme_shared::GameKind;
use kingme_shared::ai::{Level, Limits, think};
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameStatus, GameSummary, Opponent, SeatChoice, SeatHolder,
    ServerMessage, TimeControl,
};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Arguments of `kingme bot`.
#[derive(Debug, Clone, clap::Args)]
pub struct BotArgs {
    /// How strongly to play: random, beginner, intermediate, advanced or expert.
    #[arg(long, default_value = "intermediate")]
    pub level: Level,
    /// Play only this game (checkers, pente, tictactoe); by default join any open game and
    /// open checkers games.
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Stop after this many finished games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
}

/// How often a bot waiting in its own open game looks for an older open game to join instead,
/// so two bots that opened games at the same moment still meet.
const LOOK_AGAIN: Duration = Duration::from_secs(1);

/// The longest a bot thinks about one move.
const MAX_THINK: Duration = Duration::from_secs(5);

/// Plays `args.games` games on the server at `address` as `name`; returns how many finished.
/// With `keep_key` the name's key is kept in the config directory like a person's; without,
/// the key lives for this run only.
pub async fn run(
    args: BotArgs,
    address: String,
    name: String,
    keep_key: bool,
) -> anyhow::Result<u32> {
    let shutdown = CancellationToken::new();
    let (events_tx, mut events) = mpsc::channel(256);
    let net = Net::spawn(
        NetConfig {
            keys: if keep_key {
                crate::identity::KeyStore::default_store()
            } else {
                None
            },
            ..NetConfig::new(address, name.clone())
        },
        events_tx,
        shutdown.clone(),
    );
    let mut bot = Bot {
        args,
        name,
        table: None,
        finished: 0,
        seed: u64::from(std::process::id()),
    };
    let (moves_tx, mut moves) = mpsc::channel::<(GameId, usize, Option<String>)>(4);
    let mut look_again = tokio::time::interval(LOOK_AGAIN);
    loop {
        let outgoing = tokio::select! {
            _ = look_again.tick() => bot.look_again(),
            event = events.recv() => {
                let Some(event) = event else { break };
                match bot.event(event, &moves_tx) {
                    Ok(messages) => messages,
                    Err(reason) => {
                        eprintln!("kingme bot: {reason}");
                        break;
                    }
                }
            }
            Some((game, ply, text)) = moves.recv() => bot.thought(game, ply, text),
        };
        for message in outgoing {
            let _ = net.outgoing.send(message).await;
        }
        if bot.finished >= bot.args.games {
            break;
        }
    }
    shutdown.cancel();
    net.close().await;
    Ok(bot.finished)
}

struct Bot {
    args: BotArgs,
    name: String,
    table: Option<Table>,
    finished: u32,
    seed: u64,
}

impl Bot {
    fn event(
        &mut self,
        event: Event,
        moves: &mpsc::Sender<(GameId, usize, Option<String>)>,
    ) -> Result<Vec<ClientMessage>, String> {
        let now = Instant::now();
        match event {
            Event::Link(LinkEvent::Connected { .. }) => Ok(vec![ClientMessage::ListGames]),
            Event::Link(LinkEvent::Closed { reason }) => Err(reason),
            Event::Link(LinkEvent::Lost { .. }) | Event::Tick | Event::Terminal(_) => {
                Ok(Vec::new())
            }
            Event::Server(ServerMessage::GameList { games }) => Ok(self.find_game(&games)),
            Event::Server(ServerMessage::State(state)) => {
                self.table = Some(Table::from_state(&state, now)?);
                Ok(Vec::new())
            }
            Event::Server(ServerMessage::Error { message, fatal, .. }) => {
                if fatal {
                    return Err(message);
                }
                eprintln!("kingme bot: the server refused a request: {message}");
                Ok(Vec::new())
            }
            Event::Server(ServerMessage::YourTurn { game, clocks, .. }) => {
                let Some(table) = self.table.as_mut().filter(|t| t.id == game) else {
                    return Ok(Vec::new());
                };
                let mut limits = Limits::default();
                let mine = table
                    .your_side
                    .and_then(|side| clocks.remaining_ms[side.index()]);
                limits.time = Some(match mine {
                    Some(ms) => Duration::from_millis(ms / 30).min(MAX_THINK),
                    None => MAX_THINK,
                });
                self.seed = self
                    .seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                let (position, level, seed, ply) = (
                    table.game.clone(),
                    self.args.level,
                    self.seed,
                    table.moves.len(),
                );
                let moves = moves.clone();
                // Searching is CPU work: it runs on the blocking pool, never on the reactor.
                tokio::task::spawn_blocking(move || {
                    let report = think(&position, level, &limits, seed);
                    let _ = moves.blocking_send((game, ply, report.map(|r| r.text)));
                });
                Ok(Vec::new())
            }
            Event::Server(ServerMessage::MoveRejected { game, text, reason }) => {
                eprintln!("kingme bot: game {game}: {text} was refused: {reason}; resigning");
                Ok(vec![ClientMessage::Resign { game }])
            }
            Event::Server(ServerMessage::GameOver { game, result, .. }) => {
                let Some(table) = self.table.take().filter(|t| t.id == game) else {
                    return Ok(Vec::new());
                };
                self.finished += 1;
                let verdict = match (result.winner, table.your_side) {
                    (Some(winner), Some(me)) if winner == me => "won",
                    (Some(_), Some(_)) => "lost",
                    _ => "drawn",
                };
                let me = table
                    .your_side
                    .map_or("watching", |side| table.game.side_name(side));
                let opponent = table
                    .your_side
                    .map(|side| table.seat_text(side.opponent(), std::time::Instant::now()))
                    .unwrap_or_default();
                println!(
                    "game {game} {}: {} ({}) as {me} vs {opponent}: {} after {}: {verdict}",
                    table.kind,
                    self.name,
                    self.args.level,
                    result_sentence(table.kind, result),
                    crate::words::game_length(table.moves.len())
                );
                let mut next = vec![ClientMessage::Leave { game }];
                if self.finished < self.args.games {
                    next.push(ClientMessage::ListGames);
                }
                Ok(next)
            }
            Event::Server(message) => {
                if let Some(table) = self
                    .table
                    .as_mut()
                    .filter(|t| Some(t.id) == crate::app::game_of(&message))
                {
                    table.apply(&message, now);
                }
                Ok(Vec::new())
            }
        }
    }

    /// A search finished: send its move if the game is still where it was.
    fn thought(&mut self, game: GameId, ply: usize, text: Option<String>) -> Vec<ClientMessage> {
        let current = self
            .table
            .as_ref()
            .is_some_and(|t| t.id == game && t.moves.len() == ply && t.is_my_turn());
        match text {
            Some(text) if current => vec![ClientMessage::Move { game, text }],
            _ => Vec::new(),
        }
    }

    /// Whether the bot waits alone in the open game it created.
    fn waiting_alone(&self) -> Option<GameId> {
        self.table
            .as_ref()
            .filter(|t| matches!(t.status, GameStatus::Open))
            .map(|t| t.id)
    }

    fn look_again(&self) -> Vec<ClientMessage> {
        if self.waiting_alone().is_some() {
            vec![ClientMessage::ListGames]
        } else {
            Vec::new()
        }
    }

    /// Joins an open game that fits, or opens one. A bot waiting in its own open game moves to
    /// an older one that fits (older only, so two waiting bots do not swap past each other).
    fn find_game(&mut self, games: &[GameSummary]) -> Vec<ClientMessage> {
        if let Some(mine) = self.waiting_alone() {
            let older = games.iter().filter(|g| g.id < mine).find(|g| self.fits(g));
            return match older {
                Some(game) => {
                    self.table = None;
                    vec![
                        ClientMessage::Leave { game: mine },
                        ClientMessage::Join { game: game.id },
                    ]
                }
                None => Vec::new(),
            };
        }
        if self.table.is_some() {
            return Vec::new();
        }
        if let Some(open) = games.iter().find(|g| self.fits(g)) {
            return vec![ClientMessage::Join { game: open.id }];
        }
        vec![ClientMessage::CreateGame(GameOptions {
            kind: self.args.game.unwrap_or(GameKind::Checkers),
            seat: SeatChoice::Random,
            opponent: Opponent::OpenSeat,
            time_control: TimeControl::Unlimited,
            start_position: None,
            pente_tournament_rule: true,
            rated: false,
        })]
    }
}

impl Bot {
    /// Whether a listed game is one this bot may join.
    fn fits(&self, summary: &GameSummary) -> bool {
        matches!(summary.status, GameStatus::Open)
            && self.args.game.is_none_or(|kind| kind == summary.kind)
            && summary.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
            && !summary
                .seats
                .iter()
                .any(|s| matches!(s, SeatHolder::Human { name, .. } if *name == self.name))
    }
}

/// The default name of a bot client.
#[must_use]
pub fn default_bot_name(level: Level) -> String {
    format!("bot-{level}-{}", std::process::id() % 10_000)
}
