//! People's ratings as the client knows them, to write beside their names: each person's rating
//! in each game from the server's `Leaderboard` answer (asked for on connecting, when the lobby
//! comes up and after a rated game), and the change a rated game that ended here made
//! ("ada 1468 (−32)"). A bot level's rating is its measured one ([`crate::game::words::bot_level`]),
//! as on the web page. The wire is unchanged: the change is the difference between the list
//! before and the list after the game.

use kingme_shared::GameKind;
use kingme_shared::protocol::{GameId, LeaderboardEntry};
use std::collections::HashMap;

/// A person's rating before their first rated game, as the server rates (its
/// `storage/ratings.rs`).
const START: i32 = 1500;

/// Who a rating belongs to: a person's name in one game.
type Key = (GameKind, String);

/// The ratings heard from the server, and the changes of the last rated game that ended here.
#[derive(Debug, Clone, Default)]
pub struct Ratings {
    /// Each person's rating (the leaderboard's people, not its bot lines).
    people: HashMap<Key, i32>,
    /// Whether a list has arrived, so that a change can be told from a first list.
    heard: bool,
    /// The rated game that ended here, whose changes the next list shows.
    awaiting: Option<GameId>,
    /// The last rated game that ended here and how it moved its people's ratings.
    changes: Option<(GameId, HashMap<Key, i32>)>,
}

impl Ratings {
    /// Notes that the rated game `game` ended: the next list tells its change.
    pub fn expect_change(&mut self, game: GameId) {
        self.awaiting = Some(game);
    }

    /// A leaderboard arrived: its people's ratings replace those known; after a rated game
    /// ended, each rating that moved is that game's change (from the start rating for a
    /// person the last list did not have).
    pub fn update(&mut self, entries: &[LeaderboardEntry]) {
        let next: HashMap<Key, i32> = entries
            .iter()
            .filter(|entry| !entry.bot)
            .map(|entry| ((entry.kind, entry.player.clone()), entry.rating))
            .collect();
        if let Some(game) = self.awaiting.take()
            && self.heard
        {
            let moved = next
                .iter()
                .filter_map(|(key, &rating)| {
                    let before = self.people.get(key).copied().unwrap_or(START);
                    (rating != before).then(|| (key.clone(), rating - before))
                })
                .collect();
            self.changes = Some((game, moved));
        }
        self.people = next;
        self.heard = true;
    }

    /// `name`'s rating in `kind`, if the server listed one.
    #[must_use]
    pub fn rating(&self, kind: GameKind, name: &str) -> Option<i32> {
        self.people.get(&(kind, name.to_owned())).copied()
    }

    /// How the finished rated game `game` moved `name`'s rating, if it ended here and the
    /// server's list after it came.
    #[must_use]
    pub fn change(&self, game: GameId, kind: GameKind, name: &str) -> Option<i32> {
        let (changed, moved) = self.changes.as_ref()?;
        (*changed == game)
            .then(|| moved.get(&(kind, name.to_owned())).copied())
            .flatten()
    }

    /// What follows `name` in `kind`: `" 1468"`, with the change `game` made where it is
    /// given and known (`" 1468 (−32)"`), or nothing for a person without a rating (a guest,
    /// or someone yet to finish a rated game).
    #[must_use]
    pub fn label(&self, kind: GameKind, name: &str, game: Option<GameId>) -> String {
        let Some(rating) = self.rating(kind, name) else {
            return String::new();
        };
        match game.and_then(|game| self.change(game, kind, name)) {
            Some(change) => format!(" {rating} ({})", signed(change)),
            None => format!(" {rating}"),
        }
    }
}

/// A change with its sign, a true minus for a loss: `+12`, `−32`.
fn signed(change: i32) -> String {
    if change < 0 {
        format!("−{}", change.unsigned_abs())
    } else {
        format!("+{change}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person(name: &str, rating: i32) -> LeaderboardEntry {
        LeaderboardEntry {
            kind: GameKind::Checkers,
            player: name.to_owned(),
            bot: false,
            rating,
            games: 1,
            wins: 0,
            draws: 0,
            losses: 1,
        }
    }

    #[test]
    fn a_rated_game_that_ended_here_shows_its_change_only_with_its_own_id() {
        let mut ratings = Ratings::default();
        ratings.update(&[person("bob", 1530)]);
        assert_eq!(ratings.label(GameKind::Checkers, "bob", None), " 1530");
        assert_eq!(ratings.label(GameKind::Checkers, "ada", None), "");
        assert_eq!(ratings.label(GameKind::Pente, "bob", None), "");

        ratings.expect_change(GameId(7));
        ratings.update(&[person("bob", 1545), person("ada", 1468)]);
        // ada's first rated game: from the start rating.
        let ada = ratings.label(GameKind::Checkers, "ada", Some(GameId(7)));
        assert_eq!(ada, " 1468 (−32)");
        let bob = ratings.label(GameKind::Checkers, "bob", Some(GameId(7)));
        assert_eq!(bob, " 1545 (+15)");
        assert_eq!(
            ratings.label(GameKind::Checkers, "ada", Some(GameId(6))),
            " 1468"
        );

        // A list asked for without a game ending keeps the last game's changes.
        ratings.update(&[person("bob", 1545), person("ada", 1468)]);
        assert_eq!(
            ratings.change(GameId(7), GameKind::Checkers, "ada"),
            Some(-32)
        );
    }

    #[test]
    fn the_first_list_tells_no_change() {
        let mut ratings = Ratings::default();
        ratings.expect_change(GameId(3));
        ratings.update(&[person("ada", 1468)]);
        assert_eq!(ratings.change(GameId(3), GameKind::Checkers, "ada"), None);
    }
}
