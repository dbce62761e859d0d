//! Drawing the review board (reads the state, changes nothing): the board with the engine's
//! best move marked, the numbered moves with their marks and the marks counted per side, an
//! evaluation graph over the game with the position shown marked, what was played and what was
//! best, and the keys. Smaller terminals get a narrower move list, a lower graph and shorter
//! words; a board that does not fit is drawn as text.

use super::board::{ReviewBoard, counts};
use super::text::eval_text;
use crate::game::board_geometry::BoardGeometry;
use crate::plain::board_text;
use crate::tui::theme::Theme;
use kingme_shared::Side;
use kingme_shared::review::{MoveClass, Thresholds};
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Wrap};

/// The graph's evaluations are cut at this many units either way (a decided game reaches it).
const GRAPH_LIMIT: f64 = 5.0;

/// Draws the review board into the frame.
pub fn draw(board: &ReviewBoard, frame: &mut Frame<'_>, theme: &Theme) {
    let area = frame.area();
    let compact = area.width < 80 || area.height < 24;
    let graph_height = match area.height {
        40.. => 10,
        24.. => 6,
        _ => 4,
    };
    let [header, body, graph, info, footer] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(6),
        Constraint::Length(graph_height),
        Constraint::Length(if compact { 2 } else { 3 }),
        Constraint::Length(1),
    ])
    .areas(area);
    frame.render_widget(
        Paragraph::new(board.title.as_str()).style(theme.accent_style()),
        header,
    );
    let panel_width = match area.width {
        100.. => 36,
        80.. => 30,
        _ => 22,
    };
    let [board_area, panel] =
        Layout::horizontal([Constraint::Min(10), Constraint::Length(panel_width)]).areas(body);
    draw_board(board, frame, board_area, theme);
    draw_moves(board, frame, panel);
    draw_graph(board, frame, graph);
    draw_info(board, frame, info, compact);
    let keys = if compact {
        "→/n ←/p s/e m mistake q leave"
    } else {
        "→/n forward  ←/p back  Home/s start  End/e end  m next mistake  q/Esc leave"
    };
    frame.render_widget(
        Paragraph::new(keys).style(Style::default().add_modifier(Modifier::DIM)),
        footer,
    );
}

/// The position shown, with the best move from it marked (and the move that led to it).
fn draw_board(board: &ReviewBoard, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
    let best = board
        .next_ply()
        .map(|ply| ply.best_squares.clone())
        .unwrap_or_default();
    let geometry = BoardGeometry::new(board.kind(), board.flipped);
    match geometry.fit(area) {
        Some(fitted) => crate::tui::ui::board::draw_marked(
            frame.buffer_mut(),
            fitted,
            board.position(),
            &best,
            &board.last_move(),
            board.flipped,
            theme,
        ),
        None => frame.render_widget(
            Paragraph::new(board_text(board.position(), board.flipped, false)),
            area,
        ),
    }
}

/// The marks counted per side, then the numbered moves with their marks, the next move to be
/// played from the position shown picked out and kept in view.
fn draw_moves(board: &ReviewBoard, frame: &mut Frame<'_>, area: Rect) {
    let review = &board.review;
    // Each side's marks counted, as "Black: 1?! 0? 2??" (the words are in the guide).
    let mut lines: Vec<Line<'_>> = [Side::First, Side::Second]
        .into_iter()
        .map(|side| {
            let [inaccuracies, mistakes, blunders] = counts(review, side);
            Line::from(format!(
                "{}: {inaccuracies}?! {mistakes}? {blunders}??",
                kingme_shared::AnyGame::kind_side_name(review.kind, side)
            ))
        })
        .collect();
    lines.push(Line::from(""));
    let inner_height = usize::from(area.height.saturating_sub(2));
    let list_room = inner_height.saturating_sub(lines.len()).max(1);
    let first = board.at().saturating_sub(list_room / 2);
    for (index, ply) in review.plies.iter().enumerate().skip(first).take(list_room) {
        let mark = ply.class.mark();
        let text = format!("{:>3}. {} {mark}", index + 1, ply.played);
        let mut style = match ply.class {
            MoveClass::Good => Style::default(),
            MoveClass::Inaccuracy => Style::default().add_modifier(Modifier::ITALIC),
            MoveClass::Mistake | MoveClass::Blunder => {
                Style::default().add_modifier(Modifier::BOLD)
            }
        };
        if index == board.at() {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::from(Span::styled(text, style)));
    }
    frame.render_widget(
        Paragraph::new(lines).block(Block::bordered().title("moves")),
        area,
    );
}

/// The evaluation over the game (the first side up), cut at [`GRAPH_LIMIT`] units, with a
/// vertical line at the position shown.
fn draw_graph(board: &ReviewBoard, frame: &mut Frame<'_>, area: Rect) {
    let scale = f64::from(Thresholds::of(board.kind()).unit);
    let points: Vec<(f64, f64)> = board
        .evals()
        .iter()
        .enumerate()
        .map(|(index, &eval)| {
            let value = (f64::from(eval) / scale).clamp(-GRAPH_LIMIT, GRAPH_LIMIT);
            (index as f64, value)
        })
        .collect();
    let at = board.at() as f64;
    let cursor = [(at, -GRAPH_LIMIT), (at, GRAPH_LIMIT)];
    let level = [(0.0, 0.0), (points.len().max(2) as f64 - 1.0, 0.0)];
    let last = (points.len().max(2) - 1) as f64;
    let chart = Chart::new(vec![
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Line)
            .style(Style::default().add_modifier(Modifier::DIM))
            .data(&level),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .data(&points),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Line)
            .style(Style::default().add_modifier(Modifier::BOLD))
            .data(&cursor),
    ])
    .block(Block::bordered().title(format!(
        "evaluation ({} up)",
        kingme_shared::AnyGame::kind_side_name(board.kind(), Side::First)
    )))
    .x_axis(Axis::default().bounds([0.0, last]))
    .y_axis(Axis::default().bounds([-GRAPH_LIMIT, GRAPH_LIMIT]));
    frame.render_widget(chart, area);
}

/// What was played from the position shown, its mark and evaluation, the best move, and the
/// exact result and missed win where there are.
fn draw_info(board: &ReviewBoard, frame: &mut Frame<'_>, area: Rect, compact: bool) {
    let kind = board.kind();
    let lines = match board.next_ply() {
        None => vec![Line::from(format!(
            "final position ({} moves): {}",
            board.review.plies.len(),
            eval_text(kind, board.review.final_eval)
        ))],
        Some(ply) => {
            let side = kingme_shared::AnyGame::kind_side_name(kind, ply.mover);
            let verdict = match ply.class {
                MoveClass::Good => String::new(),
                class => format!(" {} ({})", class.mark(), class.name()),
            };
            let mut first = format!(
                "{}. {side} played {}{verdict}; best {}",
                board.at() + 1,
                ply.played,
                ply.best
            );
            let mut second = format!(
                "eval {} → {}",
                eval_text(kind, ply.eval_before),
                eval_text(kind, ply.eval_after)
            );
            if let Some(exact) = ply.exact {
                second.push_str(&format!(" · database: {side} to move, a {}", exact.name()));
            }
            if let Some(win) = &ply.missed_win {
                second.push_str(&format!(" · missed win from {win}"));
            }
            if compact {
                first.push_str(&format!(" · {second}"));
                vec![Line::from(first)]
            } else {
                vec![Line::from(first), Line::from(second)]
            }
        }
    };
    let block = if compact {
        Block::default()
    } else {
        Block::default().title("this move")
    };
    frame.render_widget(
        Paragraph::new(lines).wrap(Wrap { trim: true }).block(block),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::replay::Step;
    use crate::archive::review::board::Go;
    use crate::archive::review::text::tests::{THROWN_DRAW, thrown_draw};
    use kingme_shared::{AnyGame, GameKind};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use std::path::PathBuf;

    fn board() -> ReviewBoard {
        let mut game = AnyGame::start(GameKind::TicTacToe);
        let mut positions = vec![game.clone()];
        for text in THROWN_DRAW {
            game.play_text(text).unwrap();
            positions.push(game.clone());
        }
        ReviewBoard::new(
            "kingme game 9 — ann vs bob — 2026.11.29 1-0".to_owned(),
            thrown_draw(),
            positions,
        )
    }

    /// The screen as text, a line per row, trailing spaces trimmed.
    fn render(board: &ReviewBoard, width: u16, height: u16, theme: &Theme) -> String {
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal.draw(|frame| draw(board, frame, theme)).unwrap();
        let buffer = terminal.backend().buffer();
        let mut text = String::new();
        for y in 0..height {
            let line: String = (0..width).map(|x| buffer[(x, y)].symbol()).collect();
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text
    }

    /// Compares with `tests/snapshots/<name>.txt` (written anew with
    /// `KINGME_UPDATE_SNAPSHOTS=1`), as the other screens' snapshots are.
    fn check(name: &str, picture: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/snapshots")
            .join(format!("{name}.txt"));
        if std::env::var_os("KINGME_UPDATE_SNAPSHOTS").is_some() {
            std::fs::write(&path, picture).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap();
        assert_eq!(picture, expected, "snapshot {name} differs:\n{picture}");
    }

    #[test]
    fn at_every_size_the_board_names_the_move_its_mark_and_the_best_move() {
        let mut board = board();
        board.go(Go::NextMistake);
        assert_eq!(board.at(), 1, "the first mistake is noughts' edge");
        for (width, height) in [(120, 40), (80, 24), (60, 20)] {
            let screen = render(&board, width, height, &Theme::ALL[0]);
            assert!(
                screen.contains("2. O played 2 ?? (blunder); best 9"),
                "{width}x{height}:\n{screen}"
            );
            assert!(screen.contains("m "), "{width}x{height}:\n{screen}");
            assert!(screen.contains("evaluation"), "{width}x{height}:\n{screen}");
            // The best move's square is marked on the board, in every theme.
            assert!(
                screen.contains('{') && screen.contains('}'),
                "{width}x{height}:\n{screen}"
            );
            assert!(
                screen.contains("O: 0?! 0? 1??"),
                "{width}x{height}:\n{screen}"
            );
            check(&format!("review_{width}x{height}"), &screen);
        }
    }

    #[test]
    fn the_next_mistake_key_walks_the_mistakes_and_comes_round() {
        let mut board = board();
        board.go(Go::NextMistake);
        board.go(Go::NextMistake);
        assert_eq!(board.at(), 4, "crosses' 3 gives the win back");
        let screen = render(&board, 120, 40, &Theme::ALL[0]);
        assert!(
            screen.contains("5. X played 3 ?? (blunder); best 7"),
            "{screen}"
        );
        assert!(screen.contains("eval X wins → +0.00"), "{screen}");
        board.go(Go::NextMistake);
        assert_eq!(board.at(), 1);
        board.go(Go::Step(Step::End));
        let screen = render(&board, 120, 40, &Theme::ALL[0]);
        assert!(
            screen.contains("final position (7 moves): +0.00"),
            "{screen}"
        );
    }

    #[test]
    fn the_best_moves_squares_are_coloured_with_the_themes_colour() {
        let mut board = board();
        board.go(Go::NextMistake);
        let theme = Theme::ALL[0];
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
        terminal.draw(|frame| draw(&board, frame, &theme)).unwrap();
        let coloured = terminal
            .backend()
            .buffer()
            .content()
            .iter()
            .filter(|cell| cell.bg == theme.best_move)
            .count();
        assert!(coloured > 10, "{coloured} cells");
    }
}
