//! Tidy tests of the key table: what a row says about its keys is true of what it matches, so
//! help, the player's guide and footers name the keys that really do something.

use super::{Action, BINDINGS, Binding, Place, codes, rows};
use ratatui::crossterm::event::KeyCode;

/// How a key may be spelt in the table's texts.
fn spellings(key: KeyCode) -> Vec<String> {
    let fixed: &[&str] = match key {
        KeyCode::Up => &["↑", "↑↓", "arrows"],
        KeyCode::Down => &["↓", "↑↓", "arrows"],
        KeyCode::Left => &["←", "←→", "arrows"],
        KeyCode::Right => &["→", "←→", "arrows"],
        KeyCode::Enter => &["Enter"],
        KeyCode::Esc => &["Esc"],
        KeyCode::Home => &["Home"],
        KeyCode::End => &["End"],
        KeyCode::Tab => &["Tab"],
        KeyCode::Backspace => &["Backspace"],
        KeyCode::Char(' ') => &["Space"],
        _ => &[],
    };
    let mut names: Vec<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
    match key {
        KeyCode::Char(c) if c != ' ' => {
            names.push(c.to_string());
            if c.is_ascii_digit() {
                names.push("0-9".to_owned());
            }
            if c.is_ascii_uppercase() {
                names.push("A-Z".to_owned());
            }
            if "hjkl".contains(c) {
                names.push("hjkl".to_owned());
            }
        }
        KeyCode::F(n) => names.push(format!("F{n}")),
        _ => {}
    }
    names
}

/// Whether `text` names `key` as one of its words (words split at spaces; `a/n` names both).
fn names(text: &str, key: KeyCode) -> bool {
    let spellings = spellings(key);
    let named = |word: &str| spellings.iter().any(|s| s == word);
    text.split_whitespace()
        .any(|word| named(word) || (word.len() > 1 && word.split('/').any(named)))
}

fn matched(binding: &Binding) -> Vec<KeyCode> {
    binding.codes()
}

fn takes_any_key(binding: &Binding) -> bool {
    matched(binding).len() == codes().len()
}

#[test]
fn every_key_a_row_matches_is_named_in_its_keys() {
    for binding in BINDINGS {
        if takes_any_key(binding) {
            assert!(
                binding.keys.starts_with("any"),
                "{:?} takes any key but says {:?}",
                binding.action,
                binding.keys
            );
            continue;
        }
        for key in matched(binding) {
            assert!(
                names(binding.keys, key),
                "{} {:?}: {key:?} is not named in {:?}",
                binding.place.name(),
                binding.action,
                binding.keys
            );
        }
    }
}

#[test]
fn every_row_that_acts_has_a_key() {
    for binding in BINDINGS.iter().filter(|b| b.action != Action::Click) {
        assert!(
            !matched(binding).is_empty(),
            "{} {:?} matches no key",
            binding.place.name(),
            binding.action
        );
    }
}

#[test]
fn every_footer_name_starts_with_a_key_of_its_row() {
    for binding in BINDINGS {
        let Some(name) = binding.footer else { continue };
        if takes_any_key(binding) {
            assert!(name.starts_with("any"), "{name}");
            continue;
        }
        let first = name.split([' ', ':']).next().unwrap_or_default();
        assert!(
            matched(binding).into_iter().any(|key| names(first, key)),
            "the footer's {name:?} does not start with a key of {:?}",
            binding.keys
        );
    }
}

#[test]
fn rows_sharing_keys_say_the_same() {
    for a in BINDINGS {
        for b in BINDINGS
            .iter()
            .filter(|b| b.place == a.place && b.keys == a.keys)
        {
            assert_eq!(a.what, b.what, "{} {:?}", a.place.name(), a.keys);
        }
    }
}

#[test]
fn every_place_has_a_row_and_a_name_of_its_own() {
    let places = [
        Place::Anywhere,
        Place::Lobby,
        Place::Game,
        Place::Create,
        Place::SetupBoard,
        Place::MoveLine,
        Place::ChatLine,
        Place::GameOver,
        Place::Themes,
        Place::BotLevel,
        Place::Question,
        Place::Reading,
        Place::ReviewBoard,
    ];
    for place in places {
        assert!(BINDINGS.iter().any(|b| b.place == place), "{place:?}");
        let same = places.iter().filter(|p| p.name() == place.name()).count();
        assert_eq!(same, 1, "{place:?}");
    }
    // The player's guide lists every row once.
    let all: Vec<_> = rows().collect();
    for (i, row) in all.iter().enumerate() {
        assert!(!all[..i].contains(row), "{row:?} twice");
    }
}
