//! The client's side of failover, through its real connection code (`kingme_client::net`, the
//! one the TUI, plain mode and `kingme bot` share): two persons play at one node of a
//! three-node cluster (a game against a bot and a game against each other), and a guest against
//! a bot there; the node is killed outright (SIGKILL); each client finds another node by itself
//! from the `Nodes` it was told, is seated again by its key (the guest by its resume token,
//! whichever node it reaches), and the games go on with every acknowledged move.
//!
//! Behind the `cluster-tests` feature (PostgreSQL and redis-server from the system's packages):
//! `cargo test -p kingme-tests --features cluster-tests --test cluster_client`. The harness is
//! the server's cluster suite's (`kingme_testkit::cluster_node`). This file has its own `main`: the
//! test binary is also the node process (started again with `KINGME_TEST_NODE` set, it runs a
//! node through `kingme_server`'s library with the `kingme-server` flags the harness passes),
//! because another package's binary cannot be named from here.
//!
//! Its own `main` is not a test target's, so `cfg(test)` does not hold here: it says `expect`
//! where the other test files may say `unwrap`.

use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::net::{Net, NetConfig, Security};
use kingme_server::host::{ClusterSettings, Config, Database, TlsSettings, TlsSource};
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameStatus, Opponent, SeatChoice, ServerMessage,
    TimeControl,
};
use kingme_shared::{GameKind, Side};
use kingme_testkit::cluster_node::Node;
use kingme_testkit::temp_postgres::TempPostgres;
use kingme_testkit::temp_redis::TempRedis;
use kingme_testkit::{free_square, patience};
use std::collections::HashMap;
use std::time::Duration;
use tokio::process::Command;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Set in the environment of a node process.
const NODE_ENV: &str = "KINGME_TEST_NODE";

/// How a node is started: this binary again, as a node.
fn node_command() -> Command {
    let mut command = Command::new(std::env::current_exe().expect("this test binary's path"));
    command.env(NODE_ENV, "1");
    command
}

fn main() {
    if std::env::var_os(NODE_ENV).is_some() {
        return run_node();
    }
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(clients_fail_over_to_another_node_and_are_seated_again());
    println!("test clients_fail_over_to_another_node_and_are_seated_again ... ok");
}

/// The node process: the flags the harness passes (`--listen`, `--db`, `--cluster`,
/// `--advertise`, `--lease-ms`, `--bot-think-ms`), the server's log on stdout.
fn run_node() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flags: HashMap<&str, &str> = args
        .chunks(2)
        .filter_map(|pair| Some((pair.first()?.as_str(), pair.get(1)?.as_str())))
        .collect();
    let flag = |name: &str| {
        flags
            .get(name)
            .copied()
            .unwrap_or_else(|| panic!("the harness passes {name}"))
    };
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new("info"))
        .with_ansi(false)
        .init();
    let config = Config {
        database: Database::from_arg(flag("--db")),
        bot_think_time: Duration::from_millis(
            flag("--bot-think-ms").parse().expect("milliseconds"),
        ),
        cluster: Some(ClusterSettings {
            redis_url: flag("--cluster").to_owned(),
            advertise: flag("--advertise").to_owned(),
            lease: Duration::from_millis(flag("--lease-ms").parse().expect("milliseconds")),
        }),
        // The cluster's one certificate, as docs/tls.md recommends.
        tls: TlsSettings {
            source: TlsSource::Files {
                cert: flag("--tls-cert").into(),
                key: flag("--tls-key").into(),
            },
            proxy_cert: None,
        },
        ..Config::default()
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let storage = kingme_server::host::open_storage(&config)
            .await
            .expect("the node opens its database");
        let tls = kingme_server::host::open_tls(&config)
            .await
            .expect("the node reads its certificate");
        let listener = tokio::net::TcpListener::bind(flag("--listen"))
            .await
            .expect("the node listens");
        kingme_server::host::run_doors(
            kingme_server::host::Doors::tcp(listener),
            std::future::pending::<()>(),
            config,
            storage,
            tls,
        )
        .await
        .expect("the node serves until it is killed");
    });
}

/// A person (or a guest) playing through the client's connection task.
struct Player {
    net: Net,
    events: mpsc::Receiver<Event>,
    /// The connection's events seen so far (lost, reconnected, ...).
    link: Vec<LinkEvent>,
    /// The player's config folder: its `known_servers`, where the nodes' certificate is pinned
    /// on first use as a person's client pins it.
    home: tempfile::TempDir,
}

impl Player {
    /// `name` connected to `addr` with a key of this run, retrying after 200 ms.
    async fn connect(addr: &str, name: &str, shutdown: &CancellationToken) -> Player {
        Player::connect_as(addr, name, false, shutdown).await
    }

    /// `name` connected to `addr`, a guest (its resume token kept in memory) or a person with a
    /// key of this run, retrying after 200 ms.
    async fn connect_as(
        addr: &str,
        name: &str,
        guest: bool,
        shutdown: &CancellationToken,
    ) -> Player {
        let (sender, events) = mpsc::channel(256);
        let home = tempfile::tempdir().expect("a temporary directory");
        let config = NetConfig {
            retry: Duration::from_millis(200),
            guest,
            secrets: None,
            keys: None,
            resume_tokens: None,
            security: Security::Tls {
                known_servers: Some(home.path().join("known_servers")),
            },
            ..NetConfig::new(addr.to_owned(), name.to_owned())
        };
        let mut player = Player {
            net: Net::spawn(config, sender, shutdown.clone()),
            events,
            link: Vec::new(),
            home,
        };
        player
            .expect(|event| matches!(event, Event::Link(LinkEvent::Connected { .. })).then_some(()))
            .await;
        player
    }

    /// Waits until the client was told of `count` live nodes (a node reads the others at its
    /// heartbeat, and tells its clients when they change).
    async fn knows_nodes(&mut self, count: usize) {
        self.expect(|event| match event {
            Event::Server(ServerMessage::Nodes { addresses }) => {
                (addresses.len() == count).then_some(())
            }
            _ => None,
        })
        .await;
    }

    async fn send(&self, message: ClientMessage) {
        self.net
            .outgoing
            .send(message)
            .await
            .expect("the connection task runs");
    }

    /// Waits for the first event `pick` takes, keeping the link events on the way.
    async fn expect<T>(&mut self, mut pick: impl FnMut(&Event) -> Option<T>) -> T {
        tokio::time::timeout(patience::CLIENT_EVENT, async {
            loop {
                let event = self.events.recv().await.expect("the client ended");
                if let Event::Link(link) = &event {
                    self.link.push(link.clone());
                }
                if let Some(found) = pick(&event) {
                    return found;
                }
            }
        })
        .await
        .unwrap_or_else(|_| {
            panic!(
                "the client heard nothing of what it waited for; its link: {:?}",
                self.link
            )
        })
    }

    /// Creates a noughts-and-crosses game, playing first; returns its id.
    async fn create(&mut self, opponent: Opponent) -> GameId {
        self.send(ClientMessage::CreateGame(GameOptions {
            spec: GameKind::TicTacToe.into(),
            seat: SeatChoice::Side(Side::First),
            opponent,
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: true,
        }))
        .await;
        self.expect(|event| match event {
            Event::Server(ServerMessage::State(state)) => Some(state.id),
            _ => None,
        })
        .await
    }

    /// The next move announced in `game`, or `None` once it is over.
    async fn next_move(&mut self, game: GameId) -> Option<String> {
        self.expect(|event| match event {
            Event::Server(ServerMessage::MovePlayed {
                game: g, record, ..
            }) if *g == game => Some(Some(record.text.clone())),
            Event::Server(ServerMessage::GameOver { game: g, .. }) if *g == game => Some(None),
            Event::Server(ServerMessage::MoveRejected { reason, .. }) => {
                panic!("a move rejected: {reason}")
            }
            _ => None,
        })
        .await
    }

    /// Plays `text` in `game` and waits until it is announced (acknowledged).
    async fn play(&mut self, game: GameId, text: &str) {
        self.send(ClientMessage::Move {
            game,
            text: text.to_owned(),
        })
        .await;
        assert_eq!(self.next_move(game).await.as_deref(), Some(text));
    }

    /// Waits until the client is seated in `game` again after a reconnect; its moves then.
    async fn seated_again(&mut self, game: GameId) -> Vec<String> {
        self.expect(|event| match event {
            Event::Server(ServerMessage::State(state))
                if state.id == game && state.your_side.is_some() =>
            {
                assert_eq!(state.status, GameStatus::Playing);
                Some(state.moves.iter().map(|m| m.text.clone()).collect())
            }
            _ => None,
        })
        .await
    }

    /// The moves of `game` as stored.
    async fn stored_moves(&mut self, game: GameId) -> Vec<String> {
        self.send(ClientMessage::Export { game }).await;
        self.expect(|event| match event {
            Event::Server(ServerMessage::Record { game: g, record }) if *g == game => {
                Some(record.moves.clone())
            }
            _ => None,
        })
        .await
    }

    /// The client lost `dead` and went on at another node by itself.
    fn assert_moved_away_from(&self, dead: &str) {
        let lost: Vec<&LinkEvent> = self
            .link
            .iter()
            .filter(|event| matches!(event, LinkEvent::Lost { .. }))
            .collect();
        assert!(
            matches!(lost.first(), Some(LinkEvent::Lost { node, .. }) if node == dead),
            "{:?}",
            self.link
        );
        assert!(
            matches!(lost.last(), Some(LinkEvent::Lost { next, .. }) if next != dead),
            "the last attempt went to another node: {:?}",
            self.link
        );
        assert!(
            self.link.contains(&LinkEvent::Connected { resumed: true }),
            "{:?}",
            self.link
        );
    }
}

async fn clients_fail_over_to_another_node_and_are_seated_again() {
    let mut postgres = TempPostgres::start();
    let db = postgres.create_database();
    let redis = TempRedis::start();
    let mut doomed = Node::start(node_command(), &db, &redis.url()).await;
    let _second = Node::start(node_command(), &db, &redis.url()).await;
    let _third = Node::start(node_command(), &db, &redis.url()).await;
    let shutdown = CancellationToken::new();

    // Both persons at the node that will die: ada against a bot, and ada against bob.
    let mut ada = Player::connect(&doomed.addr, "ada", &shutdown).await;
    let mut bob = Player::connect(&doomed.addr, "bob", &shutdown).await;
    // And a guest against a bot there: whichever node its client reaches, its token finds it.
    let mut gus = Player::connect_as(&doomed.addr, "gus", true, &shutdown).await;
    ada.knows_nodes(3).await;
    bob.knows_nodes(3).await;
    gus.knows_nodes(3).await;
    let gus_game = gus.create(Opponent::Bot(Level::Random)).await;
    gus.play(gus_game, "5").await;
    let gus_moves = vec![
        "5".to_owned(),
        gus.next_move(gus_game).await.expect("the bot answers"),
    ];
    let bot_game = ada.create(Opponent::Bot(Level::Random)).await;
    let mut bot_moves = Vec::new();
    for _ in 0..2 {
        let text = free_square(&bot_moves);
        ada.play(bot_game, &text).await;
        bot_moves.push(text);
        bot_moves.push(ada.next_move(bot_game).await.expect("the bot answers"));
    }
    let people = ada.create(Opponent::OpenSeat).await;
    bob.send(ClientMessage::Join { game: people }).await;
    bob.expect(|event| match event {
        Event::Server(ServerMessage::State(state)) if state.id == people => Some(()),
        _ => None,
    })
    .await;
    ada.play(people, "5").await;
    assert_eq!(bob.next_move(people).await.as_deref(), Some("5"));
    bob.play(people, "1").await;
    assert_eq!(ada.next_move(people).await.as_deref(), Some("1"));
    ada.play(people, "3").await;
    assert_eq!(bob.next_move(people).await.as_deref(), Some("3"));

    doomed.kill().await;

    // Each client reconnects elsewhere by itself and is given its games back.
    assert_eq!(bob.seated_again(people).await, ["5", "1", "3"]);
    let mut ada_people = None;
    let mut ada_bot = None;
    while ada_people.is_none() || ada_bot.is_none() {
        let (game, moves) = ada
            .expect(|event| match event {
                Event::Server(ServerMessage::State(state))
                    if state.your_side.is_some()
                        && (state.id == people || state.id == bot_game) =>
                {
                    assert_eq!(state.status, GameStatus::Playing);
                    let moves: Vec<String> = state.moves.iter().map(|m| m.text.clone()).collect();
                    Some((state.id, moves))
                }
                _ => None,
            })
            .await;
        if game == people {
            ada_people = Some(moves);
        } else {
            ada_bot = Some(moves);
        }
    }
    assert_eq!(ada_people.expect("the game with bob"), ["5", "1", "3"]);
    assert_eq!(
        ada_bot.expect("the game against the bot"),
        bot_moves,
        "every acknowledged move is kept"
    );
    ada.assert_moved_away_from(&doomed.addr);
    bob.assert_moved_away_from(&doomed.addr);
    // Both nodes ada reached are pinned, with the cluster's one certificate.
    let pins = std::fs::read_to_string(ada.home.path().join("known_servers"))
        .expect("the client pinned the nodes");
    let pins: Vec<(&str, &str)> = pins
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once(' '))
        .collect();
    assert!(pins.len() >= 2, "{pins:?}");
    assert!(
        pins.iter().any(|(node, _)| *node == doomed.addr),
        "{pins:?}"
    );
    assert!(pins.iter().all(|(_, pin)| *pin == pins[0].1), "{pins:?}");
    assert_eq!(gus.seated_again(gus_game).await, gus_moves);
    gus.assert_moved_away_from(&doomed.addr);
    let text = free_square(&gus_moves);
    gus.play(gus_game, &text).await;

    // The game between persons goes on to its end (ada's diagonal).
    bob.play(people, "2").await;
    assert_eq!(ada.next_move(people).await.as_deref(), Some("2"));
    ada.play(people, "7").await;
    assert_eq!(bob.next_move(people).await.as_deref(), Some("7"));
    assert_eq!(ada.next_move(people).await, None, "ada's diagonal ends it");
    assert_eq!(
        ada.stored_moves(people).await,
        ["5", "1", "3", "2", "7"],
        "the game's record"
    );

    // And the game against the bot.
    let mut moves = bot_moves.clone();
    'game: loop {
        let text = free_square(&moves);
        ada.send(ClientMessage::Move {
            game: bot_game,
            text: text.clone(),
        })
        .await;
        for _ in 0..2 {
            match ada.next_move(bot_game).await {
                Some(played) => moves.push(played),
                None => break 'game,
            }
        }
    }
    let finished = ada.stored_moves(bot_game).await;
    assert_eq!(finished[..bot_moves.len()], bot_moves[..], "{finished:?}");
    assert!(finished.len() > bot_moves.len(), "{finished:?}");

    shutdown.cancel();
    ada.net.close().await;
    bob.net.close().await;
    gus.net.close().await;
}
