//! The terminal: entering and leaving the full-screen mode (through `ratatui::init` and
//! `ratatui::restore`, so the terminal is restored on error and on panic too), mouse capture,
//! and the loop that draws the app and feeds it events: keys and mouse from a reader thread,
//! ticks, and the connection's events.

use crate::local::blocked::Blocked;
use crate::local::settings::Settings;
use crate::net::Net;
use crate::net::event::Event;
use crate::plain::Start;
use crate::tui::app::App;
use kingme_shared::protocol::ClientMessage;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Time between ticks (animation frames and the running clock).
const TICK: Duration = Duration::from_millis(60);

/// Leaves full-screen mode however the function that made it returns.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}

/// Runs the full-screen client until the user quits.
pub(crate) async fn run(
    net: Net,
    mut events: mpsc::Receiver<Event>,
    name: &str,
    start: Start,
    web_url: Option<String>,
    guest: bool,
) -> anyhow::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let _restore = Restore;
    // ratatui's panic hook restores the screen; mouse capture must be switched off as well.
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(std::io::stdout(), DisableMouseCapture);
        previous(info);
    }));
    execute!(std::io::stdout(), EnableMouseCapture)?;
    let size = terminal.size()?;
    let settings_path = crate::local::settings::default_path();
    let (settings, problem) = match settings_path.as_deref().map(Settings::load) {
        Some(Ok(settings)) => (settings, None),
        Some(Err(err)) => (Settings::default(), Some(format!("{err:#}"))),
        None => (Settings::default(), None),
    };
    // A damaged file is left alone: nothing is written over it.
    let settings_path = settings_path.filter(|_| problem.is_none());
    let mut app = App::new(name, (size.width, size.height), Instant::now()).with_settings(settings);
    app.settings_problem = problem;
    app.web_url = web_url;
    app.guest = guest;
    // The names this person blocked, beside their key; a damaged file is said and left alone.
    let blocked_path =
        crate::identity::KeyStore::default_store().map(|keys| keys.blocked_path(name));
    let blocked_path = match blocked_path.as_deref().map(Blocked::load) {
        Some(Ok(blocked)) => {
            app.blocked = blocked;
            blocked_path
        }
        Some(Err(err)) => {
            let told = app.settings_problem.take();
            app.settings_problem = Some(match told {
                Some(settings) => format!("{settings}; {err}"),
                None => err.to_string(),
            });
            None
        }
        None => None,
    };
    app.first_request = match start {
        Start::Lobby => None,
        Start::Create(options) => Some(ClientMessage::CreateGame(*options)),
        Start::Watch(game) => Some(ClientMessage::Watch { game }),
    };

    let stop = Arc::new(AtomicBool::new(false));
    let (input_tx, mut input) = mpsc::channel(64);
    let reader_stop = Arc::clone(&stop);
    let reader = std::thread::spawn(move || {
        while !reader_stop.load(Ordering::Relaxed) {
            match event::poll(Duration::from_millis(100)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if input_tx.blocking_send(Event::Terminal(ev)).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                Ok(false) => {}
                Err(_) => break,
            }
        }
    });

    let mut ticks = tokio::time::interval(TICK);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    // Once the connection has given up, the screen stays (saying why) until the user quits.
    let mut connection_open = true;
    let result = loop {
        if let Err(err) = terminal.draw(|frame| crate::tui::ui::draw(frame, &app)) {
            break Err(err.into());
        }
        let event = tokio::select! {
            _ = ticks.tick() => Event::Tick,
            Some(ev) = input.recv() => ev,
            ev = events.recv(), if connection_open => match ev {
                Some(ev) => ev,
                None => {
                    connection_open = false;
                    continue;
                }
            },
        };
        for message in app.update(event) {
            if net.outgoing.send(message).await.is_err() {
                break;
            }
        }
        if app.settings_changed {
            app.settings_changed = false;
            if let Some(path) = &settings_path
                && let Err(err) = app.settings.save(path)
            {
                app.status = format!("{err:#}");
                app.status_is_error = true;
            }
        }
        if app.blocked_changed {
            app.blocked_changed = false;
            if let Some(path) = &blocked_path
                && let Err(err) = app.blocked.save(path)
            {
                app.status = err.to_string();
                app.status_is_error = true;
            }
        }
        if app.quit {
            break Ok(());
        }
    };
    stop.store(true, Ordering::Relaxed);
    net.close().await;
    let _ = reader.join();
    result
}
