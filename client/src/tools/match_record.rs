//! `kingme match --record DIR`: every game of a match written down as `kingme export` writes a
//! stored game (PDN for checkers, the text record for Pente and noughts and crosses), one file a
//! game named by its number in the run (`game-007.pdn`), so the games a score came from can be
//! stepped through (`kingme import FILE`), with the engine too (`kingme review --file`).
//! A game starts where the match started it (a ballot, an opening), given as the record's start
//! position; a game stopped at `--max-plies` has no result (`*`).

use anyhow::Context;
use kingme_client::archive::export_text;
use kingme_shared::GameKind;
use kingme_shared::record::{GameRecord, RecordResult, utc_date};
use std::path::{Path, PathBuf};

/// Writes the games of one match into a folder.
pub(super) struct Recorder {
    folder: PathBuf,
    kind: GameKind,
    /// The day the match began, as every record's date.
    date: String,
}

impl Recorder {
    /// A recorder into `folder`, made if missing.
    pub(super) fn create(folder: &Path, kind: GameKind) -> anyhow::Result<Recorder> {
        std::fs::create_dir_all(folder).with_context(|| {
            format!(
                "cannot make the folder {} for --record: give a folder you may write in",
                folder.display()
            )
        })?;
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
            });
        Ok(Recorder {
            folder: folder.to_owned(),
            kind,
            date: utc_date(now_ms),
        })
    }

    /// Writes game `number` (from 1), played by `players` (the first side's first) from the
    /// position `start` (its position text) with `moves`, ended with `result` (`None`: stopped
    /// unfinished), and says where.
    pub(super) fn write(
        &self,
        number: u32,
        players: [&str; 2],
        start: &str,
        moves: &[String],
        result: Option<RecordResult>,
    ) -> anyhow::Result<PathBuf> {
        let mut record = GameRecord::new(self.kind);
        record.event = format!("kingme match game {number}");
        record.date.clone_from(&self.date);
        record.players = players.map(str::to_owned);
        record.start_position = Some(start.to_owned());
        record.moves = moves.to_vec();
        record.result = result;
        let extension = if self.kind == GameKind::Checkers {
            "pdn"
        } else {
            "txt"
        };
        let path = self.folder.join(format!("game-{number:03}.{extension}"));
        let text = export_text(&record)
            .with_context(|| format!("cannot write game {number} as a record"))?;
        std::fs::write(&path, text)
            .with_context(|| format!("cannot write the record {}", path.display()))?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kingme_client::archive::import_text;
    use kingme_shared::WinReason;
    use kingme_shared::domain::EndReason;
    use kingme_shared::{AnyGame, Side};

    fn texts(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|&text| text.to_owned()).collect()
    }

    #[test]
    fn a_finished_game_reads_back_with_its_players_moves_and_result() {
        let dir = tempfile::tempdir().unwrap();
        let recorder = Recorder::create(&dir.path().join("games"), GameKind::TicTacToe).unwrap();
        let mut start = AnyGame::start(GameKind::TicTacToe);
        start.play_text("5").unwrap();
        // X takes the diagonal 3-5-7.
        let moves = texts(&["1", "3", "2", "7"]);
        let result = RecordResult {
            winner: Some(Side::First),
            reason: Some(EndReason::Win(WinReason::ThreeInARow)),
        };
        let path = recorder
            .write(
                3,
                ["beginner", "random"],
                &start.position_text(),
                &moves,
                Some(result),
            )
            .unwrap();
        assert_eq!(path.file_name().unwrap(), "game-003.txt");
        let record = import_text(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(record.event, "kingme match game 3");
        assert_eq!(record.players, ["beginner", "random"]);
        assert_eq!(record.moves, moves);
        assert_eq!(record.result, Some(result));
        // The record replays from the match's start to the position the game ended in.
        assert_eq!(
            record.start_game().unwrap().position_text(),
            start.position_text()
        );
        let last = record.final_game().unwrap();
        assert_eq!(
            last.outcome().and_then(|end| end.winner()),
            Some(Side::First)
        );
    }

    #[test]
    fn a_checkers_game_stopped_unfinished_is_written_as_pdn_without_a_result() {
        let dir = tempfile::tempdir().unwrap();
        let recorder = Recorder::create(dir.path(), GameKind::Checkers).unwrap();
        let ballot = crate::tools::ballots::playable().unwrap().remove(5).game;
        let mut game = ballot.clone();
        let mut moves = Vec::new();
        for _ in 0..6 {
            let first = game.legal_moves()[0];
            moves.push(game.move_text(&first));
            game.play(&first).unwrap();
        }
        let path = recorder
            .write(12, ["a", "b"], &ballot.position_text(), &moves, None)
            .unwrap();
        assert_eq!(path.file_name().unwrap(), "game-012.pdn");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("[Result \"*\"]"), "{text}");
        let record = import_text(&text).unwrap();
        assert_eq!(record.moves, moves);
        assert_eq!(record.result, None);
        assert_eq!(
            record.final_game().unwrap().position_text(),
            game.position_text()
        );
    }

    #[test]
    fn a_folder_that_cannot_be_made_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let err = Recorder::create(&file.join("games"), GameKind::Pente)
            .err()
            .expect("a folder inside a file cannot be made");
        assert!(err.to_string().contains("--record"), "{err}");
    }
}
