//! The judge's hot path piece by piece, so that a regression shows without a load run: a
//! noughts-and-crosses game judged move by move (`Judge::play`), a move stored in an SQLite file
//! (WAL, `synchronous=FULL`, one commit per move, as when moves arrive one at a time) and a
//! `MovePlayed` encoded as a frame. Run with `cargo bench -p kingme-server --bench hot_path`.

use bytes::BytesMut;
use criterion::{Criterion, criterion_group, criterion_main};
use kingme_server::game::judge::Judge;
use kingme_server::options;
use kingme_server::storage::{NewGame, Participant, SqliteStore, Store, StoredMove};
use kingme_shared::protocol::{
    ClockState, GameId, GameOptions, MoveRecord, Opponent, SeatChoice, ServerCodec, ServerMessage,
    TimeControl,
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
    let setup = options::validate(&tictactoe_options()).expect("valid options");
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

fn storing(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut store = SqliteStore::open(&dir.path().join("bench.db"), 0).expect("the database");
    let game = GameId(1);
    store
        .create_game(&NewGame {
            id: game,
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
    let mut ply = 0;
    c.bench_function(
        "store one move and commit (file, WAL, synchronous=FULL)",
        |b| {
            b.iter(|| {
                ply += 1;
                let stored = StoredMove {
                    ply,
                    text: "5".into(),
                    clocks_ms: [Some(1_000), Some(2_000)],
                    played_at_ms: 0,
                };
                store.begin_batch().expect("begin");
                store.begin_request().expect("request");
                store.record_move(game, &stored).expect("stored");
                store.end_request(true).expect("end");
                store.commit_batch().expect("commit");
            });
        },
    );
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

criterion_group!(hot_path, judging, storing, encoding);
criterion_main!(hot_path);
