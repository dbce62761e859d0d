//! Failover: every node watches the listed games, and takes over each whose lease lapsed (its
//! node died, or stopped) by the path a restarted server resumes its games on: the lease first
//! (so the old owner can write nothing more), then the game read from the database and
//! replayed through the rules, clocks as after the last stored move, bots seated again, and
//! each person's seat held for whoever proves the name's key on this node (a guest's for its
//! resume token). A game found over, or never started, is unlisted (the latter closed as
//! aborted, as at a restart). While a game's table is being opened, requests for it here wait
//! for the table (`TableRegistry::opening`). Each game taken over counts in
//! `kingme_takeovers_total`.

use super::lease::{LeaseError, Leases};
use crate::game::TableContext;
use crate::game::table;
use crate::lobby::resume::seats_of;
use crate::players::Sessions;
use crate::storage::Participant;
use crate::storage::records::unix_ms;
use crate::telemetry;
use kingme_shared::domain::{EndReason, GameId, GameResult};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What a node looks after: its leases, its tables and its sessions.
#[derive(Debug, Clone)]
pub struct Watcher {
    pub leases: Leases,
    pub tables: Arc<TableContext>,
    pub sessions: Arc<Sessions>,
}

impl Watcher {
    /// Looks for lapsed leases every `every` until `stop`.
    pub async fn watch(self, every: Duration, stop: CancellationToken) {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = tick.tick() => {}
            }
            // Redis errors are logged by the link (once per outage); the next round tries again.
            if let Ok(false) = self.leases.games_listed().await {
                self.list_unfinished_games().await;
            }
            if self.leases.settling() {
                continue;
            }
            let Ok(games) = self.leases.listed_games().await else {
                continue;
            };
            for game in games {
                if stop.is_cancelled() {
                    return;
                }
                if self.tables.registry.table(game).is_ok() {
                    continue;
                }
                if let Ok(false) = self.leases.is_held(game).await
                    && let Err(err) = self.take_over(game).await
                {
                    tracing::warn!(game = %game, %err, "could not take over a game");
                }
            }
        }
    }

    /// Lists every unfinished game of the database (Redis started empty: at the cluster's first
    /// start, or after a restart that lost the list).
    async fn list_unfinished_games(&self) {
        match self.tables.storage.unfinished_games().await {
            Ok(games) => {
                for stored in games {
                    // A Redis failure is logged by the link; the list is not marked done, so
                    // a later round lists it again.
                    if self.leases.list_game(stored.game.id).await.is_err() {
                        return;
                    }
                }
                let _ = self.leases.mark_games_listed().await;
            }
            Err(err) => tracing::error!(%err, "could not read the unfinished games to list them"),
        }
    }

    /// Takes `game` over if nobody holds it.
    async fn take_over(&self, game: GameId) -> Result<(), LeaseError> {
        // From before the lease is ours until the table is listed, a request for the game here
        // waits for the table.
        let _opening = self.tables.registry.opening(game);
        let lease = match self.leases.take(game).await {
            Ok(lease) => lease,
            // Another node was quicker.
            Err(LeaseError::Held) => return Ok(()),
            Err(err) => return Err(err),
        };
        // Read after the claim: every move the old owner committed is in it.
        let storage = &self.tables.storage;
        let Some(stored) = storage.game(game).await? else {
            self.leases.unlist_game(game).await?;
            return Ok(());
        };
        if stored.result.is_some() {
            self.leases.unlist_game(game).await?;
            return Ok(());
        }
        let aborted = GameResult {
            winner: None,
            reason: EndReason::Aborted,
        };
        let fenced = storage.fenced(Some(lease.fence));
        if stored.game.seats.contains(&Participant::Empty) {
            // Its node died before anyone took the open seat: closed as at a restart.
            fenced.finish_game(game, aborted, unix_ms()).await?;
            self.leases.unlist_game(game).await?;
            return Ok(());
        }
        let mut guests = HashMap::new();
        let seats = seats_of(&self.tables, &self.sessions, &stored, &mut guests).await?;
        match table::resume(&self.tables, &stored, seats, Some(lease)) {
            Ok(_) => {
                telemetry::took_over();
                tracing::info!(game = %game, "took over a game whose node is gone");
            }
            Err(err) => {
                tracing::error!(game = %game, %err, "a stored game does not replay; aborting it");
                fenced.finish_game(game, aborted, unix_ms()).await?;
                self.leases.unlist_game(game).await?;
            }
        }
        Ok(())
    }
}
