//! What the database kept, read at the end: every game's record over the protocol (`Export`)
//! and every stored move straight from PostgreSQL, to find the acknowledged moves that were lost.

use anyhow::Context;
use kingme_client::net::event::Event;
use kingme_client::net::{Net, NetConfig, Security};
use kingme_shared::protocol::{ClientMessage, GameId, ServerMessage};
use std::collections::HashMap;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// The moves of every game as stored, through a connection of its own.
pub(crate) async fn stored_records(
    addr: &str,
    games: &[u64],
) -> anyhow::Result<HashMap<u64, Vec<String>>> {
    let (sender, mut events) = mpsc::channel(256);
    let stop = CancellationToken::new();
    let config = NetConfig {
        secrets: None,
        keys: None,
        resume_tokens: None,
        security: Security::Tls {
            known_servers: None,
        },
        ..NetConfig::new(
            addr.to_owned(),
            format!("fo{:04x}-auditor", rand::random::<u16>()),
        )
    };
    let net = Net::spawn(config, sender, stop.clone());
    let mut records = HashMap::new();
    for &game in games {
        // A refusal (the request limit, a reconnect) is tried again after a pause.
        for _ in 0..5 {
            net.outgoing
                .send(ClientMessage::Export { game: GameId(game) })
                .await?;
            let moves = tokio::time::timeout(Duration::from_secs(10), async {
                while let Some(event) = events.recv().await {
                    match event {
                        Event::Server(ServerMessage::Record { game: g, record }) if g.0 == game => {
                            return Some(record.moves);
                        }
                        Event::Server(ServerMessage::Error { .. }) => return None,
                        _ => {}
                    }
                }
                None
            })
            .await
            .ok()
            .flatten();
            if let Some(moves) = moves {
                records.insert(game, moves);
                break;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        // At most a few hundred requests a second: under the server's request limit.
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop.cancel();
    net.close().await;
    Ok(records)
}

/// Every stored move of `games`, read from the database itself: (game, ply) → text.
pub(crate) fn stored_moves(db: &str, games: &[u64]) -> anyhow::Result<HashMap<(u64, u32), String>> {
    let mut client = postgres::Client::connect(db, postgres::NoTls)
        .with_context(|| format!("cannot connect to {db}"))?;
    let ids: Vec<i64> = games
        .iter()
        .filter_map(|&id| i64::try_from(id).ok())
        .collect();
    let rows = client.query(
        "SELECT game_id, ply, text FROM moves WHERE game_id = ANY($1)",
        &[&ids],
    )?;
    let mut moves = HashMap::new();
    for row in rows {
        let (game, ply, text): (i64, i32, String) =
            (row.try_get(0)?, row.try_get(1)?, row.try_get(2)?);
        moves.insert((u64::try_from(game)?, u32::try_from(ply)?), text);
    }
    Ok(moves)
}
