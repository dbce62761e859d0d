//! Standard output whose reader went away (`kingme analyze ... | head`): the program ends quietly
//! with success, as Unix tools do, instead of a panic message or an error. `main` sets this up
//! once for every command.
//!
//! Rust ignores SIGPIPE, so a write to a closed pipe fails with `BrokenPipe`: `println!` panics
//! with "failed printing to stdout", and a `writeln!(stdout)?` returns the error up to `main`.
//! The panic hook of [`quiet_panics`] ends the program at once on the first (any other panic
//! goes to the hook it replaced); [`exit_code`] turns the second into success. SIGPIPE itself is
//! left ignored, so that a closed network connection stays an error the code sees.

use std::process::ExitCode;

/// Installs a panic hook that ends the program with success when the panic is `print!` or
/// `println!` failing on a closed standard output; every other panic is reported as before.
pub fn quiet_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // `print!` panics with a formatted message, a `String` (`payload_as_str` is newer than
        // the workspace's rust-version).
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied());
        if message.is_some_and(is_closed_stdout_panic) {
            std::process::exit(0);
        }
        previous(info);
    }));
}

/// Whether a panic message is the one `print!` gives when standard output's reader is gone.
#[must_use]
pub(crate) fn is_closed_stdout_panic(message: &str) -> bool {
    message
        .strip_prefix("failed printing to stdout: ")
        .is_some_and(|cause| cause.to_ascii_lowercase().contains("broken pipe"))
}

/// The exit code of a command's result: an error is printed as `main` would print it and fails,
/// except a bare broken pipe (a write to standard output after its reader went away; errors of
/// files and connections carry their own context), which ends quietly with success.
#[must_use]
pub fn exit_code(result: anyhow::Result<ExitCode>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(err) if is_closed_stdout_error(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("Error: {}", error_text(&err));
            ExitCode::FAILURE
        }
    }
}

/// An error as the person reads it: the message, then each cause on a line of its own, except
/// a cause the line before already says (many errors repeat their source in their message).
#[must_use]
pub(crate) fn error_text(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    let mut before = text.clone();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !before.contains(&cause) {
            text.push_str("\n  because: ");
            text.push_str(&cause);
        }
        before = cause;
    }
    text
}

/// Whether an error is a write to a closed pipe with nothing said around it.
fn is_closed_stdout_error(err: &anyhow::Error) -> bool {
    // `downcast_ref` sees through context, so a lone link in the chain is asked for as well.
    err.chain().count() == 1
        && err
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn only_a_closed_stdout_is_quiet() {
        assert!(is_closed_stdout_panic(
            "failed printing to stdout: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_stdout_panic(
            "failed printing to stdout: No space left on device (os error 28)"
        ));
        assert!(!is_closed_stdout_panic(
            "failed printing to stderr: Broken pipe (os error 32)"
        ));
        assert!(!is_closed_stdout_panic("index out of bounds"));

        let pipe = || std::io::Error::from(std::io::ErrorKind::BrokenPipe);
        assert!(is_closed_stdout_error(&anyhow::Error::from(pipe())));
        let with_context = Err::<(), _>(pipe()).context("cannot write ladder.tsv");
        assert!(!is_closed_stdout_error(
            &with_context.expect_err("an error")
        ));
        assert!(!is_closed_stdout_error(&anyhow::anyhow!("no server")));
        assert_eq!(exit_code(Err(pipe().into())), ExitCode::SUCCESS);
        assert_eq!(
            exit_code(Err(anyhow::anyhow!("a real failure"))),
            ExitCode::FAILURE
        );
    }

    #[test]
    fn each_cause_is_said_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("the game does not replay: {0}")]
        struct Replay(#[source] std::io::Error);
        let io = || std::io::Error::other("move 1 cannot be played");
        let err = Err::<(), _>(Replay(io()))
            .context("game.pdn")
            .expect_err("an error");
        assert_eq!(
            error_text(&err),
            "game.pdn\n  because: the game does not replay: move 1 cannot be played"
        );
        let err = Err::<(), _>(io())
            .context("cannot read game.pdn")
            .expect_err("an error");
        assert_eq!(
            error_text(&err),
            "cannot read game.pdn\n  because: move 1 cannot be played"
        );
    }
}
