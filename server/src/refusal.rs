//! Why a request was refused, as one enum. A refusal names what was wrong and what to do, goes
//! back to the one client that asked, and changes nothing; the connection stays open unless the
//! refusal is fatal (a bad handshake, a flood, a broken frame). Each refusal maps, here and only
//! here, to the wire's [`ErrorKind`], so a program can act on the kind and a person reads the
//! message.

use crate::options::OptionsError;
use crate::storage::{IdentityError, StoreError};
use kingme_shared::MoveError;
use kingme_shared::protocol::{
    ANALYSIS_VERSION, ErrorKind, FrameError, GameId, MAX_ANNOUNCEMENT_CHARS, MAX_CHAT_CHARS,
    MAX_MOVE_TEXT, MAX_NAME_CHARS, MAX_REASON_CHARS, PROTOCOL_VERSION, ServerMessage,
};

/// A refused request.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    // ---- a move ----
    #[error("the game has not started: it waits for a player in the open seat")]
    NotStarted,
    #[error("the game is over")]
    Over,
    #[error("it is {to_move}'s turn, not yours; wait for their move")]
    NotYourTurn { to_move: &'static str },
    #[error("a move text of {bytes} bytes is too long (at most {MAX_MOVE_TEXT})")]
    TooLong { bytes: usize },
    #[error("{0}")]
    Illegal(MoveError),
    #[error("your time ran out before the move arrived")]
    Flagged,
    #[error("the server could not store the move ({0}); nothing changed, try again")]
    NotStored(StoreError),
    #[error(
        "game {game} is paused: the server cannot store it right now ({reason}); try again in a \
         moment"
    )]
    Paused { game: GameId, reason: StoreError },
    #[error("the bot found no move")]
    BotFoundNoMove,

    // ---- a seat, an offer, a chat line ----
    #[error("you watch game {0} as a spectator; spectators cannot play")]
    Spectating(GameId),
    #[error("you do not play in game {0}; join an open seat first")]
    NotSeated(GameId),
    #[error("game {0} is not running")]
    NotRunning(GameId),
    #[error("you already sit in game {0}")]
    AlreadySeated(GameId),
    #[error("game {0} has no open seat; watch it instead")]
    NoOpenSeat(GameId),
    #[error("game {0} is full")]
    Full(GameId),
    #[error("game {0} has no open seat for a bot")]
    NoSeatForBot(GameId),
    #[error("you are not in game {0}")]
    NotInGame(GameId),
    #[error("you are not in game {0}; watch it to chat")]
    NotWatching(GameId),
    #[error("there is no {0} to answer")]
    NothingToAnswer(&'static str),
    #[error("you have no move to take back yet")]
    NothingToTakeBack,
    #[error("a rematch can be asked for once the game is over")]
    RematchTooEarly,
    #[error("an empty chat line is not sent")]
    EmptyChat,
    #[error(
        "a chat line of {chars} characters is longer than the limit of {MAX_CHAT_CHARS}; split it"
    )]
    ChatTooLong { chars: usize },
    #[error("{0} is not a game message")]
    NotAGameMessage(&'static str),

    // ---- the lobby and the archive ----
    #[error("there is no game {0}; the lobby lists the games there are")]
    NoSuchGame(GameId),
    #[error("game {0} has closed")]
    Closed(GameId),
    #[error("you are in {0} open or running games already; finish or leave one first")]
    TooManyGames(usize),
    #[error("{0}")]
    InvalidOptions(OptionsError),
    #[error("no game {0} is stored; History lists the finished games")]
    NotInArchive(GameId),
    #[error("the server could not read its database ({0}); try again")]
    StorageRead(StoreError),
    #[error(
        "the server could not store the new game ({0}), so it was not created and nothing of it \
         was started; games in play are kept: try again in a moment"
    )]
    CreationNotStored(StoreError),
    #[error(
        "the server has no game id to give right now (its database is not answering); try again \
         in a moment"
    )]
    NoGameId,

    // ---- the review board (`Analyse`) ----
    #[error(
        "game {0} is not over yet: the engine reviews a game only once it has ended, so that it \
         never helps anyone playing it; ask again when the game is over"
    )]
    StillPlaying(GameId),
    #[error(
        "you are having game {0} analysed already; wait for its review (one analysis at a time \
         on a connection)"
    )]
    AnalysisRunning(GameId),
    #[error(
        "you started {0} analyses within the last minute, this server's limit; try again in a \
         minute"
    )]
    AnalysisBudget(usize),
    #[error(
        "the server is analysing {0} games already, as many as it runs at once; try again in a \
         minute"
    )]
    AnalysesBusy(usize),
    #[error(
        "game {game}'s record does not replay ({reason}), so it cannot be reviewed; export it \
         (Export) to look at it"
    )]
    NotReviewable { game: GameId, reason: String },
    #[error(
        "the review of game {0} broke off on the server; try again, and if it happens again tell \
         the server's operator"
    )]
    AnalysisFailed(GameId),
    #[error(
        "Analyse needs protocol version {ANALYSIS_VERSION} and this connection's hello said \
         version {0}; upgrade the client"
    )]
    AnalyseTooOld(u32),

    // ---- a cluster of nodes ----
    /// Only when the game's members could not be seated again at its new node (they are
    /// handed over there on the same connection, unasked: `crate::game::handover`).
    #[error(
        "game {game} moved to another node, and this node could not seat you there ({reason}); \
         watch it from the lobby in a moment to take your seat back"
    )]
    MovedAway { game: GameId, reason: String },
    /// Only when a game's messages for this node may have been lost (its Redis connection
    /// dropped, or the game's node could not publish them) and the game could not be fetched
    /// again for its members here (they are sent its state again, unasked, when it can:
    /// `crate::cluster::relay`).
    #[error(
        "this node lost touch with game {game} for a while, so moves may be missing from your \
         board, and it could not fetch the game again ({reason}); watch it from the lobby in a \
         moment to see it whole"
    )]
    OutOfTouch { game: GameId, reason: String },
    #[error(
        "this node cannot reach the cluster's Redis ({0}), so it cannot start games right now; \
         games in play go on: try again in a moment"
    )]
    ClusterUnavailable(String),
    #[error(
        "game {0} runs at another node of this service, and this connection was let in to watch \
         only, without an identity that node could know (the database failed at its hello); \
         connect there (Nodes lists them), or connect again in a moment"
    )]
    GuestElsewhere(GameId),

    // ---- moderation ----
    #[error(
        "a guest is never an admin: sign in with your key (without --guest) to use admin commands"
    )]
    GuestNotAdmin,
    #[error(
        "your key (fingerprint {0}) is not one of this server's admins; its host names admins by \
         key fingerprint (admins = [...] in its configuration file, or --admin)"
    )]
    NotAdmin(String),
    #[error("you are muted on this server, so your chat is not sent; an admin may unmute you")]
    Muted,
    #[error(
        "a reason of {chars} characters is longer than the limit of {MAX_REASON_CHARS}; shorten it"
    )]
    ReasonTooLong { chars: usize },
    #[error("an empty announcement is not sent")]
    EmptyAnnouncement,
    #[error(
        "an announcement of {chars} characters is longer than the limit of \
         {MAX_ANNOUNCEMENT_CHARS}; split it"
    )]
    AnnouncementTooLong { chars: usize },
    #[error("game {0} is over already; there is nothing to close")]
    AlreadyOver(GameId),
    #[error(
        "the server could not store the admin action ({0}), so nothing was done; try again in a \
         moment"
    )]
    ActionNotStored(StoreError),

    // ---- the handshake and the connection (fatal: the connection closes) ----
    #[error(
        "the name {name:?} is banned from this server: {}",
        .reason.as_deref().unwrap_or("no reason was given")
    )]
    Banned {
        name: String,
        reason: Option<String>,
    },
    #[error(
        "this server speaks protocol version {PROTOCOL_VERSION} and the client version {0}: \
         upgrade the client (since version 6 a sign-in is bound to its TLS connection, so no \
         server can pass it on to another)"
    )]
    ClientTooOld(u32),
    #[error(
        "this server speaks protocol version {PROTOCOL_VERSION} and the client version {0}, which \
         is newer: use a client of version {PROTOCOL_VERSION}, or ask the host to upgrade the \
         server"
    )]
    ClientTooNew(u32),
    #[error("no Hello within {0} s; say Hello first")]
    NoHello(u64),
    #[error("the first message must be Hello")]
    FirstNotHello,
    #[error(
        "a name must be 1 to {MAX_NAME_CHARS} characters without control characters, got {0} \
         characters"
    )]
    BadName(usize),
    #[error("a guest's hello carries no public key; leave it out, or connect as a person")]
    GuestWithKey,
    #[error(
        "the name {0:?} needs a public key to prove who you are (kingme makes one the first time \
         a name is used); or connect as a guest"
    )]
    NoKey(String),
    #[error(
        "the public key is not a valid Ed25519 key; remove the damaged key file or use --name to \
         choose another name"
    )]
    BadKey,
    #[error("the server has no random numbers for a challenge ({0}); try again later")]
    NoRandomness(String),
    #[error("no Prove within {0} s; sign the challenge and answer Prove")]
    NoProof(u64),
    #[error("the answer to Challenge must be Prove")]
    NotProof,
    #[error("{reason}; the name {name:?} was not admitted")]
    BadProof { name: String, reason: String },
    #[error(transparent)]
    Identity(IdentityError),
    #[error(
        "the server cannot use its database right now ({0}), so it cannot keep games: you are let \
         in to list and watch games, but creating, joining and playing are paused; connect again \
         later to play (if this lasts, tell the server's operator)"
    )]
    WatchOnly(StoreError),
    #[error("unknown or expired resume token; connect without one for a new session")]
    UnknownToken,
    #[error("you said Hello already")]
    HelloAgain,
    #[error("Prove answers a Challenge; none is open")]
    NoChallenge,
    #[error(
        "another kingme signed in as {0:?} and took over its games; this connection is closed \
         (quit the other one to play here)"
    )]
    TakenOver(String),
    #[error("nothing heard for {0} s; closing")]
    Idle(u64),
    #[error("more than {burst} messages in a burst or {per_second} a second; slow down")]
    Flood { burst: u32, per_second: u32 },
    #[error("{0}; closing the connection")]
    BadFrame(String),
}

impl From<MoveError> for Refusal {
    fn from(err: MoveError) -> Refusal {
        Refusal::Illegal(err)
    }
}

impl From<OptionsError> for Refusal {
    fn from(err: OptionsError) -> Refusal {
        Refusal::InvalidOptions(err)
    }
}

impl From<FrameError> for Refusal {
    fn from(err: FrameError) -> Refusal {
        Refusal::BadFrame(err.to_string())
    }
}

impl Refusal {
    /// The kind a client can react to: the one place refusals meet the wire's kinds.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        use Refusal as R;
        match self {
            R::NotStarted | R::NotRunning(_) => ErrorKind::NotStarted,
            R::Over | R::RematchTooEarly | R::AlreadyOver(_) => ErrorKind::GameOver,
            R::NotYourTurn { .. } => ErrorKind::NotYourTurn,
            R::TooLong { .. } => ErrorKind::MoveTooLong,
            R::Illegal(_) | R::BotFoundNoMove => ErrorKind::IllegalMove,
            R::Flagged => ErrorKind::Flagged,
            R::NotStored(_)
            | R::Paused { .. }
            | R::StorageRead(_)
            | R::CreationNotStored(_)
            | R::NoGameId
            | R::ClusterUnavailable(_)
            | R::WatchOnly(_)
            | R::ActionNotStored(_)
            | R::Identity(IdentityError::Store(_)) => ErrorKind::NotStored,
            R::Spectating(_)
            | R::AlreadySeated(_)
            | R::NoOpenSeat(_)
            | R::Full(_)
            | R::NoSeatForBot(_)
            | R::NothingToAnswer(_)
            | R::NothingToTakeBack
            | R::EmptyChat
            | R::ChatTooLong { .. }
            | R::NotAGameMessage(_)
            | R::NoRandomness(_)
            | R::HelloAgain
            | R::NoChallenge
            | R::Muted
            | R::ReasonTooLong { .. }
            | R::EmptyAnnouncement
            | R::AnnouncementTooLong { .. }
            | R::StillPlaying(_)
            | R::NotReviewable { .. }
            | R::AnalysisFailed(_) => ErrorKind::NotAllowed,
            R::NotSeated(_)
            | R::NotInGame(_)
            | R::NotWatching(_)
            | R::NoSuchGame(_)
            | R::Closed(_)
            | R::MovedAway { .. }
            | R::OutOfTouch { .. }
            | R::GuestElsewhere(_)
            | R::NotInArchive(_) => ErrorKind::NoSuchGame,
            R::TooManyGames(_)
            | R::Flood { .. }
            | R::AnalysisRunning(_)
            | R::AnalysisBudget(_)
            | R::AnalysesBusy(_) => ErrorKind::LimitExceeded,
            R::InvalidOptions(_) => ErrorKind::InvalidOptions,
            R::ClientTooOld(_) | R::ClientTooNew(_) | R::AnalyseTooOld(_) => {
                ErrorKind::VersionMismatch
            }
            R::NoHello(_) | R::FirstNotHello | R::NoProof(_) | R::NotProof => {
                ErrorKind::HandshakeRequired
            }
            R::BadName(_)
            | R::NoKey(_)
            | R::BadProof { .. }
            | R::Identity(_)
            | R::UnknownToken
            | R::TakenOver(_)
            | R::GuestNotAdmin
            | R::NotAdmin(_)
            | R::Banned { .. } => ErrorKind::Unauthorized,
            R::GuestWithKey | R::BadKey | R::BadFrame(_) => ErrorKind::Malformed,
            R::Idle(_) => ErrorKind::Timeout,
        }
    }

    /// The error message that tells the client; `fatal` ones precede closing the connection.
    #[must_use]
    pub fn to_message(&self, fatal: bool) -> ServerMessage {
        crate::telemetry::refused(format!("{:?}", self.kind()));
        ServerMessage::Error {
            kind: self.kind(),
            message: self.to_string(),
            fatal,
        }
    }

    /// The answer to a refused move: its text quoted (a short prefix of a long one), the kind
    /// and the reason.
    #[must_use]
    pub fn move_rejected(&self, game: GameId, text: &str) -> ServerMessage {
        crate::telemetry::refused(format!("{:?}", self.kind()));
        ServerMessage::MoveRejected {
            game,
            text: kingme_shared::protocol::quoted_move(text),
            kind: self.kind(),
            reason: self.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_refusals_have_kinds_a_program_can_act_on() {
        assert_eq!(Refusal::NotStarted.kind(), ErrorKind::NotStarted);
        assert_eq!(
            Refusal::NotYourTurn { to_move: "White" }.kind(),
            ErrorKind::NotYourTurn
        );
        assert_eq!(Refusal::Flagged.kind(), ErrorKind::Flagged);
        assert_eq!(
            Refusal::NotStored(StoreError::Stopped).kind(),
            ErrorKind::NotStored
        );
        let rejected = Refusal::TooLong { bytes: 4096 }.move_rejected(GameId(3), &"9".repeat(4096));
        let ServerMessage::MoveRejected {
            game,
            text,
            kind,
            reason,
        } = rejected
        else {
            panic!("not a MoveRejected: {rejected:?}");
        };
        assert_eq!((game, kind), (GameId(3), ErrorKind::MoveTooLong));
        assert!(text.len() < 100, "a long move is quoted short");
        assert!(reason.contains("4096 bytes"), "{reason}");
    }

    #[test]
    fn a_storage_failure_behind_an_identity_is_not_called_unauthorized() {
        let stored = Refusal::Identity(IdentityError::Store(StoreError::Stopped));
        assert_eq!(stored.kind(), ErrorKind::NotStored);
        let other = Refusal::Identity(IdentityError::SecretTooLong);
        assert_eq!(other.kind(), ErrorKind::Unauthorized);
    }
}
