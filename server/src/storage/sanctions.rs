//! The sanctions on a name as the store keeps them: a ban (with the reason told at sign-in) and a
//! mute, each a row `(name, kind, reason, at_ms)` of the table `sanctions`. A stored kind this
//! build does not know is refused, not guessed at.

/// A sanction on a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SanctionKind {
    /// The name's sign-in is refused.
    Ban,
    /// The name's chat is refused.
    Mute,
}

impl SanctionKind {
    /// The code the store keeps.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            SanctionKind::Ban => "ban",
            SanctionKind::Mute => "mute",
        }
    }
}

/// The sanctions on one name, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sanctions {
    /// `Some` while the name is banned, with the reason given (`None` inside: none given).
    pub ban: Option<Option<String>>,
    /// Whether the name is muted.
    pub muted: bool,
}

impl Sanctions {
    /// The sanctions of stored `(kind, reason)` rows.
    pub fn from_rows(
        rows: impl IntoIterator<Item = (String, Option<String>)>,
    ) -> Result<Sanctions, UnknownSanction> {
        let mut sanctions = Sanctions::default();
        for (kind, reason) in rows {
            match kind.as_str() {
                "ban" => sanctions.ban = Some(reason),
                "mute" => sanctions.muted = true,
                _ => return Err(UnknownSanction(kind)),
            }
        }
        Ok(sanctions)
    }
}

/// A stored sanction of a kind this server does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a sanction of kind {0:?}, which this server does not know")]
pub struct UnknownSanction(pub String);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_kinds_are_read_and_an_unknown_one_refused() {
        let err = Sanctions::from_rows([("jail".to_owned(), None)]).unwrap_err();
        assert!(err.to_string().contains("\"jail\""), "{err}");
        let both = Sanctions::from_rows([
            ("ban".to_owned(), Some("spam".to_owned())),
            ("mute".to_owned(), None),
        ])
        .unwrap();
        assert_eq!(
            both,
            Sanctions {
                ban: Some(Some("spam".into())),
                muted: true
            }
        );
    }
}
