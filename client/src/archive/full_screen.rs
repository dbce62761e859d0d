//! The full-screen loop of the archive's viewers (the replay and the review board): draw, read
//! a key, let the viewer act on it, until it asks to quit; the terminal is restored however the
//! loop ends.

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEventKind};

/// Shows `state` full screen: `draw` after every key, `key` for each key pressed, which
/// returns `false` to quit.
pub(crate) fn run<S>(
    state: &mut S,
    draw: impl Fn(&S, &mut Frame<'_>),
    key: impl Fn(&mut S, KeyCode) -> bool,
) -> anyhow::Result<()> {
    let mut terminal = ratatui::init();
    let shown = (|| -> anyhow::Result<()> {
        loop {
            terminal.draw(|frame| draw(state, frame))?;
            if let TermEvent::Key(pressed) = event::read()?
                && pressed.kind == KeyEventKind::Press
                && !key(state, pressed.code)
            {
                return Ok(());
            }
        }
    })();
    ratatui::restore();
    shown
}
