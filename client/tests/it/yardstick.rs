//! `kingme match --b-binary`: the real `kingme` binary plays another kingme binary (itself, here)
//! through `kingme engine`, the frozen yardstick of docs/engine.md. Every game ends (a move the
//! other binary named that the rules refuse would end the match with an error), each side's
//! tally adds up to the games played and mirrors the other's, and the score comes with its error
//! bar. A binary that is not a kingme engine is refused with the reason. A match played in
//! parts (`--first-game`, `--last-game`) plays the same games as a whole run.

use crate::KINGME;
use std::process::{Command, Output};

/// Runs `kingme match` with `args` in a data directory of its own.
fn kingme_match(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(KINGME)
        .arg("match")
        .args(args)
        .env("KINGME_DATA_DIR", home.path())
        .env("KINGME_CONFIG_DIR", home.path())
        .output()
        .unwrap()
}

/// The number after `word` in `line`.
fn after(line: &str, word: &str) -> u32 {
    let mut words = line.split_whitespace();
    words.find(|w| *w == word).unwrap();
    words.next().unwrap().parse().unwrap()
}

/// Checks a finished match of `games` games and returns side a's wins, draws and losses.
fn check_tallies(output: &Output, games: u32) -> [u32; 3] {
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let finished = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert_eq!(finished, games as usize, "{stdout}");
    let tallies: Vec<[u32; 3]> = stdout
        .lines()
        .filter(|l| l.contains(" wins ") && l.contains(" losses "))
        .map(|l| [after(l, "wins"), after(l, "draws"), after(l, "losses")])
        .collect();
    let [a, b] = tallies[..] else {
        panic!("two tallies: {stdout}");
    };
    assert_eq!(a.iter().sum::<u32>(), games, "{stdout}");
    assert_eq!([a[0], a[1], a[2]], [b[2], b[1], b[0]], "{stdout}");
    let score = stdout
        .lines()
        .find(|l| l.contains("(one standard error"))
        .unwrap_or_else(|| panic!("a score with its error bar: {stdout}"));
    assert!(score.contains(&format!("{games} games")), "{score}");
    a
}

#[test]
fn a_match_against_another_binary_plays_every_game_and_the_score_adds_up() {
    // Noughts and crosses: both experts are perfect, so every game is drawn.
    let output = kingme_match(&[
        "--game",
        "tictactoe",
        "--a",
        "expert",
        "--b-binary",
        KINGME,
        "--games",
        "4",
    ]);
    assert_eq!(check_tallies(&output, 4), [0, 4, 0]);
    // Checkers from the ballots, cut short: the other binary's moves go through the rules with
    // the game's whole history.
    let output = kingme_match(&[
        "--a",
        "club",
        "--b-binary",
        KINGME,
        "--games",
        "2",
        "--time",
        "0.01",
        "--max-plies",
        "30",
    ]);
    check_tallies(&output, 2);
}

#[test]
fn a_binary_that_is_not_a_kingme_engine_is_refused_with_the_reason() {
    let missing = kingme_match(&["--a", "expert", "--b-binary", "/no/such/kingme"]);
    assert!(!missing.status.success());
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("cannot start /no/such/kingme engine"),
        "{stderr}"
    );
    let silent = kingme_match(&["--a", "expert", "--b-binary", "/bin/true"]);
    assert!(!silent.status.success());
    let stderr = String::from_utf8_lossy(&silent.stderr);
    assert!(stderr.contains("/bin/true engine ended"), "{stderr}");
}

/// The games of a match's output, each without the running score: `game N/M: ... plies (how)`.
fn games_played(output: &Output) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .map(|l| l.split(" | ").next().unwrap().to_owned())
        .collect()
}

#[test]
fn a_match_played_in_parts_plays_the_games_of_the_whole_run() {
    // Levels that search a fixed depth, so that a game is the same whenever it is played.
    let level = ["--a", "casual", "--b", "novice", "--max-plies", "40"];
    let args = [&level[..], &["--games", "4"]].concat();
    let whole = games_played(&kingme_match(&args));
    let first = games_played(&kingme_match(&[&level[..], &["--games", "2"]].concat()));
    let second = kingme_match(&[&args[..], &["--first-game", "3"]].concat());
    let header = String::from_utf8_lossy(&second.stdout);
    assert!(header.contains("games 3 to 4 of 4"), "{header}");
    check_tallies(&second, 2);
    let second = games_played(&second);
    assert_eq!(whole.len(), 4);
    // The first part's lines say "/2", the whole run's "/4": compare what follows.
    let after_number = |line: &String| line.split_once(": ").unwrap().1.to_owned();
    let parts: Vec<String> = first.iter().chain(&second).map(after_number).collect();
    let whole: Vec<String> = whole.iter().map(after_number).collect();
    assert_eq!(parts, whole);
    assert!(second[0].starts_with("game   3/4"), "{second:?}");
    let past = kingme_match(&[&args[..], &["--first-game", "5"]].concat());
    assert!(!past.status.success());
    let stderr = String::from_utf8_lossy(&past.stderr);
    assert!(
        stderr.contains("--first-game 5 is past the last game"),
        "{stderr}"
    );
    let middle = kingme_match(&[&args[..], &["--first-game", "2", "--last-game", "3"]].concat());
    assert!(
        String::from_utf8_lossy(&middle.stdout).contains("games 2 to 3 of 4"),
        "{middle:?}"
    );
    check_tallies(&middle, 2);
    let middle: Vec<String> = games_played(&middle).iter().map(after_number).collect();
    assert_eq!(middle, whole[1..3]);
    for last in ["1", "5"] {
        let outside =
            kingme_match(&[&args[..], &["--first-game", "2", "--last-game", last]].concat());
        assert!(!outside.status.success());
        let stderr = String::from_utf8_lossy(&outside.stderr);
        assert!(
            stderr.contains(&format!(
                "--last-game {last} is outside the games from --first-game to --games (2 to 4)"
            )),
            "{stderr}"
        );
    }
}
