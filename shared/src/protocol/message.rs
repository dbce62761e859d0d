//! The wire messages: what a client may say to the server and what the server says back.
//!
//! These are plain serde types; the bytes are the business of [`super::codec`] alone. Moves travel
//! as text (context-free), and the judge turns them into rule moves against its own position, so a
//! client can never smuggle in a move the rules did not generate.

use crate::ai::Level;
pub use crate::domain::{
    AdminAction, AdminLogEntry, ClockState, EndReason, GameId, GameResult, GameStatus,
    MAX_ADMIN_LOG_ENTRIES, MAX_ANNOUNCEMENT_CHARS, MAX_MOVE_TEXT, MAX_REASON_CHARS, MoveRecord,
    PlayerId, TimeControl,
};
use crate::domain::{HistoryEntry, LeaderboardEntry};
use crate::game::Side;
use crate::game_kind::GameKind;
use crate::games::spec::GameSpec;
use crate::record::GameRecord;
use crate::review::GameReview;
use serde::{Deserialize, Serialize};

pub use super::error_kind::ErrorKind;
pub use super::game_options::{GameOptions, Opponent, SeatChoice};

/// The protocol version spoken by this build. A server refuses a hello with a version outside
/// [`MIN_PROTOCOL_VERSION`]`..=PROTOCOL_VERSION`.
pub const PROTOCOL_VERSION: u32 = 9;

/// The oldest version a server still speaks. Version 6 binds a person's proof to the TLS
/// connection it was made on (`kingme_shared::identity::ChannelBinding`); an older client's
/// proof binds nothing, so it could be relayed to another server, and it is refused with a
/// message saying to upgrade. Version 7 adds the admins' messages (`Admin`, `AdminLog`) and
/// `Announcement`, which a server sends only to clients of version 7. Version 8 adds the review
/// board's `Analyse`, answered by `AnalysisProgress` and `Analysis` (only ever to a client that
/// asked, so only to version 8). Version 9 appends three levels (`novice`, `skilled`,
/// `master`); an older client is sent the nearest older level below in their place
/// ([`ServerMessage::for_version`]).
pub const MIN_PROTOCOL_VERSION: u32 = 6;

/// The first version whose clients are sent `Announcement`s.
pub const ANNOUNCEMENT_VERSION: u32 = 7;

/// The first version whose clients may send `Analyse` (and are answered `AnalysisProgress`
/// and `Analysis`).
pub const ANALYSIS_VERSION: u32 = 8;

/// Longest display name, in characters.
pub const MAX_NAME_CHARS: usize = 32;
/// Longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 300;
/// The most of a refused move's text that `MoveRejected` quotes back, in bytes: any move the
/// rules could accept fits whole.
pub const MAX_QUOTED_MOVE: usize = MAX_MOVE_TEXT;

/// A refused move's text as `MoveRejected` quotes it: whole when short, else its first
/// [`MAX_QUOTED_MOVE`] bytes (cut at a character boundary) followed by `...`, so a client that
/// sends kilobytes does not get them echoed back.
#[must_use]
pub fn quoted_move(text: &str) -> String {
    if text.len() <= MAX_QUOTED_MOVE {
        return text.to_owned();
    }
    let mut end = MAX_QUOTED_MOVE;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &text[..end])
}

/// Longest start position (FEN or board file text), in bytes.
pub const MAX_POSITION_TEXT: usize = 2048;
/// Most entries a game list carries.
pub const MAX_LISTED_GAMES: usize = 200;

/// What a client says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// Must be the first message. A person sends its Ed25519 `public_key` and is then asked to
    /// prove it holds the private key (`Challenge`, answered by `Prove`); a name belongs to the
    /// first key that proves itself. `legacy_secret` is a protocol-2 name secret the client still
    /// holds for this name: presented once, it binds the key to a name registered before keys.
    /// A `guest` plays unrated under a name nobody registered, with no key; `resume` carries a
    /// guest's token from an earlier session to take its seats back.
    Hello {
        /// The protocol version the client speaks.
        protocol_version: u32,
        /// The name to play under.
        name: String,
        /// A person's Ed25519 public key; `None` for a guest.
        public_key: Option<[u8; 32]>,
        /// A protocol-2 name secret, presented once to bind the key to its older name.
        legacy_secret: Option<String>,
        /// A guest's resume token from an earlier session.
        resume: Option<String>,
        /// Whether this is a guest (unrated, no key).
        guest: bool,
    },
    /// Keep-alive; the server answers `Pong` with the same nonce.
    Ping {
        /// Echoed back in the `Pong`.
        nonce: u64,
    },
    /// Answer to the server's `Ping`.
    Pong {
        /// The nonce of the server's `Ping`.
        nonce: u64,
    },
    /// Ask for the lobby's list of games.
    ListGames,
    /// Create a game; the server answers with its `GameState`.
    CreateGame(GameOptions),
    /// Take the open seat of a game.
    Join {
        /// The game to join.
        game: GameId,
    },
    /// Seat a built-in bot in the open seat of a game.
    AttachBot {
        /// The game whose open seat the bot takes.
        game: GameId,
        /// The bot's strength.
        level: Level,
    },
    /// Watch a game as a spectator.
    Watch {
        /// The game to watch.
        game: GameId,
    },
    /// Stop playing (resigns a game in progress) or watching a game.
    Leave {
        /// The game to leave.
        game: GameId,
    },
    /// Propose a move, in the game's notation.
    Move {
        /// The game to move in.
        game: GameId,
        /// The move in the game's notation.
        text: String,
    },
    /// Resign a game.
    Resign {
        /// The game resigned.
        game: GameId,
    },
    /// Offer a draw.
    OfferDraw {
        /// The game the draw is offered in.
        game: GameId,
    },
    /// Answer a draw offer.
    AnswerDraw {
        /// The game whose draw offer is answered.
        game: GameId,
        /// Whether the draw is accepted.
        accept: bool,
    },
    /// Ask to take back the last own move (and the opponent's reply since).
    RequestTakeback {
        /// The game whose last move is to be taken back.
        game: GameId,
    },
    /// Answer a takeback request.
    AnswerTakeback {
        /// The game whose takeback request is answered.
        game: GameId,
        /// Whether the takeback is granted.
        accept: bool,
    },
    /// Offer (or accept) a rematch of a finished game, colours swapped.
    Rematch {
        /// The finished game to play again.
        game: GameId,
    },
    /// Say something to the game's players and spectators.
    Chat {
        /// The game the line is said in.
        game: GameId,
        /// The line said.
        text: String,
    },
    /// Ask for finished games from the server's history, newest first (at most
    /// `MAX_HISTORY_ENTRIES`), optionally only one player's or one game's.
    History {
        /// Only games this player played; `None` for everyone's.
        player: Option<String>,
        /// Only games of this kind; `None` for every game.
        kind: Option<GameKind>,
    },
    /// Ask for the rating leaderboard, of one game or of all.
    Leaderboard {
        /// Only ratings of this game; `None` for every game's.
        kind: Option<GameKind>,
    },
    /// Ask for the record of a stored game (finished or in progress), for export or replay.
    Export {
        /// The game whose record is asked for.
        game: GameId,
    },
    /// The answer to `Challenge`: the Ed25519 signature (64 bytes) of the proof message
    /// (`kingme_shared::identity::proof_message`) by the key the hello named, bound to this
    /// connection's TLS certificate as the client saw it.
    Prove {
        /// The signature, 64 bytes.
        signature: Vec<u8>,
    },
    /// Watch the lobby (`on: true`): the server answers with the `GameList` and pushes a new one
    /// whenever games open, fill, move or end (at most one every 250 ms), until `on: false`.
    WatchLobby {
        /// Whether to watch the lobby (`true`) or stop (`false`).
        on: bool,
    },
    /// Version 7: an admin's action (ban, unban, mute, unmute, close a game, announce), refused
    /// unless the connection proved a key the server names as an admin's. The answer is
    /// `AdminDone`.
    Admin(AdminAction),
    /// Version 7: an admin asks for the admin log, newest first (at most
    /// [`MAX_ADMIN_LOG_ENTRIES`]); the answer is `AdminLog`.
    AdminLog,
    /// Version 8: ask the server's engine to review a finished game move by move (the review
    /// board). Each position is searched to `depth` plies or for `time_ms` milliseconds (both
    /// optional, each capped by the server; with neither, the server's defaults). The answer is
    /// `AnalysisProgress` now and then, and `Analysis` at the end, or an `Error`: a game still
    /// being played is never analysed (that would be an engine aid to its players).
    Analyse {
        /// The finished game to review.
        game: GameId,
        /// The deepest search per position, in plies.
        depth: Option<u32>,
        /// The time per position, in milliseconds.
        time_ms: Option<u64>,
    },
}

impl ClientMessage {
    /// The game a message is about, for the messages a game's table handles.
    #[must_use]
    pub fn game(&self) -> Option<GameId> {
        match self {
            ClientMessage::Join { game }
            | ClientMessage::AttachBot { game, .. }
            | ClientMessage::Watch { game }
            | ClientMessage::Leave { game }
            | ClientMessage::Move { game, .. }
            | ClientMessage::Resign { game }
            | ClientMessage::OfferDraw { game }
            | ClientMessage::AnswerDraw { game, .. }
            | ClientMessage::RequestTakeback { game }
            | ClientMessage::AnswerTakeback { game, .. }
            | ClientMessage::Rematch { game }
            | ClientMessage::Chat { game, .. } => Some(*game),
            ClientMessage::Hello { .. }
            | ClientMessage::Ping { .. }
            | ClientMessage::Pong { .. }
            | ClientMessage::ListGames
            | ClientMessage::CreateGame(_)
            | ClientMessage::History { .. }
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Export { .. }
            | ClientMessage::Prove { .. }
            | ClientMessage::WatchLobby { .. }
            | ClientMessage::Admin(_)
            | ClientMessage::AdminLog
            | ClientMessage::Analyse { .. } => None,
        }
    }
}

/// A seat's occupant, as others see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatHolder {
    /// Nobody yet.
    Empty,
    /// A person; `grace_left_ms` is set while the person is away: the milliseconds left to come
    /// back before the game is lost by abandonment, as of when the message was sent.
    Human {
        /// The person's name.
        name: String,
        /// Whether the person is connected now.
        connected: bool,
        /// Milliseconds left to come back while away, `None` while connected.
        grace_left_ms: Option<u64>,
    },
    /// A bot.
    Bot {
        /// The bot's strength.
        level: Level,
    },
}

/// A line of the lobby's game list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: GameId,
    /// The game and its rules.
    pub spec: GameSpec,
    /// Who sits on each side, first side first.
    pub seats: [SeatHolder; 2],
    /// The game's clock.
    pub time_control: TimeControl,
    /// Moves played so far.
    pub moves: u32,
    /// Waiting, playing or over.
    pub status: GameStatus,
    /// How many are watching.
    pub spectators: u32,
}

/// The whole state of a game, sent on joining, watching, reconnecting and after a takeback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameState {
    /// The game's id.
    pub id: GameId,
    /// The game and the rules it is played under.
    pub spec: GameSpec,
    /// Who sits on each side, first side first.
    pub seats: [SeatHolder; 2],
    /// The receiver's own seat, `None` for a spectator.
    pub your_side: Option<Side>,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Whether the result changes ratings.
    pub rated: bool,
    /// The start position's text in the game's own notation.
    pub start_position: String,
    /// Every move since the start.
    #[serde(deserialize_with = "crate::grown_list::deserialize")]
    pub moves: Vec<MoveRecord>,
    /// The current position's text.
    pub position: String,
    /// Whose move it is.
    pub side_to_move: Side,
    /// Both clocks now.
    pub clocks: ClockState,
    /// Playing or over, with the result.
    pub status: GameStatus,
}

/// What the server says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// The answer to a good hello (and, for a person, its proof): the player's id, the secret
    /// token that resumes a guest's seats after a disconnect, and the unfinished games the
    /// player is seated in (a `State` of each follows, and `YourTurn` where it is its move).
    Welcome {
        /// The protocol version the server speaks.
        protocol_version: u32,
        /// The player's id on this server.
        player: PlayerId,
        /// The secret token that takes a guest's seats back after a disconnect.
        resume_token: String,
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// The unfinished games the player is seated in.
        games: Vec<GameId>,
    },
    /// Something went wrong; `fatal` errors are followed by the server closing the connection.
    Error {
        /// What kind of error, for the client to react to.
        kind: ErrorKind,
        /// What went wrong, for people.
        message: String,
        /// Whether the server closes the connection after this.
        fatal: bool,
    },
    /// Keep-alive from the server; the client answers `Pong` with the same nonce.
    Ping {
        /// Echoed back in the `Pong`.
        nonce: u64,
    },
    /// The answer to the client's `Ping`.
    Pong {
        /// The nonce of the client's `Ping`.
        nonce: u64,
    },
    /// The lobby: open seats, games in progress, recently finished games.
    GameList {
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// Every game the lobby lists.
        games: Vec<GameSummary>,
    },
    /// The full state of a game the receiver plays in or watches.
    State(GameState),
    /// It is the receiver's turn in a game; the legal moves come in the game's notation, in a
    /// fixed order a simple client can number.
    YourTurn {
        /// The game it is the receiver's turn in.
        game: GameId,
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// Every legal move, in the game's notation.
        legal_moves: Vec<String>,
        /// Both clocks now.
        clocks: ClockState,
    },
    /// A move was played (sent to both players and every spectator).
    MovePlayed {
        /// The game moved in.
        game: GameId,
        /// The number of moves played so far, this one included.
        ply: u32,
        /// The move and who played it.
        record: MoveRecord,
        /// The position after it, as text.
        position: String,
        /// Whose move it is now.
        side_to_move: Side,
        /// Both clocks after the move.
        clocks: ClockState,
    },
    /// The receiver's proposed move was refused; nothing changed. `kind` says why for a
    /// program, `reason` for a person.
    MoveRejected {
        /// The game the move was for.
        game: GameId,
        /// The move as sent.
        text: String,
        /// Why, for the client to react to.
        kind: ErrorKind,
        /// Why, for people.
        reason: String,
    },
    /// A seat was filled, emptied, or its holder disconnected or came back.
    SeatChanged {
        /// The game whose seat changed.
        game: GameId,
        /// The seat that changed.
        side: Side,
        /// Who sits there now.
        holder: SeatHolder,
    },
    /// The game ended. `clocks` are the clocks as the server stopped them (the flagged side
    /// at zero), so players and spectators all show the same values.
    GameOver {
        /// The game that ended.
        game: GameId,
        /// Who won and how.
        result: GameResult,
        /// Both clocks at the end.
        clocks: ClockState,
    },
    /// A draw was offered.
    DrawOffered {
        /// The game the draw is offered in.
        game: GameId,
        /// The side that offers it.
        by: Side,
    },
    /// A draw offer was declined.
    DrawDeclined {
        /// The game the offer was in.
        game: GameId,
        /// The side that declined it.
        by: Side,
    },
    /// A takeback was asked for.
    TakebackRequested {
        /// The game the takeback is asked in.
        game: GameId,
        /// The side that asks.
        by: Side,
    },
    /// A takeback request was declined.
    TakebackDeclined {
        /// The game the request was in.
        game: GameId,
        /// The side that declined it.
        by: Side,
    },
    /// A rematch was offered; the other player accepts with `Rematch` too.
    RematchOffered {
        /// The finished game to play again.
        game: GameId,
        /// The side that offers the rematch.
        by: Side,
    },
    /// A chat line in a game.
    Chat {
        /// The game the line was said in.
        game: GameId,
        /// Who said it.
        from: String,
        /// The line said.
        text: String,
    },
    /// The server is going down; the connection closes after this.
    ShuttingDown {
        /// What the operator said, for people.
        message: String,
    },
    /// A takeback was done: `plies` moves were taken back at the request of `by`. A `State` with
    /// the restored position and clocks follows.
    TookBack {
        /// The game moves were taken back in.
        game: GameId,
        /// The side that asked for the takeback.
        by: Side,
        /// How many plies were taken back.
        plies: u32,
    },
    /// Both players asked for a rematch of `game`; the new game is `rematch` (colours swapped).
    /// Players receive its `State` next; spectators may `Watch` it.
    RematchStarted {
        /// The finished game.
        game: GameId,
        /// The new game, with the sides swapped.
        rematch: GameId,
    },
    /// The receiver is no longer in the game (after its `Leave`, or the game was closed).
    Left {
        /// The game left.
        game: GameId,
    },
    /// The answer to `History`.
    History {
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// The finished games asked for, newest first.
        games: Vec<HistoryEntry>,
    },
    /// The answer to `Leaderboard`.
    Leaderboard {
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// The ratings asked for, best first.
        entries: Vec<LeaderboardEntry>,
    },
    /// The answer to `Export`: the game as a record (moves in standard notation).
    Record {
        /// The game exported.
        game: GameId,
        /// Its record.
        record: GameRecord,
    },
    /// The answer to a person's `Hello`: sign the proof message for this server id, nonce and
    /// the hello's name with the key the hello named, and answer `Prove`.
    Challenge {
        /// This server's id, part of what is signed.
        server_id: String,
        /// A fresh random nonce, part of what is signed.
        nonce: [u8; 32],
    },
    /// Version 5, after `Welcome` from a node of a cluster: the addresses (`HOST:PORT`) of the
    /// live nodes, this one first; a client whose node goes away may connect to any other.
    Nodes {
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// Every live node's address, this one first.
        addresses: Vec<String>,
    },
    /// Version 7: the answer to an admin's `Admin`: what was done, in words.
    AdminDone {
        /// The action done.
        action: AdminAction,
        /// What it did, for people (`banned ann: 1 game ended, 1 connection closed`).
        message: String,
    },
    /// Version 7: the answer to `AdminLog`: who did what, when, newest first.
    AdminLog {
        #[serde(deserialize_with = "crate::grown_list::deserialize")]
        /// The log's latest entries, newest first.
        entries: Vec<AdminLogEntry>,
    },
    /// Version 7: an admin's announcement, sent to every connected person.
    Announcement {
        /// The admin's name.
        from: String,
        /// What the admin said.
        text: String,
    },
    /// Version 8: how far the review of a game asked for with `Analyse` has come: `done` of
    /// `total` positions searched (sent at most a few times a second).
    AnalysisProgress {
        /// The game being reviewed.
        game: GameId,
        /// Positions searched so far.
        done: u32,
        /// Positions to search in all.
        total: u32,
    },
    /// Version 8: the answer to `Analyse`: the game reviewed, one entry per move.
    Analysis {
        /// The game reviewed.
        game: GameId,
        /// The review.
        review: GameReview,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_move_is_quoted_whole_when_short_and_cut_when_long() {
        assert_eq!(quoted_move("11-15"), "11-15");
        let long = "9".repeat(4096);
        let quoted = quoted_move(&long);
        assert_eq!(quoted.len(), MAX_QUOTED_MOVE + 3);
        assert!(quoted.ends_with("..."));
        // Cut at a character boundary, never inside one.
        let wide = "é".repeat(MAX_QUOTED_MOVE);
        let quoted = quoted_move(&wide);
        assert!(quoted.len() <= MAX_QUOTED_MOVE + 3);
        assert!(quoted.starts_with("éé"));
    }
}
