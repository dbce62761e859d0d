//! The first-start question of the full-screen client when kingme cannot tell the person's name
//! (no `--name`, no name chosen before, `$USER` and `$LOGNAME` unset, no account name): a box
//! asking for one. The answer is remembered in the config directory, so it is asked once.

use crate::tui::ui::dialogs::centred;
use kingme_shared::protocol::MAX_NAME_CHARS;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

/// The question's state: the name typed so far and what to tell the person.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct NamePrompt {
    pub typed: String,
    pub problem: Option<String>,
}

/// What a key did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Still typing.
    Typing,
    /// A usable name was given.
    Done(String),
    /// The person gave up (Esc, Ctrl+C).
    Cancelled,
}

impl NamePrompt {
    /// Handles one key.
    pub(crate) fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) -> Answer {
        match code {
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => Answer::Cancelled,
            KeyCode::Esc => Answer::Cancelled,
            KeyCode::Enter => match crate::identity::name::clean(&self.typed) {
                Some(name) => Answer::Done(name),
                None => {
                    self.problem = Some("type a name first (Esc gives up)".to_owned());
                    Answer::Typing
                }
            },
            KeyCode::Backspace => {
                self.typed.pop();
                Answer::Typing
            }
            KeyCode::Char(c) if !c.is_control() => {
                if self.typed.chars().count() < MAX_NAME_CHARS {
                    self.typed.push(c);
                    self.problem = None;
                } else {
                    self.problem = Some(format!("a name is at most {MAX_NAME_CHARS} characters"));
                }
                Answer::Typing
            }
            _ => Answer::Typing,
        }
    }

    /// Draws the question in the middle of the screen.
    pub(crate) fn draw(&self, frame: &mut Frame<'_>) {
        let area: Rect = centred(frame.area(), 64, 9);
        frame.render_widget(Clear, area);
        let block = Block::default()
            .borders(Borders::ALL)
            .title(" Welcome to kingme ");
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let mut lines = vec![
            Line::from(
                "What name shall others see? It is kept for next time, with a key that proves it is you.",
            ),
            Line::from(""),
            Line::from(format!("name: {}▏", self.typed)),
            Line::from(""),
        ];
        lines.push(Line::from(
            self.problem
                .clone()
                .unwrap_or_else(|| "Enter to play, Esc to give up".to_owned()),
        ));
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), inner);
    }
}

/// Asks on the terminal (entering and leaving full-screen mode); `None` if the person gave up.
pub(crate) fn ask() -> anyhow::Result<Option<String>> {
    let mut terminal = ratatui::try_init()?;
    let mut prompt = NamePrompt::default();
    let answer = loop {
        if let Err(err) = terminal.draw(|frame| prompt.draw(frame)) {
            ratatui::restore();
            return Err(err.into());
        }
        match event::read() {
            Ok(Event::Key(key)) if key.kind != KeyEventKind::Release => {
                match prompt.key(key.code, key.modifiers) {
                    Answer::Typing => {}
                    Answer::Done(name) => break Some(name),
                    Answer::Cancelled => break None,
                }
            }
            Ok(_) => {}
            Err(err) => {
                ratatui::restore();
                return Err(err.into());
            }
        }
    };
    ratatui::restore();
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn a_name_is_typed_and_checked() {
        let mut prompt = NamePrompt::default();
        let none = KeyModifiers::NONE;
        assert_eq!(prompt.key(KeyCode::Enter, none), Answer::Typing);
        assert!(prompt.problem.as_deref().unwrap().contains("type a name"));
        for c in " Ada".chars() {
            prompt.key(KeyCode::Char(c), none);
        }
        prompt.key(KeyCode::Char('x'), none);
        prompt.key(KeyCode::Backspace, none);
        assert_eq!(
            prompt.key(KeyCode::Enter, none),
            Answer::Done("Ada".to_owned())
        );
        let mut terminal = Terminal::new(TestBackend::new(80, 20)).unwrap();
        terminal.draw(|frame| prompt.draw(frame)).unwrap();
        let screen: String = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .map(|cell| cell.symbol())
            .collect();
        assert!(screen.contains("What name shall others see?"), "{screen}");
        assert!(screen.contains("Ada▏"), "{screen}");
        for _ in 0..MAX_NAME_CHARS + 3 {
            prompt.key(KeyCode::Char('z'), none);
        }
        assert!(prompt.typed.chars().count() <= MAX_NAME_CHARS);
        assert!(prompt.problem.is_some());
        assert_eq!(prompt.key(KeyCode::Esc, none), Answer::Cancelled);
    }
}
