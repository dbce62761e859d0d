//! Members seated again at their game's node, as their own `Watch` would: when this node lost
//! the game's lease (the game moved), and when some of its messages for this node were lost.
//! [`Again`] is the retry policy: how often and for how long it is tried while no node is seen
//! running the game, and what the player is told if it cannot be done.

use super::{Envelope, Relay, Who};
use crate::game::handover::Handover;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::protocol::{ClientMessage, GameId};
use std::sync::Arc;

impl Relay {
    /// Seats the members of `game`, which this node stopped running (another node took its
    /// lease), again at the node that runs it now: each player connected here as its own
    /// `Watch` would, and each player reached through the relay by its own node (told on its
    /// inbox). Absent players are left alone: they ask for the game when they come back.
    async fn hand_over(self: Arc<Self>, game: GameId, members: Vec<Arc<Session>>) {
        let mut here = Vec::new();
        for session in members {
            if !session.is_relayed() {
                if session.is_connected() {
                    here.push(session);
                }
                continue;
            }
            let Some(player) = Who::of(&session) else {
                continue;
            };
            let route = self.routes.lock().get(&player).cloned();
            if let Some((node, _)) = route {
                // A failure is logged by the link (Redis, and so the player, is out of reach
                // then); nobody listening means the player's node is gone, and its client
                // reconnects elsewhere by itself.
                let _ = self.publish(&node, &Envelope::Moved { game, player }).await;
            }
        }
        futures::future::join_all(
            here.iter()
                .map(|session| self.ask_again(session, game, Again::Moved)),
        )
        .await;
    }

    /// Sends the members here of each of `games` (run at other nodes), and the players here owed
    /// the answer to a join or watch of one, the game's state again, as their own `Watch` would
    /// ask for it: some of its messages may have been lost on the way (this node's subscription
    /// was lost, or the game's node could not publish them).
    pub(super) async fn catch_up(self: Arc<Self>, games: Vec<GameId>) {
        let asking: Vec<(GameId, Arc<Session>)> = games
            .into_iter()
            .flat_map(|game| {
                self.following
                    .owed(game)
                    .into_iter()
                    .map(move |session| (game, session))
            })
            .collect();
        futures::future::join_all(
            asking
                .iter()
                .map(|(game, session)| self.ask_again(session, *game, Again::Lost)),
        )
        .await;
    }

    /// Asks for `game` again for `session`, connected here (see [`Relay::watch_again`]); if it
    /// cannot be done, the player is told why and what to do.
    pub(super) async fn ask_again(
        self: &Arc<Self>,
        session: &Arc<Session>,
        game: GameId,
        why: Again,
    ) {
        let refusal = match self.watch_again(session, game, why).await {
            Ok(()) => return,
            // Its own words say what to do.
            Err(refusal @ Refusal::GuestElsewhere(_)) => {
                session.send(refusal.to_message(false));
                return;
            }
            Err(refusal) => refusal,
        };
        let reason = match refusal {
            Refusal::NoSuchGame(_) => "no node of the service runs it right now".to_owned(),
            Refusal::ClusterUnavailable(err) => format!("Redis does not answer: {err}"),
            other => other.to_string(),
        };
        tracing::warn!(game = %game, player = %session.name, %reason, "{}", why.failed());
        session.send(why.notice(game, reason).to_message(false));
    }

    /// Asks for `game` for `session`, connected here, as its own `Watch` would: at the table
    /// here if this node runs the game now, else through the relay at the node that does (a
    /// seated player's `Watch` is its return, and brings the game's state). While no other node
    /// is seen running it (it is still being taken over, or its node is putting back a lease a
    /// restarted Redis lost), and while Redis does not answer when messages were lost (it is
    /// coming back), this is tried again (see [`Again::tries`]), a third of a lease apart. Done
    /// if the player left or the node stops meanwhile.
    async fn watch_again(
        self: &Arc<Self>,
        session: &Arc<Session>,
        game: GameId,
        why: Again,
    ) -> Result<(), Refusal> {
        let mut tries = 1;
        loop {
            let watch = ClientMessage::Watch { game };
            let asked = match self.registry.table(game) {
                Ok(table) => table.request(Arc::clone(session), watch).await,
                Err(_) => self.forward(session, watch).await,
            };
            match asked {
                Err(refusal) if tries < why.tries() && why.waits_out(&refusal) => {}
                asked => return asked,
            }
            tries += 1;
            tokio::select! {
                () = self.stop.cancelled() => return Ok(()),
                () = tokio::time::sleep(self.ttl / 3) => {}
            }
            if !session.is_connected() {
                return Ok(());
            }
        }
    }
}

/// Why a member's game is asked for again.
#[derive(Debug, Clone, Copy)]
pub(super) enum Again {
    /// The game moved to another node (this one lost its lease): the member is seated there.
    Moved,
    /// Some of the game's messages for this node may have been lost.
    Lost,
}

impl Again {
    /// How many times the game is asked for while no other node is seen running it, a third of
    /// a lease apart: a game that moved is still being taken over for a lease at most; after an
    /// outage the game's node also has to reconnect, put its lease back and subscribe again
    /// (each up to a third of a lease after Redis answers, and a restarted Redis may be slow to
    /// take them all), so it is given longer, to spare its player a false alarm.
    fn tries(self) -> u32 {
        match self {
            Again::Moved => 4,
            Again::Lost => 12,
        }
    }

    /// Whether asking again may go otherwise after `refusal`: not while nobody runs the game
    /// yet; after lost messages, not while Redis does not answer either (it is what lost them,
    /// and is coming back).
    fn waits_out(self, refusal: &Refusal) -> bool {
        match refusal {
            Refusal::NoSuchGame(_) => true,
            Refusal::ClusterUnavailable(_) => matches!(self, Again::Lost),
            _ => false,
        }
    }

    /// What could not be done, for the log.
    fn failed(self) -> &'static str {
        match self {
            Again::Moved => "could not seat a player at the game's new node",
            Again::Lost => {
                "could not send a player at this node a game's state again after its messages \
                 were lost"
            }
        }
    }

    /// What the player is told when it could not be done, and why.
    fn notice(self, game: GameId, reason: String) -> Refusal {
        match self {
            Again::Moved => Refusal::MovedAway { game, reason },
            Again::Lost => Refusal::OutOfTouch { game, reason },
        }
    }
}

/// The relay as the tables' [`Handover`]: a table whose lease was lost hands it its members.
#[must_use]
pub fn handover(relay: &Arc<Relay>) -> Arc<dyn Handover> {
    Arc::new(HandingOver(Arc::clone(relay)))
}

/// The relay seen through [`handover`].
#[derive(Debug)]
struct HandingOver(Arc<Relay>);

impl Handover for HandingOver {
    fn hand_over(&self, game: GameId, members: Vec<Arc<Session>>) {
        // A table never waits on another node.
        tokio::spawn(Arc::clone(&self.0).hand_over(game, members));
    }
}
