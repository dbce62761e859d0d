//! Tests of a table on a cluster node, without Redis: what it tells its members reached through
//! another node (a cluster's relay): a message for every member goes to the fan-out once,
//! whatever their number, and in order with the messages for one of them, each saying whether
//! that one is a member; and a table whose lease is lost hands every member over to the game's
//! new node, telling them nothing untrue.

use super::*;
use crate::game::bot::SearchPool;
use crate::game::context::TableTiming;
use crate::game::handover::Handover;
use crate::game::ownership::Ownership;
use crate::game::registry::TableRegistry;
use crate::game::remote::{RemoteMail, RemoteMembers};
use crate::players::{Attachment, Outbox};
use crate::refusal::Refusal;
use crate::storage::{Fence, SqliteStore};
use futures::FutureExt;
use futures::future::BoxFuture;
use kingme_shared::GameSpec;
use kingme_shared::protocol::{ClientMessage, ErrorKind, PlayerId, TimeControl};
use std::sync::Mutex;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// What the fan-out was handed: for whom (`None`: every member elsewhere), whether a member.
#[derive(Debug, Default)]
struct Recorded(Mutex<Vec<(Option<String>, bool, ServerMessage)>>);

impl RemoteMembers for Recorded {
    fn send(&self, _game: GameId, mail: RemoteMail<'_>) {
        let entry = match mail {
            RemoteMail::Everyone(message) => (None, true, message),
            RemoteMail::One {
                to,
                member,
                message,
            } => (Some(to.name.clone()), member, message),
        };
        self.0.lock().unwrap().push(entry);
    }
}

/// A cluster node's table context on an in-memory database: members elsewhere reached through
/// `remote`, leases from `ownership`, members of a lost game handed to `handover`.
fn cluster_context(
    remote: &Arc<Recorded>,
    ownership: Option<Arc<dyn Ownership>>,
    handover: Option<Arc<dyn Handover>>,
) -> Arc<TableContext> {
    Arc::new(TableContext {
        storage: Storage::start(SqliteStore::open(std::path::Path::new(":memory:"), 0).unwrap()),
        bots: SearchPool::new(1, None),
        registry: Arc::new(TableRegistry::default()),
        timing: TableTiming {
            grace: Duration::from_secs(60),
            finished_linger: Duration::from_secs(60),
            bot_think_time: Duration::from_millis(10),
            bot_move_delay: Duration::ZERO,
        },
        games: CancellationToken::new(),
        tasks: TaskTracker::new(),
        ownership,
        remote: Some(Arc::clone(remote) as Arc<dyn RemoteMembers>),
        handover,
    })
}

/// The game the tests open.
const GAME: GameId = GameId(1);

/// Any game, without clocks, opened with ada and bob seated and `spectators` watching.
async fn open_game(
    context: &Arc<TableContext>,
    ada: &Arc<Session>,
    bob: &Arc<Session>,
    spectators: Vec<Arc<Session>>,
) -> TableHandle {
    let spec = GameSpec::ALL[0];
    let setup = GameSetup {
        spec,
        start: spec.standard_start(),
        time_control: TimeControl::Unlimited,
        rated: false,
    };
    let seats = [Seat::human(Arc::clone(ada)), Seat::human(Arc::clone(bob))];
    create(context, GAME, setup, seats, spectators)
        .await
        .expect("the game is stored")
        .open()
}

/// `player` asks to play the game's first legal move.
async fn play_first_move(table: &TableHandle, player: &Arc<Session>) {
    let text = GameSpec::ALL[0].standard_start().legal_move_texts()[0].clone();
    table
        .send(TableCommand::Request {
            session: Arc::clone(player),
            message: ClientMessage::Move { game: GAME, text },
        })
        .await;
}

/// A person connected here, or (`relayed`) at another node.
fn person(id: u64, relayed: bool) -> (Arc<Session>, mpsc::Receiver<Box<ServerMessage>>) {
    let session = Arc::new(Session::new(PlayerId(id), format!("p{id}"), false, None));
    let (outbox, receiver) = Outbox::channel(64, CancellationToken::new());
    session.attach(Attachment {
        connection: id,
        outbox,
        replaced: CancellationToken::new(),
        relayed,
    });
    (session, receiver)
}

#[tokio::test]
async fn a_move_goes_to_the_members_elsewhere_once() {
    let remote = Arc::new(Recorded::default());
    let context = cluster_context(&remote, None, None);
    // ada here, bob and three spectators elsewhere, one spectator here.
    let (ada, _ada) = person(1, false);
    let (bob, mut bob_box) = person(2, true);
    let elsewhere: Vec<_> = (3..6).map(|id| person(id, true)).collect();
    let (local, mut local_box) = person(6, false);
    let mut spectators: Vec<_> = elsewhere.iter().map(|(s, _)| Arc::clone(s)).collect();
    spectators.push(Arc::clone(&local));
    let table = open_game(&context, &ada, &bob, spectators).await;
    play_first_move(&table, &ada).await;
    // The spectator here hears of the move through its own connection.
    loop {
        let message = local_box.recv().await.unwrap();
        if matches!(*message, ServerMessage::MovePlayed { .. }) {
            break;
        }
    }
    assert!(
        bob_box.try_recv().is_err(),
        "nothing went to a relayed outbox"
    );
    let recorded = remote.0.lock().unwrap();
    let played: Vec<_> = recorded
        .iter()
        .filter(|(_, _, message)| matches!(message, ServerMessage::MovePlayed { .. }))
        .collect();
    assert_eq!(played.len(), 1, "{recorded:#?}");
    assert_eq!(played[0].0, None, "for every member elsewhere");
    // Each member elsewhere got its own state, as a member, before the move; bob's turn came
    // after it, named for him.
    let states: Vec<&str> = recorded
        .iter()
        .filter_map(|(to, member, message)| match message {
            ServerMessage::State(_) => {
                assert!(*member);
                to.as_deref()
            }
            _ => None,
        })
        .collect();
    assert_eq!(states, ["p2", "p3", "p4", "p5"]);
    let position = |wanted: fn(&(Option<String>, bool, ServerMessage)) -> bool| {
        recorded.iter().position(wanted).unwrap()
    };
    let moved = position(|(_, _, message)| matches!(message, ServerMessage::MovePlayed { .. }));
    let turn = position(|(to, _, message)| {
        matches!(message, ServerMessage::YourTurn { .. }) && to.as_deref() == Some("p2")
    });
    assert!(moved < turn, "{recorded:#?}");
}

/// Leases drawn from the test's database, as a cluster node's are (without Redis).
#[derive(Debug)]
struct DatabaseLeases(Storage);

impl Ownership for DatabaseLeases {
    fn acquire(&self, game: GameId) -> BoxFuture<'static, Result<Lease, Refusal>> {
        let storage = self.0.clone();
        async move {
            let token = storage.claim_lease(game).await.unwrap();
            Ok(Lease {
                fence: Fence { game, token },
                lost: CancellationToken::new(),
                _kept: CancellationToken::new().drop_guard(),
            })
        }
        .boxed()
    }
}

/// The members each lost game was handed over with, by name.
#[derive(Debug)]
struct Handed(mpsc::UnboundedSender<(GameId, Vec<String>)>);

impl Handover for Handed {
    fn hand_over(&self, game: GameId, members: Vec<Arc<Session>>) {
        let names = members.iter().map(|member| member.name.clone()).collect();
        self.0.send((game, names)).unwrap();
    }
}

/// Every message waiting in an outbox.
fn drained(outbox: &mut mpsc::Receiver<Box<ServerMessage>>) -> Vec<ServerMessage> {
    std::iter::from_fn(|| outbox.try_recv().ok().map(|message| *message)).collect()
}

#[tokio::test]
async fn a_table_fenced_out_hands_every_member_over_and_says_nothing_untrue() {
    let remote = Arc::new(Recorded::default());
    let (handed, mut handovers) = mpsc::unbounded_channel();
    let storage = Storage::start(SqliteStore::open(std::path::Path::new(":memory:"), 0).unwrap());
    let mut context = cluster_context(&remote, None, Some(Arc::new(Handed(handed))));
    let tables = Arc::get_mut(&mut context).unwrap();
    tables.storage = storage.clone();
    tables.ownership = Some(Arc::new(DatabaseLeases(storage.clone())));
    let (ada, mut ada_box) = person(1, false);
    let (bob, _bob_box) = person(2, true);
    let (cy, mut cy_box) = person(3, false);
    let table = open_game(&context, &ada, &bob, vec![Arc::clone(&cy)]).await;
    while !matches!(
        *ada_box.recv().await.unwrap(),
        ServerMessage::YourTurn { .. }
    ) {}

    // Another node takes the game over: it draws a newer token, so ada's move is refused by the
    // database and the table stops.
    storage.claim_lease(GAME).await.unwrap();
    play_first_move(&table, &ada).await;
    let (moved, members) = handovers.recv().await.unwrap();
    assert_eq!(
        (moved, members),
        (GAME, vec!["p1".into(), "p2".into(), "p3".into()])
    );
    assert!(
        context.registry.table(GAME).is_err(),
        "the table left the registry"
    );
    assert!(!ada.games().contains(&GAME) && !cy.games().contains(&GAME));

    // ada heard only that her move was not stored; nobody heard a word of the move itself, nor
    // a promise: their state comes from the game's new node.
    let heard = drained(&mut ada_box);
    assert!(
        matches!(
            heard.as_slice(),
            [ServerMessage::MoveRejected {
                kind: ErrorKind::NotStored,
                ..
            }]
        ),
        "{heard:#?}"
    );
    let heard = drained(&mut cy_box);
    assert!(
        heard
            .iter()
            .all(|message| matches!(message, ServerMessage::State(_))),
        "{heard:#?}"
    );
    let recorded = remote.0.lock().unwrap();
    assert!(
        recorded.iter().all(|(_, _, message)| matches!(
            message,
            ServerMessage::State(_) | ServerMessage::YourTurn { .. }
        )),
        "{recorded:#?}"
    );
}
