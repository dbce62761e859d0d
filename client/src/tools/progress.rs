//! The progress of a long tool run (`kingme ladder`): an indicatif bar where standard error is a
//! terminal; where it is not (a pipe, a log file, `nohup`), where indicatif draws nothing, a
//! plain line now and then instead (after the first step, at most every [`PLAIN_EVERY`], and
//! after the last), so a run followed through its log still says how far it is and how long it
//! has left.

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// The longest wait between two plain lines.
const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// A run's progress, drawn as a bar or written as plain lines.
pub struct Progress {
    bar: ProgressBar,
    plain: Option<Plain>,
}

/// The plain lines' state: what is counted, how far, and when the last line went out.
struct Plain {
    out: Box<dyn Write>,
    what: &'static str,
    total: u64,
    done: u64,
    message: String,
    started: Instant,
    last: Option<Instant>,
}

impl Progress {
    /// Progress over `total` steps called `what` ("games"), as a bar drawn with `template` on a
    /// terminal or as plain lines on standard error elsewhere.
    pub fn new(total: u64, what: &'static str, template: &str) -> anyhow::Result<Progress> {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(template).context("the progress bar's template")?,
            );
            Ok(Progress { bar, plain: None })
        } else {
            Ok(Progress::plain(total, what, Box::new(std::io::stderr())))
        }
    }

    /// Progress written as plain lines to `out`.
    fn plain(total: u64, what: &'static str, out: Box<dyn Write>) -> Progress {
        Progress {
            bar: ProgressBar::hidden(),
            plain: Some(Plain {
                out,
                what,
                total,
                done: 0,
                message: String::new(),
                started: Instant::now(),
                last: None,
            }),
        }
    }

    /// What the next step is ("casual vs club").
    pub fn set_message(&mut self, message: String) {
        match &mut self.plain {
            Some(plain) => plain.message = message,
            None => self.bar.set_message(message),
        }
    }

    /// One step done.
    pub fn inc(&mut self) {
        self.bar.inc(1);
        if let Some(plain) = &mut self.plain {
            plain.done += 1;
            let now = Instant::now();
            let due = plain.last.is_none_or(|last| now - last >= PLAIN_EVERY);
            if due || plain.done == plain.total {
                plain.last = Some(now);
                let line = plain.line(now - plain.started);
                // Progress that cannot be written must not stop the run it reports on.
                let _ = writeln!(plain.out, "{line}");
            }
        }
    }

    /// The run is over: the bar goes away (plain lines stay where they were written).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Plain {
    /// "12/210 games, 3m 5s spent, about 48m 10s left (after casual vs club)".
    fn line(&self, spent: Duration) -> String {
        let left = if self.done > 0 && self.done < self.total {
            let each = spent.as_secs_f64() / self.done as f64;
            let rest = Duration::from_secs_f64(each * (self.total - self.done) as f64);
            format!(", about {} left", minutes(rest))
        } else {
            String::new()
        };
        let after = if self.message.is_empty() {
            String::new()
        } else {
            format!(" (after {})", self.message)
        };
        format!(
            "{}/{} {}, {} spent{left}{after}",
            self.done,
            self.total,
            self.what,
            minutes(spent)
        )
    }
}

/// A duration as minutes and seconds ("3m 5s"), or seconds alone under a minute.
fn minutes(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds < 60 {
        format!("{seconds}s")
    } else {
        format!("{}m {}s", seconds / 60, seconds % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn without_a_terminal_the_first_and_the_last_step_are_written_as_lines() {
        let out = Shared::default();
        let mut progress = Progress::plain(3, "games", Box::new(out.clone()));
        for step in ["random vs novice", "novice vs easy", "random vs easy"] {
            progress.set_message(step.to_owned());
            progress.inc();
        }
        progress.finish();
        let written = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        // The second step came within the interval of the first, so it has no line.
        assert_eq!(lines.len(), 2, "{written}");
        assert!(
            lines[0].starts_with("1/3 games, 0s spent, about 0s left (after random vs novice)"),
            "{written}"
        );
        assert_eq!(lines[1], "3/3 games, 0s spent (after random vs easy)");
    }

    #[test]
    fn a_line_says_the_time_spent_and_left_in_minutes() {
        let plain = Plain {
            out: Box::new(std::io::sink()),
            what: "games",
            total: 210,
            done: 12,
            message: "casual vs club".to_owned(),
            started: Instant::now(),
            last: None,
        };
        assert_eq!(
            plain.line(Duration::from_secs(185)),
            "12/210 games, 3m 5s spent, about 50m 52s left (after casual vs club)"
        );
    }
}
