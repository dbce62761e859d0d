//! The slide of a move across the board: the moving piece steps square by square along the
//! move's path and each captured piece disappears once it has been jumped. The animation is a
//! list of frames advanced by ticks; while it runs, the board is drawn from the position after
//! the move with the frame's overrides on top.

use kingme_shared::AnyGame;
use kingme_shared::board_view::BoardPiece;

/// Ticks each frame stays on screen.
pub(crate) const TICKS_PER_FRAME: u8 = 3;

/// A move being shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Animation {
    /// The squares the piece visits, in order.
    path: Vec<u16>,
    /// The piece that moves, as it looked before the move.
    piece: Option<BoardPiece>,
    /// The captured pieces, in the order they are jumped.
    captured: Vec<(u16, Option<BoardPiece>)>,
    frame: usize,
    ticks: u8,
}

impl Animation {
    /// The animation of a move with this path and these removals, played in `before`.
    #[must_use]
    pub fn new(before: &AnyGame, after: &AnyGame, path: &[u16], removed: &[u16]) -> Animation {
        let piece = match path {
            [single] => after.piece_on(*single),
            [from, ..] => before.piece_on(*from),
            [] => None,
        };
        Animation {
            path: path.to_vec(),
            piece,
            captured: removed.iter().map(|&s| (s, before.piece_on(s))).collect(),
            frame: 0,
            ticks: 0,
        }
    }

    /// Advances by one tick; false once the animation has ended.
    pub fn tick(&mut self) -> bool {
        self.ticks += 1;
        if self.ticks >= TICKS_PER_FRAME {
            self.ticks = 0;
            self.frame += 1;
        }
        !self.is_done()
    }

    /// Whether every frame has been shown.
    #[must_use]
    pub(crate) fn is_done(&self) -> bool {
        self.frame >= self.path.len().max(1)
    }

    /// What to draw on `square` instead of the position after the move, if anything:
    /// `Some(None)` draws it empty.
    #[must_use]
    pub fn overlay(&self, square: u16) -> Option<Option<BoardPiece>> {
        if self.is_done() {
            return None;
        }
        let at = self.path.get(self.frame).copied();
        if at == Some(square) {
            return Some(self.piece);
        }
        // Jump i goes from path[i] to path[i + 1]: its victim stays until the piece lands.
        if let Some(index) = self.captured.iter().position(|&(s, _)| s == square) {
            return Some(if self.frame <= index {
                self.captured[index].1
            } else {
                None
            });
        }
        if self.path.contains(&square) {
            return Some(None);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    fn run(animation: &mut Animation) -> usize {
        let mut ticks = 0;
        while animation.tick() {
            ticks += 1;
        }
        ticks + 1
    }

    #[test]
    fn a_double_jump_slides_and_removes_each_victim_when_jumped() {
        let before =
            AnyGame::from_position_text(GameKind::Checkers, "W:WK22:B9,10,17,18").expect("fen");
        let mut after = before.clone();
        let (_, effect) = after.play_text("22x13x6x15x22").expect("legal");
        assert_eq!(effect.path, vec![22, 13, 6, 15, 22]);
        let mut animation = Animation::new(&before, &after, &effect.path, &effect.removed);
        let king = before.piece_on(22);
        // Frame 0: the king still on 22, every victim present.
        assert_eq!(animation.overlay(22), Some(king));
        assert_eq!(animation.overlay(17), Some(before.piece_on(17)));
        assert_eq!(animation.overlay(13), Some(None));
        for _ in 0..TICKS_PER_FRAME {
            animation.tick();
        }
        // Frame 1: on 13, the man on 17 is gone, the others still there.
        assert_eq!(animation.overlay(13), Some(king));
        assert_eq!(animation.overlay(22), Some(None));
        assert_eq!(animation.overlay(17), Some(None));
        assert_eq!(animation.overlay(9), Some(before.piece_on(9)));
        // Squares off the path are drawn from the position.
        assert_eq!(animation.overlay(1), None);
        let remaining = run(&mut animation);
        assert_eq!(remaining, 4 * usize::from(TICKS_PER_FRAME));
        assert_eq!(animation.overlay(22), None);
    }

    #[test]
    fn a_placement_shows_for_one_frame() {
        let before = AnyGame::start(GameKind::TicTacToe);
        let mut after = before.clone();
        let (_, effect) = after.play_text("5").expect("legal");
        let mut animation = Animation::new(&before, &after, &effect.path, &effect.removed);
        assert_eq!(animation.overlay(5), Some(after.piece_on(5)));
        assert_eq!(run(&mut animation), usize::from(TICKS_PER_FRAME));
        assert!(animation.is_done());
    }
}
