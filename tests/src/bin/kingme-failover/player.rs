//! One person playing noughts and crosses through the client's own connection task (which
//! reconnects to another node by itself), writing every acknowledged move to the ledger; its
//! [`Role`] says whom it opens games against.

use super::{Shared, ledger};
use kingme_client::net::event::{Event, LinkEvent};
use kingme_client::net::{Net, NetConfig, Security};
use kingme_shared::GameKind;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{
    ClientMessage, GameId, GameOptions, GameStatus, Opponent, SeatChoice, ServerMessage,
    TimeControl,
};
use rand::seq::IndexedRandom;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// A player's role: who opens games, and against whom.
#[derive(Debug)]
pub(crate) enum Role {
    /// Opens a game against a bot after each ends.
    AgainstBot,
    /// Opens a game with an open seat and tells its partner which.
    Opener(mpsc::Sender<GameId>),
    /// Joins the games its opener names.
    Joiner(mpsc::Receiver<GameId>),
}

impl Role {
    /// Whom the games this player opens are against; `None` for a player who only joins.
    fn opponent(&self) -> Option<Opponent> {
        match self {
            Role::AgainstBot => Some(Opponent::Bot(Level::Random)),
            Role::Opener(_) => Some(Opponent::OpenSeat),
            Role::Joiner(_) => None,
        }
    }
}

/// One person playing through the client's connection task until `stop`.
pub(crate) async fn player(
    name: String,
    mut node: usize,
    addresses: Arc<Vec<String>>,
    mut role: Role,
    think: Duration,
    shared: Shared,
    stop: CancellationToken,
) {
    let (sender, mut events) = mpsc::channel(256);
    let config = NetConfig {
        retry: Duration::from_millis(250),
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Tls {
            known_servers: None,
        },
        ..NetConfig::new(addresses[node].clone(), name.clone())
    };
    let net = Net::spawn(config, sender, stop.clone());
    // The node being tried after a loss: the one the player is on once welcomed.
    let mut trying = node;
    let open = |net: &Net, opponent: Opponent| {
        let options = GameOptions {
            spec: GameKind::TicTacToe.into(),
            seat: SeatChoice::Side(kingme_shared::Side::First),
            opponent,
            time_control: TimeControl::Unlimited,
            start_position: None,
            rated: false,
        };
        net.outgoing.try_send(ClientMessage::CreateGame(options))
    };
    let mut sides: HashMap<GameId, kingme_shared::Side> = HashMap::new();
    // Turns to answer: the game and when.
    let mut turns: Vec<(Instant, GameId, Vec<String>)> = Vec::new();
    let mut created = false;
    // A game of this player's ended: the next one is opened.
    macro_rules! ended {
        ($game:expr) => {{
            let game: GameId = $game;
            ledger(&shared).finished.insert(game.0);
            turns.retain(|(_, g, _)| *g != game);
            if sides.remove(&game).is_some()
                && let Some(opponent) = role.opponent()
            {
                let _ = open(&net, opponent);
            }
        }};
    }
    loop {
        let next_turn = turns.iter().map(|(at, ..)| *at).min();
        let event = tokio::select! {
            () = stop.cancelled() => break,
            () = sleep_until(next_turn) => {
                let now = Instant::now();
                let (due, rest): (Vec<_>, Vec<_>) = turns.drain(..).partition(|(at, ..)| *at <= now);
                turns = rest;
                for (_, game, legal) in due {
                    if let Some(text) = legal.choose(&mut rand::rng()) {
                        let _ = net.outgoing.try_send(ClientMessage::Move { game, text: text.clone() });
                    }
                }
                continue;
            }
            joined = next_join(&mut role) => {
                if let Some(game) = joined {
                    let _ = net.outgoing.try_send(ClientMessage::Join { game });
                }
                continue;
            }
            event = events.recv() => match event {
                Some(event) => event,
                None => break,
            },
        };
        match event {
            Event::Link(LinkEvent::Connected { resumed: false }) if !created => {
                created = true;
                if let Some(opponent) = role.opponent() {
                    let _ = open(&net, opponent);
                }
            }
            Event::Link(LinkEvent::Lost { next, .. }) => {
                trying = addresses.iter().position(|a| *a == next).unwrap_or(trying);
            }
            Event::Link(LinkEvent::Connected { .. }) => node = trying,
            Event::Link(LinkEvent::Closed { reason }) => {
                eprintln!("kingme-failover: {name} disconnected for good: {reason}");
                break;
            }
            Event::Server(ServerMessage::State(state))
                if matches!(state.status, GameStatus::Over(_)) =>
            {
                // Ended while this player was away (a reconnect's State says so).
                ended!(state.id);
            }
            Event::Server(ServerMessage::State(state)) => {
                let Some(side) = state.your_side else {
                    continue;
                };
                let mut book = ledger(&shared);
                if !sides.contains_key(&state.id) && !book.games.contains(&state.id.0) {
                    book.games.push(state.id.0);
                    book.owner.insert(state.id.0, node);
                    if let Role::Opener(partner) = &role {
                        let _ = partner.try_send(state.id);
                    }
                }
                drop(book);
                sides.insert(state.id, side);
                turns.retain(|(_, game, _)| *game != state.id);
            }
            Event::Server(ServerMessage::YourTurn {
                game, legal_moves, ..
            }) => {
                turns.retain(|(_, g, _)| *g != game);
                turns.push((Instant::now() + think, game, legal_moves));
            }
            Event::Server(ServerMessage::MovePlayed {
                game, ply, record, ..
            }) => {
                let mut book = ledger(&shared);
                book.moved
                    .entry(game.0)
                    .or_default()
                    .entry(ply)
                    .or_insert_with(Instant::now);
                if sides.get(&game) == Some(&record.side) {
                    book.acknowledged.insert((game.0, ply), record.text);
                }
            }
            Event::Server(ServerMessage::GameOver { game, .. }) => ended!(game),
            Event::Server(ServerMessage::MoveRejected { .. }) => ledger(&shared).rejected += 1,
            _ => {}
        }
    }
    net.close().await;
}

pub(crate) async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

pub(crate) async fn next_join(role: &mut Role) -> Option<GameId> {
    match role {
        Role::Joiner(games) => games.recv().await,
        _ => std::future::pending().await,
    }
}
