//! What the key table reads of the client's state: where keys go now and the few facts its
//! conditions ask about. The app implements [`Situation`]; the table sees nothing else, so it
//! depends on the app's state only through this view and the app may dispatch through it.

use super::Place;
use crate::game::table::Table;
use crate::tui::text_field::TextField;
use kingme_shared::protocol::{GameId, GameSummary};

/// The person's situation as the key table sees it: read only.
pub trait Situation {
    /// Where keys go now: the dialog on top, else the line being typed, else the screen.
    fn place(&self) -> Place;
    /// The screen shown: [`Place::Lobby`] or [`Place::Game`].
    fn screen(&self) -> Place;
    /// The game on screen, if there is one.
    fn table(&self) -> Option<&Table>;
    /// The lobby's games.
    fn games(&self) -> &[GameSummary];
    /// The lobby's selected game, if any.
    fn selected_game(&self) -> Option<&GameSummary>;
    /// The chat line being typed, if one is.
    fn chat_line(&self) -> Option<&TextField>;
    /// The person's game in progress, if any (a finished game never is).
    fn game_in_progress(&self) -> Option<GameId>;
}
