//! Lists on the wire decoded without trusting their declared length.
//!
//! serde's `Vec` reserves room for a list's declared length up front (capped at 1 MiB), so a
//! 20-byte frame that declares a long list would make its reader reserve a mebibyte before
//! finding the elements missing (found by the frame-decoder fuzz target). Fields marked
//! `#[serde(deserialize_with = "grown_list::deserialize")]` grow with the elements actually read
//! instead, so memory follows the bytes received. Encoding is unchanged: the bytes stay the
//! codec's business.

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// Reads a list element by element, never reserving for what it claims to hold.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(GrownList(PhantomData))
}

struct GrownList<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for GrownList<T> {
    type Value = Vec<T>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut elements: A) -> Result<Vec<T>, A::Error> {
        let mut list = Vec::new();
        while let Some(element) = elements.next_element()? {
            list.push(element);
        }
        Ok(list)
    }
}

#[cfg(test)]
mod tests {
    use crate::protocol::codec::{decode_payload, encode_payload};
    use crate::protocol::message::{ClockState, GameId, ServerMessage};

    #[test]
    fn lists_read_back_whole_and_lying_lengths_are_refused() {
        let message = ServerMessage::GameList { games: Vec::new() };
        let bytes = encode_payload(&message).unwrap();
        assert_eq!(decode_payload::<ServerMessage>(&bytes).unwrap(), message);
        // A YourTurn whose move list claims 60,000 entries but carries two.
        let clocks = ClockState {
            remaining_ms: [None, None],
            running: None,
        };
        let turn = |legal_moves: Vec<String>| ServerMessage::YourTurn {
            game: GameId(7),
            legal_moves,
            clocks,
        };
        let two = turn(vec!["11-15".into(), "9-13".into()]);
        let mut bytes = encode_payload(&two).unwrap();
        assert_eq!(decode_payload::<ServerMessage>(&bytes).unwrap(), two);
        // The list's count is the first byte where the encodings of two and no moves differ.
        let empty = encode_payload(&turn(Vec::new())).unwrap();
        let count_at = bytes.iter().zip(&empty).position(|(a, b)| a != b).unwrap();
        assert_eq!(bytes[count_at], 2);
        bytes.splice(count_at..=count_at, [0xfb, 0x60, 0xea]);
        assert!(decode_payload::<ServerMessage>(&bytes).is_err());
    }
}
