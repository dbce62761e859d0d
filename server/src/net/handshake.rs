//! The handshake: the hello within the time limit, the protocol version, the name, and then a
//! person's proof (a signature by the name's key over a fresh challenge, checked against the
//! stored identities) or a guest's admission (its resume token, on a cluster node also one
//! another node issued, found in the shared database; or a new guest session). The admitted
//! session is attached to the connection, an older connection of the same player is told it was
//! taken over, and the player's games send it their state. When the database fails at this point
//! the client is not turned away: it is let in to list and watch games only, and told why.

use super::close_reason::CloseReason;
use super::connection::Connection;
use super::transport::Incoming;
use crate::game::TableCommand;
use crate::players::{Attachment, Session, Sessions};
use crate::refusal::Refusal;
use crate::storage::identity::hash_secret;
use crate::storage::records::unix_ms;
use crate::storage::sanctions::Sanctions;
use crate::storage::{Claim, IdentityError, StoreError};
use futures::StreamExt;
use kingme_shared::identity::{self, ProofScope};
use kingme_shared::protocol::{
    ClientMessage, GameStatus, MAX_NAME_CHARS, MIN_PROTOCOL_VERSION, PROTOCOL_VERSION, SeatHolder,
    ServerMessage,
};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Checks a display name: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control characters.
pub(super) fn check_name(name: &str) -> Result<String, Refusal> {
    let name = name.trim();
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME_CHARS || name.chars().any(char::is_control) {
        return Err(Refusal::BadName(length));
    }
    Ok(name.to_owned())
}

impl<F: Incoming> Connection<F> {
    /// Reads the hello and answers it: a new session or a resumed one.
    pub(super) async fn handshake(
        &mut self,
    ) -> Result<(Arc<Session>, CancellationToken), CloseReason> {
        let limit = self.context.live.current().handshake_timeout;
        let first = tokio::select! {
            () = self.context.connections.cancelled() => return Err(self.shutting_down()),
            first = tokio::time::timeout(limit, self.frames.next()) => first,
        };
        let message = match first {
            Err(_elapsed) => return Err(self.fatal(Refusal::NoHello(limit.as_secs()))),
            Ok(None) => return Err(CloseReason::ClientClosed("before saying hello")),
            Ok(Some(Err(err))) => return Err(self.bad_frame(err)),
            Ok(Some(Ok(message))) => message,
        };
        let ClientMessage::Hello {
            protocol_version,
            name,
            public_key,
            legacy_secret,
            resume,
            guest,
        } = message
        else {
            return Err(self.fatal(Refusal::FirstNotHello));
        };
        if protocol_version < MIN_PROTOCOL_VERSION {
            return Err(self.fatal(Refusal::ClientTooOld(protocol_version)));
        }
        if protocol_version > PROTOCOL_VERSION {
            return Err(self.fatal(Refusal::ClientTooNew(protocol_version)));
        }
        let name = check_name(&name).map_err(|refusal| self.fatal(refusal))?;
        self.version.set(protocol_version);
        let (session, token) = if guest {
            if public_key.is_some() {
                return Err(self.fatal(Refusal::GuestWithKey));
            }
            self.admit_guest(name, resume).await?
        } else {
            let Some(public_key) = public_key else {
                return Err(self.fatal(Refusal::NoKey(name)));
            };
            self.prove(&name, &public_key).await?;
            let claim = Claim::Person {
                public_key,
                legacy_secret,
            };
            let admitted = self
                .context
                .storage
                .admit(name.clone(), claim, unix_ms())
                .await;
            // The name's owner is checked, its ban read and a first use bound, in one
            // request; a banned name is refused and stays unbound.
            match admitted {
                Ok(Sanctions {
                    ban: Some(reason), ..
                }) => return Err(self.fatal(Refusal::Banned { name, reason })),
                Ok(_) => {
                    self.key = Some(public_key);
                    (self.context.sessions.person(&name), String::new())
                }
                Err(IdentityError::Store(err)) => self.admit_watcher(name, err),
                Err(err) => return Err(self.fatal(Refusal::Identity(err))),
            }
        };
        let tables: Vec<_> = session
            .games()
            .into_iter()
            .filter_map(|game| self.context.lobby.table(game).ok())
            .collect();
        let games = tables
            .iter()
            .filter(|table| {
                let summary = table.summary();
                !matches!(summary.status, GameStatus::Over(_))
                    && summary.seats.iter().any(|seat| {
                        matches!(seat, SeatHolder::Human { name, .. } if *name == session.name)
                    })
            })
            .map(|table| table.id)
            .collect();
        tracing::info!(connection = self.id, player = session.id.0, name = %session.name, guest, returning = !tables.is_empty(), "hello");
        // The client's version is the one spoken.
        self.outbox.send(ServerMessage::Welcome {
            protocol_version,
            player: session.id,
            resume_token: token,
            games,
        });
        #[cfg(feature = "cluster")]
        if let Some(membership) = &self.context.membership {
            let mut feed = membership.watch_nodes();
            self.outbox.send(ServerMessage::Nodes {
                addresses: feed.borrow_and_update().clone(),
            });
            self.nodes_feed = Some(feed);
        }
        if let Some(notice) = &self.watch_only {
            self.outbox.send(notice.to_message(false));
        }
        // Only now may the player's games write to this connection: the `Welcome` (and what
        // follows it above) is queued first, whatever a game sends at the same moment.
        let replaced = CancellationToken::new();
        let previous = session.attach(Attachment {
            connection: self.id,
            outbox: self.outbox.clone(),
            replaced: replaced.clone(),
            relayed: false,
        });
        if let Some(previous) = previous {
            previous.replaced.cancel();
        }
        // The player's games (seats kept while it was away, or held by an older connection)
        // send their state to this connection, and the others hear that the player is back.
        for table in tables {
            table
                .send(TableCommand::Reconnected {
                    session: Arc::clone(&session),
                })
                .await;
        }
        // On a cluster node, so do the games other nodes run for it.
        #[cfg(feature = "cluster")]
        if let Some(relay) = &self.context.relay {
            relay.returned(&session);
        }
        Ok((session, replaced))
    }

    /// Challenges the client to prove it holds the private key of `public_key`, and checks the
    /// signature it answers with.
    async fn prove(&mut self, name: &str, public_key: &[u8; 32]) -> Result<(), CloseReason> {
        if !identity::is_valid_public_key(public_key) {
            return Err(self.fatal(Refusal::BadKey));
        }
        let nonce = identity::new_nonce()
            .map_err(|err| self.fatal(Refusal::NoRandomness(err.to_string())))?;
        self.outbox.send(ServerMessage::Challenge {
            server_id: self.context.server_id.clone(),
            nonce,
        });
        let limit = self.context.live.current().handshake_timeout;
        let answer = tokio::select! {
            () = self.context.connections.cancelled() => return Err(self.shutting_down()),
            answer = tokio::time::timeout(limit, self.frames.next()) => answer,
        };
        let signature = match answer {
            Err(_elapsed) => return Err(self.fatal(Refusal::NoProof(limit.as_secs()))),
            Ok(None) => return Err(CloseReason::ClientClosed("before proving its key")),
            Ok(Some(Err(err))) => return Err(self.bad_frame(err)),
            Ok(Some(Ok(ClientMessage::Prove { signature }))) => signature,
            Ok(Some(Ok(_))) => return Err(self.fatal(Refusal::NotProof)),
        };
        let scope = ProofScope {
            server_id: &self.context.server_id,
            nonce: &nonce,
            binding: self.binding,
        };
        identity::verify_proof(public_key, scope, name, &signature).map_err(|err| {
            self.fatal(Refusal::BadProof {
                name: name.to_owned(),
                reason: err.to_string(),
            })
        })
    }

    /// Lets a client in to watch only, because the database failed while checking its name:
    /// a session of its own (no seats, no token, found by nobody), and the notice saying what is
    /// wrong, sent after the `Welcome` and again for every request it refuses.
    fn admit_watcher(&mut self, name: String, err: StoreError) -> (Arc<Session>, String) {
        tracing::error!(connection = self.id, %err, "the database failed at hello; letting the client in to watch only");
        self.watch_only = Some(Refusal::WatchOnly(err));
        (self.context.sessions.watcher(name), String::new())
    }

    /// Lets a guest in: back into the session its token names, or as a new guest under a name
    /// nobody registered, with a new token that is stored so it still works after a restart.
    async fn admit_guest(
        &mut self,
        name: String,
        resume: Option<String>,
    ) -> Result<(Arc<Session>, String), CloseReason> {
        if let Some(token) = resume {
            // A banned name is refused even with its token; a failing database lets the guest
            // back in (its session is in memory), and is said when it next needs the database.
            if let Ok(Some(banned)) = self.ban_on(&name).await {
                return Err(self.fatal(banned));
            }
            let known = self
                .context
                .sessions
                .resume(&token)
                .filter(|session| session.guest);
            let session = match known {
                Some(session) => session,
                None => self.guest_from_elsewhere(name, &token).await?,
            };
            return Ok((session, token));
        }
        // The name's ban is read, the guest let in and its token stored, in one request; a
        // database that fails there lets it in to watch only.
        let token = Sessions::new_guest_token();
        let admitted = self
            .context
            .storage
            .admit_guest(name.clone(), &token, unix_ms())
            .await;
        match admitted {
            Ok(Sanctions {
                ban: Some(reason), ..
            }) => return Err(self.fatal(Refusal::Banned { name, reason })),
            Ok(_) => {}
            Err(IdentityError::Store(err)) => return Ok(self.admit_watcher(name, err)),
            Err(err) => return Err(self.fatal(Refusal::Identity(err))),
        }
        Ok((self.context.sessions.create_guest(name, &token), token))
    }

    /// The session of a guest whose token this node does not know: on a cluster node, a token
    /// another node issued is found in the shared database, and the guest is let in as itself
    /// (its games elsewhere find it by the token's hash, and a game this node takes over later
    /// seats this same session); otherwise, or if the database has no such token, the token is
    /// refused. When the database fails, the guest may watch only, and keeps its token to try
    /// again.
    async fn guest_from_elsewhere(
        &mut self,
        name: String,
        token: &str,
    ) -> Result<Arc<Session>, CloseReason> {
        #[cfg(feature = "cluster")]
        let on_a_cluster = self.context.relay.is_some();
        #[cfg(not(feature = "cluster"))]
        let on_a_cluster = false;
        if !on_a_cluster {
            return Err(self.fatal(Refusal::UnknownToken));
        }
        match self.context.storage.resume_token_owner(token).await {
            Ok(Some(owner)) => Ok(self
                .context
                .sessions
                .vouched_guest(&owner, &hash_secret(token))),
            Ok(None) => Err(self.fatal(Refusal::UnknownToken)),
            Err(err) => Ok(self.admit_watcher(name, err).0),
        }
    }
}
