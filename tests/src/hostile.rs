//! Hostile clients against a running server, and ordinary games to watch beside them: what the
//! `kingme-hostile` tool and the short hostile test (`tests/tests/it/hostile.rs`) are made of.
//!
//! Each [`Attack`] opens its own connection, misbehaves in one way, and reports the server's
//! [`Reaction`]: the fatal error it closed the connection with, the refusals it answered, or that
//! it simply kept the connection. An [`ordinary_game`] is two well-behaved players finishing a
//! game; it checks that the result came by the rules and that replaying the moves the server
//! relayed gives the same end, so a disturbed or wrongly judged game is caught, not just a dead
//! one. (A process's resident memory, for the before/during/after figures, is read by
//! [`crate::measure::rss_kib`].) Attack connections use raw sockets, since a hostile client is
//! not a polite one; the ordinary players use the tests' [`kingme_testkit::Client`].

use bytes::BytesMut;
use futures::StreamExt;
use kingme_client::net::dial::{self, Security, ServerStream};
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, EndReason, ErrorKind, GameId, MAX_CLIENT_FRAME, PROTOCOL_VERSION,
    ServerMessage,
};
use kingme_shared::{AnyGame, GameKind};
use kingme_testkit::{open_game, play_out, two_players};
use rand::rngs::StdRng;
use rand::{Rng, RngCore};
use std::fmt;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio_util::codec::{Encoder, FramedRead};

/// One way of misbehaving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attack {
    /// Random bytes instead of frames.
    RandomBytes,
    /// A length prefix above the frame limit.
    OversizePrefix,
    /// A hello, then half a frame and the connection closed.
    TruncatedFrame,
    /// A well-framed payload that is no message.
    UndecodablePayload,
    /// Connects and never says anything.
    Silent,
    /// Says hello, then nothing, not even answering pings.
    SilentAfterHello,
    /// Watches the ordinary games and asks for the game list, but never reads an answer.
    SlowReader,
    /// Sends messages far faster than the rate limit allows.
    Flood,
    /// Moves, resigns and offers draws in a game where it holds no seat, and asks the engine
    /// to analyse a game that does not exist, with bounds at their largest.
    ForeignSeat,
    /// Resumes a session with a token it made up.
    WrongToken,
}

impl Attack {
    /// Every attack.
    pub const ALL: [Attack; 10] = [
        Attack::RandomBytes,
        Attack::OversizePrefix,
        Attack::TruncatedFrame,
        Attack::UndecodablePayload,
        Attack::Silent,
        Attack::SilentAfterHello,
        Attack::SlowReader,
        Attack::Flood,
        Attack::ForeignSeat,
        Attack::WrongToken,
    ];

    /// What the attack sends, for the report.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Attack::RandomBytes => "1..512 random bytes, then waits",
            Attack::OversizePrefix => "a length prefix above 4 KiB, then a few bytes",
            Attack::TruncatedFrame => "hello, then 6 of a frame's 24 bytes, then closes",
            Attack::UndecodablePayload => "a 4..64-byte frame of random bytes that is no message",
            Attack::Silent => "connects and never speaks",
            Attack::SilentAfterHello => "hello, then silence (no pongs)",
            Attack::SlowReader => "hello, watches every game, asks for lists, never reads",
            Attack::Flood => "hello, then 400 pings at once",
            Attack::ForeignSeat => {
                "moves, resigns, offers a draw in a game it is not seated in; analyses no game"
            }
            Attack::WrongToken => "hello resuming a made-up token",
        }
    }
}

impl fmt::Display for Attack {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// What the server did about an attack.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reaction {
    /// It closed the connection, after a fatal error of this kind (`None`: closed without one,
    /// as for a client that went away mid-frame).
    Closed(Option<ErrorKind>),
    /// It refused requests, with errors of these kinds and `MoveRejected` for proposed moves,
    /// and kept the connection.
    Refused {
        /// The kinds of the errors it sent.
        errors: Vec<ErrorKind>,
        /// How many `MoveRejected` it sent.
        moves_rejected: usize,
    },
    /// It kept the connection and said nothing the attack could read (the attacker left).
    KeptOpen,
}

impl fmt::Display for Reaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reaction::Closed(Some(kind)) => write!(f, "closed after a fatal {kind:?} error"),
            Reaction::Closed(None) => f.write_str("closed without a word"),
            Reaction::Refused {
                errors,
                moves_rejected,
            } => write!(
                f,
                "refused: errors {errors:?} and {moves_rejected} MoveRejected, connection kept"
            ),
            Reaction::KeptOpen => f.write_str("kept open until the attacker left"),
        }
    }
}

/// How long an attack waits for the server to react before giving up on it. It must exceed the
/// server's handshake and idle timeouts for the silent attacks to see the close.
#[derive(Debug, Clone, Copy)]
pub struct Patience {
    /// How long an attack waits for the server to answer or close.
    pub reaction: Duration,
    /// How long a slow reader holds its connection.
    pub slow_reader_hold: Duration,
}

/// The messages a connection got until the server closed it or `patience` ran out, and whether
/// it was closed. Undecodable bytes and read errors count as a close.
async fn read_until_closed(stream: ServerStream, patience: Duration) -> (Vec<ServerMessage>, bool) {
    let mut frames = FramedRead::new(stream, ClientCodec::client());
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        match tokio::time::timeout_at(deadline, frames.next()).await {
            Err(_) => return (seen, false),
            Ok(None | Some(Err(_))) => return (seen, true),
            Ok(Some(Ok(message))) => seen.push(message),
        }
    }
}

/// The reaction shown by what a connection read.
fn reaction(seen: &[ServerMessage], closed: bool) -> Reaction {
    let mut errors = seen.iter().filter_map(|message| match message {
        ServerMessage::Error { kind, fatal, .. } => Some((*kind, *fatal)),
        _ => None,
    });
    if closed {
        let fatal = errors.rfind(|(_, fatal)| *fatal).map(|(kind, _)| kind);
        return Reaction::Closed(fatal);
    }
    let errors: Vec<ErrorKind> = errors.map(|(kind, _)| kind).collect();
    let moves_rejected = seen
        .iter()
        .filter(|message| matches!(message, ServerMessage::MoveRejected { .. }))
        .count();
    if errors.is_empty() && moves_rejected == 0 {
        Reaction::KeptOpen
    } else {
        Reaction::Refused {
            errors,
            moves_rejected,
        }
    }
}

/// A message as a whole frame, encoded by the client's codec.
fn frame(message: &ClientMessage) -> Vec<u8> {
    let mut bytes = BytesMut::new();
    // Our own small messages always encode; an empty frame would only make the attack harsher.
    let _ = ClientCodec::client().encode(message.clone(), &mut bytes);
    bytes.to_vec()
}

fn hello(name: &str, resume: Option<String>) -> Vec<u8> {
    frame(&ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: name.to_owned(),
        public_key: None,
        legacy_secret: None,
        resume,
        guest: true,
    })
}

/// Runs one attack against the server at `addr`; `games` are ordinary games in progress, for the
/// attacks that meddle with them.
pub async fn attack(
    addr: SocketAddr,
    attack: Attack,
    games: &[GameId],
    patience: Patience,
    rng: &mut StdRng,
) -> std::io::Result<Reaction> {
    // Over TLS, as every client: what is hostile here is what comes inside it.
    let security = Security::Tls {
        known_servers: None,
    };
    let mut stream = dial::dial(&addr.to_string(), &security)
        .await
        .map_err(std::io::Error::other)?
        .stream;
    let mut bytes = Vec::new();
    match attack {
        Attack::RandomBytes => {
            bytes.resize(rng.random_range(1..=512), 0);
            rng.fill_bytes(&mut bytes);
        }
        Attack::OversizePrefix => {
            let length = rng.random_range(MAX_CLIENT_FRAME as u32 + 1..=u32::MAX);
            bytes.extend_from_slice(&length.to_be_bytes());
            bytes.extend_from_slice(&[0; 8]);
        }
        Attack::TruncatedFrame => {
            bytes = hello("truncated", None);
            bytes.extend_from_slice(&24u32.to_be_bytes());
            bytes.extend_from_slice(&[9, 1]);
            stream.write_all(&bytes).await?;
            // Half a frame, then the write side closes: the server sees the stream end mid-frame.
            stream.shutdown().await?;
            let (seen, closed) = read_until_closed(stream, patience.reaction).await;
            return Ok(reaction(&seen, closed));
        }
        Attack::UndecodablePayload => {
            let mut payload = vec![0; rng.random_range(4..=64)];
            rng.fill_bytes(&mut payload);
            // Variant numbers past the last message make sure the payload is no message.
            payload[0] = 0xff;
            bytes.extend_from_slice(&(payload.len() as u32).to_be_bytes());
            bytes.extend_from_slice(&payload);
        }
        Attack::Silent => {}
        Attack::SilentAfterHello => bytes = hello("silent", None),
        Attack::SlowReader => return slow_reader(stream, games, patience).await,
        Attack::Flood => {
            bytes = hello("flood", None);
            for nonce in 0..400 {
                bytes.extend_from_slice(&frame(&ClientMessage::Ping { nonce }));
            }
        }
        Attack::ForeignSeat => {
            bytes = hello("meddler", None);
            let game = games.first().copied().unwrap_or(GameId(u64::MAX));
            for message in [
                ClientMessage::Move {
                    game,
                    text: "11-15".to_owned(),
                },
                ClientMessage::Move {
                    game,
                    text: "K10".to_owned(),
                },
                ClientMessage::Resign { game },
                ClientMessage::OfferDraw { game },
                ClientMessage::RequestTakeback { game },
                ClientMessage::Join { game },
                ClientMessage::Move {
                    game: GameId(u64::MAX),
                    text: "5".to_owned(),
                },
                ClientMessage::Analyse {
                    game: GameId(u64::MAX),
                    depth: Some(u32::MAX),
                    time_ms: Some(u64::MAX),
                },
            ] {
                bytes.extend_from_slice(&frame(&message));
            }
            stream.write_all(&bytes).await?;
            let (seen, closed) = read_for(stream, 8, patience.reaction).await;
            return Ok(reaction(&seen, closed));
        }
        Attack::WrongToken => {
            let mut token = [0u8; 16];
            rng.fill_bytes(&mut token);
            let token: String = token.iter().map(|byte| format!("{byte:02x}")).collect();
            bytes = hello("impostor", Some(token));
        }
    }
    stream.write_all(&bytes).await?;
    let (seen, closed) = read_until_closed(stream, patience.reaction).await;
    Ok(reaction(&seen, closed))
}

/// Reads until `refusals` refusals (errors or rejected moves) came, the connection closed, or
/// `patience` ran out.
async fn read_for(
    stream: ServerStream,
    refusals: usize,
    patience: Duration,
) -> (Vec<ServerMessage>, bool) {
    let mut frames = FramedRead::new(stream, ClientCodec::client());
    let mut seen = Vec::new();
    let deadline = tokio::time::Instant::now() + patience;
    let refusal = |message: &ServerMessage| {
        matches!(
            message,
            ServerMessage::Error { .. } | ServerMessage::MoveRejected { .. }
        )
    };
    while seen.iter().filter(|message| refusal(message)).count() < refusals {
        match tokio::time::timeout_at(deadline, frames.next()).await {
            Err(_) => return (seen, false),
            Ok(None | Some(Err(_))) => return (seen, true),
            Ok(Some(Ok(message))) => seen.push(message),
        }
    }
    (seen, false)
}

/// Watches every game and asks for the list over and over (within the rate limit), reading
/// nothing, for `patience.slow_reader_hold`; then looks whether the server has closed it.
async fn slow_reader(
    mut stream: ServerStream,
    games: &[GameId],
    patience: Patience,
) -> std::io::Result<Reaction> {
    let mut bytes = hello("sloth", None);
    for &game in games {
        bytes.extend_from_slice(&frame(&ClientMessage::Watch { game }));
    }
    stream.write_all(&bytes).await?;
    let list = frame(&ClientMessage::ListGames);
    let deadline = tokio::time::Instant::now() + patience.slow_reader_hold;
    let mut ticks = tokio::time::interval(Duration::from_millis(100));
    while tokio::time::Instant::now() < deadline {
        ticks.tick().await;
        if stream.write_all(&list).await.is_err() {
            return Ok(Reaction::Closed(None));
        }
    }
    // Whatever the server queued is still unread; a short look shows whether it gave up on us.
    let mut rest = BytesMut::new();
    let closed = loop {
        use tokio::io::AsyncReadExt;
        match tokio::time::timeout(Duration::from_millis(200), stream.read_buf(&mut rest)).await {
            Ok(Ok(0) | Err(_)) => break true,
            Ok(Ok(_)) => rest.clear(),
            Err(_) => break false,
        }
    };
    Ok(if closed {
        Reaction::Closed(None)
    } else {
        Reaction::KeptOpen
    })
}

/// How an ordinary game went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrdinaryGame {
    /// The game played.
    pub kind: GameKind,
    /// Its id.
    pub id: GameId,
    /// How many moves were played.
    pub moves: usize,
    /// `None` if it ended normally: by the rules, with the result the moves replayed give.
    pub disturbed: Option<String>,
}

/// The games ordinary players cycle through.
pub const ORDINARY_KINDS: [GameKind; 3] =
    [GameKind::TicTacToe, GameKind::Checkers, GameKind::Pente];

/// Two well-behaved players create and join a game of `kind`; `started` hears its id once both
/// are seated. They play it to its end with random legal moves (from `seed`), and the result is
/// checked against a replay of the moves with the rules.
pub async fn ordinary_game(
    addr: SocketAddr,
    kind: GameKind,
    seed: u64,
    started: impl FnOnce(GameId),
) -> OrdinaryGame {
    let (mut first, mut second, id) = two_players(addr, open_game(kind)).await;
    started(id);
    // A small generator in an atomic, since the chooser is called through a shared reference.
    let state = AtomicU64::new(seed | 1);
    let (result, moves) = play_out([&mut first, &mut second], id, 0, |_, legal| {
        let mut x = state.load(Ordering::Relaxed);
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        state.store(x, Ordering::Relaxed);
        legal[(x % legal.len() as u64) as usize].clone()
    })
    .await;
    let mut replay = AnyGame::start(kind);
    let mut disturbed = None;
    for text in &moves {
        if let Err(err) = replay.play_text(text) {
            disturbed = Some(format!(
                "the server relayed {text:?}, which the rules refuse: {err}"
            ));
            break;
        }
    }
    if disturbed.is_none() {
        let by_rules = replay.outcome().map(|outcome| outcome.winner());
        let ended_by_rules = matches!(result.reason, EndReason::Win(_) | EndReason::Draw(_));
        if !ended_by_rules || by_rules != Some(result.winner) {
            disturbed = Some(format!(
                "ended with {result:?}; the replayed moves give {:?}",
                replay.outcome()
            ));
        }
    }
    OrdinaryGame {
        kind,
        id,
        moves: moves.len(),
        disturbed,
    }
}
