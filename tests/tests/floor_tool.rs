//! `kingme-floor` end to end: the binary starts its bare relay as a child process, plays a few
//! pairs against it, reports every move copied to the partner (and echoed, unless
//! `--no-echo`) with the relay's CPU time, and leaves no relay behind (the output would not end
//! while the child held the test's standard error open).

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

#[test]
fn the_tool_relays_every_move_through_its_child_relay() {
    for extra in [&[][..], &["--relay", "current-thread", "--no-echo"][..]] {
        let output = Command::new(env!("CARGO_BIN_EXE_kingme-floor"))
            .args(["--pairs", "2", "--think-ms", "0", "--secs", "0"])
            .args(extra)
            .output()
            .expect("kingme-floor runs");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{text}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let moves = figure(&text, "moves: ").expect("the moves are reported");
        assert!(moves >= 4, "each of the four players moved: {text}");
        assert_eq!(figure(&text, "copies received: "), Some(moves), "{text}");
        let echoes = if extra.is_empty() { moves } else { 0 };
        assert_eq!(figure(&text, "echoes received: "), Some(echoes), "{text}");
        assert!(text.contains("relay CPU: "), "{text}");
    }
}
