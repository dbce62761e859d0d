//! Picking a piece up and putting it down: the state machine behind keyboard and mouse moves.
//!
//! It works for every game from the legal moves' effects alone ([`Candidate`]): a move whose
//! path is one square is a placement (Pente, noughts and crosses) and is played by choosing
//! that square; a longer path is a piece moving (checkers), picked up on its first square and
//! put down square by square, so a multi-jump continues until the capture is complete. When a
//! choice is refused the reason says why in words a player understands (for example that a
//! capture is compulsory elsewhere).

use kingme_shared::{AnyGame, MoveError, Side};

/// A legal move as the selection sees it: its text (sent to the server) and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The move's text, as the server takes it.
    pub text: String,
    /// The squares the piece passes, from where it stands.
    pub path: Vec<u16>,
    /// The squares whose pieces the move captures.
    pub removed: Vec<u16>,
}

impl Candidate {
    /// The legal moves of a game, in the order the game generates them.
    #[must_use]
    pub fn all(game: &AnyGame) -> Vec<Candidate> {
        game.legal_moves()
            .iter()
            .map(|mv| {
                let effect = game.move_effect(mv);
                Candidate {
                    text: game.move_text(mv),
                    path: effect.path,
                    removed: effect.removed,
                }
            })
            .collect()
    }

    fn is_placement(&self) -> bool {
        self.path.len() == 1
    }
}

/// What the player holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Selection {
    /// Nothing held.
    #[default]
    Idle,
    /// A piece picked up and the squares it has been put down on so far (the first is where it
    /// stood).
    Holding {
        /// The squares so far, the first where the piece stood.
        path: Vec<u16>,
    },
}

/// What a choice of square did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// A piece was picked up.
    PickedUp {
        /// The square it stands on.
        square: u16,
    },
    /// A multi-jump goes on: the piece landed and must jump again.
    Continued {
        /// The square it landed on.
        square: u16,
    },
    /// The move is complete: send this text.
    Play {
        /// The move's text, as the server takes it.
        text: String,
    },
    /// The piece was put back where it stood.
    PutBack,
    /// Nothing happened, for this reason.
    Refused {
        /// Why, in words for the person.
        reason: String,
    },
}

impl Selection {
    /// The squares the held piece has visited, empty when holding nothing.
    #[must_use]
    pub fn path(&self) -> &[u16] {
        match self {
            Selection::Idle => &[],
            Selection::Holding { path } => path,
        }
    }

    /// Where the held piece may be put down next.
    #[must_use]
    pub(crate) fn destinations(&self, moves: &[Candidate]) -> Vec<u16> {
        let path = self.path();
        if path.is_empty() {
            return Vec::new();
        }
        let mut next: Vec<u16> = moves
            .iter()
            .filter(|c| c.path.len() > path.len() && c.path.starts_with(path))
            .map(|c| c.path[path.len()])
            .collect();
        next.sort_unstable();
        next.dedup();
        next
    }

    /// The squares holding a piece that can move (nothing for placement games).
    #[must_use]
    pub fn movable(moves: &[Candidate]) -> Vec<u16> {
        let mut from: Vec<u16> = moves
            .iter()
            .filter(|c| !c.is_placement())
            .map(|c| c.path[0])
            .collect();
        from.sort_unstable();
        from.dedup();
        from
    }

    /// The player chose `square` (Enter on the cursor, or a click). `me` is the player's side;
    /// `moves` are the legal moves of `game`, which must be the player's turn.
    pub fn choose(&mut self, square: u16, game: &AnyGame, moves: &[Candidate], me: Side) -> Choice {
        match std::mem::take(self) {
            Selection::Idle => self.pick(square, game, moves, me),
            Selection::Holding { path } => self.put(path, square, game, moves, me),
        }
    }

    /// Lets go of the held piece.
    pub fn clear(&mut self) {
        *self = Selection::Idle;
    }

    fn pick(&mut self, square: u16, game: &AnyGame, moves: &[Candidate], me: Side) -> Choice {
        let name = AnyGame::square_name(game.kind(), square);
        if let Some(placement) = moves
            .iter()
            .find(|c| c.is_placement() && c.path[0] == square)
        {
            return Choice::Play {
                text: placement.text.clone(),
            };
        }
        if moves
            .iter()
            .any(|c| !c.is_placement() && c.path[0] == square)
        {
            *self = Selection::Holding { path: vec![square] };
            return Choice::PickedUp { square };
        }
        let reason = match game.piece_on(square) {
            _ if moves.is_empty() => "the game is over".to_owned(),
            Some(piece) if piece.side != me => format!(
                "the piece on {name} is {}'s; you play {}",
                game.side_name(piece.side),
                game.side_name(me)
            ),
            Some(_) if moves.iter().all(Candidate::is_placement) => format!("{name} is taken"),
            Some(_) => {
                let captures: Vec<u16> = Self::movable(
                    &moves
                        .iter()
                        .filter(|c| !c.removed.is_empty())
                        .cloned()
                        .collect::<Vec<_>>(),
                );
                if captures.is_empty() {
                    format!("the piece on {name} has no legal move")
                } else {
                    format!(
                        "a capture is compulsory elsewhere: take with the piece on {}",
                        names(game, &captures)
                    )
                }
            }
            None if moves.iter().all(Candidate::is_placement) => match game.parse_move(&name) {
                Err(MoveError::Illegal { problem, .. }) => problem,
                Err(err) => err.to_string(),
                Ok(_) => format!("{name} cannot be played now"),
            },
            None => format!(
                "there is no piece on {name}; pick up one of yours: {}",
                names(game, &Self::movable(moves))
            ),
        };
        Choice::Refused { reason }
    }

    fn put(
        &mut self,
        path: Vec<u16>,
        square: u16,
        game: &AnyGame,
        moves: &[Candidate],
        me: Side,
    ) -> Choice {
        if path.len() == 1 && path[0] == square {
            return Choice::PutBack;
        }
        let mut longer = path.clone();
        longer.push(square);
        if let Some(done) = moves.iter().find(|c| c.path == longer) {
            return Choice::Play {
                text: done.text.clone(),
            };
        }
        if moves.iter().any(|c| c.path.starts_with(&longer)) {
            *self = Selection::Holding { path: longer };
            return Choice::Continued { square };
        }
        // Mid-way through no other piece may be taken; before that, choosing another of
        // one's own movable pieces picks that one up instead.
        if path.len() == 1
            && moves
                .iter()
                .any(|c| c.path.len() > 1 && c.path[0] == square)
        {
            *self = Selection::Holding { path: vec![square] };
            return Choice::PickedUp { square };
        }
        let destinations = Selection::Holding { path: path.clone() }.destinations(moves);
        let from = AnyGame::square_name(game.kind(), path[path.len() - 1]);
        let reason = if path.len() > 1 {
            format!(
                "the capture is not complete: jump on from {from} to {}",
                names(game, &destinations)
            )
        } else if game.piece_on(square).is_some_and(|p| p.side == me) {
            format!(
                "the piece on {} cannot move; the piece on {from} can go to {}",
                AnyGame::square_name(game.kind(), square),
                names(game, &destinations)
            )
        } else {
            format!(
                "the piece on {from} cannot go to {}; it can go to {}",
                AnyGame::square_name(game.kind(), square),
                names(game, &destinations)
            )
        };
        *self = Selection::Holding { path };
        Choice::Refused { reason }
    }
}

fn names(game: &AnyGame, squares: &[u16]) -> String {
    squares
        .iter()
        .map(|&s| AnyGame::square_name(game.kind(), s))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::GameKind;

    fn setup(kind: GameKind, position: Option<&str>) -> (AnyGame, Vec<Candidate>) {
        let game = match position {
            Some(text) => AnyGame::from_position_text(kind, text).expect("position"),
            None => AnyGame::start(kind),
        };
        let moves = Candidate::all(&game);
        (game, moves)
    }

    #[test]
    fn a_checkers_man_is_picked_up_and_put_down() {
        let (game, moves) = setup(GameKind::Checkers, None);
        let mut selection = Selection::default();
        assert_eq!(
            selection.choose(11, &game, &moves, Side::First),
            Choice::PickedUp { square: 11 }
        );
        assert_eq!(selection.destinations(&moves), vec![15, 16]);
        assert_eq!(
            selection.choose(15, &game, &moves, Side::First),
            Choice::Play {
                text: "11-15".to_owned()
            }
        );
        assert_eq!(selection, Selection::Idle);
    }

    #[test]
    fn choosing_the_same_square_puts_the_piece_back_and_another_piece_swaps() {
        let (game, moves) = setup(GameKind::Checkers, None);
        let mut selection = Selection::default();
        selection.choose(11, &game, &moves, Side::First);
        assert_eq!(
            selection.choose(11, &game, &moves, Side::First),
            Choice::PutBack
        );
        assert_eq!(selection, Selection::Idle);
        selection.choose(11, &game, &moves, Side::First);
        assert_eq!(
            selection.choose(10, &game, &moves, Side::First),
            Choice::PickedUp { square: 10 }
        );
    }

    #[test]
    fn refusals_say_why() {
        let (game, moves) = setup(GameKind::Checkers, None);
        let mut selection = Selection::default();
        let reason = |choice: Choice| match choice {
            Choice::Refused { reason } => reason,
            other => panic!("expected a refusal, got {other:?}"),
        };
        let text = reason(selection.choose(22, &game, &moves, Side::First));
        assert!(text.contains("is White's; you play Black"), "{text}");
        let text = reason(selection.choose(1, &game, &moves, Side::First));
        assert!(text.contains("the piece on 1 has no legal move"), "{text}");
        let text = reason(selection.choose(14, &game, &moves, Side::First));
        assert!(text.contains("there is no piece on 14"), "{text}");
        assert!(text.contains("9, 10, 11, 12"), "{text}");
        selection.choose(11, &game, &moves, Side::First);
        let text = reason(selection.choose(18, &game, &moves, Side::First));
        assert!(
            text.contains("cannot go to 18; it can go to 15, 16"),
            "{text}"
        );
        assert_eq!(selection.path(), &[11], "still holding after a refusal");
    }

    #[test]
    fn a_capture_elsewhere_is_compulsory() {
        // Black to move: 14 can jump 18, 1 could step but must not.
        let (game, moves) = setup(GameKind::Checkers, Some("B:W18:B1,14"));
        let mut selection = Selection::default();
        let choice = selection.choose(1, &game, &moves, Side::First);
        assert_eq!(
            choice,
            Choice::Refused {
                reason: "a capture is compulsory elsewhere: take with the piece on 14".to_owned()
            }
        );
        assert_eq!(Selection::movable(&moves), vec![14]);
    }

    #[test]
    fn a_multi_jump_continues_square_by_square() {
        // The White king on 22 has two double-double jumps around the four Black men.
        let (game, moves) = setup(GameKind::Checkers, Some("W:WK22:B9,10,17,18"));
        let mut selection = Selection::default();
        assert_eq!(
            selection.choose(22, &game, &moves, Side::Second),
            Choice::PickedUp { square: 22 }
        );
        assert_eq!(selection.destinations(&moves), vec![13, 15]);
        assert_eq!(
            selection.choose(13, &game, &moves, Side::Second),
            Choice::Continued { square: 13 }
        );
        let refused = selection.choose(22, &game, &moves, Side::Second);
        assert!(
            matches!(&refused, Choice::Refused { reason } if reason.contains("the capture is not complete: jump on from 13 to 6")),
            "{refused:?}"
        );
        assert_eq!(
            selection.choose(6, &game, &moves, Side::Second),
            Choice::Continued { square: 6 }
        );
        assert_eq!(
            selection.choose(15, &game, &moves, Side::Second),
            Choice::Continued { square: 15 }
        );
        let Choice::Play { text } = selection.choose(22, &game, &moves, Side::Second) else {
            panic!("the last landing plays the move");
        };
        let mut after = game.clone();
        after.play_text(&text).expect("the chosen move is legal");
        assert!(after.piece_on(17).is_none() && after.piece_on(9).is_none());
    }

    #[test]
    fn placements_play_at_once_or_say_why_not() {
        let (game, moves) = setup(GameKind::Pente, None);
        let mut selection = Selection::default();
        let centre = AnyGame::square_at(GameKind::Pente, 9, 9).expect("K10");
        assert_eq!(
            selection.choose(centre, &game, &moves, Side::First),
            Choice::Play {
                text: "K10".to_owned()
            }
        );
        let Choice::Refused { reason } = selection.choose(0, &game, &moves, Side::First) else {
            panic!("only the centre opens");
        };
        assert!(reason.contains("K10"), "{reason}");

        let (game, moves) = setup(GameKind::TicTacToe, Some("X--------"));
        let Choice::Refused { reason } = selection.choose(1, &game, &moves, Side::Second) else {
            panic!("taken");
        };
        assert_eq!(reason, "the piece on 1 is X's; you play O");
        let (game, moves) = setup(GameKind::TicTacToe, Some("XXXOO----"));
        let Choice::Refused { reason } = selection.choose(9, &game, &moves, Side::Second) else {
            panic!("over");
        };
        assert_eq!(reason, "the game is over");
    }
}
