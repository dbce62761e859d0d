//! Which `--db` values name a PostgreSQL database, and how such a URL is shown in messages and
//! logs (without its password). Apart from the PostgreSQL store, so that a server built without
//! it (the client's embedded one) still tells such a URL from a file name.

/// The `--db` values that name a PostgreSQL database.
pub const URL_SCHEMES: [&str; 2] = ["postgres://", "postgresql://"];

/// Whether a `--db` value names a PostgreSQL database rather than an SQLite file.
#[must_use]
pub fn is_postgres_url(db: &str) -> bool {
    URL_SCHEMES.iter().any(|scheme| db.starts_with(scheme))
}

/// A PostgreSQL URL fit to be shown and logged: the password replaced by `***`.
#[must_use]
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    match authority.rsplit_once('@') {
        Some((user, host)) => {
            let user = user.split_once(':').map_or(user, |(name, _)| name);
            let hidden = if user.len() < authority.len() - host.len() - 1 {
                format!("{user}:***")
            } else {
                user.to_owned()
            };
            format!("{scheme}://{hidden}@{host}{tail}")
        }
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_shown_without_its_password() {
        assert_eq!(
            redacted("postgres://kingme:s3cr:et@db.example:5432/games?sslmode=disable"),
            "postgres://kingme:***@db.example:5432/games?sslmode=disable"
        );
        assert_eq!(
            redacted("postgresql://kingme@10.0.0.2/games"),
            "postgresql://kingme@10.0.0.2/games"
        );
        assert_eq!(redacted("postgres://host/db"), "postgres://host/db");
        assert!(is_postgres_url("postgresql://h/d") && is_postgres_url("postgres://h/d"));
        assert!(!is_postgres_url("games.db") && !is_postgres_url(":memory:"));
    }
}
