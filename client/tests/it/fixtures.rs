//! Fixtures shared by the client's tests: server messages as the server would send them, an
//! app that has received them, and running the real `kingme` binary with input.

use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::tui::app::App;
use kingme_shared::protocol::{
    ClientMessage, ClockState, GameId, GameState, GameStatus, MoveRecord, SeatHolder,
    ServerMessage, TimeControl,
};
use kingme_shared::{AnyGame, GameKind, Side};
use std::time::Instant;

/// The full state of game 7 of `kind` from `position` (the start if `None`) with `moves`
/// played, seen by the player of `your_side` ("ada") against a bot.
pub fn state(
    kind: GameKind,
    position: Option<&str>,
    moves: &[&str],
    your_side: Option<Side>,
) -> GameState {
    let start = match position {
        Some(text) => AnyGame::from_position_text(kind, text).unwrap(),
        None => AnyGame::start(kind),
    };
    let mut game = start.clone();
    let mut records = Vec::new();
    for text in moves {
        let side = game.side_to_move();
        let (standard, effect) = game.play_text(text).unwrap();
        records.push(MoveRecord {
            side,
            text: standard,
            path: effect.path,
            removed: effect.removed,
        });
    }
    let mut seats = [
        SeatHolder::Bot {
            level: kingme_shared::ai::Level::Intermediate,
        },
        SeatHolder::Bot {
            level: kingme_shared::ai::Level::Intermediate,
        },
    ];
    if let Some(side) = your_side {
        seats[side.index()] = SeatHolder::Human {
            name: "ada".to_owned(),
            connected: true,
            grace_left_ms: None,
        };
    }
    GameState {
        id: GameId(7),
        spec: kind.into(),
        seats,
        your_side,
        time_control: TimeControl::Incremental {
            initial_secs: 300,
            increment_secs: 3,
        },
        rated: false,
        start_position: start.position_text(),
        moves: records,
        position: game.position_text(),
        side_to_move: game.side_to_move(),
        clocks: ClockState {
            remaining_ms: [Some(300_000), Some(287_500)],
            running: Some(game.side_to_move()),
        },
        status: match game.outcome() {
            None => GameStatus::Playing,
            Some(outcome) => GameStatus::Over(outcome.into()),
        },
    }
}

/// An app of size `size`, connected, that has received `state`.
pub fn app_with(state: GameState, size: (u16, u16)) -> App {
    let now = Instant::now();
    let mut app = App::new("ada", size, now);
    app.update(Event::Link(LinkEvent::Connected { resumed: false }));
    let sent = app.update(Event::Server(ServerMessage::State(state)));
    // Only the lobby's watch ends: the game is on screen now.
    assert_eq!(
        sent,
        [kingme_shared::protocol::ClientMessage::WatchLobby { on: false }]
    );
    app
}

/// The moves among sent messages.
pub fn moves_sent(messages: &[ClientMessage]) -> Vec<String> {
    messages
        .iter()
        .filter_map(|m| match m {
            ClientMessage::Move { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The clocks as the fixture's state has them, stopped (what a `GameOver` carries).
pub fn stopped_clocks() -> ClockState {
    ClockState {
        remaining_ms: [Some(300_000), Some(287_500)],
        running: None,
    }
}

/// Writes `input` to a spawned `kingme`'s standard input, closes it, and waits for it to end.
pub async fn feed_and_wait(
    mut child: tokio::process::Child,
    input: impl AsRef<[u8]>,
) -> std::process::Output {
    use tokio::io::AsyncWriteExt;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_ref()).await.unwrap();
    drop(stdin);
    child.wait_with_output().await.unwrap()
}

/// A finished process's standard output, then its standard error, as text.
pub fn output_text(output: &std::process::Output) -> String {
    format!(
        "{}\n--- stderr ---\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Runs the real `kingme` with `args`, its config and data directories in `home` and `env`
/// added, writes `input` and closes it; returns what it printed (standard output, then error).
pub async fn run_kingme(
    home: &std::path::Path,
    args: &[&str],
    env: &[(&str, &std::path::Path)],
    input: &str,
) -> String {
    let mut command = tokio::process::Command::new(crate::KINGME);
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env("KINGME_DATA_DIR", home)
        .env("KINGME_CONFIG_DIR", home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    for (name, value) in env {
        command.env(name, value);
    }
    output_text(&feed_and_wait(command.spawn().unwrap(), input).await)
}

/// Game 7 ends: the first side resigned (what the server sends when it does).
pub fn first_resigns() -> ServerMessage {
    ServerMessage::GameOver {
        game: GameId(7),
        clocks: stopped_clocks(),
        result: kingme_shared::protocol::GameResult {
            winner: Some(Side::Second),
            reason: kingme_shared::protocol::EndReason::Resignation,
        },
    }
}

/// The screen as text, one line per row, trailing spaces trimmed.
pub fn render(app: &App) -> String {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(app.size.0, app.size.1)).unwrap();
    terminal
        .draw(|frame| kingme_client::tui::ui::draw(frame, app))
        .unwrap();
    let buffer = terminal.backend().buffer();
    let mut text = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        for x in 0..buffer.area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}
