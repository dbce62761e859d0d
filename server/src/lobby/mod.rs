//! The lobby: the list of games a client sees (and the [`feed`] that pushes it to the clients
//! watching the lobby), game creation with its checks, the games brought back at start
//! ([`resume`]), and a finished game read back from the archive for whoever watches it after
//! its table closed. It works on the table registry and opens tables; it never reaches into a
//! table's game.

pub mod feed;
pub mod resume;

use crate::config::LiveLimits;
use crate::game::TableHandle;
use crate::game::archive;
use crate::game::seat::Seat;
use crate::game::table;
use crate::game::{TableContext, TableRegistry};
use crate::options;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::Side;
use kingme_shared::protocol::{GameId, GameOptions, GameState, GameSummary, Opponent, SeatChoice};
use std::sync::Arc;

/// The lobby of one server.
#[derive(Debug)]
pub struct Lobby {
    tables: Arc<TableContext>,
    limits: Arc<LiveLimits>,
    feed: feed::GameListFeed,
}

impl Lobby {
    /// A lobby opening tables with `tables`, holding each player to the most open or running
    /// games `limits` allow at the time, and pushing its list to watchers through `feed`.
    #[must_use]
    pub fn new(
        tables: Arc<TableContext>,
        limits: Arc<LiveLimits>,
        feed: feed::GameListFeed,
    ) -> Lobby {
        Lobby {
            tables,
            limits,
            feed,
        }
    }

    /// A receiver of the lists pushed from now on (the current one counts as seen).
    #[must_use]
    pub fn watch(&self) -> feed::GameListFeed {
        let mut feed = self.feed.clone();
        feed.mark_unchanged();
        feed
    }

    /// The register of open tables.
    #[must_use]
    pub fn registry(&self) -> &TableRegistry {
        &self.tables.registry
    }

    /// The game list (see [`TableRegistry::list`]).
    #[must_use]
    pub fn list(&self) -> Vec<GameSummary> {
        self.registry().list()
    }

    /// The table of a game, or a refusal naming the id.
    pub fn table(&self, id: GameId) -> Result<TableHandle, Refusal> {
        self.registry().table(id)
    }

    /// A finished game whose table has closed, as a spectator sees it at its end: read from the
    /// archive and its moves replayed through the rules, off the reactor. There is no such game
    /// to watch when the archive has none, or only an unfinished one (another node's, or one
    /// the next start resumes).
    pub async fn archived(&self, id: GameId) -> Result<GameState, Refusal> {
        let stored = self.tables.storage.game(id).await.map_err(|err| {
            tracing::error!(%err, game = %id, "could not read an archived game");
            Refusal::StorageRead(err)
        })?;
        let stored = stored.ok_or(Refusal::NoSuchGame(id))?;
        let read = tokio::task::spawn_blocking(move || archive::finished_state(&stored)).await;
        match read {
            Ok(Ok(Some(state))) => Ok(state),
            Ok(Ok(None)) => Err(Refusal::NoSuchGame(id)),
            Ok(Err(err)) => {
                tracing::error!(%err, game = %id, "an archived game does not replay");
                Err(Refusal::NoSuchGame(id))
            }
            Err(err) => {
                tracing::error!(%err, game = %id, "reading an archived game failed");
                Err(Refusal::NoSuchGame(id))
            }
        }
    }

    /// Creates a game for `session` with `options`: checks them, seats the creator and the
    /// opponent, stores the game, and only then opens the table (which sends the creator the
    /// game's state): a game that cannot be stored is refused, with nothing of it announced.
    /// Waits for a game id when a burst of new games used up those reserved ahead.
    pub async fn create_game(
        &self,
        session: &Arc<Session>,
        options: &GameOptions,
    ) -> Result<TableHandle, Refusal> {
        let limit = self.limits.current().max_games_per_player;
        if self.registry().active_among(&session.games()) >= limit {
            return Err(Refusal::TooManyGames(limit));
        }
        let setup = options::validate(options)?;
        let creator = match options.seat {
            SeatChoice::Side(side) => Some(side),
            SeatChoice::Random => Some(if rand::random() {
                Side::First
            } else {
                Side::Second
            }),
            SeatChoice::Spectate => None,
        };
        let mut seats = [Seat::empty(), Seat::empty()];
        if let Some(side) = creator {
            seats[side.index()] = Seat::human(Arc::clone(session));
        }
        if let Opponent::Bot(level) = options.opponent {
            let side = creator.map_or(Side::Second, Side::opponent);
            seats[side.index()] = Seat::bot(level, self.tables.bots.clone());
        }
        let spectators = if creator.is_none() {
            vec![Arc::clone(session)]
        } else {
            Vec::new()
        };
        let id = self.registry().next_id(&self.tables.storage).await?;
        Ok(table::create(&self.tables, id, setup, seats, spectators)
            .await?
            .open())
    }
}
