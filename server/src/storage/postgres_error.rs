//! PostgreSQL's errors as [`StoreError`]s, with the server's own words.

use super::store::StoreError;

/// A driver error as a [`StoreError::Database`] in the words of [`describe`].
pub fn database(err: postgres::Error) -> StoreError {
    StoreError::Database(describe(&err))
}

/// A driver error as text: the server's own message (and detail) when PostgreSQL answered, else
/// the driver's description with its causes (the driver's own text alone says only "db error").
#[must_use]
pub fn describe(err: &postgres::Error) -> String {
    if let Some(db) = err.as_db_error() {
        let detail = db
            .detail()
            .map(|detail| format!(" ({detail})"))
            .unwrap_or_default();
        return format!("PostgreSQL: {} {}{detail}", db.code().code(), db.message());
    }
    let mut text = err.to_string();
    let mut cause = std::error::Error::source(err);
    while let Some(inner) = cause {
        let inner_text = inner.to_string();
        if !text.contains(&inner_text) {
            text = format!("{text}: {inner_text}");
        }
        cause = inner.source();
    }
    text
}
