//! A line typed at plain mode's prompt, read into a [`Command`]: a move (by number or text),
//! a game command (resign, draw), or a lobby command (list, join, watch). Everything that is not
//! a command is taken as a move's text, checked against the position by
//! [`crate::game::intent::resolve`] once the session knows the game.

use crate::game::intent::Intent;
use kingme_shared::protocol::{GameId, MAX_MOVE_TEXT};

/// A line typed at the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Nothing typed.
    Empty,
    /// A number from the list of legal moves.
    Number(usize),
    /// A move's text.
    Move(String),
    /// `resign`: resign the game.
    Resign,
    /// `draw`: offer a draw.
    Draw,
    /// `quit`: leave plain mode.
    Quit,
    /// `help`: list the commands.
    Help,
    /// Lobby: show the games.
    List,
    /// Lobby: take the open seat of a game.
    Join(GameId),
    /// Lobby: watch a game.
    Watch(GameId),
}

/// The commands, for `help` and for errors.
pub(crate) const COMMANDS: &str =
    "a move's number, a move's text (like 11-15, K10 or 5), resign, draw, quit, help";
/// What quitting in the middle of a game says.
pub(crate) const QUIT_MID_GAME: &str = "quitting; the game waits for you: run kingme again within the \
                                 grace period to go on (resign gives it up)";
/// The lobby's commands.
pub(crate) const LOBBY_COMMANDS: &str = "list, join ID, watch ID, quit, help";

/// Reads one input line. Everything that is not a command is taken as a move's text, checked
/// against the position later.
pub fn parse_line(line: &str) -> Result<Command, String> {
    let text = line.trim();
    if text.len() > MAX_MOVE_TEXT {
        return Err(format!(
            "that line is {} characters long; a move is at most {MAX_MOVE_TEXT}",
            text.len()
        ));
    }
    let lower = text.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    let first = words.next().unwrap_or("");
    let game_id = |word: Option<&str>| -> Result<GameId, String> {
        let word = word.ok_or_else(|| format!("{first} needs a game number, like {first} 3"))?;
        word.parse::<u64>()
            .map(GameId)
            .map_err(|_| format!("expected a game number after {first}, got {word:?}"))
    };
    let alone = |command: Command| -> Result<Command, String> {
        match words.clone().next() {
            None => Ok(command),
            Some(extra) => Err(format!(
                "{first} takes nothing after it, got {extra:?}; type just {first}"
            )),
        }
    };
    Ok(match first {
        "" => Command::Empty,
        "resign" => alone(Command::Resign)?,
        "draw" => alone(Command::Draw)?,
        "quit" | "exit" => alone(Command::Quit)?,
        "help" | "?" => alone(Command::Help)?,
        "list" => alone(Command::List)?,
        "join" => Command::Join(game_id(words.next())?),
        "watch" => Command::Watch(game_id(words.next())?),
        _ if text.bytes().all(|b| b.is_ascii_digit()) => match text.parse::<usize>() {
            Ok(number) => Command::Number(number),
            Err(_) => return Err(format!("{text} is not a move number")),
        },
        _ => Command::Move(text.to_owned()),
    })
}

impl Command {
    /// What the command asks of the game, if it is about the game.
    #[must_use]
    pub fn intent(&self) -> Option<Intent> {
        match self {
            Command::Number(number) => Some(Intent::Move(number.to_string())),
            Command::Move(text) => Some(Intent::Move(text.clone())),
            Command::Resign => Some(Intent::Resign),
            Command::Draw => Some(Intent::Draw),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(line: &str, expected: Result<Command, &str>) {
        match (parse_line(line), expected) {
            (Ok(got), Ok(want)) => assert_eq!(got, want, "{line:?}"),
            (Err(got), Err(needle)) => assert!(got.contains(needle), "{line:?}: {got}"),
            (got, want) => panic!("{line:?}: got {got:?}, expected {want:?}"),
        }
    }

    #[test]
    fn lines_parse() {
        check("", Ok(Command::Empty));
        check("   ", Ok(Command::Empty));
        check("3", Ok(Command::Number(3)));
        check(" 12 ", Ok(Command::Number(12)));
        check("11-15", Ok(Command::Move("11-15".to_owned())));
        check("K10", Ok(Command::Move("K10".to_owned())));
        check("RESIGN", Ok(Command::Resign));
        check(
            "resign please",
            Err("resign takes nothing after it, got \"please\""),
        );
        check("draw", Ok(Command::Draw));
        check("quit", Ok(Command::Quit));
        check("join 4", Ok(Command::Join(GameId(4))));
        check("watch", Err("watch needs a game number"));
        check("join x", Err("expected a game number after join"));
        check("99999999999999999999999", Err("is not a move number"));
        check(&"x".repeat(200), Err("a move is at most 64"));
    }

    #[test]
    fn game_commands_are_intents() {
        assert_eq!(
            Command::Number(3).intent(),
            Some(Intent::Move("3".to_owned()))
        );
        assert_eq!(Command::Draw.intent(), Some(Intent::Draw));
        assert_eq!(Command::List.intent(), None);
    }
}
