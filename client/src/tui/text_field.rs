//! One line of text being typed (the create dialog's position or file, the chat line, a typed
//! move), on the well-kept `tui-input` widget: the usual editing keys (Left/Right, Home/End,
//! Ctrl-A/E, Ctrl-U, Ctrl-W, Ctrl-K, Delete, Alt-Backspace) and a cursor inside the text.
//! This wrapper adds a length limit and draws the text with its cursor in a given width.

use ratatui::crossterm::event::{Event, KeyEvent};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use tui_input::backend::crossterm::to_input_request;
use tui_input::{Input, InputRequest};

/// A line of text and its cursor.
#[derive(Debug, Clone, Default)]
pub struct TextField {
    input: Input,
    /// The most characters it takes (0: no limit).
    max_chars: usize,
}

impl PartialEq for TextField {
    fn eq(&self, other: &TextField) -> bool {
        self.value() == other.value() && self.input.cursor() == other.input.cursor()
    }
}

impl Eq for TextField {}

impl TextField {
    /// An empty field taking at most `max_chars` characters.
    #[must_use]
    pub fn new(max_chars: usize) -> TextField {
        TextField {
            input: Input::default(),
            max_chars,
        }
    }

    /// The field holding `text`, the cursor at its end.
    #[must_use]
    pub(crate) fn with_value(mut self, text: &str) -> TextField {
        let text: String = match self.max_chars {
            0 => text.to_owned(),
            max => text.chars().take(max).collect(),
        };
        self.input = Input::new(text);
        self
    }

    /// The text.
    #[must_use]
    pub fn value(&self) -> &str {
        self.input.value()
    }

    /// Whether nothing is typed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.value().is_empty()
    }

    /// Applies an editing key; returns whether the key was one (Enter, Esc, Up, Down and Tab
    /// are not: the caller decides what they do).
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let Some(request) = to_input_request(&Event::Key(key)) else {
            return false;
        };
        if let InputRequest::InsertChar(_) = request
            && self.max_chars > 0
            && self.value().chars().count() >= self.max_chars
        {
            return true;
        }
        self.input.handle(request);
        true
    }

    /// The visible part of the text in `width` columns, with the cursor shown in reverse video
    /// (a block after the text when it is at the end).
    #[must_use]
    pub fn line(&self, width: u16, style: Style) -> Line<'static> {
        let width = usize::from(width.max(2));
        let scroll = self.input.visual_scroll(width - 1);
        let chars: Vec<char> = self.value().chars().collect();
        let cursor = self.input.cursor();
        let visible_end = (scroll + width - 1).min(chars.len());
        let before: String = chars[scroll.min(cursor)..cursor].iter().collect();
        let at: String = chars.get(cursor).map_or(" ".to_owned(), char::to_string);
        let after: String = chars
            .get(cursor + 1..visible_end.max(cursor + 1))
            .map(|rest| rest.iter().collect())
            .unwrap_or_default();
        Line::from(vec![
            Span::styled(before, style),
            Span::styled(at, style.add_modifier(Modifier::REVERSED)),
            Span::styled(after, style),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};

    fn press(field: &mut TextField, code: KeyCode, modifiers: KeyModifiers) {
        field.key(KeyEvent::new(code, modifiers));
    }

    fn typed(field: &mut TextField, text: &str) {
        for c in text.chars() {
            press(field, KeyCode::Char(c), KeyModifiers::NONE);
        }
    }

    #[test]
    fn the_usual_editing_keys_work() {
        let mut field = TextField::new(0);
        typed(&mut field, "W:W21 B1");
        press(&mut field, KeyCode::Char('w'), KeyModifiers::CONTROL);
        assert_eq!(field.value(), "W:W21 ");
        press(&mut field, KeyCode::Home, KeyModifiers::NONE);
        typed(&mut field, "x");
        assert_eq!(field.value(), "xW:W21 ");
        press(&mut field, KeyCode::Right, KeyModifiers::NONE);
        press(&mut field, KeyCode::Backspace, KeyModifiers::NONE);
        assert_eq!(field.value(), "x:W21 ");
        press(&mut field, KeyCode::End, KeyModifiers::NONE);
        typed(&mut field, "!");
        assert_eq!(field.value(), "x:W21 !");
        press(&mut field, KeyCode::Char('u'), KeyModifiers::CONTROL);
        assert_eq!(field.value(), "", "Ctrl-U clears, it types no u");
        assert!(!field.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)));
    }

    #[test]
    fn the_limit_holds_and_the_cursor_shows() {
        let mut field = TextField::new(3);
        typed(&mut field, "abcdef");
        assert_eq!(field.value(), "abc");
        press(&mut field, KeyCode::Left, KeyModifiers::NONE);
        let line = field.line(10, Style::default());
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "abc");
        assert_eq!(line.spans[1].content, "c");
        assert!(
            line.spans[1]
                .style
                .add_modifier
                .contains(Modifier::REVERSED)
        );
        // A long text scrolls so the cursor stays in view.
        let mut long = TextField::new(0).with_value(&"x".repeat(50));
        press(&mut long, KeyCode::End, KeyModifiers::NONE);
        let line = long.line(10, Style::default());
        let width: usize = line.spans.iter().map(|s| s.content.chars().count()).sum();
        assert!(width <= 10, "{line:?}");
    }
}
