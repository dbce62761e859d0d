//! A new game comes into being in two steps, so that nothing of it is announced before it is
//! stored: [`create`] takes its lease (on a cluster node) and stores its record, and only then
//! does [`Created::open`] start its table, which shows it to its members and the lobby. If
//! either write fails the creation is refused with the reason, and the game never existed for
//! anyone: no `State`, no `YourTurn`, no `GameOver` of a game the database does not hold, and
//! no unfinished record left for a failover watcher to take over later.

use super::Table;
use crate::game::context::TableContext;
use crate::game::judge::Judge;
use crate::game::ownership::Lease;
use crate::game::seat::Seat;
use crate::game::table_handle::TableHandle;
use crate::options::GameSetup;
use crate::players::Session;
use crate::refusal::Refusal;
use crate::storage::NewGame;
use crate::storage::records::unix_ms;
use kingme_shared::protocol::GameId;
use std::sync::Arc;

/// A new game stored (under its lease on a cluster node) whose table is not open yet: nobody has
/// heard of it.
#[derive(Debug)]
#[must_use = "the game is stored but its table is not open until `open` is called"]
pub struct Created {
    context: Arc<TableContext>,
    id: GameId,
    setup: GameSetup,
    seats: [Seat; 2],
    spectators: Vec<Arc<Session>>,
    lease: Option<Lease>,
}

/// Stores a new game with these seats (on a cluster node after taking its lease, and fenced by
/// it). `id` comes from [`crate::game::TableRegistry::next_id`] (the database's). A refusal if
/// the lease or the record could not be had: then nothing was announced, and a lease taken is
/// given back.
pub async fn create(
    context: &Arc<TableContext>,
    id: GameId,
    setup: GameSetup,
    seats: [Seat; 2],
    spectators: Vec<Arc<Session>>,
) -> Result<Created, Refusal> {
    let lease = match &context.ownership {
        Some(ownership) => Some(ownership.acquire(id).await.inspect_err(|refusal| {
            tracing::error!(game = %id, %refusal, "could not take a new game's lease");
        })?),
        None => None,
    };
    let standard = setup.spec.standard_start();
    let record = NewGame {
        id,
        spec: setup.spec,
        time_control: setup.time_control,
        rated: setup.rated,
        start_position: (setup.start != standard).then(|| setup.start.position_text()),
        seats: [seats[0].participant(), seats[1].participant()],
        created_at_ms: unix_ms(),
    };
    let storage = context
        .storage
        .fenced(lease.as_ref().map(|lease| lease.fence));
    if let Err(reason) = storage.create_game(record).await {
        tracing::error!(game = %id, %reason, "could not store a new game; its creation is refused");
        return Err(Refusal::CreationNotStored(reason));
    }
    Ok(Created {
        context: Arc::clone(context),
        id,
        setup,
        seats,
        spectators,
        lease,
    })
}

impl Created {
    /// The new game's id.
    #[must_use]
    pub fn id(&self) -> GameId {
        self.id
    }

    /// Opens the stored game's table, registers it and starts its task. Seated people and
    /// spectators get the game's state; the game starts if both seats are filled.
    pub fn open(self) -> TableHandle {
        let judge = Judge::new(&self.setup);
        let (mut table, handle, receiver) =
            Table::new(&self.context, self.id, self.setup, judge, self.seats);
        table.hold(self.lease);
        table.spectators = self.spectators;
        // Games are created from the lobby, by a person's (or a guest's) request.
        table.created_by_person = true;
        tracing::info!(game = %self.id, spec = %table.setup.spec, "game created");
        table.welcome_members();
        self.context.tasks.spawn(table.run(receiver));
        handle
    }
}
