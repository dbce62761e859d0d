//! The judge's hot path piece by piece, so that a regression shows without a load run: a
//! noughts-and-crosses game judged move by move (`Judge::play`), moves stored in an SQLite file
//! (WAL; one commit per move, as when moves arrive one at a time, and sixteen in one commit, as
//! when they queue together; both with the default `synchronous=NORMAL` and with `--fsync`'s
//! `synchronous=FULL`), a `MovePlayed` encoded as a frame and a `Move` frame decoded. Run with
//! `cargo bench -p kingme-server --bench hot_path`.

use bytes::BytesMut;
use criterion::{Criterion, criterion_group, criterion_main};
use kingme_server::test_support::{
    Durability, Judge, NewGame, Participant, SqliteStore, Store, StoredMove, validate_options,
};
use kingme_shared::protocol::{
    ClientCodec, ClientMessage, ClockState, GameId, GameOptions, MoveRecord, Opponent, SeatChoice,
    ServerCodec, ServerMessage, TimeControl,
};
use kingme_shared::{GameKind, GameSpec};
use kingme_shared::{Side, ai::Level};
use std::hint::black_box;
use tokio::time::Instant;
use tokio_util::codec::Encoder;

/// A game of noughts and crosses with clocks, as the load tool plays it.
fn tictactoe_options() -> GameOptions {
    GameOptions {
        spec: GameSpec::standard(GameKind::TicTacToe),
        seat: SeatChoice::Side(Side::First),
        opponent: Opponent::Bot(Level::Random),
        time_control: TimeControl::Incremental {
            initial_secs: 300,
            increment_secs: 3,
        },
        start_position: None,
        rated: false,
    }
}

fn judging(c: &mut Criterion) {
    let setup = validate_options(&tictactoe_options()).expect("valid options");
    // X wins on the diagonal after five moves.
    let moves = [
        (Side::First, "1"),
        (Side::Second, "2"),
        (Side::First, "5"),
        (Side::Second, "3"),
        (Side::First, "9"),
    ];
    c.bench_function("judge a five-move game of noughts and crosses", |b| {
        b.iter(|| {
            let mut judge = Judge::new(&setup);
            let now = Instant::now();
            judge.begin(now);
            for (side, text) in moves {
                black_box(judge.play(side, text, now).expect("legal"));
            }
        });
    });
}

/// A stored game of noughts and crosses in a fresh database file kept as `durability` says.
fn store_with_a_game(dir: &std::path::Path, durability: Durability) -> SqliteStore {
    let mut store = SqliteStore::open(&dir.join("bench.db"), 0).expect("the database");
    store.set_durability(durability).expect("durability");
    store
        .create_game(&NewGame {
            id: GAME,
            spec: GameSpec::standard(GameKind::TicTacToe),
            time_control: TimeControl::Unlimited,
            rated: false,
            start_position: None,
            seats: [
                Participant::Guest("a".into()),
                Participant::Guest("b".into()),
            ],
            created_at_ms: 0,
        })
        .expect("stored");
    store
}

const GAME: GameId = GameId(1);

fn a_move(ply: u32) -> StoredMove {
    StoredMove {
        ply,
        text: "5".into(),
        clocks_ms: [Some(1_000), Some(2_000)],
        played_at_ms: 0,
    }
}

fn storing(c: &mut Criterion) {
    for (durability, name) in [
        (Durability::Process, "synchronous=NORMAL, the default"),
        (Durability::PowerLoss, "synchronous=FULL, --fsync"),
    ] {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut store = store_with_a_game(dir.path(), durability);
        let mut ply = 0;
        // A move alone in its batch, as the storage worker commits it when moves come one at a
        // time: no savepoint.
        c.bench_function(
            &format!("store one move and commit (file, WAL, {name})"),
            |b| {
                b.iter(|| {
                    ply += 1;
                    store.begin_batch().expect("begin");
                    store.record_move(GAME, &a_move(ply)).expect("stored");
                    store.commit_batch().expect("commit");
                });
            },
        );
        // Sixteen moves that queued together: one commit, a savepoint each.
        c.bench_function(
            &format!("store a batch of 16 moves and commit (file, WAL, {name})"),
            |b| {
                b.iter(|| {
                    store.begin_batch().expect("begin");
                    for _ in 0..16 {
                        ply += 1;
                        store.begin_request().expect("request");
                        store.record_move(GAME, &a_move(ply)).expect("stored");
                        store.end_request(true).expect("end");
                    }
                    store.commit_batch().expect("commit");
                });
            },
        );
    }
}

fn encoding(c: &mut Criterion) {
    let message = ServerMessage::MovePlayed {
        game: GameId(123),
        ply: 5,
        record: MoveRecord {
            side: Side::First,
            text: "9".into(),
            path: vec![8],
            removed: Vec::new(),
        },
        position: "X:XO.X...X".into(),
        side_to_move: Side::Second,
        clocks: ClockState {
            remaining_ms: [Some(290_000), Some(295_000)],
            running: Some(Side::Second),
        },
    };
    let mut codec = ServerCodec::server();
    let mut buffer = BytesMut::with_capacity(512);
    c.bench_function("encode a MovePlayed frame", |b| {
        b.iter(|| {
            buffer.clear();
            codec
                .encode(black_box(message.clone()), &mut buffer)
                .expect("encoded");
        });
    });
}

fn decoding(c: &mut Criterion) {
    let message = ClientMessage::Move {
        game: GameId(123),
        text: "9".into(),
    };
    let mut frame = BytesMut::new();
    ClientCodec::client()
        .encode_frame(&message, &mut frame)
        .expect("encoded");
    let frame = frame.freeze();
    let mut codec = ServerCodec::server();
    let mut buffer = BytesMut::with_capacity(512);
    c.bench_function("decode a Move frame", |b| {
        b.iter(|| {
            buffer.extend_from_slice(&frame);
            black_box(codec.decode_frame(&mut buffer).expect("decoded"));
        });
    });
}

criterion_group!(hot_path, judging, storing, encoding, decoding);
criterion_main!(hot_path);
