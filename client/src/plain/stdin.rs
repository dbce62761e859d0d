//! Standard input as plain mode reads it: line by line on a thread (reading a terminal
//! blocks), each line checked to be UTF-8 text of a sane length. A bad line is reported as
//! such, and reading goes on with the next one; only the end of input ends the lines.

use std::io::{BufRead, Read};
use tokio::sync::mpsc;

/// The longest line read whole; a longer one is skipped to its end and reported.
pub(crate) const MAX_LINE_BYTES: u64 = 4096;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// A line of text, without its line end.
    Line(String),
    /// A line that is not UTF-8 text.
    NotUtf8,
    /// A line longer than [`MAX_LINE_BYTES`].
    TooLong,
}

/// Reads `reader` line by line into [`Input`]s until it ends (or fails); the channel closes
/// then.
pub(crate) fn lines(reader: impl BufRead + Send + 'static) -> mpsc::Receiver<Input> {
    let (sender, receiver) = mpsc::channel(16);
    std::thread::spawn(move || {
        let mut reader = reader;
        while let Some(input) = next_line(&mut reader) {
            if sender.blocking_send(input).is_err() {
                break;
            }
        }
    });
    receiver
}

/// The next line of `reader`, or `None` at its end (or on a read error).
pub(crate) fn next_line(reader: &mut impl BufRead) -> Option<Input> {
    let mut bytes = Vec::new();
    let read = reader
        .by_ref()
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', &mut bytes)
        .ok()?;
    if read == 0 {
        return None;
    }
    if bytes.last() != Some(&b'\n') && read as u64 > MAX_LINE_BYTES {
        // Skip the rest of the line, however long, without keeping it.
        skip_line(reader);
        return Some(Input::TooLong);
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    Some(String::from_utf8(bytes).map_or(Input::NotUtf8, Input::Line))
}

/// Reads up to the next line end.
fn skip_line(reader: &mut impl BufRead) {
    loop {
        let Ok(buffer) = reader.fill_buf() else {
            return;
        };
        if buffer.is_empty() {
            return;
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return;
            }
            None => {
                let all = buffer.len();
                reader.consume(all);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(bytes: &[u8]) -> Vec<Input> {
        let mut reader = bytes;
        std::iter::from_fn(|| next_line(&mut reader)).collect()
    }

    #[test]
    fn bad_lines_are_reported_and_the_next_ones_read() {
        let mut input = b"11-15\r\n\xff\xfe\n".to_vec();
        input.extend(vec![b'x'; 10_000]);
        input.extend(b"\nresign");
        assert_eq!(
            all(&input),
            vec![
                Input::Line("11-15".to_owned()),
                Input::NotUtf8,
                Input::TooLong,
                Input::Line("resign".to_owned()),
            ]
        );
        assert_eq!(all(b""), Vec::new());
    }
}
