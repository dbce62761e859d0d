//! Turning the fuzzer's bytes into choices: a byte reader that yields numbers and the rest as
//! text, so a target can say "play n moves chosen by the next bytes, then read the rest as a move".

/// Reads choices from the front of the fuzzer's bytes; whatever is left is the text under test.
pub(super) struct Script<'a> {
    bytes: &'a [u8],
}

impl<'a> Script<'a> {
    pub(super) fn new(bytes: &'a [u8]) -> Self {
        Script { bytes }
    }

    /// The next byte, 0 once the bytes run out.
    pub(super) fn byte(&mut self) -> u8 {
        match self.bytes.split_first() {
            Some((&first, rest)) => {
                self.bytes = rest;
                first
            }
            None => 0,
        }
    }

    /// A choice among `count` things (0 if there are none).
    pub(super) fn choose(&mut self, count: usize) -> usize {
        if count == 0 {
            return 0;
        }
        let wide = usize::from(self.byte()) << 8 | usize::from(self.byte());
        wide % count
    }

    /// The bytes not read yet.
    pub(super) fn rest(&self) -> &'a [u8] {
        self.bytes
    }

    /// The bytes not read yet as text, invalid UTF-8 replaced, so every input reaches the parser.
    pub(super) fn rest_text(&self) -> String {
        String::from_utf8_lossy(self.bytes).into_owned()
    }
}
