//! Real `kingme-server` nodes as one cluster: a PostgreSQL and a Redis each test starts itself
//! from the system's packages (`kingme_testkit::temp_postgres`, `kingme_testkit::temp_redis`),
//! and several node processes on them. A node killed outright (SIGKILL) mid-game: its games go on at another
//! node with every acknowledged move, against a bot and between two persons who reconnect there;
//! a game made at one node listed, joined and played from a second and watched from a third;
//! a node frozen until its lease lapsed cannot commit a move after it wakes (and, Redis away,
//! says it cannot seat its player at the game's new node); Redis restarted empty during play;
//! PostgreSQL briefly unreachable; a move published to Redis once however many watch at other
//! nodes (an eavesdropper on `kingme:*` counts); a guest playing and watching a game another
//! node runs, and a guest whose node died coming back with its token at a node that never saw
//! it; a player of a game going to another node and playing on; a node that wakes to
//! find its game taken over seating its players again at the game's new node, on the same
//! connections; a player at another node sent the game's state unasked after its messages were
//! lost (subscriptions cut, the game's node held from publishing, Redis away); a game created
//! while Redis is away refused, with nothing of it announced or stored; a join whose answer was
//! lost with Redis answered again once Redis is back; a ban and a mute made at one node holding
//! at another, and an announcement, a ban's disconnect and forfeit and a `close` made at one node
//! carried out at another; a node's metrics door counting its leases, the games it took over and its failed
//! Redis requests, and its `/readyz` failing while it is not joined to the cluster.
//!
//! Behind the `cluster-tests` feature: `cargo test -p kingme-server --features cluster-tests
//! --test cluster`. Without PostgreSQL and redis-server installed these tests fail, saying what
//! to install; they never pass quietly.

// Test code throughout (`cfg(test)` holds in every test target): clippy's
// `allow-unwrap-in-tests` (clippy.toml) then covers the helpers as well as the tests.
#![cfg(test)]

use kingme_server::test_support::{PgStore, Store};
use kingme_shared::Side;
use kingme_shared::ai::Level;
use kingme_shared::identity::SigningKey;
use kingme_shared::protocol::{
    AdminAction, ClientMessage, ErrorKind, GameId, GameStatus, Opponent, SeatHolder, ServerMessage,
    TimeControl,
};
use kingme_testkit::client::hello_message;
use kingme_testkit::cluster_node::Node;
use kingme_testkit::http::get_over;
use kingme_testkit::link::Wire;
use kingme_testkit::ports::free_port;
use kingme_testkit::prometheus;
use kingme_testkit::temp_postgres::TempPostgres;
use kingme_testkit::temp_redis::TempRedis;
use kingme_testkit::{Client, free_square, patience, tictactoe_options};
use tokio::process::Command;

/// How a node is started: this package's server binary.
fn node_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kingme-server"))
}

/// PostgreSQL, a fresh database on it, and Redis.
fn services() -> (TempPostgres, String, TempRedis) {
    let mut postgres = TempPostgres::start();
    let db = postgres.create_database();
    (postgres, db, TempRedis::start())
}

fn key(seed: u8) -> SigningKey {
    SigningKey::from_bytes(&[seed; 32])
}

/// Creates a noughts-and-crosses game as its first player; returns its id.
async fn create(client: &mut Client, opponent: Opponent) -> GameId {
    client
        .send(ClientMessage::CreateGame(tictactoe_options(
            opponent,
            TimeControl::Unlimited,
            true,
        )))
        .await;
    client
        .until(|message| match message {
            ServerMessage::State(state) => Some(state.id),
            _ => None,
        })
        .await
}

/// ada and bob signed in at `addr`, ada's new game with bob in its open seat.
async fn ada_against_bob(addr: &str) -> (Client, Client, GameId) {
    let mut ada = Client::person(addr, "ada", &key(1)).await;
    let mut bob = Client::person(addr, "bob", &key(2)).await;
    let game = create(&mut ada, Opponent::OpenSeat).await;
    bob.send(ClientMessage::Join { game }).await;
    bob.state_of(game).await;
    (ada, bob, game)
}

/// ada signed in at node `home`, bob at node `away`, and ada's new game with bob in its open
/// seat: a game run at `home` with a player elsewhere.
async fn ada_home_bob_away(home: &str, away: &str) -> (Client, Client, GameId) {
    let mut ada = Client::person(home, "ada", &key(1)).await;
    let game = create(&mut ada, Opponent::OpenSeat).await;
    let mut bob = Client::person(away, "bob", &key(2)).await;
    bob.send(ClientMessage::Join { game }).await;
    bob.state_of(game).await;
    (ada, bob, game)
}

/// The moves of a game as stored (through any node's archive).
async fn stored_moves(client: &mut Client, game: GameId) -> Vec<String> {
    client.send(ClientMessage::Export { game }).await;
    client
        .until(|message| match message {
            ServerMessage::Record { game: g, record } if g == game => Some(record.moves),
            _ => None,
        })
        .await
}

/// The next move of `game` announced, or `None` once it is over.
async fn next_move(client: &mut Client, game: GameId) -> Option<String> {
    client
        .until(|message| match message {
            ServerMessage::MovePlayed {
                game: g, record, ..
            } if g == game => Some(Some(record.text)),
            ServerMessage::GameOver { game: g, .. } if g == game => Some(None),
            ServerMessage::MoveRejected { reason, .. } => panic!("a move rejected: {reason}"),
            _ => None,
        })
        .await
}

/// Plays free squares against the bot until the game ends.
async fn play_out_against_the_bot(client: &mut Client, game: GameId, mut moves: Vec<String>) {
    loop {
        let text = free_square(&moves);
        client
            .send(ClientMessage::Move {
                game,
                text: text.clone(),
            })
            .await;
        // Ours, then the bot's, each announced unless the game ended.
        for _ in 0..2 {
            match next_move(client, game).await {
                Some(played) => moves.push(played),
                None => return,
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_nodes_games_finish_at_another_with_every_acknowledged_move() {
    let (_postgres, db, redis) = services();
    let mut doomed = Node::start(node_command(), &db, &redis.url()).await;
    let mut survivor = Node::start(node_command(), &db, &redis.url()).await;

    // A person against a bot, and two persons, all on the node that will die.
    let mut ada = Client::person(&doomed.addr, "ada", &key(1)).await;
    let mut bob = Client::person(&doomed.addr, "bob", &key(2)).await;
    let bot_game = create(&mut ada, Opponent::Bot(Level::Random)).await;
    let mut bot_moves = vec!["5".to_owned()];
    ada.play(bot_game, "5").await;
    bot_moves.push(ada.move_at(bot_game, 2).await);
    let second = free_square(&bot_moves);
    ada.play(bot_game, &second).await;
    bot_moves.push(second);
    bot_moves.push(ada.move_at(bot_game, 4).await);

    let people = create(&mut ada, Opponent::OpenSeat).await;
    bob.send(ClientMessage::Join { game: people }).await;
    bob.state_of(people).await;
    ada.play(people, "5").await;
    bob.play(people, "1").await;
    ada.play(people, "3").await;

    doomed.kill().await;
    survivor.wait_for("took over a game").await;
    survivor.wait_for("took over a game").await;

    // The players come back at the surviving node, seated again by their keys.
    let mut ada = Client::person(&survivor.addr, "ada", &key(1)).await;
    let games = ada.games.clone();
    assert!(
        games.contains(&bot_game) && games.contains(&people),
        "{games:?}"
    );
    let mut bob = Client::person(&survivor.addr, "bob", &key(2)).await;
    let games = bob.games.clone();
    assert_eq!(games, [people]);
    let state = bob.state_of(people).await;
    let texts: Vec<&str> = state.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["5", "1", "3"], "every acknowledged move is kept");
    assert_eq!(state.status, GameStatus::Playing);
    bob.play(people, "2").await;
    ada.play(people, "7").await;
    assert_eq!(
        stored_moves(&mut bob, people).await,
        ["5", "1", "3", "2", "7"]
    );

    assert_eq!(stored_moves(&mut ada, bot_game).await, bot_moves);
    play_out_against_the_bot(&mut ada, bot_game, bot_moves.clone()).await;
    let finished = stored_moves(&mut ada, bot_game).await;
    assert_eq!(finished[..4], bot_moves[..], "{finished:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_lost_its_lease_cannot_commit() {
    let (_postgres, db, mut redis) = services();
    let frozen = Node::start(node_command(), &db, &redis.url()).await;
    let mut other = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_against_bob(&frozen.addr).await;
    ada.play(game, "5").await;
    bob.play(game, "1").await;

    // Frozen (a long pause) until its lease lapsed and the other node took over; Redis then goes
    // away, so the woken node cannot learn from it that its lease is gone: only the database's
    // fencing token stands between its table and the game.
    frozen.signal("STOP");
    other.wait_for("took over a game").await;
    redis.stop();
    frozen.signal("CONT");
    ada.send(ClientMessage::Move {
        game,
        text: "3".into(),
    })
    .await;
    let refused = ada
        .until(|message| match message {
            ServerMessage::MovePlayed { record, .. } if record.text == "3" => {
                panic!("the woken node announced a move under a lost lease")
            }
            ServerMessage::MoveRejected { kind, reason, .. } => Some((kind, reason)),
            _ => None,
        })
        .await;
    assert_eq!(refused.0, ErrorKind::NotStored, "{}", refused.1);
    assert!(refused.1.contains("superseded"), "{}", refused.1);
    // Its table stopped; with Redis away it cannot seat ada at the game's new node, and says so
    // with what to do (it promises no reconnection that will not come).
    let (kind, notice) = ada
        .until(|message| match message {
            // A fatal one fails the test in `until`.
            ServerMessage::Error {
                kind,
                message,
                fatal: false,
            } => Some((kind, message)),
            _ => None,
        })
        .await;
    assert_eq!(kind, ErrorKind::NoSuchGame, "{notice}");
    assert!(
        notice.contains("could not seat you there") && notice.contains("Redis does not answer"),
        "{notice}"
    );
    redis.start_again();

    let mut watcher = Client::person(&other.addr, "cy", &key(3)).await;
    assert_eq!(stored_moves(&mut watcher, game).await, ["5", "1"]);
    // At the node that runs it now, the move is played.
    let mut ada = Client::person(&other.addr, "ada", &key(1)).await;
    ada.state_of(game).await;
    ada.play(game, "3").await;
    assert_eq!(stored_moves(&mut watcher, game).await, ["5", "1", "3"]);
}

/// Plays `text` until the node stores it: a `NotStored` refusal (the database is away) is
/// tried again when the game says it goes on.
async fn play_until_stored(client: &mut Client, game: GameId, text: &str) {
    loop {
        client
            .send(ClientMessage::Move {
                game,
                text: text.to_owned(),
            })
            .await;
        let stored = client
            .until(|message| match message {
                ServerMessage::MovePlayed {
                    game: g, record, ..
                } if g == game && record.text == text => Some(true),
                ServerMessage::MoveRejected {
                    kind: ErrorKind::NotStored,
                    ..
                } => Some(false),
                ServerMessage::MoveRejected { reason, .. } => panic!("{text} rejected: {reason}"),
                _ => None,
            })
            .await;
        if stored {
            return;
        }
        // Asked again only once the node says so (a paused game tells its members when it goes
        // on) or after the next message: no timer in the test.
        client.send(ClientMessage::Ping { nonce: 1 }).await;
        client
            .until(|message| matches!(message, ServerMessage::Pong { .. }).then_some(()))
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_go_on_through_a_redis_restart_and_fail_over_after_it() {
    let (_postgres, db, mut redis) = services();
    let mut first = Node::start(node_command(), &db, &redis.url()).await;
    let mut second = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_against_bob(&first.addr).await;
    ada.play(game, "5").await;

    // Redis comes back empty: play goes on, and the owner puts its lease back.
    redis.restart();
    bob.play(game, "1").await;
    first.wait_for("Redis answers again").await;
    ada.play(game, "3").await;

    // So the game is still looked after: its node dies and the other takes it over.
    first.kill().await;
    second.wait_for("took over a game").await;
    let mut bob = Client::person(&second.addr, "bob", &key(2)).await;
    let games = bob.games.clone();
    assert_eq!(games, [game]);
    let state = bob.state_of(game).await;
    let texts: Vec<&str> = state.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["5", "1", "3"]);
    bob.play(game, "7").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_waits_out_a_postgres_outage_and_goes_on() {
    let (postgres, db, redis) = services();
    let node = Node::start(node_command(), &db, &redis.url()).await;
    let _other = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_against_bob(&node.addr).await;
    ada.play(game, "5").await;

    // PostgreSQL stops: a move is refused with the reason (nothing announced), the lobby still
    // answers; PostgreSQL starts again and the game goes on at the same node.
    postgres.stop();
    bob.send(ClientMessage::Move {
        game,
        text: "1".into(),
    })
    .await;
    bob.until(|message| match message {
        ServerMessage::MoveRejected {
            kind: ErrorKind::NotStored,
            ..
        } => Some(()),
        ServerMessage::MovePlayed { record, .. } if record.text == "1" => {
            panic!("a move announced without a database")
        }
        _ => None,
    })
    .await;
    ada.send(ClientMessage::ListGames).await;
    let listed = ada
        .until(|message| match message {
            ServerMessage::GameList { games } => Some(games),
            _ => None,
        })
        .await;
    assert!(listed.iter().any(|summary| summary.id == game));
    postgres.start_again();
    play_until_stored(&mut bob, game, "1").await;
    play_until_stored(&mut ada, game, "3").await;
    assert_eq!(stored_moves(&mut ada, game).await, ["5", "1", "3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_made_at_one_node_is_joined_played_and_watched_from_others() {
    let (_postgres, db, redis) = services();
    let home = Node::start(node_command(), &db, &redis.url()).await;
    let away = Node::start(node_command(), &db, &redis.url()).await;
    let stands = Node::start(node_command(), &db, &redis.url()).await;
    let mut ada = Client::person(&home.addr, "ada", &key(1)).await;
    let mut bob = Client::person(&away.addr, "bob", &key(2)).await;
    let mut cy = Client::person(&stands.addr, "cy", &key(3)).await;
    let game = create(&mut ada, Opponent::OpenSeat).await;

    // The other node's lobby lists it (pushed as the lists change).
    bob.send(ClientMessage::WatchLobby { on: true }).await;
    bob.until(|message| match message {
        ServerMessage::GameList { games } => games
            .iter()
            .any(|summary| summary.id == game && summary.status == GameStatus::Open)
            .then_some(()),
        _ => None,
    })
    .await;
    bob.send(ClientMessage::Join { game }).await;
    let state = bob.state_of(game).await;
    assert_eq!(state.your_side, Some(kingme_shared::Side::Second));
    cy.send(ClientMessage::Watch { game }).await;
    let watched = cy.state_of(game).await;
    assert_eq!(watched.your_side, None);

    // Moves from both nodes; the spectator at the third sees every one, in order.
    ada.play(game, "5").await;
    bob.play(game, "1").await;
    ada.play(game, "3").await;
    bob.play(game, "7").await;
    ada.play(game, "4").await;
    bob.play(game, "6").await;
    ada.play(game, "9").await;
    bob.play(game, "8").await;
    let mut seen = Vec::new();
    for ply in 1..=8 {
        seen.push(cy.move_at(game, ply).await);
    }
    assert_eq!(seen, ["5", "1", "3", "7", "4", "6", "9", "8"]);
    // An illegal move from afar is refused by the game's node with the rules' reason.
    bob.send(ClientMessage::Move {
        game,
        text: "5".into(),
    })
    .await;
    bob.until(|message| match message {
        ServerMessage::MoveRejected { kind, .. } => Some(kind),
        _ => None,
    })
    .await;
    ada.play(game, "2").await;
    let over = cy
        .until(|message| match message {
            ServerMessage::GameOver {
                game: g, result, ..
            } if g == game => Some(result),
            _ => None,
        })
        .await;
    assert_eq!(over.winner, None, "a full board without a line is a draw");
    assert_eq!(
        stored_moves(&mut cy, game).await,
        ["5", "1", "3", "7", "4", "6", "9", "8", "2"]
    );

    // A client hears of the live nodes after Welcome, its own node first; a version-5 client
    // (whose proofs bind no connection) is refused and told to upgrade.
    let mut newer = Client::connect(&away.addr).await;
    newer.send(hello_message("dee", None, None)).await;
    let mut nodes = newer
        .until(|message| match message {
            ServerMessage::Nodes { addresses } => Some(addresses),
            _ => None,
        })
        .await;
    assert_eq!(nodes.first(), Some(&away.addr));
    nodes.sort();
    let mut all = vec![home.addr.clone(), away.addr.clone(), stands.addr.clone()];
    all.sort();
    assert_eq!(nodes, all);
    let mut older = Client::connect(&away.addr).await;
    older
        .send(ClientMessage::Hello {
            protocol_version: 5,
            name: "eve".into(),
            public_key: None,
            legacy_secret: None,
            resume: None,
            guest: true,
        })
        .await;
    let ServerMessage::Error {
        kind: ErrorKind::VersionMismatch,
        message,
        fatal: true,
    } = older.recv().await
    else {
        panic!("a version-5 client is refused");
    };
    assert!(message.contains("upgrade the client"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_at_another_node_leaves_and_comes_back() {
    let (_postgres, db, redis) = services();
    let home = Node::start(node_command(), &db, &redis.url()).await;
    let away = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, bob, game) = ada_home_bob_away(&home.addr, &away.addr).await;
    ada.play(game, "5").await;

    // bob's connection to his node drops: the game's node starts his grace period.
    drop(bob);
    let away_seat = |connected: bool| {
        move |message: ServerMessage| match message {
            ServerMessage::SeatChanged {
                game: g,
                side: kingme_shared::Side::Second,
                holder: SeatHolder::Human { connected: c, .. },
            } if g == game && c == connected => Some(()),
            _ => None,
        }
    };
    ada.until(away_seat(false)).await;

    // He comes back to his node: the game sends him its state, and he plays on.
    let mut bob = Client::person(&away.addr, "bob", &key(2)).await;
    let state = bob.state_of(game).await;
    assert_eq!(state.moves.len(), 1);
    ada.until(away_seat(true)).await;
    bob.play(game, "1").await;
    assert_eq!(ada.move_at(game, 2).await, "1");
}

/// The moves of the next `State` of `game` with `count` moves that `client` is sent, unasked
/// (one sent again for an earlier loss, with fewer, is passed over).
async fn sent_state_again(client: &mut Client, game: GameId, count: usize) -> Vec<String> {
    client
        .until(|message| match message {
            ServerMessage::State(state) if state.id == game && state.moves.len() == count => {
                Some(state.moves.into_iter().map(|record| record.text).collect())
            }
            _ => None,
        })
        .await
}

/// Move `ply` of `game` as `client` learns of it: announced, or in a `State` (if the game moved
/// to another node meanwhile, its player there is seated again and sent the game's state).
async fn seen_move(client: &mut Client, game: GameId, ply: u32) -> String {
    let at = usize::try_from(ply).unwrap() - 1;
    client
        .until(|message| match message {
            ServerMessage::MovePlayed {
                game: g,
                ply: p,
                record,
                ..
            } if g == game && p == ply => Some(record.text),
            ServerMessage::State(state) if state.id == game && state.moves.len() > at => {
                Some(state.moves[at].text.clone())
            }
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_at_another_node_catches_up_unasked_after_messages_were_lost() {
    let (_postgres, db, mut redis) = services();
    let mut home = Node::start(node_command(), &db, &redis.url()).await;
    let mut away = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_home_bob_away(&home.addr, &away.addr).await;
    ada.play(game, "5").await;
    bob.play(game, "1").await;
    let mut connection = redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap();

    // Only the subscriptions are cut (Redis and the game's node stay up): whatever was
    // published meanwhile is lost to bob's node, which sends him the game's state again, unasked,
    // once it listens again.
    let _: i64 = redis::cmd("CLIENT")
        .arg("KILL")
        .arg("TYPE")
        .arg("pubsub")
        .query_async(&mut connection)
        .await
        .unwrap();
    away.wait_for("lost the subscription").await;
    assert_eq!(sent_state_again(&mut bob, game, 2).await, ["5", "1"]);

    // Only the game's node cannot publish (Redis holds every write for two seconds, longer
    // than a request may take), while bob's node listens all along: once it can publish, the
    // game's node says the game's messages were lost, and bob is sent the state unasked.
    let _: () = redis::cmd("CLIENT")
        .arg("PAUSE")
        .arg(2000)
        .arg("WRITE")
        .query_async(&mut connection)
        .await
        .unwrap();
    ada.play(game, "3").await;
    home.wait_for("told those nodes to ask for the games again")
        .await;
    assert_eq!(sent_state_again(&mut bob, game, 3).await, ["5", "1", "3"]);
    bob.play(game, "7").await;
    assert_eq!(ada.move_at(game, 4).await, "7");

    // Redis goes away: ada plays on at her node, whose message for bob's node cannot go out
    // (nor is bob's node listening). Redis comes back (empty): bob is sent the game's state
    // with the move he missed without asking, and plays on (should bob's node take the game
    // over meanwhile, ada is seated there again and sent its state).
    redis.stop();
    ada.play(game, "9").await;
    redis.start_again();
    assert_eq!(
        sent_state_again(&mut bob, game, 5).await,
        ["5", "1", "3", "7", "9"]
    );
    bob.play(game, "2").await;
    assert_eq!(seen_move(&mut ada, game, 6).await, "2");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_cannot_reach_its_redis_exits_with_an_error() {
    let mut postgres = TempPostgres::start();
    let db = postgres.create_database();
    // A port nothing listens on.
    let redis = format!("redis://127.0.0.1:{}", free_port());
    let addr = format!("127.0.0.1:{}", free_port());
    let output = tokio::time::timeout(
        patience::SERVER_LOG,
        node_command()
            .args(["--listen", &addr, "--db", &db, "--cluster", &redis])
            .args(["--advertise", &addr])
            .env("NO_COLOR", "1")
            .kill_on_drop(true)
            .output(),
    )
    .await
    .expect("the node gave up in time")
    .unwrap();
    assert!(!output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("cannot join the cluster"), "{said}");
}

/// The next `count` moves of `game` announced to `client`, checked to come one ply after the
/// other from `first`.
async fn moves_seen(client: &mut Client, game: GameId, first: u32, count: u32) -> Vec<String> {
    let mut seen = Vec::new();
    for ply in first..first + count {
        let (at, text) = client
            .until(|message| match message {
                ServerMessage::MovePlayed {
                    game: g,
                    ply,
                    record,
                    ..
                } if g == game => Some((ply, record.text)),
                _ => None,
            })
            .await;
        assert_eq!(
            at, ply,
            "moves out of order or missed: {seen:?} then {text}"
        );
        seen.push(text);
    }
    seen
}

/// Every message published on the cluster's Redis (`kingme:*`), as (channel, payload), heard
/// until the marker `end` is published on `kingme:test:end`.
struct Eavesdropper {
    messages: futures::stream::BoxStream<'static, redis::Msg>,
    redis: redis::Client,
}

impl Eavesdropper {
    async fn start(url: &str) -> Eavesdropper {
        let redis = redis::Client::open(url).unwrap();
        let mut pubsub = redis.get_async_pubsub().await.unwrap();
        pubsub.psubscribe("kingme:*").await.unwrap();
        Eavesdropper {
            messages: Box::pin(pubsub.into_on_message()),
            redis,
        }
    }

    /// Everything published since the start: a marker is published now, and what came before
    /// it (Redis keeps a subscriber's messages in publishing order) is returned.
    async fn heard(mut self) -> Vec<(String, String)> {
        use futures::StreamExt;
        let mut connection = self.redis.get_multiplexed_async_connection().await.unwrap();
        let _: i64 = redis::cmd("PUBLISH")
            .arg("kingme:test:end")
            .arg("end")
            .query_async(&mut connection)
            .await
            .unwrap();
        let mut heard = Vec::new();
        tokio::time::timeout(patience::REPLY, async {
            while let Some(message) = self.messages.next().await {
                let channel = message.get_channel_name().to_owned();
                if channel == "kingme:test:end" {
                    return;
                }
                heard.push((channel, message.get_payload::<String>().unwrap()));
            }
            panic!("Redis closed the subscription");
        })
        .await
        .unwrap();
        heard
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_goes_once_to_redis_however_many_watch_it_elsewhere() {
    let (_postgres, db, redis) = services();
    let home = Node::start(node_command(), &db, &redis.url()).await;
    let away = Node::start(node_command(), &db, &redis.url()).await;
    let stands = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_home_bob_away(&home.addr, &away.addr).await;

    // Four spectators at the third node and one beside bob.
    let mut spectators = Vec::new();
    for (seed, name, node) in [
        (3, "cy", &stands),
        (4, "dee", &stands),
        (5, "eve", &stands),
        (6, "fay", &stands),
        (7, "gil", &away),
    ] {
        let mut spectator = Client::person(&node.addr, name, &key(seed)).await;
        spectator.send(ClientMessage::Watch { game }).await;
        assert_eq!(spectator.state_of(game).await.your_side, None);
        spectators.push(spectator);
    }

    let eavesdropper = Eavesdropper::start(&redis.url()).await;
    let moves = ["5", "1", "3", "7"];
    for (ply, text) in moves.iter().enumerate() {
        let player = if ply % 2 == 0 { &mut ada } else { &mut bob };
        player.play(game, text).await;
    }
    for spectator in &mut spectators {
        assert_eq!(moves_seen(spectator, game, 1, 4).await, moves);
    }
    assert_eq!(ada.move_at(game, 4).await, "7");

    // Each move went out to Redis once, on the game's channel: not once per spectator, nor
    // once per player elsewhere.
    let heard = eavesdropper.heard().await;
    let announcements: Vec<&(String, String)> = heard
        .iter()
        .filter(|(_, payload)| payload.contains("MovePlayed"))
        .collect();
    assert_eq!(announcements.len(), moves.len(), "{announcements:#?}");
    let channel = format!("kingme:game:{}", game.0);
    assert!(
        announcements.iter().all(|(on, _)| *on == channel),
        "{announcements:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_plays_and_watches_a_game_another_node_runs() {
    let (_postgres, db, redis) = services();
    let home = Node::start(node_command(), &db, &redis.url()).await;
    let away = Node::start(node_command(), &db, &redis.url()).await;
    let mut ada = Client::person(&home.addr, "ada", &key(1)).await;
    let game = create(&mut ada, Opponent::OpenSeat).await;

    // A guest at the other node joins and plays; another guest there watches.
    let mut gus = Client::hello(&away.addr, "gus").await;
    let token = gus.token.clone();
    gus.send(ClientMessage::Join { game }).await;
    let state = gus.state_of(game).await;
    assert_eq!(state.your_side, Some(kingme_shared::Side::Second));
    assert!(
        matches!(&state.seats[1], SeatHolder::Human { name, .. } if name == "gus"),
        "{:?}",
        state.seats
    );
    let mut kit = Client::hello(&away.addr, "kit").await;
    kit.send(ClientMessage::Watch { game }).await;
    kit.state_of(game).await;
    ada.play(game, "5").await;
    gus.play(game, "1").await;
    ada.play(game, "3").await;
    assert_eq!(moves_seen(&mut kit, game, 1, 3).await, ["5", "1", "3"]);

    // The guest drops and comes back to its node with its token: the game sends it its state,
    // and it plays on.
    drop(gus);
    let mut gus = Client::resume_guest(&away.addr, &token).await;
    let state = gus.state_of(game).await;
    assert_eq!(state.moves.len(), 3);
    assert_eq!(state.your_side, Some(kingme_shared::Side::Second));
    gus.play(game, "7").await;
    assert_eq!(ada.move_at(game, 4).await, "7");
    assert_eq!(moves_seen(&mut kit, game, 4, 1).await, ["7"]);

    // Another guest of the same name elsewhere is someone else: it is not seated.
    let mut other = Client::hello(&home.addr, "gus").await;
    other
        .send(ClientMessage::Move {
            game,
            text: "9".into(),
        })
        .await;
    other
        .until(|message| match message {
            ServerMessage::MoveRejected { kind, .. } => Some(kind),
            _ => None,
        })
        .await;
    assert_eq!(stored_moves(&mut ada, game).await, ["5", "1", "3", "7"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_whose_node_died_is_itself_at_a_node_that_never_saw_it() {
    let (_postgres, db, redis) = services();
    let mut doomed = Node::start(node_command(), &db, &redis.url()).await;
    let mut one = Node::start(node_command(), &db, &redis.url()).await;
    let mut two = Node::start(node_command(), &db, &redis.url()).await;
    let (token, game, moves) = guest_against_the_bot(&doomed.addr).await;

    // Whichever node takes the game over, the guest comes back at the other one: a node that
    // neither issued its token nor runs its game.
    doomed.kill().await;
    let one_took_it = tokio::select! {
        _ = one.wait_for("took over a game") => true,
        _ = two.wait_for("took over a game") => false,
    };
    let third = if one_took_it { &two } else { &one };
    let mut gus = Client::resume_guest(&third.addr, &token).await;
    assert_eq!(gus.token, token, "the guest keeps its token");

    guest_plays_on(&mut gus, game, moves).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_back_before_its_game_is_taken_over_is_seated_by_the_node_taking_it() {
    let (_postgres, db, redis) = services();
    let mut doomed = Node::start(node_command(), &db, &redis.url()).await;
    let mut survivor = Node::start(node_command(), &db, &redis.url()).await;
    let (token, game, moves) = guest_against_the_bot(&doomed.addr).await;

    // The guest is at the other node, with its token, before its game's node dies (its client
    // left a connection that went silent): a node that had never seen it, and runs no game of
    // it yet.
    let mut gus = Client::resume_guest(&survivor.addr, &token).await;
    doomed.kill().await;
    survivor.wait_for("took over a game").await;
    guest_plays_on(&mut gus, game, moves).await;
}

/// A guest "gus" at `addr` in a game against the bot, one move each played; returns its
/// resume token, the game and its moves. Its connection is dropped.
async fn guest_against_the_bot(addr: &str) -> (String, GameId, Vec<String>) {
    let mut gus = Client::hello(addr, "gus").await;
    let token = gus.token.clone();
    let game = create(&mut gus, Opponent::Bot(Level::Random)).await;
    gus.play(game, "5").await;
    let answer = gus.move_at(game, 2).await;
    (token, game, vec!["5".to_owned(), answer])
}

/// The guest asks for its game (as its client does after a reconnect), is seated again as
/// itself with every acknowledged move, and plays the game out against the bot.
async fn guest_plays_on(gus: &mut Client, game: GameId, moves: Vec<String>) {
    gus.send(ClientMessage::Watch { game }).await;
    let state = gus.state_of(game).await;
    assert_eq!(state.your_side, Some(kingme_shared::Side::First));
    let texts: Vec<&str> = state.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, moves, "every acknowledged move is kept");
    play_out_against_the_bot(gus, game, moves.clone()).await;
    let finished = stored_moves(gus, game).await;
    assert!(finished.len() > moves.len(), "{finished:?}");
    assert_eq!(finished[..moves.len()], moves[..], "{finished:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_goes_to_another_node_plays_on_from_there() {
    let (_postgres, db, redis) = services();
    let home = Node::start(node_command(), &db, &redis.url()).await;
    let away = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, bob, game) = ada_against_bob(&home.addr).await;
    ada.play(game, "5").await;

    // bob leaves the game's node (it notices) and signs in at the other one.
    drop(bob);
    ada.until(|message| match message {
        ServerMessage::SeatChanged {
            game: g,
            side: kingme_shared::Side::Second,
            holder: SeatHolder::Human {
                connected: false, ..
            },
        } if g == game => Some(()),
        _ => None,
    })
    .await;
    let mut bob = Client::person(&away.addr, "bob", &key(2)).await;

    // His first request from there seats him again (the game sends him its state), and from
    // then on his node hands him the game's moves.
    bob.send(ClientMessage::Move {
        game,
        text: "1".into(),
    })
    .await;
    let state = bob.state_of(game).await;
    assert_eq!(state.your_side, Some(kingme_shared::Side::Second));
    assert_eq!(state.moves.len(), 1);
    assert_eq!(bob.move_at(game, 2).await, "1");
    assert_eq!(ada.move_at(game, 2).await, "1");
    ada.play(game, "3").await;
    assert_eq!(bob.move_at(game, 3).await, "3");
}

/// The state of `game` sent to `client` again, unasked, with nothing refused before it.
async fn given_back(client: &mut Client, game: GameId) -> kingme_shared::protocol::GameState {
    client
        .until(|message| match message {
            ServerMessage::State(state) if state.id == game => Some(state),
            ServerMessage::Error { .. } | ServerMessage::MoveRejected { .. } => {
                panic!("refused instead of seated again: {message:?}")
            }
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_at_a_node_that_lost_their_game_play_on_without_reconnecting() {
    let (_postgres, db, redis) = services();
    let frozen = Node::start(node_command(), &db, &redis.url()).await;
    let mut other = Node::start(node_command(), &db, &redis.url()).await;
    let stands = Node::start(node_command(), &db, &redis.url()).await;
    let (mut ada, mut bob, game) = ada_against_bob(&frozen.addr).await;
    ada.play(game, "5").await;
    bob.play(game, "1").await;
    // Spectators at a third node and at the node that will take the game over.
    let mut cy = Client::person(&stands.addr, "cy", &key(3)).await;
    let mut dee = Client::person(&other.addr, "dee", &key(4)).await;
    for spectator in [&mut cy, &mut dee] {
        spectator.send(ClientMessage::Watch { game }).await;
        spectator.state_of(game).await;
    }

    // The game's node is frozen until its lease lapses and the other node takes the game over;
    // it wakes to find the lease another node's, with its players still connected to it.
    frozen.signal("STOP");
    other.wait_for("took over a game").await;
    frozen.signal("CONT");

    // Each is given the game's state from its new node on the connection it had, seated as
    // before, with no error on the way.
    for (player, side) in [
        (&mut ada, kingme_shared::Side::First),
        (&mut bob, kingme_shared::Side::Second),
    ] {
        let state = given_back(player, game).await;
        let texts: Vec<&str> = state.moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts, ["5", "1"]);
        assert_eq!(state.your_side, Some(side));
        assert_eq!(state.status, GameStatus::Playing);
    }
    for spectator in [&mut cy, &mut dee] {
        assert_eq!(given_back(spectator, game).await.your_side, None);
    }

    // And they play on from the node that lost the game: the moves are played at the new node
    // and announced to everyone.
    ada.play(game, "3").await;
    assert_eq!(bob.move_at(game, 3).await, "3");
    bob.play(game, "7").await;
    assert_eq!(ada.move_at(game, 4).await, "7");
    for spectator in [&mut cy, &mut dee] {
        assert_eq!(moves_seen(spectator, game, 3, 2).await, ["3", "7"]);
    }
    assert_eq!(stored_moves(&mut ada, game).await, ["5", "1", "3", "7"]);
}

/// The unfinished games stored in the database `db` (what a failover watcher would take over).
async fn unfinished_games(db: &str) -> Vec<GameId> {
    let db = db.to_owned();
    tokio::task::spawn_blocking(move || {
        let mut store = PgStore::connect(&db, 0).unwrap();
        store
            .unfinished_games()
            .unwrap()
            .into_iter()
            .map(|stored| stored.game.id)
            .collect()
    })
    .await
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_created_while_redis_is_away_is_refused_and_never_stored() {
    let (_postgres, db, mut redis) = services();
    let mut node = Node::start(node_command(), &db, &redis.url()).await;
    let mut ada = Client::person(&node.addr, "ada", &key(1)).await;

    // No lease can be taken: the creation is refused with the reason and what to do, and
    // nothing of the game is announced first (no state, no turn, no end of a game never made).
    redis.stop();
    ada.send(ClientMessage::CreateGame(tictactoe_options(
        Opponent::Bot(Level::Random),
        TimeControl::Unlimited,
        true,
    )))
    .await;
    let refusal = ada
        .until(|message| match message {
            ServerMessage::Error {
                kind: ErrorKind::NotStored,
                message,
                fatal: false,
            } => Some(message),
            message @ (ServerMessage::State(_)
            | ServerMessage::YourTurn { .. }
            | ServerMessage::MovePlayed { .. }
            | ServerMessage::GameOver { .. }) => {
                panic!("announced before the refusal: {message:?}")
            }
            _ => None,
        })
        .await;
    assert!(
        refusal.contains("Redis") && refusal.contains("try again"),
        "{refusal}"
    );
    // Told == stored: nothing was stored for a node to take over once Redis is back.
    assert_eq!(unfinished_games(&db).await, []);

    // Once Redis is back, the same request makes a game that is played.
    redis.start_again();
    node.wait_for("Redis answers again").await;
    let game = create(&mut ada, Opponent::Bot(Level::Random)).await;
    ada.play(game, "5").await;
    assert_eq!(unfinished_games(&db).await, [game]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_whose_answer_was_lost_with_redis_is_answered_again() {
    let (_postgres, db, mut redis) = services();
    // Leases long enough that the game's node, frozen for a moment, keeps its game.
    let home = Node::with_lease(node_command(), &db, &redis.url(), 4000).await;
    let away = Node::with_lease(node_command(), &db, &redis.url(), 4000).await;
    let mut ada = Client::person(&home.addr, "ada", &key(1)).await;
    let game = create(&mut ada, Opponent::OpenSeat).await;
    let mut bob = Client::person(&away.addr, "bob", &key(2)).await;

    // The game's node is frozen while bob's join is relayed to it: the join waits in its inbox
    // (bob's node has published it once bob's next request is answered). Redis dies before the
    // node reads it, so the node seats bob and stores it, and its answer is lost.
    home.signal("STOP");
    bob.send(ClientMessage::Join { game }).await;
    bob.send(ClientMessage::Ping { nonce: 1 }).await;
    bob.until(|message| match message {
        ServerMessage::Pong { .. } => Some(()),
        ServerMessage::Error { message, .. } => panic!("the join was not relayed: {message}"),
        _ => None,
    })
    .await;
    redis.stop();
    home.signal("CONT");
    redis.start_again();

    // bob is sent the answer again, unasked, once Redis is back: seated, and the game plays.
    let state = bob.state_of(game).await;
    assert_eq!(
        (state.your_side, state.status),
        (Some(Side::Second), GameStatus::Playing)
    );
    ada.play(game, "5").await;
    assert_eq!(bob.move_at(game, 1).await, "5");
    bob.play(game, "1").await;
    assert_eq!(ada.move_at(game, 2).await, "1");
}

/// A node's command with a metrics door on `door`.
fn node_with_metrics(door: &str) -> Command {
    let mut command = node_command();
    command.args(["--metrics", door]);
    command
}

/// The value of the unlabelled metric `name` on the metrics door `door`.
async fn metric(door: &str, name: &str) -> f64 {
    let (_, body) = get_over(door, "/metrics", Wire::Plaintext).await;
    prometheus::value(&prometheus::parse(&body), name, &[])
}

/// Asks `/readyz` at `door` until it answers `status`, for at most [`patience::SERVER_LOG`];
/// returns the body.
async fn readyz_until(door: &str, status: &str) -> String {
    let deadline = tokio::time::Instant::now() + patience::SERVER_LOG;
    loop {
        let (head, body) = get_over(door, "/readyz", Wire::Plaintext).await;
        if head.starts_with(&format!("HTTP/1.1 {status}")) {
            return body;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "/readyz never answered {status}: {head} {body}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_nodes_metrics_count_leases_takeovers_and_redis_errors_and_readyz_needs_the_cluster() {
    let (_postgres, db, mut redis) = services();
    let (first_door, second_door) = (
        format!("127.0.0.1:{}", free_port()),
        format!("127.0.0.1:{}", free_port()),
    );
    let mut first = Node::start(node_with_metrics(&first_door), &db, &redis.url()).await;
    let mut second = Node::start(node_with_metrics(&second_door), &db, &redis.url()).await;
    assert_eq!(readyz_until(&first_door, "200").await, "ready\n");

    // A game at the first node: its lease is held there.
    let (mut ada, _bob, game) = ada_against_bob(&first.addr).await;
    ada.play(game, "5").await;
    assert_eq!(metric(&first_door, "kingme_leases").await, 1.0);
    assert_eq!(metric(&second_door, "kingme_leases").await, 0.0);
    assert_eq!(metric(&second_door, "kingme_takeovers_total").await, 0.0);

    // The first node dies: the second takes the game over and holds its lease.
    first.kill().await;
    second.wait_for("took over a game").await;
    assert_eq!(metric(&second_door, "kingme_takeovers_total").await, 1.0);
    assert_eq!(metric(&second_door, "kingme_leases").await, 1.0);

    // Redis goes away: the node's requests fail and count, and once its heartbeat has lapsed
    // it is not ready, saying why; Redis back, it is ready again.
    let errors = metric(&second_door, "kingme_redis_errors_total").await;
    redis.stop();
    let body = readyz_until(&second_door, "503").await;
    assert!(body.contains("not joined to its cluster"), "{body}");
    assert!(metric(&second_door, "kingme_redis_errors_total").await > errors);
    redis.start_again();
    assert_eq!(readyz_until(&second_door, "200").await, "ready\n");
}

/// A node's command with the person of `key(1)` as the admin.
fn node_with_admin() -> Command {
    let admin = kingme_shared::identity::fingerprint(&key(1).verifying_key().to_bytes());
    let mut command = node_command();
    command.args(["--admin", &admin]);
    command
}

/// Two nodes of one cluster, each naming the person of `key(1)` admin, and that person, `root`,
/// signed in at the first; the services are kept while the first value lives.
async fn two_nodes_with_admin() -> ((TempPostgres, TempRedis), Node, Node, Client) {
    let (postgres, db, redis) = services();
    let home = Node::start(node_with_admin(), &db, &redis.url()).await;
    let away = Node::start(node_with_admin(), &db, &redis.url()).await;
    let root = Client::person(&home.addr, "root", &key(1)).await;
    ((postgres, redis), home, away, root)
}

/// Bans and mutes are kept in the shared database and read at each sign-in and chat line, so
/// an admin's ban and mute at one node hold at the other at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_and_a_mute_made_at_one_node_hold_at_another() {
    let (_services, home, away, mut root) = two_nodes_with_admin().await;
    let mut eve = Client::person(&away.addr, "eve", &key(4)).await;
    let game = create(&mut eve, Opponent::OpenSeat).await;
    let ban = AdminAction::Ban {
        name: "mallory".into(),
        reason: Some("spam in chat".into()),
    };
    root.administer(ban).await.unwrap();
    root.administer(AdminAction::Mute { name: "eve".into() })
        .await
        .unwrap();
    let words = Client::refused(&away.addr, "mallory", &key(3)).await;
    assert!(words.contains("spam in chat"), "{words}");
    eve.send(ClientMessage::Chat {
        game,
        text: "hello".into(),
    })
    .await;
    let (kind, words) = eve.error().await;
    assert_eq!(kind, ErrorKind::NotAllowed);
    assert!(words.contains("muted"), "{words}");
    // Lifted at the other node, it is lifted here.
    let mut root_away = Client::person(&away.addr, "root", &key(1)).await;
    root_away
        .administer(AdminAction::Unban {
            name: "mallory".into(),
        })
        .await
        .unwrap();
    Client::person(&home.addr, "mallory", &key(3)).await;
}

/// `action` made by `admin` until its node says another node heard it: a node subscribes to
/// the moderation channel shortly after it listens. The admin's answer.
async fn administer_everywhere(admin: &mut Client, action: AdminAction) -> String {
    tokio::time::timeout(patience::REPLY, async {
        loop {
            let done = admin.administer(action.clone()).await.unwrap();
            if done.contains("sent to 1 other node") {
                return done;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("another node heard the admin's action")
}

/// An admin's announcement and ban at one node are carried out at the other: its people see
/// the announcement, the banned person's connection there closes with the reason, and the game
/// of theirs that node runs ends as a forfeit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_announcement_and_a_ban_made_at_one_node_act_at_another() {
    let (_services, _home, away, mut root) = two_nodes_with_admin().await;
    let mut mallory = Client::person(&away.addr, "mallory", &key(3)).await;
    let mut bob = Client::person(&away.addr, "bob", &key(2)).await;
    let game = create(&mut mallory, Opponent::OpenSeat).await;
    bob.send(ClientMessage::Join { game }).await;
    bob.state_of(game).await;
    mallory.play(game, "5").await;

    let announce = AdminAction::Announce {
        text: "maintenance at five".into(),
    };
    let done = administer_everywhere(&mut root, announce).await;
    assert!(done.starts_with("announced to 1 connection"), "{done}");
    for client in [&mut bob, &mut mallory] {
        let (from, text) = client.announcement().await;
        assert_eq!(
            (from.as_str(), text.as_str()),
            ("root", "maintenance at five")
        );
    }

    let ban = AdminAction::Ban {
        name: "mallory".into(),
        reason: Some("spam in chat".into()),
    };
    let done = root.administer(ban).await.unwrap();
    assert!(done.contains("sent to 1 other node"), "{done}");
    mallory.expect_banned("spam in chat").await;
    bob.expect_won_by_abandonment(game, Side::Second).await;
}

/// An admin at one node closes a game another node runs: that node's table ends it, without a
/// result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_at_one_node_closes_a_game_another_node_runs() {
    let (_services, _home, away, mut root) = two_nodes_with_admin().await;
    let mut eve = Client::person(&away.addr, "eve", &key(4)).await;
    let game = create(&mut eve, Opponent::OpenSeat).await;
    // Refused as unknown until the other node has listed it in this node's lobby.
    let done = tokio::time::timeout(patience::REPLY, async {
        loop {
            match root.administer(AdminAction::Close { game }).await {
                Ok(done) => return done,
                Err((kind, _)) => assert_eq!(kind, ErrorKind::NoSuchGame),
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    })
    .await
    .expect("the game listed at the admin's node");
    assert!(
        done.contains(&format!("closed game {game}")) && done.contains("sent to 1 other node"),
        "{done}"
    );
    let result = eve.game_over(game).await;
    assert_eq!(
        (result.winner, result.reason),
        (None, kingme_shared::protocol::EndReason::Aborted)
    );
}
