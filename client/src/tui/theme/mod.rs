//! The colour themes, chosen in the theme dialog like the classic programs' colour dialog: each
//! names the colours of the board, the pieces and the highlights. Pieces are always told apart
//! by their glyph too (filled for the first side, hollow for the second), so the monochrome
//! theme and colour-blind players lose nothing.

#[cfg(test)]
mod contrast;

use ratatui::style::{Color, Modifier, Style};

/// One colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theme {
    /// The theme's name, as the dialog lists it.
    pub name: &'static str,
    pub(crate) light_square: Color,
    pub(crate) dark_square: Color,
    /// The background of intersection boards (Pente) and plain square boards (noughts and
    /// crosses). Pieces stand on it and on dark squares, so both pieces' colours reach WCAG's
    /// 3:1 against both (a test in `theme/contrast.rs` checks it).
    pub board: Color,
    /// Grid lines of intersection boards.
    pub(crate) grid: Color,
    pub(crate) first_piece: Color,
    pub(crate) second_piece: Color,
    /// The square under the keyboard cursor.
    pub cursor: Color,
    /// The picked-up piece and the path it has taken. The piece stands on it, so both pieces'
    /// colours reach 3:1 against it (`theme/contrast.rs` checks it).
    pub selected: Color,
    /// Where the picked-up piece may go.
    pub(crate) destination: Color,
    /// The squares of the last move; the moved piece stands on one, so both pieces' colours
    /// reach 3:1 against it too. A theme whose palette has no such colour but its dark squares'
    /// (the 16-colour one) gives the dark squares' colour, and the board marks the squares.
    pub(crate) last_move: Color,
    /// The squares of the engine's best move on the review board. A piece stands on its first
    /// square, so both pieces' colours reach 3:1 against it (`theme/contrast.rs` checks it).
    pub(crate) best_move: Color,
    /// The colour of text.
    pub text: Color,
    pub(crate) accent: Color,
    /// When set, highlights are drawn with text modifiers instead of colour.
    pub monochrome: bool,
}

impl Theme {
    /// Every theme, in the order the dialog lists them; the first is the default.
    pub const ALL: [Theme; 5] = [
        Theme {
            name: "Classic",
            light_square: Color::Rgb(230, 206, 160),
            dark_square: Color::Rgb(80, 45, 20),
            board: Color::Rgb(85, 50, 25),
            grid: Color::Rgb(190, 150, 90),
            first_piece: Color::Rgb(255, 60, 50),
            second_piece: Color::Rgb(250, 250, 240),
            cursor: Color::Rgb(60, 120, 220),
            selected: Color::Rgb(30, 50, 150),
            destination: Color::Rgb(60, 170, 80),
            last_move: Color::Rgb(70, 20, 90),
            best_move: Color::Rgb(0, 60, 80),
            text: Color::Reset,
            accent: Color::Yellow,
            monochrome: false,
        },
        Theme {
            name: "Ocean",
            light_square: Color::Rgb(200, 220, 235),
            dark_square: Color::Rgb(60, 110, 170),
            board: Color::Rgb(90, 140, 180),
            grid: Color::Rgb(30, 50, 90),
            first_piece: Color::Rgb(20, 20, 30),
            second_piece: Color::Rgb(255, 255, 255),
            cursor: Color::Rgb(240, 140, 40),
            selected: Color::Rgb(150, 130, 20),
            destination: Color::Rgb(80, 200, 120),
            last_move: Color::Rgb(200, 120, 200),
            best_move: Color::Rgb(200, 120, 40),
            text: Color::Reset,
            accent: Color::Cyan,
            monochrome: false,
        },
        Theme {
            name: "Basic 16 colours",
            light_square: Color::Green,
            dark_square: Color::Black,
            board: Color::Black,
            grid: Color::Yellow,
            first_piece: Color::Red,
            second_piece: Color::White,
            cursor: Color::Blue,
            selected: Color::Black,
            destination: Color::Cyan,
            last_move: Color::Black,
            best_move: Color::Black,
            text: Color::Reset,
            accent: Color::Yellow,
            monochrome: false,
        },
        Theme {
            name: "High contrast",
            light_square: Color::White,
            dark_square: Color::Black,
            board: Color::Black,
            grid: Color::White,
            first_piece: Color::LightRed,
            second_piece: Color::LightCyan,
            cursor: Color::LightBlue,
            selected: Color::Indexed(236),
            destination: Color::LightGreen,
            last_move: Color::Indexed(53),
            best_move: Color::Indexed(18),
            text: Color::White,
            accent: Color::LightYellow,
            monochrome: false,
        },
        Theme {
            name: "Monochrome",
            light_square: Color::Reset,
            dark_square: Color::Reset,
            board: Color::Reset,
            grid: Color::Reset,
            first_piece: Color::Reset,
            second_piece: Color::Reset,
            cursor: Color::Reset,
            selected: Color::Reset,
            destination: Color::Reset,
            last_move: Color::Reset,
            best_move: Color::Reset,
            text: Color::Reset,
            accent: Color::Reset,
            monochrome: true,
        },
    ];

    /// The style of a highlight: a background colour, or for monochrome a text modifier. A
    /// highlight given the dark squares' own colour (a palette with nothing else the pieces
    /// stand out on) gets the modifier as well.
    #[must_use]
    pub(crate) fn highlight(&self, colour: Color, modifier: Modifier) -> Style {
        if self.monochrome {
            Style::default().add_modifier(modifier)
        } else if colour == self.dark_square {
            Style::default().bg(colour).add_modifier(modifier)
        } else {
            Style::default().bg(colour)
        }
    }

    /// Whether the last move's squares need marks of their own: its colour (or none, in
    /// monochrome) does not tell them from the dark squares.
    #[must_use]
    pub(crate) fn marks_last_move(&self) -> bool {
        self.monochrome || self.last_move == self.dark_square
    }

    /// The style of the title and other accents.
    #[must_use]
    pub(crate) fn accent_style(&self) -> Style {
        Style::default()
            .fg(self.accent)
            .add_modifier(Modifier::BOLD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_have_distinct_names_and_one_is_monochrome() {
        let mut names: Vec<&str> = Theme::ALL.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Theme::ALL.len());
        assert!(Theme::ALL.iter().any(|t| t.monochrome));
        assert!(Theme::ALL.iter().any(|t| t.name == "High contrast"));
        let mono = Theme::ALL
            .iter()
            .find(|t| t.monochrome)
            .expect("monochrome");
        assert_eq!(
            mono.highlight(Color::Red, Modifier::REVERSED),
            Style::default().add_modifier(Modifier::REVERSED)
        );
    }
}
