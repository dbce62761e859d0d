//! How the rest of the server reaches a table: its command queue and its latest summary. A
//! cheap handle, kept by the registry and handed to connections; the table task itself lives in
//! [`super::table`].

use super::bot::BotAnswer;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::protocol::{ClientMessage, GameId, GameSummary, PlayerId};
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

/// Commands queued for a table before senders wait.
pub const COMMAND_QUEUE: usize = 64;

/// What a table is asked to do.
#[derive(Debug)]
pub enum TableCommand {
    /// A client's game message (join, move, chat, ...), from the session that sent it.
    Request {
        session: Arc<Session>,
        message: ClientMessage,
    },
    /// A player's connection dropped.
    Disconnected { player: PlayerId },
    /// A player came back.
    Reconnected { session: Arc<Session> },
    /// A bot's answer.
    BotMoved(BotAnswer),
    /// An admin banned `name`: its seat here forfeits.
    Banned { name: String },
    /// An admin closed the game: it ends without a result.
    Close,
}

impl From<BotAnswer> for TableCommand {
    fn from(answer: BotAnswer) -> TableCommand {
        TableCommand::BotMoved(answer)
    }
}

/// A cheap handle on a table: where to send commands and its latest summary for the lobby.
#[derive(Debug, Clone)]
pub struct TableHandle {
    pub id: GameId,
    commands: mpsc::Sender<TableCommand>,
    summary: watch::Receiver<GameSummary>,
}

impl TableHandle {
    /// The handle of the table reading `commands` and publishing on `summary`.
    #[must_use]
    pub fn new(
        id: GameId,
        commands: mpsc::Sender<TableCommand>,
        summary: watch::Receiver<GameSummary>,
    ) -> TableHandle {
        TableHandle {
            id,
            commands,
            summary,
        }
    }

    /// Queues a command, waiting if the table is busy; `false` if the table has closed.
    pub async fn send(&self, command: TableCommand) -> bool {
        self.commands.send(command).await.is_ok()
    }

    /// Hands `session`'s request `message` to the table, waiting if it is busy; the refusal
    /// that the game is closed if the table has closed.
    pub async fn request(
        &self,
        session: Arc<Session>,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        if self.send(TableCommand::Request { session, message }).await {
            Ok(())
        } else {
            Err(Refusal::Closed(self.id))
        }
    }

    /// Queues a command without waiting (for notices that may be lost when the table is gone or
    /// swamped, such as a disconnect the grace timer covers anyway).
    pub fn notify(&self, command: TableCommand) {
        let _ = self.commands.try_send(command);
    }

    /// The table's latest summary.
    #[must_use]
    pub fn summary(&self) -> GameSummary {
        self.summary.borrow().clone()
    }
}
