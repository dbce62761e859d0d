//! Stepping through a recorded game: `kingme replay GAME_ID` (a stored game fetched from the
//! server) and `kingme import FILE` (a PDN or kingme text record). Every position is computed up
//! front by replaying the moves through the rules; the viewer only moves a cursor over them.
//!
//! In a terminal it is a small full-screen view (→ or n forward, ← or p back, Home or s to the
//! start, End or e to the end, q or Esc to quit); otherwise every position is printed in turn.

use crate::game::board_geometry::BoardGeometry;
use crate::plain::board_text;
use crate::tui::theme::Theme;
use kingme_shared::AnyGame;
use kingme_shared::record::GameRecord;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::{Constraint, Layout};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};
use std::io::{IsTerminal, Write};

/// A step the viewer can take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// One position forward.
    Forward,
    /// One position back.
    Back,
    /// To the start position.
    Start,
    /// To the final position.
    End,
}

/// A recorded game and the position being shown.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The game being stepped through.
    pub record: GameRecord,
    positions: Vec<AnyGame>,
    /// How many moves have been played in the position shown.
    at: usize,
    /// Drawn flipped, as the game screen showed it to the person looking, who played the side
    /// the board's layout puts at the top ([`BoardGeometry::flipped_for`]).
    pub flipped: bool,
}

impl Replay {
    /// Replays the record through the rules; an illegal move or start is an error.
    pub fn new(record: GameRecord) -> anyhow::Result<Replay> {
        let positions = record.replay()?;
        Ok(Replay {
            record,
            positions,
            at: 0,
            flipped: false,
        })
    }

    /// Moves the cursor.
    pub fn step(&mut self, step: Step) {
        let last = self.positions.len() - 1;
        self.at = match step {
            Step::Forward => (self.at + 1).min(last),
            Step::Back => self.at.saturating_sub(1),
            Step::Start => 0,
            Step::End => last,
        };
    }

    /// How many moves have been played in the position shown.
    #[must_use]
    pub fn at(&self) -> usize {
        self.at
    }

    /// The position shown.
    #[must_use]
    pub fn position(&self) -> &AnyGame {
        &self.positions[self.at]
    }

    /// A line saying where the replay stands: the move just played, or the start.
    #[must_use]
    pub(crate) fn caption(&self) -> String {
        let total = self.record.moves.len();
        match self.at.checked_sub(1) {
            None => format!("start position (0 of {total} moves)"),
            Some(last) => {
                let mover = self.positions[last].side_to_move();
                format!(
                    "move {} of {total}: {} {}",
                    self.at,
                    self.positions[last].side_name(mover),
                    self.record.moves[last]
                )
            }
        }
    }

    /// The squares of the move that led to the position shown.
    #[must_use]
    pub(crate) fn last_move(&self) -> Vec<u16> {
        let Some(last) = self.at.checked_sub(1) else {
            return Vec::new();
        };
        let before = &self.positions[last];
        before
            .parse_move(&self.record.moves[last])
            .map(|mv| before.move_effect(&mv).path)
            .unwrap_or_default()
    }

    /// The header: players, event and result.
    #[must_use]
    pub fn title(&self) -> String {
        title_of(&self.record)
    }

    /// Draws the replay (reads the state, changes nothing).
    pub fn draw(&self, frame: &mut Frame<'_>) {
        let [header, board, footer] = Layout::vertical([
            Constraint::Length(3),
            Constraint::Min(5),
            Constraint::Length(3),
        ])
        .areas(frame.area());
        frame.render_widget(
            Paragraph::new(self.caption()).block(Block::bordered().title(self.title())),
            header,
        );
        // The game screen's board widget, with the move just played marked; as text when
        // the terminal is too small for it.
        let geometry = BoardGeometry::new(self.position().kind(), self.flipped);
        match geometry.fit(board) {
            Some(area) => crate::tui::ui::board::draw_position(
                frame.buffer_mut(),
                area,
                self.position(),
                &self.last_move(),
                self.flipped,
                &Theme::ALL[0],
            ),
            None => frame.render_widget(
                Paragraph::new(board_text(self.position(), self.flipped, false)),
                board,
            ),
        }
        frame.render_widget(
            Paragraph::new(Line::from(
                "→/n forward  ←/p back  Home/s start  End/e end  q quit",
            ))
            .wrap(Wrap { trim: true })
            .block(Block::bordered()),
            footer,
        );
    }
}

/// A record's header: players, event and result.
#[must_use]
pub(crate) fn title_of(record: &GameRecord) -> String {
    let result = record
        .result
        .map_or_else(|| "*".to_owned(), |result| result.score().to_owned());
    format!(
        "{} — {} vs {} — {} {}",
        record.event, record.players[0], record.players[1], record.date, result
    )
}

/// The step a key asks for, `None` to quit, `Some(None)` for a key that does nothing.
pub(crate) fn key_step(code: KeyCode) -> Option<Option<Step>> {
    match code {
        KeyCode::Right | KeyCode::Char('n' | ' ') => Some(Some(Step::Forward)),
        KeyCode::Left | KeyCode::Char('p') => Some(Some(Step::Back)),
        KeyCode::Home | KeyCode::Char('s') => Some(Some(Step::Start)),
        KeyCode::End | KeyCode::Char('e') => Some(Some(Step::End)),
        KeyCode::Char('q') | KeyCode::Esc => None,
        _ => Some(None),
    }
}

/// Shows the replay: full screen in a terminal, otherwise every position printed in turn.
pub fn show(mut replay: Replay) -> anyhow::Result<()> {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", replay.title())?;
        loop {
            writeln!(out, "\n{}", replay.caption())?;
            write!(
                out,
                "{}",
                board_text(replay.position(), replay.flipped, false)
            )?;
            if replay.at() == replay.record.moves.len() {
                return Ok(());
            }
            replay.step(Step::Forward);
        }
    }
    super::full_screen::run(&mut replay, Replay::draw, |replay, code| {
        match key_step(code) {
            None => false,
            Some(step) => {
                if let Some(step) = step {
                    replay.step(step);
                }
                true
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    fn replay() -> Replay {
        let mut record = GameRecord::new(GameKind::Checkers);
        record.event = "kingme game 4".into();
        record.players = ["alice".into(), "advanced (bot)".into()];
        record.moves = vec!["11-15".into(), "22-18".into(), "15x22".into()];
        Replay::new(record).unwrap()
    }

    #[test]
    fn the_cursor_moves_within_the_game() {
        let mut replay = replay();
        assert_eq!(replay.caption(), "start position (0 of 3 moves)");
        replay.step(Step::Back);
        assert_eq!(replay.at(), 0);
        replay.step(Step::Forward);
        replay.step(Step::Forward);
        assert_eq!(replay.caption(), "move 2 of 3: White 22-18");
        replay.step(Step::End);
        assert_eq!(replay.at(), 3);
        replay.step(Step::Forward);
        assert_eq!(replay.at(), 3);
        assert_eq!(
            replay.position().position_text(),
            "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22"
        );
        replay.step(Step::Start);
        assert_eq!(replay.position(), &AnyGame::start(GameKind::Checkers));
    }

    #[test]
    fn keys_map_to_steps() {
        assert_eq!(key_step(KeyCode::Right), Some(Some(Step::Forward)));
        assert_eq!(key_step(KeyCode::Char('p')), Some(Some(Step::Back)));
        assert_eq!(key_step(KeyCode::Home), Some(Some(Step::Start)));
        assert_eq!(key_step(KeyCode::End), Some(Some(Step::End)));
        assert_eq!(key_step(KeyCode::Char('q')), None);
        assert_eq!(key_step(KeyCode::Char('z')), Some(None));
    }

    #[test]
    fn the_view_shows_players_the_last_move_and_the_keys() {
        let mut replay = replay();
        replay.step(Step::End);
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|frame| replay.draw(frame)).unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|cell| cell.symbol())
            .collect();
        assert!(screen.contains("alice vs advanced (bot)"), "{screen}");
        assert!(screen.contains("move 3 of 3: Black 15x22"), "{screen}");
        assert!(screen.contains("End/e end"), "{screen}");
        // The board widget of the game screen: pieces as glyphs, not plain mode's letters.
        assert!(screen.contains('●') && screen.contains('○'), "{screen}");
        assert_eq!(replay.last_move(), vec![15, 22]);
    }

    /// The screen's rows, trailing spaces trimmed.
    fn rows(replay: &Replay) -> Vec<String> {
        let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
        terminal.draw(|frame| replay.draw(frame)).unwrap();
        let buffer = terminal.backend().buffer();
        (0..24)
            .map(|y| {
                let row: String = (0..80).map(|x| buffer[(x, y)].symbol()).collect();
                row.trim_end().to_owned()
            })
            .collect()
    }

    #[test]
    fn a_flipped_replay_draws_the_board_from_the_second_side() {
        let mut replay = replay();
        let files = |rows: Vec<String>| {
            rows.into_iter()
                .find(|row| row.contains('a') && row.contains('h') && !row.contains("vs"))
                .map(|row| row.split_whitespace().collect::<String>())
        };
        // White at the bottom, the diagram's way; flipped, Black, as its player's game screen
        // has it.
        assert_eq!(files(rows(&replay)).as_deref(), Some("abcdefgh"));
        replay.flipped = true;
        assert_eq!(files(rows(&replay)).as_deref(), Some("hgfedcba"));
    }

    #[test]
    fn an_illegal_record_is_refused() {
        let mut record = GameRecord::new(GameKind::Checkers);
        record.moves = vec!["11-19".into()];
        let err = Replay::new(record).unwrap_err().to_string();
        assert!(err.contains("move 1 (\"11-19\")"), "{err}");
    }
}
