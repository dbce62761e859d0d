//! What reaches the game from the screen: intents resolved by [`crate::game::intent::resolve`] (the
//! same function plain mode uses) and sent, a typed move, and the board's cells chosen with the
//! keyboard or the mouse (click-click or drag).

use super::{App, Screen};
use crate::game::board_geometry::Cell;
use crate::game::intent::{Intent, Refused, Request, resolve};
use crate::game::selection::Choice;
use crate::game::words::result_sentence;
use crate::tui::ui::layout::GameLayout;
use kingme_shared::AnyGame;
use kingme_shared::protocol::ClientMessage;
use ratatui::crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

impl App {
    /// Resolves an intent about the game on screen and sends it, or says why not.
    pub(super) fn act(&mut self, intent: Intent, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        let legal = table.legal_texts();
        match resolve(intent, table, &legal) {
            Ok(Request { message, note }) => {
                table.sent(&message);
                out.push(message);
                if let Some(note) = note {
                    self.say(note);
                }
            }
            // Enter on an empty chat line only closes it.
            Err(Refused::EmptyChat) => {}
            Err(err) => self.complain(err.to_string()),
        }
    }

    /// Plays a typed move: a number from the list or a move's text.
    pub(super) fn submit(&mut self, text: String, out: &mut Vec<ClientMessage>) {
        if !text.is_empty() {
            self.act(Intent::Move(text), out);
        }
    }

    /// The player chose a cell (keyboard or mouse).
    pub(super) fn choose_cell(&mut self, cell: Cell, out: &mut Vec<ClientMessage>) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        table.cursor = cell;
        if table.review.is_some() {
            self.complain("you are looking at an earlier position: Esc returns to the game");
            return;
        }
        let Some(square) = table.geometry().square_at(cell) else {
            self.complain("pieces stand on the dark squares only");
            return;
        };
        let refusal = if table.your_side.is_none() {
            Some("you are watching this game".to_owned())
        } else if let Some(result) = table.result() {
            Some(format!(
                "the game is over: {}",
                result_sentence(table.kind, result)
            ))
        } else if !table.is_my_turn() {
            Some(format!(
                "wait: it is {}'s turn",
                table.game.side_name(table.game.side_to_move())
            ))
        } else if table.pending_move.is_some() {
            Some("your move was sent; waiting for the server".to_owned())
        } else {
            None
        };
        let (Some(me), None) = (table.your_side, &refusal) else {
            self.complain(refusal.unwrap_or_default());
            return;
        };
        let name = AnyGame::square_name(table.kind, square);
        match table
            .selection
            .choose(square, &table.game, &table.candidates, me)
        {
            Choice::PickedUp { .. } => self.say(format!(
                "picked up the piece on {name}; choose where it goes (Esc lets go)"
            )),
            Choice::Continued { .. } => {
                self.say(format!("landed on {name}; the capture goes on: jump again"));
            }
            Choice::PutBack => self.say("put the piece back"),
            Choice::Play { text } => self.act(Intent::Move(text), out),
            Choice::Refused { reason } => self.complain(reason),
        }
    }

    pub(super) fn mouse(&mut self, mouse: MouseEvent, out: &mut Vec<ClientMessage>) {
        // The review board covers the game: its clicks are not the game's.
        if self.overlay.is_some() || self.screen != Screen::Game || self.review_screen.is_some() {
            return;
        }
        let Some(table) = &self.table else {
            return;
        };
        let geometry = table.geometry();
        let area = Rect::new(0, 0, self.size.0, self.size.1);
        let Some(board) = GameLayout::new(area, &geometry).board else {
            return;
        };
        let cell = board.hit(mouse.column, mouse.row);
        match mouse.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.drag_from = None;
                if let Some(cell) = cell {
                    self.choose_cell(cell, out);
                    let holding = self
                        .table
                        .as_ref()
                        .and_then(|t| t.selection.path().last().copied());
                    self.drag_from = holding;
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                // Releasing on another square than where the drag began puts the piece there.
                let from = self.drag_from.take();
                if let (Some(from), Some(cell)) = (from, cell)
                    && geometry.square_at(cell) != Some(from)
                {
                    self.choose_cell(cell, out);
                }
            }
            _ => {}
        }
    }
}
