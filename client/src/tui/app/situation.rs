//! The app as the key table sees it ([`Situation`]): where keys go now, worked out from the
//! dialog on top, the line being typed and the screen, and the facts the keys' conditions read.

use super::{App, Overlay, Screen};
use crate::game::table::Table;
use crate::tui::keys::{Place, Situation};
use crate::tui::text_field::TextField;
use kingme_shared::protocol::{GameId, GameSummary};

impl Situation for App {
    fn place(&self) -> Place {
        match &self.overlay {
            Some(Overlay::Help | Overlay::Message) => return Place::Reading,
            Some(Overlay::Themes { .. }) => return Place::Themes,
            Some(Overlay::BotLevel { .. }) => return Place::BotLevel,
            Some(Overlay::Confirm(_)) => return Place::Question,
            Some(Overlay::Create(form)) if form.placing && form.board.is_some() => {
                return Place::SetupBoard;
            }
            Some(Overlay::Create(_)) => return Place::Create,
            None => {}
        }
        if self.review_screen.is_some() {
            return Place::ReviewBoard;
        }
        if self.chat_input.is_some() {
            return Place::ChatLine;
        }
        match self.screen {
            Screen::Lobby => Place::Lobby,
            Screen::Game => match &self.table {
                Some(table) if table.result().is_some() && !self.game_over_dismissed => {
                    Place::GameOver
                }
                Some(table) if table.input.is_some() => Place::MoveLine,
                _ => Place::Game,
            },
        }
    }

    fn screen(&self) -> Place {
        match self.screen {
            Screen::Lobby => Place::Lobby,
            Screen::Game => Place::Game,
        }
    }

    fn table(&self) -> Option<&Table> {
        self.table.as_ref()
    }

    fn games(&self) -> &[GameSummary] {
        &self.games
    }

    fn selected_game(&self) -> Option<&GameSummary> {
        App::selected_game(self)
    }

    fn chat_line(&self) -> Option<&TextField> {
        self.chat_input.as_ref()
    }

    fn game_in_progress(&self) -> Option<GameId> {
        App::game_in_progress(self)
    }
}
