//! The lobby's create dialog: game, colour, opponent, time control and the start position
//! (Setup): the standard start, a FEN typed in, a board file loaded from disk, or pieces placed
//! one by one on an empty board. It ends in [`GameOptions`] for the server, checked here first
//! so mistakes are explained before anything is sent.

use crate::local::settings::GameSettings;
use crate::tui::setup_board::SetupBoard;
use crate::tui::text_field::TextField;
use kingme_shared::ai::Level;
use kingme_shared::protocol::{GameOptions, MAX_POSITION_TEXT, Opponent, SeatChoice, TimeControl};
use kingme_shared::{GameKind, GameSpec, Side};
use ratatui::crossterm::event::KeyEvent;

/// The time controls offered, quickest first.
pub const TIME_CONTROLS: [TimeControl; 7] = [
    TimeControl::Unlimited,
    TimeControl::Incremental {
        initial_secs: 60,
        increment_secs: 1,
    },
    TimeControl::Incremental {
        initial_secs: 180,
        increment_secs: 2,
    },
    TimeControl::Incremental {
        initial_secs: 300,
        increment_secs: 3,
    },
    TimeControl::Incremental {
        initial_secs: 900,
        increment_secs: 10,
    },
    TimeControl::PerMove { secs: 5 },
    TimeControl::PerMove { secs: 30 },
];

/// Where the game starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupSource {
    /// The game's standard start position.
    Standard,
    /// A position text (a FEN for checkers) typed into the text field.
    Typed,
    /// A file whose path is typed into the text field.
    BoardFile,
    /// Pieces placed on an empty board.
    Placed,
}

impl SetupSource {
    const ALL: [SetupSource; 4] = [
        SetupSource::Standard,
        SetupSource::Typed,
        SetupSource::BoardFile,
        SetupSource::Placed,
    ];

    /// The choice in words.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            SetupSource::Standard => "standard start",
            SetupSource::Typed => "type a position (FEN)",
            SetupSource::BoardFile => "load a board file",
            SetupSource::Placed => "place pieces on an empty board",
        }
    }
}

/// The dialog's rows, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    /// The game.
    Game,
    /// The colour the person plays.
    Colour,
    /// The opponent.
    Opponent,
    /// The time control.
    Time,
    /// Whether the game is rated.
    Rated,
    /// Where the game starts.
    Setup,
    /// The position text or file name being typed.
    Text,
    /// The Create button.
    Create,
}

impl Field {
    /// Every row, in order.
    pub const ALL: [Field; 8] = [
        Field::Game,
        Field::Colour,
        Field::Opponent,
        Field::Time,
        Field::Rated,
        Field::Setup,
        Field::Text,
        Field::Create,
    ];
}

/// The dialog's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateForm {
    /// The row with the cursor.
    pub field: Field,
    /// The game chosen.
    pub kind: GameKind,
    /// The colour chosen.
    pub seat: SeatChoice,
    /// `None` for an open seat.
    pub opponent: Option<Level>,
    /// The time control chosen (an index into the list).
    pub time: usize,
    /// Whether the result is to change ratings (it counts when both seats are registered
    /// people or bots).
    pub rated: bool,
    /// Where the game starts.
    pub setup: SetupSource,
    /// The FEN or the board file path.
    pub text: TextField,
    /// The placed pieces, while or after placing them.
    pub board: Option<SetupBoard>,
    /// Whether the placing board is open (it takes the keys).
    pub placing: bool,
    /// Why the form cannot be sent as it is, if it cannot.
    pub error: Option<String>,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            field: Field::Game,
            kind: GameKind::default(),
            seat: SeatChoice::Side(Side::First),
            opponent: Some(Level::Intermediate),
            time: 0,
            rated: true,
            setup: SetupSource::Standard,
            text: TextField::new(MAX_POSITION_TEXT),
            board: None,
            placing: false,
            error: None,
        }
    }
}

fn cycle<T: Copy + PartialEq>(options: &[T], current: T, delta: i32) -> T {
    let index = options.iter().position(|o| *o == current).unwrap_or(0) as i32;
    let len = options.len() as i32;
    options[(index + delta).rem_euclid(len) as usize]
}

impl CreateForm {
    /// The dialog as the person left it last time (a setup is not kept: a new game starts
    /// from the standard position unless chosen again).
    #[must_use]
    pub(crate) fn from_settings(last: &GameSettings) -> CreateForm {
        CreateForm {
            kind: last.kind,
            seat: last.seat,
            opponent: last.opponent,
            time: TIME_CONTROLS
                .iter()
                .position(|t| *t == last.time_control)
                .unwrap_or(0),
            ..CreateForm::default()
        }
    }

    /// The choices to keep for next time.
    #[must_use]
    pub fn settings(&self) -> GameSettings {
        GameSettings {
            kind: self.kind,
            seat: self.seat,
            opponent: self.opponent,
            time_control: TIME_CONTROLS[self.time % TIME_CONTROLS.len()],
        }
    }

    /// Moves to the next or previous row (skipping the text row when it is not used).
    pub(crate) fn move_field(&mut self, delta: i32) {
        loop {
            self.field = cycle(&Field::ALL, self.field, delta);
            if self.field != Field::Text || self.uses_text() {
                break;
            }
        }
    }

    /// Whether the text row is in use.
    #[must_use]
    pub(crate) fn uses_text(&self) -> bool {
        matches!(self.setup, SetupSource::Typed | SetupSource::BoardFile)
    }

    /// Changes the value of the current row (left or right).
    pub fn change(&mut self, delta: i32) {
        self.error = None;
        match self.field {
            Field::Game => {
                self.kind = cycle(&GameKind::ALL, self.kind, delta);
                self.board = None;
            }
            Field::Colour => {
                self.seat = cycle(
                    &[
                        SeatChoice::Side(Side::First),
                        SeatChoice::Side(Side::Second),
                        SeatChoice::Random,
                        SeatChoice::Spectate,
                    ],
                    self.seat,
                    delta,
                );
            }
            Field::Opponent => {
                let mut options = vec![None];
                options.extend(Level::ALL.into_iter().map(Some));
                self.opponent = cycle(&options, self.opponent, delta);
            }
            Field::Time => {
                self.time =
                    (self.time as i32 + delta).rem_euclid(TIME_CONTROLS.len() as i32) as usize;
            }
            Field::Rated => self.rated = !self.rated,
            Field::Setup => self.setup = cycle(&SetupSource::ALL, self.setup, delta),
            Field::Text | Field::Create => {}
        }
    }

    /// An editing key on the text row (characters, Backspace, Left/Right, Home/End, Ctrl-U,
    /// Ctrl-W...); returns whether it was one.
    pub(crate) fn edit(&mut self, key: KeyEvent) -> bool {
        if self.field != Field::Text {
            return false;
        }
        let before = self.text.clone();
        let used = self.text.key(key);
        if self.text != before {
            self.error = None;
        }
        used
    }

    /// Shows what is wrong with the form and moves to the row that needs changing (the only
    /// rows that can be wrong are the text and the placed setup), so the next keys edit it.
    pub fn fail(&mut self, error: String) {
        self.error = Some(error);
        self.field = match self.setup {
            SetupSource::Typed | SetupSource::BoardFile => Field::Text,
            SetupSource::Placed => Field::Setup,
            SetupSource::Standard => self.field,
        };
    }

    /// Opens the placing board (kept if it already holds pieces of this game).
    pub(crate) fn open_board(&mut self) {
        if self.board.as_ref().is_none_or(|b| b.kind != self.kind) {
            self.board = Some(SetupBoard::new(self.kind));
        }
        self.placing = true;
    }

    /// The options for the server, or what is wrong with the form.
    pub fn options(&self) -> Result<GameOptions, String> {
        let spec = GameSpec::standard(self.kind);
        let start_position = match self.setup {
            SetupSource::Standard => None,
            SetupSource::Typed => {
                let text = self.text.value().trim();
                if text.is_empty() {
                    return Err(format!(
                        "type a {} position on the position row, or choose the standard start",
                        self.kind
                    ));
                }
                Some(check_position(spec, text)?)
            }
            SetupSource::BoardFile => {
                let path = self.text.value().trim();
                if path.is_empty() {
                    return Err("type the board file's path on the position row".to_owned());
                }
                Some(read_board_file(spec, path)?)
            }
            SetupSource::Placed => {
                let board = self
                    .board
                    .as_ref()
                    .filter(|b| b.kind == self.kind)
                    .ok_or_else(|| "press Enter on the setup row to place pieces".to_owned())?;
                Some(board.build()?.position_text())
            }
        };
        Ok(GameOptions {
            spec,
            seat: self.seat,
            opponent: self.opponent.map_or(Opponent::OpenSeat, Opponent::Bot),
            time_control: TIME_CONTROLS[self.time % TIME_CONTROLS.len()],
            start_position,
            rated: self.rated,
        })
    }
}

/// Checks a position text and returns it in the game's canonical form; for checkers a board
/// file's text is accepted too.
pub(crate) fn check_position(spec: GameSpec, text: &str) -> Result<String, String> {
    spec.start(Some(text))
        .map(|game| game.position_text())
        .map_err(|err| err.to_string())
}

/// Reads a position from a file: a board file or a position text.
pub(crate) fn read_board_file(spec: GameSpec, path: &str) -> Result<String, String> {
    let limit = kingme_shared::games::spec::MAX_START_TEXT as u64;
    let size = std::fs::metadata(path)
        .map_err(|err| format!("cannot read {path}: {err}"))?
        .len();
    if size > limit {
        return Err(format!(
            "{path} is {size} bytes; a board file is at most {limit}"
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|err| format!("cannot read {path}: {err}"))?;
    check_position(spec, &text).map_err(|err| format!("{path}: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_form_creates_a_checkers_game_against_a_bot() {
        let options = CreateForm::default().options().expect("valid");
        assert_eq!(options.spec.kind(), GameKind::Checkers);
        assert_eq!(options.opponent, Opponent::Bot(Level::Intermediate));
        assert_eq!(options.start_position, None);
    }

    #[test]
    fn fields_cycle_and_the_text_row_is_skipped_unless_used() {
        let mut form = CreateForm::default();
        form.change(1);
        assert_eq!(form.kind, GameKind::Pente);
        form.change(-2);
        assert_eq!(form.kind, GameKind::TicTacToe);
        for _ in 0..5 {
            form.move_field(1);
        }
        assert_eq!(form.field, Field::Setup);
        form.move_field(1);
        assert_eq!(
            form.field,
            Field::Create,
            "no text row for the standard start"
        );
        form.move_field(-1);
        form.change(1);
        assert_eq!(form.setup, SetupSource::Typed);
        form.move_field(1);
        assert_eq!(form.field, Field::Text);
    }

    #[test]
    fn a_typed_position_is_checked_before_sending() {
        let mut form = CreateForm {
            setup: SetupSource::Typed,
            field: Field::Text,
            ..CreateForm::default()
        };
        let err = form.options().expect_err("empty");
        assert!(err.contains("type a checkers position"), "{err}");
        for c in "W:W9:B1,1".chars() {
            form.edit(KeyEvent::from(ratatui::crossterm::event::KeyCode::Char(c)));
        }
        let err = form.options().expect_err("square twice");
        assert!(err.contains("listed twice"), "{err}");
        form.text = TextField::new(0).with_value("W:WK22:B9,10,17,18");
        assert_eq!(
            form.options().expect("valid").start_position.as_deref(),
            Some("W:WK22:B9,10,17,18")
        );
    }

    #[test]
    fn a_broken_board_file_reports_the_board_file_error_not_the_fen_one() {
        let text = "1111\n1111\n1111\n0000\n0000\n2222\n2222\n22x2\n2\n";
        let err = check_position(GameKind::Checkers.into(), text).expect_err("bad character");
        assert!(
            err.contains("board file") && err.contains("line 8"),
            "{err}"
        );
        assert!(!err.contains("FEN"), "{err}");
        let err = check_position(GameKind::Checkers.into(), "W:W9:B1,1").expect_err("square twice");
        assert!(!err.contains("board file"), "{err}");
    }

    #[test]
    fn an_error_keeps_the_focus_on_the_row_to_fix() {
        let mut form = CreateForm {
            setup: SetupSource::Typed,
            field: Field::Create,
            text: TextField::new(0).with_value("W:W9:B1,1"),
            ..CreateForm::default()
        };
        let err = form.options().expect_err("square twice");
        form.fail(err);
        assert_eq!(form.field, Field::Text);
    }

    #[test]
    fn a_board_file_is_read_from_disk() {
        let dir = std::env::temp_dir().join(format!("kingme-form-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("board.txt");
        std::fs::write(&path, "1111\n1111\n1111\n0000\n0000\n2222\n2222\n2222\n2\n")
            .expect("write");
        let form = CreateForm {
            setup: SetupSource::BoardFile,
            text: TextField::new(0).with_value(&path.display().to_string()),
            ..CreateForm::default()
        };
        let fen = form
            .options()
            .expect("valid")
            .start_position
            .expect("a position");
        assert!(fen.starts_with("W:"), "{fen}");
        let missing = CreateForm {
            text: TextField::new(0).with_value(&dir.join("missing.txt").display().to_string()),
            ..form
        };
        let err = missing.options().expect_err("no file");
        assert!(err.contains("cannot read"), "{err}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
