//! Fencing tokens: when several servers share one database as cluster nodes, each game is run by
//! the node holding its lease, and the database has the last word on who that is. Taking a game
//! over ([`super::Store::claim_lease`]) draws the game's next token in the database; every
//! write of the game's table then carries its token ([`super::Storage::fenced`]) and is checked
//! in the same transaction ([`super::Store::check_lease`]), so a node that lost its lease (a
//! pause, a partition, a lapsed renewal) cannot commit a move over the new owner's, whatever the
//! clocks say. The tokens come from the database rather than from Redis so that they never go
//! backwards when Redis restarts empty.

use super::store::StoreError;
use kingme_shared::domain::GameId;

/// A table's right to write its game: the game and the token its owner drew.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fence {
    pub game: GameId,
    pub token: u64,
}

/// `Ok` when `token` is the game's `latest` stored token, else [`StoreError::Fenced`] (also
/// when no token was ever drawn for the game, or the stored one does not read).
pub fn latest_or_fenced(game: GameId, token: u64, latest: Option<i64>) -> Result<(), StoreError> {
    match latest.map(u64::try_from) {
        Some(Ok(latest)) if latest == token => Ok(()),
        _ => Err(StoreError::Fenced { game, token }),
    }
}
