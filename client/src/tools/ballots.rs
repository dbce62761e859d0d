//! The ACF three-move ballot openings for checkers matches, read from `client/data/`, so that a
//! match is not the same game over and over. Barred ballots (held to lose for one side) are left
//! out; every other one is played twice, once with each engine taking Black.

use kingme_shared::{AnyGame, GameKind};

/// The ballot list as shipped (ACF number, three moves, status, optional name; tab-separated).
const BALLOTS: &str = include_str!("../../data/acf-3move-ballots.tsv");

/// One playable opening.
#[derive(Debug, Clone)]
pub struct Ballot {
    /// The ACF number.
    pub number: u32,
    /// The three opening moves, Black, White, Black.
    pub moves: String,
    /// The position after them, White to move.
    pub game: AnyGame,
}

/// Every playable ballot, in ACF order. A line that cannot be read is an error naming it: the
/// file ships with the binary, so this is a build mistake, not user input.
pub fn playable() -> anyhow::Result<Vec<Ballot>> {
    read(false)
}

/// Every ballot, barred ones included (the opening book meets them too).
pub fn all() -> anyhow::Result<Vec<Ballot>> {
    read(true)
}

fn read(with_barred: bool) -> anyhow::Result<Vec<Ballot>> {
    let mut ballots = Vec::new();
    for (index, line) in BALLOTS.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [number, moves, status, ..] = fields[..] else {
            anyhow::bail!(
                "ballot line {}: expected number, moves and status",
                index + 1
            );
        };
        if status == "barred" && !with_barred {
            continue;
        }
        let number = number
            .parse()
            .map_err(|_| anyhow::anyhow!("ballot line {}: bad number {number:?}", index + 1))?;
        let mut game = AnyGame::start(GameKind::Checkers);
        for text in moves.split_whitespace() {
            game.play_text(text).map_err(|err| {
                anyhow::anyhow!("ballot {number} ({moves}): {text} cannot be played: {err}")
            })?;
        }
        ballots.push(Ballot {
            number,
            moves: moves.to_owned(),
            game,
        });
    }
    Ok(ballots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_shared::Side;

    #[test]
    fn every_playable_ballot_is_legal_and_distinct() {
        let ballots = playable().expect("the shipped ballots");
        // 174 ballots, 18 of them barred.
        assert_eq!(ballots.len(), 156);
        let mut positions: Vec<String> = ballots.iter().map(|b| b.game.position_text()).collect();
        positions.sort();
        positions.dedup();
        assert_eq!(positions.len(), 156);
        assert!(
            ballots
                .iter()
                .all(|b| b.game.side_to_move() == Side::Second)
        );
    }
}
