//! `kingme-floor` end to end: the binary starts its bare relay as a child process, plays a few
//! pairs against it, reports every move copied to the partner (and echoed, unless
//! `--no-echo`) with the relay's CPU time, and leaves no relay behind (the output would not end
//! while the child held the test's standard error open). With `--fresh-connections` the
//! relay's own counts show every match came on two new connections and every move was relayed.

use std::process::Command;

/// The number printed after `label` in `output`.
fn figure(output: &str, label: &str) -> Option<u64> {
    output
        .split(label)
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// What `kingme-floor` with `args` printed; it must succeed.
fn run(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_kingme-floor"))
        .args(args)
        .output()
        .expect("kingme-floor runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    text
}

#[test]
fn the_tool_relays_every_move_through_its_child_relay() {
    for extra in [&[][..], &["--relay", "current-thread", "--no-echo"][..]] {
        let args = ["--pairs", "2", "--think-ms", "0", "--secs", "0"];
        let text = run(&[&args[..], extra].concat());
        let moves = figure(&text, "moves: ").expect("the moves are reported");
        assert!(moves >= 4, "each of the four players moved: {text}");
        assert_eq!(figure(&text, "copies received: "), Some(moves), "{text}");
        let echoes = if extra.is_empty() { moves } else { 0 };
        assert_eq!(figure(&text, "echoes received: "), Some(echoes), "{text}");
        assert!(text.contains("relay CPU: "), "{text}");
    }
}

#[test]
fn with_fresh_connections_every_match_comes_on_two_new_connections() {
    every_match_on_two_new_connections(&[]);
}

#[test]
fn over_tls_every_match_comes_on_two_new_connections() {
    let text = every_match_on_two_new_connections(&["--tls"]);
    assert!(text.contains("; TLS)"), "{text}");
}

/// Runs boardgame.io's workload with `extra` arguments and checks the relay's counts against
/// the players'; returns what the tool printed.
fn every_match_on_two_new_connections(extra: &[&str]) -> String {
    let args = [
        "--fresh-connections",
        "--pairs",
        "3",
        "--think-ms",
        "0",
        "--secs",
        "1",
    ];
    let text = run(&[&args[..], extra].concat());
    let matches = figure(&text, "matches: ").expect("the matches are reported");
    assert!(matches >= 3, "each pair finished a match: {text}");
    // The relay's own counts: two new connections for every match it began, and every move
    // the players sent relayed.
    let counted = text
        .lines()
        .find(|line| line.starts_with("relay counted: "))
        .expect("the relay reports its counts");
    assert_eq!(figure(counted, "accepted "), Some(2 * matches), "{text}");
    assert_eq!(figure(counted, "matches "), Some(matches), "{text}");
    let moves = figure(&text, "moves: ").expect("the moves are reported");
    assert_eq!(figure(counted, "moves "), Some(moves), "{text}");
    assert_eq!(figure(&text, "handshakes: "), Some(2 * matches), "{text}");
    assert_eq!(figure(&text, "copies received: "), Some(moves), "{text}");
    assert_eq!(figure(&text, "echoes received: "), Some(moves), "{text}");
    // A game of noughts and crosses lasts five to nine moves.
    assert!((5 * matches..=9 * matches).contains(&moves), "{text}");
    assert!(text.contains("relay CPU per match: "), "{text}");
    text
}
