//! The kill loop with many games at once: persons each playing the server's bot, and `kingme
//! bot` processes playing each other (they come back by themselves after every stop, as a
//! player's client does), while the server is stopped again and again (SIGKILL, and every
//! third round SIGTERM) on the same port and database. A spectator lists the games every
//! moment and watches every one in play, noting each move announced; the persons note theirs.
//! After each start, every game anyone heard a move of must be in play again with all those
//! moves, in order, or finished and stored with them: a game that is neither is lost.
//!
//! The `kingme` binary is the one beside the server binary (`cargo test --workspace` builds it,
//! as `.ci/run` runs before this suite; alone: `cargo build -p kingme-client --bin kingme`).

use super::SERVER;
use super::audit::{Heard, exported, heard, legal_move, note, stop};
use kingme_shared::ai::Level;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{ClientMessage, GameId, GameStatus, SeatHolder, ServerMessage};
use kingme_shared::{GameKind, Side};
use kingme_testkit::bot::BotProcess;
use kingme_testkit::ports::free_port;
use kingme_testkit::server_process::{line_containing, listening_address, spawn_logged};
use kingme_testkit::{Client, against_bot};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::process::{Child, Command};
use tokio::time::Instant;

/// How many times the server is stopped.
const ROUNDS: usize = 18;

/// Persons, each in a game against the server's bot.
const PERSONS: usize = 4;

/// `kingme bot` processes, two to a game.
const BOTS: usize = 6;

/// How long the games run between two stops.
const ROUND_TIME: Duration = Duration::from_millis(2000);

/// How often the spectator asks for the list of games.
const LIST_EVERY: Duration = Duration::from_millis(200);

/// The `kingme` binary beside the server binary.
fn kingme_binary() -> PathBuf {
    let path = Path::new(SERVER).with_file_name(format!("kingme{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.is_file(),
        "the kingme client binary is not at {}: build it first (`cargo build -p kingme-client \
         --bin kingme`; `cargo test --workspace`, which .ci/run runs first, builds it too)",
        path.display()
    );
    path
}

/// The server binary on `db`, listening on `port` of 127.0.0.1 (the same each start, so the
/// bots find it again); the process and its address.
async fn start_on(port: u16, db: &Path) -> (Child, String) {
    let (child, mut lines) = spawn_logged(
        Command::new(SERVER)
            .args(["--listen", &format!("127.0.0.1:{port}"), "--db"])
            .arg(db)
            .env("NO_COLOR", "1"),
    );
    let addr = listening_address(&line_containing(&mut lines, "listening addr=").await);
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

/// Every move announced of every game, the persons' and the spectator's notes together, and
/// what became of the games.
#[derive(Default)]
struct Ledger {
    announced: BTreeMap<GameId, Vec<String>>,
    /// Games found finished, stored with every announced move.
    finished: BTreeSet<GameId>,
    /// Games between two `kingme bot` processes.
    between_bots: BTreeSet<GameId>,
    resumed_persons: usize,
    resumed_bots: usize,
}

impl Ledger {
    /// After a start: every game heard of is in play again (`playing`), or finished and stored
    /// with every announced move.
    async fn check_after_start(&mut self, round: usize, cy: &mut Client, playing: &[GameId]) {
        let open: Vec<GameId> = self
            .announced
            .keys()
            .filter(|id| !self.finished.contains(id))
            .copied()
            .collect();
        for id in open {
            if playing.contains(&id) {
                // Its moves are checked against the state the spectator is sent on watching.
                if self.between_bots.contains(&id) {
                    self.resumed_bots += 1;
                } else {
                    self.resumed_persons += 1;
                }
                continue;
            }
            let record = exported(cy, id).await;
            let announced = &self.announced[&id];
            assert!(
                record.result.is_some(),
                "start {round}: game {id} ({} moves announced) is neither in play nor finished: \
                 lost; stored {record:?}",
                announced.len()
            );
            assert!(
                record.moves.starts_with(announced),
                "start {round}: game {id}: announced {announced:?}, stored {:?}",
                record.moves
            );
            self.finished.insert(id);
        }
    }

    /// What the spectator heard: a list of games (it watches those in play it does not watch
    /// yet), a game's state on watching (it holds every move announced before), a move.
    async fn hear(
        &mut self,
        round: usize,
        cy: &mut Client,
        watched: &mut BTreeSet<GameId>,
        message: ServerMessage,
    ) {
        match message {
            ServerMessage::GameList { games } => {
                for summary in games {
                    let bots = summary.seats.iter().all(
                        |seat| matches!(seat, SeatHolder::Human { name, .. } if name.starts_with("bot")),
                    );
                    if summary.status == GameStatus::Playing && watched.insert(summary.id) {
                        if bots {
                            self.between_bots.insert(summary.id);
                        }
                        cy.send(ClientMessage::Watch { game: summary.id }).await;
                    }
                }
            }
            ServerMessage::State(state) if watched.contains(&state.id) => {
                let stored: Vec<String> = state.moves.into_iter().map(|m| m.text).collect();
                let before = self.announced.entry(state.id).or_default();
                assert!(
                    stored.starts_with(before),
                    "round {round}: game {}: announced {before:?}, in play {stored:?}",
                    state.id
                );
                *before = stored;
            }
            ServerMessage::MovePlayed {
                game, ply, record, ..
            } if watched.contains(&game) => {
                note(self.announced.entry(game).or_default(), ply, record.text);
            }
            ServerMessage::Error {
                fatal: true,
                message,
                ..
            } => panic!("round {round}: the spectator was turned away: {message}"),
            _ => {}
        }
    }
}

/// What a person heard of its game in one round: the moves it was sent on coming back, then
/// each move announced, as (ply, move).
struct PersonRound {
    game: GameId,
    heard: Vec<(u32, String)>,
}

/// Person `index` comes back (its game in play resumed, or a new one against the bot) and
/// plays a few moves, each answered by the bot.
async fn person_round(
    addr: String,
    index: usize,
    game: Option<GameId>,
    round: usize,
) -> PersonRound {
    let key = SigningKey::from_bytes(&[u8::try_from(10 + index).unwrap(); 32]);
    let mut me = Client::person(&addr, &format!("person{index}"), &key).await;
    let mine = match game.filter(|id| me.games.contains(id)) {
        Some(id) => me.state_of(id).await,
        None => {
            me.create(against_bot(GameKind::Checkers, Level::Random))
                .await
        }
    };
    let id = mine.id;
    let mut heard_moves: Vec<(u32, String)> =
        (1..).zip(mine.moves.into_iter().map(|m| m.text)).collect();
    let moves = 2 + (round + index) % 4;
    let mut played = 0;
    if mine.side_to_move == Side::First
        && let Some(text) = legal_move(&mine.position, round)
    {
        me.send(ClientMessage::Move { game: id, text }).await;
        played += 1;
    }
    while played < moves {
        match heard(&mut me, id).await {
            Heard::Move {
                ply,
                text,
                position,
                to_move,
            } => {
                heard_moves.push((ply, text));
                if to_move == Side::First
                    && let Some(text) = legal_move(&position, round + played)
                {
                    me.send(ClientMessage::Move { game: id, text }).await;
                    played += 1;
                }
            }
            Heard::Over => break,
        }
    }
    PersonRound {
        game: id,
        heard: heard_moves,
    }
}

/// The games in play, as the lobby lists them.
async fn in_play(cy: &mut Client) -> Vec<GameId> {
    cy.send(ClientMessage::ListGames).await;
    cy.until(|message| match message {
        ServerMessage::GameList { games } => Some(
            games
                .into_iter()
                .filter(|g| g.status == GameStatus::Playing)
                .map(|g| g.id)
                .collect(),
        ),
        _ => None,
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_at_once_stopped_again_and_again_no_announced_move_is_lost() {
    let kingme = kingme_binary();
    let kingme = kingme.to_str().unwrap();
    let began = Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.db");
    let port = free_port();
    let mut ledger = Ledger::default();
    let mut persons: Vec<Option<GameId>> = vec![None; PERSONS];
    let mut bots: Vec<BotProcess> = Vec::new();
    let (mut kills, mut terms) = (0, 0);
    for round in 0..=ROUNDS {
        let (mut server, addr) = start_on(port, &db).await;
        let mut cy = Client::hello(&addr, "spectator").await;
        let playing = in_play(&mut cy).await;
        ledger.check_after_start(round, &mut cy, &playing).await;
        if round == ROUNDS {
            // The last start is only checked.
            break;
        }
        if bots.is_empty() {
            let socket = addr.parse().unwrap();
            let arguments = "--level random --game checkers --games 100000 --move-delay-ms 20";
            bots = (0..BOTS)
                .map(|i| BotProcess::start(kingme, socket, &format!("bot{i}"), arguments))
                .collect();
        }
        let players: Vec<_> = persons
            .iter()
            .enumerate()
            .map(|(index, game)| tokio::spawn(person_round(addr.clone(), index, *game, round)))
            .collect();
        // The spectator watches every game in play until the round's end.
        let deadline = Instant::now() + ROUND_TIME;
        let mut watched = BTreeSet::new();
        let mut next_list = Instant::now();
        loop {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            if now >= next_list {
                cy.send(ClientMessage::ListGames).await;
                next_list = now + LIST_EVERY;
            }
            match tokio::time::timeout_at(next_list.min(deadline), cy.next()).await {
                Err(_) => {}
                Ok(None) => panic!("round {round}: the server closed the spectator's connection"),
                Ok(Some(message)) => ledger.hear(round, &mut cy, &mut watched, message).await,
            }
        }
        for (index, player) in players.into_iter().enumerate() {
            let PersonRound { game, heard } = player.await.unwrap();
            persons[index] = Some(game);
            let announced = ledger.announced.entry(game).or_default();
            for (ply, text) in heard {
                note(announced, ply, text);
            }
        }
        // Stopped with moves of the bots' games, and perhaps a person's, being stored.
        let graceful = round % 3 == 2;
        stop(&mut server, graceful).await;
        if graceful {
            terms += 1;
        } else {
            kills += 1;
        }
    }
    for (index, bot) in bots.iter_mut().enumerate() {
        assert!(bot.running(), "bot{index} ended (see its lines above)");
    }
    let audited: usize = ledger.announced.values().map(Vec::len).sum();
    eprintln!(
        "fault suite, many games: {kills} SIGKILLs and {terms} SIGTERMs with {PERSONS} persons \
         against the server's bot and {BOTS} kingme bots, {audited} announced moves audited over \
         {} games ({} between bots, {} finished), games resumed: {} persons', {} bots', lost = 0, \
         in {:.1} s",
        ledger.announced.len(),
        ledger.between_bots.len(),
        ledger.finished.len(),
        ledger.resumed_persons,
        ledger.resumed_bots,
        began.elapsed().as_secs_f64()
    );
    assert!(ledger.resumed_persons > 0, "no person's game was resumed");
    assert!(ledger.resumed_bots > 0, "no game between bots was resumed");
    assert!(audited > ROUNDS * PERSONS);
}
