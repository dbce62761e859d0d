//! `kingme bot` processes against a real server: two bots racing for one seat (the loser looks
//! again), and fast random bots playing many short games beside each other without tripping the
//! server's message limit. A server killed and started again under bots: `bot_restart.rs`.

use crate::KINGME;
use kingme_server::host::Config;
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, Opponent, SeatChoice, TimeControl,
};
use kingme_testkit::bot::{BotProcess, SEATED, finished_well};
use kingme_testkit::{Client, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_bots_racing_for_one_seat_both_end_up_playing() {
    let server = start_server(Config::default()).await;
    let addr = server.addr();
    let mut host = Client::hello(addr, "host").await;
    // One open seat, a built-in bot in the other; the host only watches.
    host.send(ClientMessage::CreateGame(GameOptions {
        spec: GameKind::TicTacToe.into(),
        seat: SeatChoice::Spectate,
        opponent: Opponent::Bot(Level::Random),
        time_control: TimeControl::Unlimited,
        start_position: None,
        rated: false,
    }))
    .await;
    host.state().await;
    let arguments = "--level random --game tictactoe";
    let mut one = BotProcess::start(KINGME, addr, "one", arguments);
    let mut two = BotProcess::start(KINGME, addr, "two", arguments);
    // One of them gets the seat; the other is refused it (or finds it taken) and opens a game of
    // its own, where the host seats a built-in bot.
    let (a, b) = tokio::join!(one.note(SEATED), two.note(SEATED));
    for game in [a, b] {
        if game != GameId(1) {
            host.attach_bot(game).await;
        }
    }
    assert!(a == GameId(1) || b == GameId(1), "{a} {b}");
    let (one, two) = tokio::join!(finished_well(one, 1), finished_well(two, 1));
    assert_ne!(one, two);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fast_random_bots_playing_many_games_stay_inside_the_message_limit() {
    // The server's default limits; the games are as short and quick as games get.
    let server = start_server(Config::default()).await;
    let addr = server.addr();
    let arguments = "--level random --game tictactoe --games 30";
    let one = BotProcess::start(KINGME, addr, "quick", arguments);
    let two = BotProcess::start(KINGME, addr, "quicker", arguments);
    let (one, two) = tokio::join!(finished_well(one, 30), finished_well(two, 30));
    assert_eq!(one.len() + two.len(), 60);
    server.shutdown().await;
}
