//! What each command does: a client's request routed to the concern that handles it (refused
//! with a typed [`Refusal`] when it does not fit), connections going and coming, and a bot's
//! answer played as its move.

use super::Table;
use super::chat_log::ChatRoom;
use super::persistence::Waiting;
use crate::game::bot::BotAnswer;
use crate::game::offers::Offer;
use crate::game::table_handle::TableCommand;
use crate::players::Session;
use crate::refusal::Refusal;
use kingme_shared::protocol::{ClientMessage, EndReason, MAX_CHAT_CHARS, ServerMessage};
use std::sync::Arc;

impl Table {
    pub(super) async fn handle(&mut self, command: TableCommand) {
        match command {
            TableCommand::Request { session, message } => {
                if let Err(refusal) = self.request(&session, message).await {
                    self.post(&session, refusal.to_message(false));
                }
            }
            TableCommand::Disconnected { player } => self.disconnected(player),
            TableCommand::Reconnected { session } => self.reconnected(&session),
            TableCommand::BotMoved(answer) => self.bot_moved(answer).await,
            TableCommand::Banned { name } => self.banned(&name),
            TableCommand::Close => self.closed_by_admin(),
        }
    }

    async fn request(
        &mut self,
        session: &Arc<Session>,
        message: ClientMessage,
    ) -> Result<(), Refusal> {
        match message {
            ClientMessage::Join { .. } => self.join(session),
            ClientMessage::AttachBot { level, .. } => self.attach_bot(session, level),
            ClientMessage::Watch { .. } => self.watch(session),
            ClientMessage::Leave { .. } => self.leave(session),
            ClientMessage::Move { text, .. } => {
                let played = match self.player_side(session) {
                    Ok(side) => self.play(side, &text).await,
                    Err(refusal) => Err(refusal),
                };
                if let Err(refusal) = played {
                    self.post(session, refusal.move_rejected(self.id, &text));
                }
                Ok(())
            }
            ClientMessage::Resign { .. } => {
                let side = self.playing_side(session)?;
                self.end(Some(side.opponent()), EndReason::Resignation);
                Ok(())
            }
            ClientMessage::OfferDraw { .. } => self.offer(session, Offer::Draw).await,
            ClientMessage::AnswerDraw { accept, .. } => {
                self.answer(session, Offer::Draw, accept).await
            }
            ClientMessage::RequestTakeback { .. } => self.offer(session, Offer::Takeback).await,
            ClientMessage::AnswerTakeback { accept, .. } => {
                self.answer(session, Offer::Takeback, accept).await
            }
            ClientMessage::Rematch { .. } => self.offer(session, Offer::Rematch).await,
            ClientMessage::Chat { text, .. } => self.chat(session, &text),
            ClientMessage::Hello { .. }
            | ClientMessage::Prove { .. }
            | ClientMessage::Ping { .. }
            | ClientMessage::Pong { .. }
            | ClientMessage::ListGames
            | ClientMessage::CreateGame(_)
            | ClientMessage::History { .. }
            | ClientMessage::Leaderboard { .. }
            | ClientMessage::Export { .. }
            | ClientMessage::WatchLobby { .. }
            | ClientMessage::Admin(_)
            | ClientMessage::AdminLog
            | ClientMessage::Analyse { .. } => Err(Refusal::NotAGameMessage("a lobby request")),
        }
    }

    /// A bot's answer: played if it is for the current position and the bot still sits there.
    async fn bot_moved(&mut self, answer: BotAnswer) {
        let BotAnswer { side, epoch, text } = answer;
        if epoch != self.judge.epoch() || !self.seats[side.index()].moves_by_itself() {
            return;
        }
        let played = match text {
            Some(text) => self.play(side, &text).await,
            None => Err(Refusal::BotFoundNoMove),
        };
        match played {
            Ok(()) => {
                if self
                    .paused
                    .take_if(|p| p.waiting == Waiting::BotMove)
                    .is_some()
                {
                    tracing::warn!(game = %self.id, "storage works again; the game goes on");
                }
            }
            // Not the bot's fault: the game waits for the database, then asks again.
            Err(Refusal::NotStored(err)) => self.pause(Waiting::BotMove, err),
            Err(refusal) => {
                tracing::error!(game = %self.id, %refusal, "a bot's move was refused");
                self.end(Some(side.opponent()), EndReason::Abandoned);
            }
        }
    }

    fn chat(&mut self, session: &Arc<Session>, text: &str) -> Result<(), Refusal> {
        if self.side_of(session.id).is_none() && !self.is_spectator(session.id) {
            return Err(Refusal::NotWatching(self.id));
        }
        let text = text.trim();
        let chars = text.chars().count();
        if chars == 0 {
            return Err(Refusal::EmptyChat);
        }
        if chars > MAX_CHAT_CHARS {
            return Err(Refusal::ChatTooLong { chars });
        }
        // Control characters could redraw someone else's terminal.
        let text: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        // Two rooms, as on lichess: the players talk between themselves, the spectators
        // among themselves.
        let room = if self.side_of(session.id).is_some() {
            ChatRoom::Players
        } else {
            ChatRoom::Spectators
        };
        self.chat.keep(room, &session.name, &text);
        let line = ServerMessage::Chat {
            game: self.id,
            from: session.name.clone(),
            text,
        };
        for member in self.room_members(room) {
            self.post(&member, line.clone());
        }
        Ok(())
    }
}
