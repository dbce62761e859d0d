//! `kingme bot`: a built-in strategy playing over the network, which is how someone attaches
//! bots to a remote server. It joins an open game (of the chosen kind) or opens one and waits
//! for an opponent, thinks with [`kingme_shared::ai::think`] on the blocking pool (never on the
//! async reactor), and prints one line per finished game.
//!
//! It survives what a server does to it: a refused move makes it read the game again and think
//! again (resigning is for lost positions, not for errors); an open game that vanished (closed at
//! a restart, or left behind with a session the server no longer knows) or a seat another bot
//! took first sends it looking again; it plays every game it sits in; and it paces what it sends
//! ([`pace`]) well inside the server's message limit.

pub(crate) mod pace;
pub(crate) mod refusals;

use crate::game::table::Table;
use crate::game::words::result_sentence;
use crate::net::event::{Event, LinkEvent};
use crate::net::{Net, NetConfig, Security};
use kingme_shared::GameKind;
use kingme_shared::ai::{Level, Limits, ladder, think};
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameStatus, GameSummary, Opponent, SeatChoice, SeatHolder,
    ServerMessage, TimeControl,
};
use pace::{BOT_BURST, BOT_PER_SECOND, Pace};
use refusals::Refusals;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Arguments of `kingme bot`.
#[derive(Debug, Clone, clap::Args)]
pub struct BotArgs {
    /// How strongly to play: random, beginner, novice, easy, casual, intermediate, skilled,
    /// club, advanced, strong, master or expert.
    #[arg(long, default_value = "intermediate")]
    pub level: Level,
    /// Play at the level whose measured rating in each game is nearest to this one (for example
    /// 1200), instead of --level.
    #[arg(long, conflicts_with = "level", allow_negative_numbers = true)]
    pub vs: Option<i32>,
    /// Play only this game (checkers, pente, tictactoe); by default join any open game and
    /// open checkers games.
    #[arg(long)]
    pub game: Option<GameKind>,
    /// Stop after this many finished games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Take at least this many milliseconds over each move (search included), so that people
    /// can follow a game between bots; 0 moves as soon as the search ends.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub(crate) move_delay_ms: u64,
}

impl BotArgs {
    /// The level played in `kind`: the one asked for, or the one whose measured rating is
    /// nearest to `--vs`.
    #[must_use]
    pub(crate) fn level_for(&self, kind: GameKind) -> Level {
        self.vs
            .map_or(self.level, |rating| ladder::nearest_level(kind, rating))
    }

    /// The bot's default name: its level, or `vs` and its rating.
    #[must_use]
    pub(crate) fn default_name(&self) -> String {
        let strength = match self.vs {
            Some(rating) => format!("vs{rating}"),
            None => self.level.to_string(),
        };
        format!("bot-{strength}-{}", std::process::id() % 10_000)
    }
}

/// How often a bot looks at the lobby again: while it waits in its own open game (for an older
/// open game to join instead, so two bots that opened games at the same moment still meet, and
/// to notice that its game is gone), and while it sits in no game.
const LOOK_AGAIN: Duration = Duration::from_secs(1);

/// How long a join or a new game may go unanswered before the bot stops waiting for it.
const SEEK_PATIENCE: Duration = Duration::from_secs(5);

/// The longest a bot thinks about one move.
const MAX_THINK: Duration = Duration::from_secs(5);

/// A finished search: the game, the number of moves it was played at, the move found.
type Thought = (GameId, usize, Option<String>);

/// Plays `args.games` games on the server at `address` as `name`; returns how many finished.
/// With `keep_key` the name's key is kept in the config directory like a person's; without,
/// the key lives for this run only.
pub async fn run(
    args: BotArgs,
    address: String,
    security: Security,
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
            security,
            ..NetConfig::new(address, name.clone())
        },
        events_tx,
        shutdown.clone(),
    );
    let mut bot = Bot::new(args, name);
    // The local endgame database, as the embedded server's bots use it; without it the bot
    // plays on, and says why.
    match crate::local::endgame_files::open_local().await {
        Some(Ok(egdb)) => bot.egdb = Some(egdb),
        Some(Err(err)) => eprintln!("playing without the endgame database: {err}"),
        None => {}
    }
    let (moves_tx, mut moves) = mpsc::channel::<Thought>(16);
    let mut look_again = tokio::time::interval(LOOK_AGAIN);
    let mut pace = Pace::new(BOT_BURST, BOT_PER_SECOND, Instant::now());
    let move_delay = Duration::from_millis(bot.args.move_delay_ms);
    loop {
        let outgoing = tokio::select! {
            _ = look_again.tick() => bot.look_again(Instant::now()),
            event = events.recv() => {
                let Some(event) = event else { break };
                match bot.event(event, Instant::now()) {
                    Ok(messages) => messages,
                    Err(reason) => {
                        eprintln!("kingme bot: {reason}");
                        break;
                    }
                }
            }
            Some((game, ply, text)) = moves.recv() => bot.thought(game, ply, text),
            () = sleep_until_retry(bot.refusals.next()) => bot.retry_due(Instant::now()),
        };
        for search in bot.searches.drain(..) {
            let moves = moves_tx.clone();
            let not_before = tokio::time::Instant::now() + move_delay;
            tokio::spawn(async move {
                // Searching is CPU work: it runs on the blocking pool, never on the reactor.
                let report = tokio::task::spawn_blocking(move || {
                    think(&search.position, search.level, &search.limits, search.seed)
                })
                .await;
                let text = report.ok().flatten().map(|r| r.text);
                tokio::time::sleep_until(not_before).await;
                let _ = moves.send((search.game, search.ply, text)).await;
            });
        }
        for message in outgoing {
            let wait = pace.take(Instant::now());
            if !wait.is_zero() {
                tokio::time::sleep(wait).await;
            }
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

/// Waits until `at`, the end of a pause after refused moves, or for ever without one.
async fn sleep_until_retry(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// A search to start: the position as the bot's table has it.
struct Search {
    game: GameId,
    ply: usize,
    position: kingme_shared::AnyGame,
    level: Level,
    limits: Limits,
    seed: u64,
}

/// A request for a seat that the server has not answered yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seeking {
    /// `Join` sent for this game.
    Join(GameId),
    /// `CreateGame` sent.
    Create,
}

/// Where the bot stands in one game's turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Turn {
    /// A search for the position after this many moves runs.
    Thinking(usize),
    /// Its move was sent.
    Sent(usize),
}

/// The bot's state: its games and what it is waiting for. Pure: it turns events into messages
/// (and searches to start), so tests drive it without a server.
struct Bot {
    args: BotArgs,
    name: String,
    /// Every game the bot sits in; it plays each of them.
    tables: HashMap<GameId, Table>,
    /// The seat request on its way, and when it was sent.
    seeking: Option<(Seeking, Instant)>,
    /// Games whose seat was refused to this bot: not tried again.
    refused: HashSet<GameId>,
    /// Moves refused in a row, per game: the pauses before trying again.
    refusals: Refusals,
    /// Per game, the number of moves at which a search runs or a move was sent, so one turn
    /// gets one move (a search started before a reconnect and another after it would otherwise
    /// both send one).
    asked: HashMap<GameId, Turn>,
    /// Searches to start (the run loop hands them to the blocking pool).
    searches: Vec<Search>,
    finished: u32,
    seed: u64,
    /// The checkers endgame database its searches consult, if one was built on this machine.
    egdb: Option<std::sync::Arc<kingme_shared::ai::egdb::Egdb>>,
}

impl Bot {
    fn new(args: BotArgs, name: String) -> Bot {
        Bot {
            args,
            name,
            tables: HashMap::new(),
            seeking: None,
            refused: HashSet::new(),
            refusals: Refusals::default(),
            asked: HashMap::new(),
            searches: Vec::new(),
            finished: 0,
            seed: u64::from(std::process::id()),
            egdb: None,
        }
    }

    fn event(&mut self, event: Event, now: Instant) -> Result<Vec<ClientMessage>, String> {
        match event {
            Event::Link(LinkEvent::Connected { resumed }) => {
                if !resumed {
                    // A new session sits in no game: whatever the old one sat in is not ours.
                    self.tables.clear();
                    self.asked.clear();
                }
                self.seeking = None;
                Ok(vec![ClientMessage::ListGames])
            }
            Event::Link(LinkEvent::Closed { reason }) => Err(reason),
            Event::Link(
                link @ (LinkEvent::Lost { .. }
                | LinkEvent::Reseating { .. }
                | LinkEvent::Unseated { .. }
                | LinkEvent::Notice { .. }),
            ) => {
                eprintln!("kingme bot: {}", link.notice().unwrap_or_default());
                Ok(Vec::new())
            }
            Event::Tick | Event::Terminal(_) => Ok(Vec::new()),
            Event::Server(ServerMessage::GameList { games }) => Ok(self.find_game(&games, now)),
            Event::Server(ServerMessage::State(state)) => {
                let mut next = Vec::new();
                match self.seeking {
                    Some((Seeking::Create, _)) => {
                        eprintln!(
                            "kingme bot: opened game {}; waiting for an opponent",
                            state.id
                        );
                        self.seeking = None;
                        // Another bot may have opened a game at the same moment: look at once
                        // rather than wait for the timer, so the two meet quickly.
                        next.push(ClientMessage::ListGames);
                    }
                    Some((Seeking::Join(game), _)) if game == state.id => {
                        eprintln!("kingme bot: joined game {game}");
                        self.seeking = None;
                    }
                    _ => {}
                }
                if state.your_side.is_none() || matches!(state.status, GameStatus::Over(_)) {
                    return Ok(next);
                }
                self.asked.remove(&state.id);
                self.tables
                    .insert(state.id, Table::from_state(&state, now)?);
                Ok(next)
            }
            Event::Server(ServerMessage::Error { message, fatal, .. }) => {
                if fatal {
                    return Err(message);
                }
                eprintln!("kingme bot: the server refused a request: {message}");
                // Errors name no game; the seat request on its way is the one to give up on (two
                // bots racing for one seat: the loser looks again).
                match self.seeking.take() {
                    Some((seeking, _)) => {
                        if let Seeking::Join(game) = seeking {
                            self.refused.insert(game);
                        }
                        Ok(vec![ClientMessage::ListGames])
                    }
                    None => Ok(Vec::new()),
                }
            }
            Event::Server(ServerMessage::YourTurn { game, clocks, .. }) => {
                let Some(table) = self.tables.get(&game) else {
                    return Ok(Vec::new());
                };
                let ply = table.moves.len();
                if matches!(self.asked.get(&game), Some(Turn::Thinking(p) | Turn::Sent(p)) if *p == ply)
                {
                    // Already thinking about this turn, or its move is on its way.
                    return Ok(Vec::new());
                }
                let mut limits = Limits {
                    egdb: self.egdb.clone(),
                    ..Limits::default()
                };
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
                self.searches.push(Search {
                    game,
                    ply,
                    position: table.game.clone(),
                    level: self.args.level_for(table.kind),
                    limits,
                    seed: self.seed,
                });
                self.asked.insert(game, Turn::Thinking(ply));
                Ok(Vec::new())
            }
            Event::Server(ServerMessage::MoveRejected {
                game, text, reason, ..
            }) => {
                // The bot's view of the game may be stale (a reconnect, a move sent twice): read
                // the game again; the server answers with its state, and `YourTurn` if it is the
                // bot's move, and the bot thinks again.
                // Refused again and again (a server that cannot store moves), it pauses longer
                // each time before reading the game again, and says each reason once.
                self.asked.remove(&game);
                if !self.tables.contains_key(&game) {
                    return Ok(Vec::new());
                }
                let refused = self.refusals.refused(game, &reason, now);
                if let Some(line) = refused.say {
                    eprintln!("kingme bot: {line} (last refused: {text})");
                }
                Ok(match refused.retry_at {
                    None => vec![ClientMessage::Watch { game }],
                    Some(_) => Vec::new(),
                })
            }
            Event::Server(ServerMessage::GameOver { game, result, .. }) => {
                self.refusals.forget(game);
                let Some(table) = self.tables.remove(&game) else {
                    return Ok(Vec::new());
                };
                self.asked.remove(&game);
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
                    .map(|side| {
                        table.seat_text(
                            side.opponent(),
                            std::time::Instant::now(),
                            &crate::game::ratings::Ratings::default(),
                        )
                    })
                    .unwrap_or_default();
                println!(
                    "game {game} {}: {} ({}) as {me} vs {opponent}: {} after {}: {verdict}",
                    table.kind,
                    self.name,
                    self.args.level_for(table.kind),
                    result_sentence(table.kind, result),
                    crate::game::words::game_length(table.moves.len())
                );
                let mut next = vec![ClientMessage::Leave { game }];
                next.extend(self.want_more());
                Ok(next)
            }
            Event::Server(ServerMessage::Left { game }) => {
                // The server closed a game the bot still sat in (or confirmed its leaving).
                self.asked.remove(&game);
                self.refusals.forget(game);
                Ok(if self.tables.remove(&game).is_some() {
                    self.want_more()
                } else {
                    Vec::new()
                })
            }
            Event::Server(message) => {
                if let Some(table) =
                    crate::game::game_of(&message).and_then(|game| self.tables.get_mut(&game))
                {
                    table.apply(&message, now);
                }
                if let ServerMessage::MovePlayed { game, record, .. } = &message
                    && self
                        .tables
                        .get(game)
                        .is_some_and(|table| table.your_side == Some(record.side))
                    && let Some(line) = self.refusals.accepted(*game)
                {
                    eprintln!("kingme bot: {line}");
                }
                Ok(Vec::new())
            }
        }
    }

    /// A list request when the bot sits in no game, waits for no seat and wants more games.
    fn want_more(&self) -> Vec<ClientMessage> {
        if self.finished < self.args.games && self.tables.is_empty() && self.seeking.is_none() {
            vec![ClientMessage::ListGames]
        } else {
            Vec::new()
        }
    }

    /// The games whose pause after refused moves is over: read again (the server answers with
    /// the state, and `YourTurn`, and the bot thinks again).
    fn retry_due(&mut self, now: Instant) -> Vec<ClientMessage> {
        self.refusals
            .due(now)
            .into_iter()
            .filter(|game| self.tables.contains_key(game))
            .map(|game| ClientMessage::Watch { game })
            .collect()
    }

    /// A search finished: send its move if the game is still where it was.
    fn thought(&mut self, game: GameId, ply: usize, text: Option<String>) -> Vec<ClientMessage> {
        let current = self
            .tables
            .get(&game)
            .is_some_and(|t| t.moves.len() == ply && t.is_my_turn())
            && self.asked.get(&game) == Some(&Turn::Thinking(ply));
        match text {
            Some(text) if current => {
                self.asked.insert(game, Turn::Sent(ply));
                vec![ClientMessage::Move { game, text }]
            }
            _ => Vec::new(),
        }
    }

    /// The open game the bot created and waits in alone, if any.
    fn waiting_alone(&self) -> Option<GameId> {
        self.tables
            .values()
            .find(|t| matches!(t.status, GameStatus::Open))
            .map(|t| t.id)
    }

    /// What the timer asks for: the lobby again while the bot waits alone or sits nowhere, and
    /// giving up a seat request the server never answered.
    fn look_again(&mut self, now: Instant) -> Vec<ClientMessage> {
        if self
            .seeking
            .is_some_and(|(_, sent)| now.duration_since(sent) > SEEK_PATIENCE)
        {
            self.seeking = None;
        }
        if self.seeking.is_some() || self.finished >= self.args.games {
            return Vec::new();
        }
        if self.waiting_alone().is_some() || self.tables.is_empty() {
            vec![ClientMessage::ListGames]
        } else {
            Vec::new()
        }
    }

    /// Joins an open game that fits, or opens one. A bot waiting in its own open game moves to
    /// an older one that fits (older only, so two waiting bots do not swap past each other), and
    /// forgets its open game when the lobby no longer lists it as open (it was closed).
    fn find_game(&mut self, games: &[GameSummary], now: Instant) -> Vec<ClientMessage> {
        let vanished: Vec<GameId> = self
            .tables
            .values()
            .filter(|t| matches!(t.status, GameStatus::Open))
            .filter(|t| {
                !games
                    .iter()
                    .any(|g| g.id == t.id && matches!(g.status, GameStatus::Open))
            })
            .map(|t| t.id)
            .collect();
        for game in vanished {
            eprintln!("kingme bot: game {game} is no longer open; looking for another");
            self.tables.remove(&game);
            self.asked.remove(&game);
        }
        if self.seeking.is_some() || self.finished >= self.args.games {
            return Vec::new();
        }
        if let Some(mine) = self.waiting_alone() {
            let older = games.iter().filter(|g| g.id < mine).find(|g| self.fits(g));
            return match older {
                Some(game) => {
                    self.tables.remove(&mine);
                    self.seeking = Some((Seeking::Join(game.id), now));
                    vec![
                        ClientMessage::Leave { game: mine },
                        ClientMessage::Join { game: game.id },
                    ]
                }
                None => Vec::new(),
            };
        }
        if !self.tables.is_empty() {
            return Vec::new();
        }
        if let Some(open) = games.iter().find(|g| self.fits(g)) {
            self.seeking = Some((Seeking::Join(open.id), now));
            return vec![ClientMessage::Join { game: open.id }];
        }
        self.seeking = Some((Seeking::Create, now));
        vec![ClientMessage::CreateGame(GameOptions {
            spec: self.args.game.unwrap_or_default().into(),
            seat: SeatChoice::Random,
            opponent: Opponent::OpenSeat,
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: false,
        })]
    }

    /// Whether a listed game is one this bot may join.
    fn fits(&self, summary: &GameSummary) -> bool {
        matches!(summary.status, GameStatus::Open)
            && !self.refused.contains(&summary.id)
            && self
                .args
                .game
                .is_none_or(|kind| kind == summary.spec.kind())
            && summary.seats.iter().any(|s| matches!(s, SeatHolder::Empty))
            && !summary
                .seats
                .iter()
                .any(|s| matches!(s, SeatHolder::Human { name, .. } if *name == self.name))
    }
}

#[cfg(test)]
mod tests;
