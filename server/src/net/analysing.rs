//! The review board on a connection: `Analyse` admitted (a version-8 client, one analysis at a
//! time per connection, the game read from the archive, which holds every game's moves, live
//! or finished), handed to the server's [`Analyst`](crate::game::analysis::Analyst), and its
//! progress and review sent back as they come. The running analysis belongs to the connection:
//! when the connection goes (or the server stops, which ends it) the analysis is dropped and
//! its search stopped.

use super::connection::Connection;
use super::transport::Incoming;
use crate::game::analysis::Asked;
use crate::game::analysis::budget::Asker;
use crate::game::analysis::job::Event;
use crate::refusal::Refusal;
use kingme_shared::protocol::{ANALYSIS_VERSION, GameId, ServerMessage};
use tokio::time::Instant;

impl<F: Incoming> Connection<F> {
    /// Starts the analysis of `game` asked for, or says why not.
    pub(super) async fn analyse(
        &mut self,
        game: GameId,
        asked: Asked,
        asker_name: &str,
    ) -> Result<(), Refusal> {
        if self.version.get() < ANALYSIS_VERSION {
            return Err(Refusal::AnalyseTooOld(self.version.get()));
        }
        if let Some(running) = &self.analysis {
            return Err(Refusal::AnalysisRunning(running.game));
        }
        let stored = self.context.storage.game(game).await.map_err(|err| {
            tracing::error!(%err, %game, "could not read a game to analyse");
            Refusal::StorageRead(err)
        })?;
        let stored = stored.ok_or(Refusal::NoSuchGame(game))?;
        let asker = match self.key {
            Some(_) => Asker::Person(asker_name.to_owned()),
            None => Asker::Address(self.peer.ip()),
        };
        let running = self
            .context
            .analyst
            .start(&asker, &stored, asked, Instant::now())?;
        self.analysis = Some(running);
        Ok(())
    }

    /// Passes on what the running analysis of `game` said; `None`: it ended without a word.
    pub(super) fn analysis_event(&mut self, game: GameId, event: Option<Event>) {
        match event {
            Some(Event::Progress { done, total }) => {
                self.outbox
                    .send(ServerMessage::AnalysisProgress { game, done, total });
            }
            Some(Event::Finished(Ok(review))) => {
                self.analysis = None;
                self.outbox.send(ServerMessage::Analysis { game, review });
            }
            Some(Event::Finished(Err(err))) => {
                self.analysis = None;
                let refusal = match err {
                    kingme_shared::review::ReviewError::Stopped => Refusal::AnalysisFailed(game),
                    err => Refusal::NotReviewable {
                        game,
                        reason: err.to_string(),
                    },
                };
                self.outbox.send(refusal.to_message(false));
            }
            None => {
                self.analysis = None;
                tracing::error!(%game, "an analysis ended without an answer");
                self.outbox
                    .send(Refusal::AnalysisFailed(game).to_message(false));
            }
        }
    }
}
