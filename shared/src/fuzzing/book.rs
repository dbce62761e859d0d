//! The opening book file target: whatever bytes come, [`Book::parse`] answers without
//! panicking, and a book it accepts answers for each of its positions with a legal move and
//! writes back to the same bytes.

use crate::ai::book::Book;
use crate::games::checkers::push_moves;

/// The body of `book_file`.
pub fn book_file(data: &[u8]) {
    let Ok(book) = Book::parse(data) else {
        return;
    };
    let mut moves = Vec::new();
    for entry in book.entries() {
        let found = book
            .lookup(&entry.position)
            .expect("a listed position is found");
        moves.clear();
        push_moves(&entry.position, &mut moves);
        assert!(moves.contains(&found.mv), "the book's move is legal");
    }
    assert_eq!(book.encode(), data, "an accepted book writes back the same");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_book_passes_and_damaged_ones_are_only_refused() {
        let bytes = Book::shipped().expect("the shipped book").encode();
        book_file(&bytes);
        for at in [0, 9, bytes.len() / 2, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 0x21;
            book_file(&damaged);
        }
        book_file(&bytes[..bytes.len() / 3]);
    }
}
