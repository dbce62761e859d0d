//! The one protocol test client, over real TCP or the WebSocket door ([`crate::link`]), used by
//! every test that speaks the protocol and by the load tools: it says hello (as a guest, a
//! person proving their key, or a guest resuming), sends messages, answers the server's pings
//! by itself, and waits for what the test expects, each wait bounded by
//! [`patience::REPLY`]. A fatal error that the test was not waiting for fails the test at once,
//! naming it.
//!
//! An address is anything that prints as `host:port`: a `SocketAddr`, or a node's address as a
//! string (also through another name for the same host, such as `localhost`).

use crate::link::{Link, Wire};
use crate::patience;
use bytes::BytesMut;
use kingme_shared::ai::Level;
use kingme_shared::identity::{self, ChannelBinding, ProofScope, SigningKey};
use kingme_shared::protocol::{
    AdminAction, AdminLogEntry, ClientMessage, EndReason, ErrorKind, GameId, GameOptions,
    GameResult, GameState, GameStatus, GameSummary, PROTOCOL_VERSION, PlayerId, SeatChoice,
    ServerMessage,
};
use kingme_shared::{GameKind, Side};
use std::fmt::Display;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A connected client.
#[derive(Debug)]
pub struct Client {
    link: Link,
    /// The id from `Welcome` (zero before it).
    pub player: PlayerId,
    /// The resume token from `Welcome` (empty before it).
    pub token: String,
    /// The games `Welcome` named: a person's unfinished games, seated again.
    pub games: Vec<GameId>,
}

/// The hello a client says first: as a guest without `public_key`, as a person with one;
/// `resume` names a guest's earlier session.
#[must_use]
pub fn hello_message(
    name: &str,
    public_key: Option<[u8; 32]>,
    resume: Option<String>,
) -> ClientMessage {
    ClientMessage::Hello {
        protocol_version: PROTOCOL_VERSION,
        name: name.to_owned(),
        guest: public_key.is_none(),
        public_key,
        legacy_secret: None,
        resume,
    }
}

impl Client {
    /// Connects over TLS without saying hello.
    pub async fn connect(addr: impl Display) -> Client {
        Client::over(Link::tcp(addr, Wire::Tls).await)
    }

    /// Connects to a `--plaintext` server without saying hello.
    pub async fn connect_plaintext(addr: impl Display) -> Client {
        Client::over(Link::tcp(addr, Wire::Plaintext).await)
    }

    /// Opens a WebSocket (WSS) to the HTTP door at `addr` without saying hello.
    pub async fn connect_websocket(addr: impl Display) -> Client {
        Client::over(Link::websocket(addr, Wire::Tls).await)
    }

    /// A client over a link opened by the caller.
    #[must_use]
    pub fn over(link: Link) -> Client {
        Client {
            link,
            player: PlayerId(0),
            token: String::new(),
            games: Vec::new(),
        }
    }

    /// What a person's proof on this connection signs.
    #[must_use]
    pub fn binding(&self) -> ChannelBinding {
        self.link.binding()
    }

    /// The connection itself (for tests that send what the protocol does not).
    pub fn link(&mut self) -> &mut Link {
        &mut self.link
    }

    /// Opens a WebSocket to the HTTP door at `addr` and says hello as the guest `name`.
    pub async fn websocket_guest(addr: impl Display, name: &str) -> Client {
        Client::connect_websocket(addr).await.guest(name).await
    }

    /// Connects and says hello as a guest named `name` (guests may share a name, so tests need
    /// not invent unique ones); welcomed.
    pub async fn hello(addr: impl Display, name: &str) -> Client {
        Client::connect(addr).await.guest(name).await
    }

    /// Says hello on this connection as a guest named `name`; welcomed.
    ///
    /// # Panics
    /// When the server answers anything but `Welcome`.
    pub async fn guest(mut self, name: &str) -> Client {
        self.send(hello_message(name, None, None)).await;
        let answer = self.recv().await;
        self.welcomed(answer);
        self
    }

    /// Connects as the person `name` holding `key`: hello, the challenge signed, welcomed
    /// (the games the welcome names are in [`Client::games`]).
    ///
    /// # Panics
    /// When the server answers the proof with anything but `Welcome`.
    pub async fn person(addr: impl Display, name: &str, key: &SigningKey) -> Client {
        let (mut client, answer) = Client::sign_in(addr, name, key).await;
        client.welcomed(answer);
        client
    }

    /// A sign-in as the person `name` holding `key` that the server must refuse as
    /// unauthorized; the refusal's words.
    ///
    /// # Panics
    /// When the server answers otherwise.
    pub async fn refused(addr: impl Display, name: &str, key: &SigningKey) -> String {
        match Client::sign_in(addr, name, key).await.1 {
            ServerMessage::Error {
                kind: ErrorKind::Unauthorized,
                message,
                fatal: true,
            } => message,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    /// Connects as the person `name` holding `key` and answers the challenge; returns the
    /// server's answer to the proof (`Welcome`, or the refusal).
    pub async fn sign_in(
        addr: impl Display,
        name: &str,
        key: &SigningKey,
    ) -> (Client, ServerMessage) {
        Client::connect(addr).await.prove(name, key).await
    }

    /// Says hello on this connection as the person `name` holding `key` and answers the
    /// challenge; returns the server's answer to the proof (`Welcome`, or the refusal).
    pub async fn prove(mut self, name: &str, key: &SigningKey) -> (Client, ServerMessage) {
        let public_key = key.verifying_key().to_bytes();
        self.send(hello_message(name, Some(public_key), None)).await;
        let (server_id, nonce) = match self.recv().await {
            ServerMessage::Challenge { server_id, nonce } => (server_id, nonce),
            other => return (self, other),
        };
        let scope = ProofScope {
            server_id: &server_id,
            nonce: &nonce,
            binding: self.link.binding(),
        };
        let signature = identity::sign_proof(key, scope, name);
        self.send(ClientMessage::Prove { signature }).await;
        let answer = self.recv().await;
        self.note_welcome(&answer);
        (self, answer)
    }

    /// Connects and resumes a guest's session with its token; the server's answer to the
    /// hello.
    pub async fn resume(addr: impl Display, token: &str) -> (Client, ServerMessage) {
        let mut client = Client::connect(addr).await;
        client
            .send(hello_message("ignored", None, Some(token.to_owned())))
            .await;
        let answer = client.recv().await;
        client.note_welcome(&answer);
        (client, answer)
    }

    /// Connects and resumes a guest's session with its token; welcomed.
    ///
    /// # Panics
    /// When the server answers anything but `Welcome`.
    pub async fn resume_guest(addr: impl Display, token: &str) -> Client {
        let (mut client, answer) = Client::resume(addr, token).await;
        client.welcomed(answer);
        client
    }

    /// Keeps what a `Welcome` says; anything else fails the test.
    fn welcomed(&mut self, answer: ServerMessage) {
        assert!(
            matches!(answer, ServerMessage::Welcome { .. }),
            "expected Welcome, got {answer:?}"
        );
        self.note_welcome(&answer);
    }

    /// Keeps the player, token and games of `answer` if it is a `Welcome`.
    pub(crate) fn note_welcome(&mut self, answer: &ServerMessage) {
        if let ServerMessage::Welcome {
            player,
            resume_token,
            games,
            ..
        } = answer
        {
            self.player = *player;
            self.token.clone_from(resume_token);
            self.games.clone_from(games);
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: ClientMessage) {
        self.link.send(message).await;
    }

    /// Writes raw bytes, bypassing the codec (for hostile-input tests).
    ///
    /// # Panics
    /// On a WebSocket link, or when the bytes cannot be written.
    pub async fn send_raw(&mut self, bytes: &[u8]) {
        let Link::Tcp(frames, _) = &mut self.link else {
            panic!("raw bytes go to the TCP door");
        };
        let stream = frames.get_mut();
        stream.write_all(bytes).await.expect("write raw bytes");
        stream.flush().await.expect("flush");
    }

    /// The next message, or `None` when the server closed the connection. Pings are answered
    /// and skipped.
    ///
    /// # Panics
    /// When no message comes in time, or one cannot be read.
    pub async fn next(&mut self) -> Option<ServerMessage> {
        loop {
            let message = tokio::time::timeout(patience::REPLY, self.link.next())
                .await
                .expect("a message from the server in time")?;
            match message.expect("a well-formed message from the server") {
                ServerMessage::Ping { nonce } => self.send(ClientMessage::Pong { nonce }).await,
                message => return Some(message),
            }
        }
    }

    /// The next message; the connection must stay open.
    ///
    /// # Panics
    /// When the server closed the connection, or nothing came in time.
    pub async fn recv(&mut self) -> ServerMessage {
        self.next().await.expect("the server closed the connection")
    }

    /// The next message without answering pings (for the idle-timeout test).
    ///
    /// # Panics
    /// When nothing came in time, or a message cannot be read.
    pub async fn recv_raw(&mut self) -> Option<ServerMessage> {
        tokio::time::timeout(patience::REPLY, self.link.next())
            .await
            .expect("a message from the server in time")
            .map(|message| message.expect("a well-formed message"))
    }

    /// Skips messages until `pick` takes one. A fatal error `pick` does not take fails the
    /// test there. The wait is bounded as a whole, so answered pings cannot keep a test waiting
    /// forever for a message that never comes.
    ///
    /// # Panics
    /// On a fatal error not taken, a closed connection, or when nothing is taken in time.
    pub async fn until<T>(&mut self, mut pick: impl FnMut(ServerMessage) -> Option<T>) -> T {
        let wait = async {
            loop {
                let message = self.recv().await;
                let fatal = matches!(message, ServerMessage::Error { fatal: true, .. })
                    .then(|| format!("{message:?}"));
                if let Some(picked) = pick(message) {
                    return picked;
                }
                if let Some(fatal) = fatal {
                    panic!("a fatal error instead of the awaited message: {fatal}");
                }
            }
        };
        tokio::time::timeout(patience::REPLY, wait)
            .await
            .expect("the awaited message in time")
    }

    /// Reads until the server closes the connection; every message read on the way.
    pub async fn until_closed(&mut self) -> Vec<ServerMessage> {
        let mut seen = Vec::new();
        while let Some(message) = self.next().await {
            seen.push(message);
        }
        seen
    }

    /// Whether the server closed the connection (reading raw bytes, so undecodable leftovers
    /// do not matter).
    pub async fn is_closed(&mut self) -> bool {
        let mut rest = BytesMut::new();
        let Link::Tcp(frames, _) = &mut self.link else {
            return self.next().await.is_none();
        };
        let stream = frames.get_mut();
        loop {
            match tokio::time::timeout(patience::REPLY, stream.read_buf(&mut rest)).await {
                Ok(Ok(0) | Err(_)) => return true,
                Ok(Ok(_)) => {}
                Err(_) => return false,
            }
        }
    }

    /// Reads up to the fatal error and the close; the error's kind and message.
    ///
    /// # Panics
    /// When the connection closes without a fatal error.
    pub async fn fatal_error(&mut self) -> (ErrorKind, String) {
        let seen = self.until_closed().await;
        seen.into_iter()
            .find_map(|message| match message {
                ServerMessage::Error {
                    kind,
                    message,
                    fatal: true,
                } => Some((kind, message)),
                _ => None,
            })
            .expect("a fatal error before the close")
    }

    /// The next `State`, of whatever game.
    pub async fn state(&mut self) -> GameState {
        self.until(|message| match message {
            ServerMessage::State(state) => Some(state),
            _ => None,
        })
        .await
    }

    /// The next `State` of `game`.
    pub async fn state_of(&mut self, game: GameId) -> GameState {
        self.until(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state),
            _ => None,
        })
        .await
    }

    /// Creates a game; its state as the server sent it.
    pub async fn create(&mut self, options: GameOptions) -> GameState {
        self.send(ClientMessage::CreateGame(options)).await;
        self.state().await
    }

    /// The legal moves of the next `YourTurn` in `game`.
    pub async fn your_turn(&mut self, game: GameId) -> Vec<String> {
        self.until(|message| match message {
            ServerMessage::YourTurn {
                game: id,
                legal_moves,
                ..
            } if id == game => Some(legal_moves),
            _ => None,
        })
        .await
    }

    /// The legal moves of the next `YourTurn` in `game`, or its result if it ends first.
    pub async fn turn_or_end(&mut self, game: GameId) -> Result<Vec<String>, GameResult> {
        self.until(|message| match message {
            ServerMessage::YourTurn {
                game: id,
                legal_moves,
                ..
            } if id == game => Some(Ok(legal_moves)),
            ServerMessage::GameOver {
                game: id, result, ..
            } if id == game => Some(Err(result)),
            _ => None,
        })
        .await
    }

    /// Proposes a move, and waits for nothing.
    pub async fn send_move(&mut self, game: GameId, text: &str) {
        self.send(ClientMessage::Move {
            game,
            text: text.to_owned(),
        })
        .await;
    }

    /// Plays a move and waits until the server announces it (then it is acknowledged: stored);
    /// the announcement.
    ///
    /// # Panics
    /// When a move is rejected first.
    pub async fn play(&mut self, game: GameId, text: &str) -> ServerMessage {
        self.send_move(game, text).await;
        self.until(|message| match &message {
            ServerMessage::MovePlayed {
                game: g, record, ..
            } if *g == game && record.text == text => Some(message),
            ServerMessage::MoveRejected { reason, .. } => panic!("{text} rejected: {reason}"),
            _ => None,
        })
        .await
    }

    /// The next `MovePlayed` in `game`: its ply and text.
    pub async fn move_played(&mut self, game: GameId) -> (u32, String) {
        self.until(|message| match message {
            ServerMessage::MovePlayed {
                game: id,
                ply,
                record,
                ..
            } if id == game => Some((ply, record.text)),
            _ => None,
        })
        .await
    }

    /// The text of move `ply` of `game` when it is announced.
    pub async fn move_at(&mut self, game: GameId, ply: u32) -> String {
        self.until(|message| match message {
            ServerMessage::MovePlayed {
                game: g,
                ply: p,
                record,
                ..
            } if g == game && p == ply => Some(record.text),
            _ => None,
        })
        .await
    }

    /// Reads up to the close that a ban ends with, and checks it: a fatal `Unauthorized` error
    /// that says the player is banned and gives `reason`.
    ///
    /// # Panics
    /// When the connection closes otherwise.
    pub async fn expect_banned(&mut self, reason: &str) {
        let (kind, words) = self.fatal_error().await;
        assert_eq!(kind, ErrorKind::Unauthorized, "{words}");
        assert!(
            words.contains("banned") && words.contains(reason),
            "{words}"
        );
    }

    /// Waits for `game` to end because the opponent left, and checks that `winner` won it.
    ///
    /// # Panics
    /// When the game ends otherwise.
    pub async fn expect_won_by_abandonment(&mut self, game: GameId, winner: Side) {
        let result = self.game_over(game).await;
        assert_eq!(
            (result.winner, result.reason),
            (Some(winner), EndReason::Abandoned)
        );
    }

    /// The result of `game`, skipping everything before its `GameOver`.
    pub async fn game_over(&mut self, game: GameId) -> GameResult {
        self.until(|message| match message {
            ServerMessage::GameOver {
                game: id, result, ..
            } if id == game => Some(result),
            _ => None,
        })
        .await
    }

    /// The next admin's announcement, as (admin, text), skipping everything before it.
    pub async fn announcement(&mut self) -> (String, String) {
        self.until(|message| match message {
            ServerMessage::Announcement { from, text } => Some((from, text)),
            _ => None,
        })
        .await
    }

    /// The next error (fatal or not).
    pub async fn error(&mut self) -> (ErrorKind, String) {
        self.until(|message| match message {
            ServerMessage::Error { kind, message, .. } => Some((kind, message)),
            _ => None,
        })
        .await
    }

    /// Sends an admin's `action` and waits for the server's answer: the words of its
    /// `AdminDone`, or the refusal's kind and words.
    pub async fn administer(&mut self, action: AdminAction) -> Result<String, (ErrorKind, String)> {
        self.send(ClientMessage::Admin(action)).await;
        self.until(|message| match message {
            ServerMessage::AdminDone { message, .. } => Some(Ok(message)),
            ServerMessage::Error { kind, message, .. } => Some(Err((kind, message))),
            _ => None,
        })
        .await
    }

    /// Asks for the admin log and waits for it, newest first.
    ///
    /// # Panics
    /// When the server refuses.
    pub async fn admin_log(&mut self) -> Vec<AdminLogEntry> {
        self.send(ClientMessage::AdminLog).await;
        self.until(|message| match message {
            ServerMessage::AdminLog { entries } => Some(entries),
            ServerMessage::Error { message, .. } => panic!("the admin log refused: {message}"),
            _ => None,
        })
        .await
    }

    /// Seats a built-in random bot in the open seat of `game`.
    ///
    /// # Panics
    /// When the server refuses.
    pub async fn attach_bot(&mut self, game: GameId) {
        self.send(ClientMessage::AttachBot {
            game,
            level: Level::Random,
        })
        .await;
        self.until(|message| match message {
            ServerMessage::SeatChanged { game: g, .. } if g == game => Some(()),
            ServerMessage::Error { message, .. } => panic!("{message}"),
            _ => None,
        })
        .await;
    }

    /// The lobby's game list, asked for now.
    pub async fn list_games(&mut self) -> Vec<GameSummary> {
        self.send(ClientMessage::ListGames).await;
        self.until(|message| match message {
            ServerMessage::GameList { games } => Some(games),
            _ => None,
        })
        .await
    }

    /// A game of noughts and crosses between two random bots, created by this client (who
    /// watches it) and played out; returns once its table has closed (nobody plays in it), with
    /// its id and result.
    pub async fn bot_game_played_out(&mut self) -> (GameId, GameResult) {
        let mut options = crate::against_bot(GameKind::TicTacToe, Level::Random);
        options.seat = SeatChoice::Spectate;
        let game = self.create(options).await.id;
        self.attach_bot(game).await;
        let result = self.game_over(game).await;
        self.until(|message| {
            matches!(message, ServerMessage::Left { game: id } if id == game).then_some(())
        })
        .await;
        (game, result)
    }

    /// The game of `kind` the lobby lists as started (playing, or already over: fast bots may
    /// finish a game in a moment), asking again until there is one.
    ///
    /// # Panics
    /// When none is listed in time.
    pub async fn game_started(&mut self, kind: GameKind) -> GameId {
        tokio::time::timeout(patience::REPLY, async {
            loop {
                let games = self.list_games().await;
                if let Some(game) = games
                    .iter()
                    .find(|g| g.spec.kind() == kind && g.status != GameStatus::Open)
                {
                    return game.id;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        })
        .await
        .expect("a started game in the lobby in time")
    }
}
