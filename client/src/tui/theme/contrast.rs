//! WCAG 2.x contrast of the themes' colours: a colour code's sRGB value (the terminal's named
//! and indexed colours as xterm's default palette shows them) and the ratio of two colours (by
//! the testkit's one WCAG formula, which the web page's test uses too). The tests draw every game's board with a piece of each side on every square it
//! can stand on, in every theme, and check each piece against the square under it.

use ratatui::style::Color;

/// The red, green and blue of a colour code, or `None` for the terminal's own default colour
/// (`Reset`), whose value only the terminal knows.
fn rgb(colour: Color) -> Option<(u8, u8, u8)> {
    /// xterm's default palette for the 16 basic colours, in index order.
    const BASIC: [(u8, u8, u8); 16] = [
        (0x00, 0x00, 0x00),
        (0xcd, 0x00, 0x00),
        (0x00, 0xcd, 0x00),
        (0xcd, 0xcd, 0x00),
        (0x00, 0x00, 0xee),
        (0xcd, 0x00, 0xcd),
        (0x00, 0xcd, 0xcd),
        (0xe5, 0xe5, 0xe5),
        (0x7f, 0x7f, 0x7f),
        (0xff, 0x00, 0x00),
        (0x00, 0xff, 0x00),
        (0xff, 0xff, 0x00),
        (0x5c, 0x5c, 0xff),
        (0xff, 0x00, 0xff),
        (0x00, 0xff, 0xff),
        (0xff, 0xff, 0xff),
    ];
    let indexed = |index: u8| -> (u8, u8, u8) {
        match index {
            0..=15 => BASIC[usize::from(index)],
            16..=231 => {
                let level = |step: u8| if step == 0 { 0 } else { 55 + 40 * step };
                let cube = index - 16;
                (level(cube / 36), level(cube / 6 % 6), level(cube % 6))
            }
            _ => {
                let grey = 8 + 10 * (index - 232);
                (grey, grey, grey)
            }
        }
    };
    Some(match colour {
        Color::Reset => return None,
        Color::Rgb(red, green, blue) => (red, green, blue),
        Color::Indexed(index) => indexed(index),
        Color::Black => indexed(0),
        Color::Red => indexed(1),
        Color::Green => indexed(2),
        Color::Yellow => indexed(3),
        Color::Blue => indexed(4),
        Color::Magenta => indexed(5),
        Color::Cyan => indexed(6),
        Color::Gray => indexed(7),
        Color::DarkGray => indexed(8),
        Color::LightRed => indexed(9),
        Color::LightGreen => indexed(10),
        Color::LightYellow => indexed(11),
        Color::LightBlue => indexed(12),
        Color::LightMagenta => indexed(13),
        Color::LightCyan => indexed(14),
        Color::White => indexed(15),
    })
}

/// WCAG 2.x contrast ratio of two colours, 1 to 21; `None` when either is `Reset`.
pub(super) fn contrast_ratio(one: Color, other: Color) -> Option<f64> {
    let ((r1, g1, b1), (r2, g2, b2)) = (rgb(one)?, rgb(other)?);
    Some(kingme_testkit::contrast::contrast_ratio(
        [r1, g1, b1],
        [r2, g2, b2],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board_geometry::BoardGeometry;
    use crate::tui::theme::Theme;
    use crate::tui::ui::board::{BoardPicture, Highlight, draw, glyph};
    use kingme_shared::board_view::{BoardPiece, PieceKind};
    use kingme_shared::{GameKind, Side};
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    /// WCAG's least contrast for graphics and large text.
    const LEAST: f64 = 3.0;

    #[test]
    fn ratios_match_wcag_examples() {
        let ratio = |one, other| contrast_ratio(one, other).expect("colours");
        assert!((ratio(Color::Black, Color::White) - 21.0).abs() < 1e-9);
        assert!((ratio(Color::Rgb(7, 7, 7), Color::Rgb(7, 7, 7)) - 1.0).abs() < 1e-9);
        // #777777 on white is the well-known 4.48:1.
        let grey = ratio(Color::Rgb(0x77, 0x77, 0x77), Color::White);
        assert!((grey - 4.48).abs() < 0.01, "{grey}");
        // Indexed colours: 16 is black, 231 white, 244 the grey #808080.
        assert_eq!(rgb(Color::Indexed(16)), Some((0, 0, 0)));
        assert_eq!(rgb(Color::Indexed(231)), Some((255, 255, 255)));
        assert_eq!(rgb(Color::Indexed(244)), Some((0x80, 0x80, 0x80)));
        assert_eq!(rgb(Color::Indexed(9)), rgb(Color::LightRed));
        assert_eq!(contrast_ratio(Color::Reset, Color::White), None);
    }

    /// The pieces of a game, of both sides.
    fn pieces(kind: GameKind) -> Vec<BoardPiece> {
        let kinds: &[PieceKind] = match kind {
            GameKind::Checkers => &[PieceKind::Man, PieceKind::King],
            GameKind::Pente => &[PieceKind::Stone],
            GameKind::TicTacToe => &[PieceKind::Cross, PieceKind::Nought],
        };
        kinds
            .iter()
            .flat_map(|&kind| [Side::First, Side::Second].map(|side| BoardPiece { kind, side }))
            .collect()
    }

    /// Every piece of `kind`'s game drawn on every square of its board (each square marked
    /// with `highlight`, if given), at each cell size, as (what, foreground, background) for
    /// each drawn glyph.
    fn drawn_pieces(
        kind: GameKind,
        theme: &Theme,
        highlight: Option<Highlight>,
    ) -> Vec<(String, Color, Color)> {
        let mut seen = Vec::new();
        for piece in pieces(kind) {
            for flipped in [false, true] {
                let geometry = BoardGeometry::new(kind, flipped);
                for size in [Rect::new(0, 0, 120, 60), Rect::new(0, 0, 40, 12)] {
                    let Some(area) = geometry.fit(size) else {
                        continue;
                    };
                    let lookup = |_square: u16| Some(piece);
                    let picture = BoardPicture {
                        geometry,
                        piece: &lookup,
                        highlights: highlight
                            .map(|highlight| (0..400).map(|square| (square, highlight)).collect())
                            .unwrap_or_default(),
                        cursor: None,
                        numbers: false,
                    };
                    let mut buf = Buffer::empty(size);
                    draw(&mut buf, area, &picture, theme);
                    for cell in buf.content() {
                        if cell.symbol() == glyph(piece) {
                            seen.push((format!("{kind} {piece:?}"), cell.fg, cell.bg));
                        }
                    }
                }
            }
        }
        seen
    }

    #[test]
    fn every_piece_reaches_three_to_one_on_every_square_it_stands_on_in_every_theme() {
        check_pieces_reach_three_to_one(None);
    }

    /// The review board marks the best move's squares, and its first square holds a piece.
    #[test]
    fn every_piece_reaches_three_to_one_on_the_best_moves_mark_in_every_theme() {
        check_pieces_reach_three_to_one(Some(Highlight::BestMove));
    }

    /// A piece stands on the last move's squares (where it went) and on the selection (the
    /// held piece).
    #[test]
    fn every_piece_reaches_three_to_one_on_the_last_move_and_the_selection_in_every_theme() {
        check_pieces_reach_three_to_one(Some(Highlight::LastMove));
        check_pieces_reach_three_to_one(Some(Highlight::Selected));
    }

    fn check_pieces_reach_three_to_one(highlight: Option<Highlight>) {
        let mut failures = Vec::new();
        for theme in Theme::ALL.iter().filter(|theme| !theme.monochrome) {
            for kind in GameKind::ALL {
                let drawn = drawn_pieces(kind, theme, highlight);
                assert!(!drawn.is_empty(), "{kind} draws its pieces");
                let mut pairs: Vec<_> = drawn
                    .into_iter()
                    .map(|(what, fg, bg)| (what, format!("{fg:?} on {bg:?}"), fg, bg))
                    .collect();
                pairs.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
                pairs.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
                for (what, colours, fg, bg) in pairs {
                    match contrast_ratio(fg, bg) {
                        Some(ratio) if ratio >= LEAST => {}
                        Some(ratio) => failures
                            .push(format!("{}: {what}, {colours}: {ratio:.2}:1", theme.name)),
                        None => failures.push(format!(
                            "{}: {what}, {colours}: a colour theme leaves it to the terminal",
                            theme.name
                        )),
                    }
                }
            }
        }
        assert!(
            failures.is_empty(),
            "below {LEAST}:1\n{}",
            failures.join("\n")
        );
    }

    /// Without colours the contrast is the terminal's own text on its own background, which
    /// the person chose; what the theme must not do is put a piece on a colour or a shade.
    #[test]
    fn monochrome_pieces_are_the_terminals_text_on_its_background() {
        let theme = Theme::ALL
            .iter()
            .find(|theme| theme.monochrome)
            .expect("a monochrome theme");
        for kind in GameKind::ALL {
            let drawn = drawn_pieces(kind, theme, None);
            assert!(!drawn.is_empty(), "{kind} draws its pieces");
            for (what, fg, bg) in drawn {
                assert_eq!((fg, bg), (Color::Reset, Color::Reset), "{what}");
            }
        }
    }
}
