//! Pente's threat-space search: wins forced by threats the opponent must answer, found without
//! the main search's look at every candidate.
//!
//! A *four* here is any move after which its side would win at once on its next move: a four in
//! a line, or a pair it could take that would bring it to ten captured stones. The only answers to
//! a four are a stone on a winning point, a capture (it may take a stone out of the line or the
//! flanking stone) or a win of the defender's own; any other move leaves every winning point as
//! it was. So a win by continuous fours is decided exactly while trying a handful of replies.
//!
//! A *three* is a move after which its side, given a free move, would win by fours (an open
//! three, a split three, a three beside a capture threat). Its answers are many (a stone that
//! spoils the fours to come, every counter-four, every capture), so every legal point within
//! three of a stone is tried, each followed by the attacker's search again. A stone farther away
//! can only matter to a long line of fours built mostly from stones not yet played, which the
//! small budgets here do not reach; the tests check the wins it claims against every legal reply.

use super::clock::Deadline;
use super::pente_patterns::{for_each_point, gain, near_stones, point_score};
use super::pente_threats::{capture_points, win_in_one, window_points, winning_points};
use crate::game::Game;
use crate::games::pente::{Pente, Point};

/// A win found by threats: the first move and the plies to the win, the winning move included
/// (1: it wins at once; 3: a four, any answer, the win).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreatWin {
    pub first: Point,
    pub plies: u32,
}

/// How far a threat search may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThreatLimits {
    /// The most threats (fours and threes) the attacker may make before its winning move.
    pub threats: u32,
    /// Of them, the most threes (0: fours only, which is exact).
    pub threes: u32,
    /// The most positions visited; beyond it the search answers that it found no win.
    pub nodes: u64,
}

/// Captured stones from which every move near the stones is tried as a four: two more pairs
/// could win, so a stone flanking a pair may threaten the fifth.
const CAPTURE_RACE: u16 = 6;

/// The state of one threat search.
pub struct ThreatSearch {
    limits: ThreatLimits,
    deadline: Option<Deadline>,
    nodes: u64,
    exhausted: bool,
}

impl ThreatSearch {
    /// A search under `limits`, and stopping at `deadline` if one is given.
    #[must_use]
    pub fn new(limits: ThreatLimits, deadline: Option<Deadline>) -> ThreatSearch {
        ThreatSearch {
            limits,
            deadline,
            nodes: 0,
            exhausted: false,
        }
    }

    /// Positions visited so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A win by threats for the side to move, if one is found within the limits.
    pub fn find(&mut self, game: &Pente) -> Option<ThreatWin> {
        if game.outcome().is_some() {
            return None;
        }
        let mut work = game.clone();
        self.attack(&mut work, self.limits.threats, self.limits.threes)
    }

    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limits.nodes
            || (self.nodes.is_multiple_of(32) && self.deadline.is_some_and(Deadline::has_passed))
        {
            self.exhausted = true;
        }
        self.exhausted
    }

    /// The attacker (the side to move) wins at once, or makes a threat every answer to which
    /// still loses.
    fn attack(&mut self, game: &mut Pente, threats: u32, threes: u32) -> Option<ThreatWin> {
        if self.out_of_budget() {
            return None;
        }
        if let Some(first) = win_in_one(game) {
            return Some(ThreatWin { first, plies: 1 });
        }
        if threats == 0 {
            return None;
        }
        let us = game.side_to_move();
        let board = game.board();
        // Fours: a point in a window of three (read from the line words), a capture (it may open
        // a line or reach the fifth pair), and near the fifth pair any point near the stones.
        let mut fours = window_points(board, us, 3);
        let takes = capture_points(board, us);
        let race = if game.captured_by(us) >= CAPTURE_RACE {
            near_stones(board, 1)
        } else {
            [0; 19]
        };
        for ((four, take), near) in fours.iter_mut().zip(takes).zip(race) {
            *four |= take | near;
        }
        let mut candidates = Vec::new();
        for_each_point(&fours, |point| {
            if game.is_legal(point) {
                candidates.push((point_score(game, point), point, true));
            }
        });
        if threes > 0 {
            for_each_point(&near_stones(board, 2), |point| {
                let row = fours[usize::from(point.row())];
                if row & (1 << point.column()) == 0
                    && game.is_legal(point)
                    && gain(board, us, point).threes > 0
                {
                    candidates.push((point_score(game, point), point, false));
                }
            });
        }
        candidates.sort_by_key(|&(score, point, _)| (std::cmp::Reverse(score), point));
        let mut ours = Vec::new();
        for (_, point, may_be_four) in candidates {
            let undo = game.play_unchecked(point);
            let answered = if game.outcome().is_some() {
                None
            } else {
                if may_be_four {
                    winning_points(game, us, &mut ours);
                } else {
                    ours.clear();
                }
                if !ours.is_empty() {
                    self.defend_four(game, &ours, threats - 1, threes)
                } else if threes > 0 && self.is_three(game, threats - 1) {
                    self.defend_three(game, threats - 1, threes - 1)
                } else {
                    None
                }
            };
            game.undo(undo);
            if let Some(plies) = answered {
                return Some(ThreatWin {
                    first: point,
                    plies: plies + 1,
                });
            }
            if self.exhausted {
                break;
            }
        }
        None
    }

    /// Whether the attacker, who just moved, would win by fours if it could move again.
    fn is_three(&mut self, game: &Pente, threats: u32) -> bool {
        if threats == 0 || win_in_one(game).is_some() {
            return false;
        }
        let mut passed = game.with_turn_passed();
        self.attack(&mut passed, threats, 0).is_some()
    }

    /// The defender (to move) faces a four: the plies to the attacker's win against its best
    /// answer, or `None` if some answer holds.
    fn defend_four(
        &mut self,
        game: &mut Pente,
        winning: &[Point],
        threats: u32,
        threes: u32,
    ) -> Option<u32> {
        if win_in_one(game).is_some() {
            return None;
        }
        let them = game.side_to_move();
        let mut replies: Vec<Point> = winning
            .iter()
            .copied()
            .filter(|&p| game.is_legal(p))
            .collect();
        for_each_point(&capture_points(game.board(), them), |point| {
            if game.is_legal(point) && !replies.contains(&point) {
                replies.push(point);
            }
        });
        self.answer_all(game, &replies, threats, threes)
    }

    /// The defender faces a three: every legal point within three of a stone is an answer.
    fn defend_three(&mut self, game: &mut Pente, threats: u32, threes: u32) -> Option<u32> {
        if win_in_one(game).is_some() {
            return None;
        }
        let mut replies = Vec::new();
        for_each_point(&near_stones(game.board(), 3), |point| {
            if game.is_legal(point) {
                replies.push(point);
            }
        });
        // Likely defences first, so a refutation is found early; each point scored once, not
        // at every comparison.
        replies.sort_by_cached_key(|&point| std::cmp::Reverse(point_score(game, point)));
        self.answer_all(game, &replies, threats, threes)
    }

    /// Plays each reply and asks the attacker for a win again; the longest win, plus this ply.
    fn answer_all(
        &mut self,
        game: &mut Pente,
        replies: &[Point],
        threats: u32,
        threes: u32,
    ) -> Option<u32> {
        let mut longest = 0;
        for &reply in replies {
            let undo = game.play_unchecked(reply);
            let win = if game.outcome().is_some() {
                None
            } else {
                self.attack(game, threats, threes)
            };
            game.undo(undo);
            longest = longest.max(win?.plies);
        }
        Some(longest + 1)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ai::pente_oracle as oracle;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn game(text: &str) -> Pente {
        Pente::from_position_text(text).unwrap()
    }

    fn fours(threats: u32) -> ThreatLimits {
        ThreatLimits {
            threats,
            threes: 0,
            nodes: 1_000_000,
        }
    }

    fn find(text: &str, limits: ThreatLimits) -> Option<ThreatWin> {
        ThreatSearch::new(limits, None).find(&game(text))
    }

    #[test]
    fn an_open_three_becomes_an_unstoppable_four() {
        // K10-L10-M10 open at both ends: J10 or N10 makes an open four.
        let win = find("1:K10,L10,M10,A3:A1,S19,S1:0,0", fours(1)).unwrap();
        let point = win.first.to_string();
        assert!(point == "J10" || point == "N10", "{point}");
        assert_eq!(win.plies, 3);
        // With one end blocked the four can be stopped.
        assert_eq!(find("1:K10,L10,M10,A3:J10,S19,S1:0,0", fours(3)), None);
        // A capture that breaks whichever four is made refutes it: L10 sits in the pair L10-L11
        // that the second player (on L12) can take from L9.
        assert_eq!(
            find("1:K10,L10,M10,L11,A3:L12,A1,S19,S1:0,0", fours(1)),
            None
        );
    }

    /// The threat search at the expert's root.
    const ROOT: ThreatLimits = ThreatLimits {
        threats: 6,
        threes: 2,
        nodes: 20_000,
    };

    fn point(text: &str) -> Point {
        crate::games::pente::parse_point(text).unwrap()
    }

    /// The position after `moves` (their texts) from `text`.
    fn after(text: &str, moves: &[&str]) -> Pente {
        let mut position = game(text);
        for &mv in moves {
            position.play(&point(mv)).unwrap();
        }
        position
    }

    /// The first player's K10 makes two open threes at once (J10-L10 on row 10, K11-K12 on
    /// column K): the second player can block only one, and the other becomes an open four.
    const DOUBLE_THREE: &str = "1:J10,L10,K11,K12,A10:A1,S19,A19,S1,S10:0,0";

    /// The same with the second player's S10 on J12: it flanks the pair K11-L10 (a diagonal),
    /// so M9 takes K11 and L10, a stone out of each three, and one stone put back mends only one.
    pub(crate) const THREES_A_CAPTURE_BREAKS: &str = "1:J10,L10,K11,K12,A10:A1,S19,A19,S1,J12:0,0";

    #[test]
    fn a_win_through_threes_is_no_win_when_a_capture_breaks_them() {
        let free = ThreatSearch::new(ROOT, None).find(&game(DOUBLE_THREE));
        assert_eq!(free.map(|win| win.first), Some(point("K10")), "{free:?}");
        // From the rules: after K10, M9 takes K11 and L10.
        let taken = after(THREES_A_CAPTURE_BREAKS, &["K10", "M9"]);
        assert!(taken.board().stone_at(point("K11")).is_none());
        assert!(taken.board().stone_at(point("L10")).is_none());
        let broken = ThreatSearch::new(ROOT, None).find(&game(THREES_A_CAPTURE_BREAKS));
        assert_ne!(
            broken.map(|win| win.first),
            Some(point("K10")),
            "{broken:?}"
        );
    }

    /// The double three again, with L11 added to the first player and M12 to the second, and
    /// the second player eight stones up: K10 would make the pair K10-L11 (a diagonal) that J9
    /// takes for the fifth pair.
    pub(crate) const THREES_AND_A_FIFTH_PAIR: &str = "1:J10,L10,K11,K12,L11:A1,S19,A19,S1,M12:0,8";

    #[test]
    fn a_win_through_threes_is_no_win_when_the_defender_takes_the_fifth_pair() {
        // With no stones taken, K10 wins (J9 takes the pair, and K10 is played again).
        let at_zero = THREES_AND_A_FIFTH_PAIR.replace(":0,8", ":0,0");
        let win = ThreatSearch::new(ROOT, None).find(&game(&at_zero));
        assert_eq!(win.map(|win| win.first), Some(point("K10")), "{win:?}");
        // From the rules: after K10 the second player wins at once, by J9.
        let threatened = after(THREES_AND_A_FIFTH_PAIR, &["K10"]);
        assert_eq!(oracle::winning_moves(&threatened), vec![point("J9")]);
        // Whatever the threat search claims, its first move leaves no win at once.
        let position = game(THREES_AND_A_FIFTH_PAIR);
        if let Some(win) = ThreatSearch::new(ROOT, None).find(&position) {
            let mut played = position.clone();
            played.play(&win.first).unwrap();
            assert!(
                played.outcome().is_some() || oracle::winning_moves(&played).is_empty(),
                "{win:?}"
            );
        }
    }

    #[test]
    fn fours_chain_to_a_win() {
        // Two closed threes crossing: C3-E3 (closed at B3) and F4-F6 (closed at F7). The first
        // player plays F3, a four on row 3 (C3-F3, G3 open) and a four on column F (F3-F6,
        // F2 open): a double four.
        let text = "1:C3,D3,E3,F4,F5,F6,K10:B3,F7,A1,S19,S1,A19:0,0";
        let win = find(text, fours(1)).unwrap();
        assert_eq!(win.first.to_string(), "F3");
        assert_eq!(win.plies, 3);
    }

    /// Whether the side to move wins by continuous fours within `threats` threat moves, from
    /// the rules alone: every legal move is tried as a threat (it is one when the mover would
    /// then win at once, by the oracle), and every legal answer that does not lose at once is
    /// tried against it.
    fn oracle_vcf(game: &Pente, threats: u32) -> bool {
        if !oracle::winning_moves(game).is_empty() {
            return true;
        }
        if threats == 0 {
            return false;
        }
        game.legal_moves().into_iter().any(|point| {
            let mut after = game.clone();
            after.play(&point).unwrap();
            if after.outcome().is_some() || oracle::threats(&after).is_empty() {
                return false;
            }
            oracle::saving_moves(&after).into_iter().all(|reply| {
                let mut answered = after.clone();
                answered.play(&reply).unwrap();
                answered.outcome().is_none() && oracle_vcf(&answered, threats - 1)
            })
        })
    }

    #[test]
    fn wins_by_fours_are_found_exactly_as_the_rules_decide() {
        // Crowded positions from random play; the threat search and the brute force over the
        // threat tree must agree both ways.
        let mut rng = StdRng::seed_from_u64(31);
        let (mut checked, mut wins) = (0, 0);
        while checked < 24 {
            let Some(game) = oracle::crowded_position(10 + checked % 12, &mut rng) else {
                continue;
            };
            if !oracle::threats(&game).is_empty() && oracle::winning_moves(&game).is_empty() {
                // Facing a win: the rules' answer is a loss or a defence; both are covered by
                // the saving-move tests.
                continue;
            }
            checked += 1;
            let expected = oracle_vcf(&game, 1);
            let found = ThreatSearch::new(fours(1), None).find(&game);
            assert_eq!(found.is_some(), expected, "{}", game.position_text());
            wins += usize::from(expected && oracle::winning_moves(&game).is_empty());
        }
        assert!(wins > 0, "no position had a win by a four to check");
    }

    /// Whether `first` wins for the side to move against every legal reply within `plies`: the
    /// defender's replies are every legal move (the rules), the attacker's later moves come from
    /// `choose`, given the plies left (any chooser will do: what is checked is that no defence
    /// holds).
    fn holds(
        game: &Pente,
        first: Point,
        plies: u32,
        choose: &dyn Fn(&Pente, u32) -> Option<Point>,
    ) -> bool {
        let us = game.side_to_move();
        let mut after = game.clone();
        after.play(&first).unwrap();
        if after.outcome().is_some() {
            return after.outcome().and_then(|o| o.winner()) == Some(us);
        }
        if plies < 3 {
            return false;
        }
        after.legal_moves().into_iter().all(|reply| {
            let mut answered = after.clone();
            answered.play(&reply).unwrap();
            if answered.outcome().is_some() {
                return false;
            }
            if !oracle::winning_moves(&answered).is_empty() {
                return true;
            }
            choose(&answered, plies - 2)
                .is_some_and(|next| holds(&answered, next, plies - 2, choose))
        })
    }

    #[test]
    fn wins_through_threes_hold_against_every_legal_reply() {
        // Two threats at most, so a claimed win is at most five plies long and every defence
        // can be tried.
        let limits = ThreatLimits {
            threats: 2,
            threes: 1,
            nodes: 200_000,
        };
        let choose = |g: &Pente, plies: u32| {
            let within = ThreatLimits {
                threats: (plies - 1) / 2,
                ..limits
            };
            ThreatSearch::new(within, None).find(g).map(|win| win.first)
        };
        let mut rng = StdRng::seed_from_u64(5);
        let (mut positions, mut through_threes) = (0, 0);
        while through_threes < 2 && positions < 400 {
            let Some(game) = oracle::crowded_position(6 + positions % 10, &mut rng) else {
                continue;
            };
            positions += 1;
            let Some(win) = ThreatSearch::new(limits, None).find(&game) else {
                continue;
            };
            let by_fours = ThreatSearch::new(fours(2), None).find(&game).is_some();
            if by_fours {
                // Exact, and checked against the rules above.
                continue;
            }
            assert!(win.plies <= 5, "{win:?}");
            assert!(
                holds(&game, win.first, win.plies, &choose),
                "{}: {win:?} does not hold",
                game.position_text()
            );
            through_threes += 1;
        }
        assert!(
            through_threes > 0,
            "no win through a three in {positions} positions"
        );
    }
}
