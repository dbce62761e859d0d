//! What the player means, however it was said: a key of the full-screen client, a click on the
//! board and a line typed in plain mode all become an [`Intent`], and [`resolve`] (the one
//! function both modes call) turns it into the message for the server, or says why not.
//!
//! The server judges every request again; resolving here only catches what the client can see
//! for itself (a move that is not legal, a question nobody asked) and says it in the person's
//! words before anything is sent.

use crate::game::move_list::MoveList;
use crate::game::table::Table;
use kingme_shared::protocol::ClientMessage;

/// Something the player wants done in the game on the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Intent {
    /// Play a move: a number from the list of legal moves, or a move's text (typed, or chosen
    /// on the board).
    Move(String),
    /// Resign the game.
    Resign,
    /// Offer a draw, or accept the one the opponent offered.
    Draw,
    /// Accept or decline the opponent's draw offer or takeback request.
    Answer {
        /// Whether the answer is yes.
        accept: bool,
    },
    /// Ask to take back the last move.
    Takeback,
    /// Offer a rematch, or accept the one offered.
    Rematch,
    /// Say a line to the table.
    Chat(String),
    /// Leave the game (resigns a game in progress).
    Leave,
}

/// A resolved intent: the message to send, and a line telling the person what was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The message for the server.
    pub message: ClientMessage,
    /// What to tell the person alongside, if anything.
    pub note: Option<String>,
}

/// Why an intent cannot be sent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// Only watching: a spectator has no say in the game.
    #[error("you are watching this game")]
    Watching,
    /// Not the person's turn; says whose it is.
    #[error("{0:?} not sent: it is not your turn")]
    NotYourTurn(String),
    /// No offer or request is waiting for an answer.
    #[error("there is no draw offer or takeback request to answer")]
    NothingToAnswer,
    /// The chat line is empty.
    #[error("say something first: the line is empty")]
    EmptyChat,
    /// The move is not one of the legal moves (the reason says which and what to do).
    #[error("{0}")]
    Move(String),
}

/// Turns an intent about the game on `table` into a request; `legal` is the list of legal
/// moves as shown (numbered from 1), in the server's order.
pub fn resolve(intent: Intent, table: &Table, legal: &[String]) -> Result<Request, Refused> {
    let game = table.id;
    let me = table.your_side;
    let player_only = |intent: &Intent| !matches!(intent, Intent::Chat(_) | Intent::Leave);
    if me.is_none() && player_only(&intent) {
        return Err(Refused::Watching);
    }
    let asked_by_other = |by: Option<kingme_shared::Side>| by.is_some_and(|by| Some(by) != me);
    let (message, note) = match intent {
        Intent::Move(text) => {
            if !table.is_my_turn() {
                return Err(Refused::NotYourTurn(text));
            }
            let text = MoveList::new(&table.game, legal)
                .choose(&table.game, &text)
                .map_err(Refused::Move)?;
            let note = format!("you play {text}");
            (ClientMessage::Move { game, text }, Some(note))
        }
        Intent::Resign => (ClientMessage::Resign { game }, None),
        Intent::Draw if asked_by_other(table.draw_offer) => (
            ClientMessage::AnswerDraw { game, accept: true },
            Some("draw accepted".to_owned()),
        ),
        Intent::Draw => (
            ClientMessage::OfferDraw { game },
            Some("draw offered".to_owned()),
        ),
        Intent::Answer { accept } if asked_by_other(table.draw_offer) => {
            (ClientMessage::AnswerDraw { game, accept }, None)
        }
        Intent::Answer { accept } if asked_by_other(table.takeback_request) => {
            (ClientMessage::AnswerTakeback { game, accept }, None)
        }
        Intent::Answer { .. } => return Err(Refused::NothingToAnswer),
        Intent::Takeback => (
            ClientMessage::RequestTakeback { game },
            Some("takeback requested".to_owned()),
        ),
        Intent::Rematch => (
            ClientMessage::Rematch { game },
            Some("rematch offered".to_owned()),
        ),
        Intent::Chat(text) if text.trim().is_empty() => return Err(Refused::EmptyChat),
        Intent::Chat(text) => (ClientMessage::Chat { game, text }, None),
        Intent::Leave => (ClientMessage::Leave { game }, None),
    };
    Ok(Request { message, note })
}
