//! A PostgreSQL store's connection: connecting
//! and migrating, connecting again at the next batch when the connection broke, statements
//! prepared once per connection, and closing the connection off the async reactor.

use super::PgStore;
use crate::storage::database_url::redacted;
use crate::storage::postgres_error::{database, describe};
use crate::storage::postgres_schema;
use crate::storage::store::StoreError;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement};
use std::collections::HashMap;
use std::time::Duration;

/// How long opening a connection may take when the URL does not say (`connect_timeout`).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

impl PgStore {
    /// Connects to the database at `url` (`postgres://USER:PASSWORD@HOST:PORT/DATABASE`) and
    /// migrates it to the current schema. Must not be called on the async reactor.
    pub fn connect(url: &str, now_ms: i64) -> Result<PgStore, StoreError> {
        let mut config: postgres::Config = url.parse().map_err(|err| {
            StoreError::Database(format!(
                "{} is not a PostgreSQL URL ({err}); write postgres://USER:PASSWORD@HOST:PORT/DB",
                redacted(url)
            ))
        })?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("kingme-server");
        }
        let mut client = Self::open(&config, url)?;
        postgres_schema::migrate(&mut client, now_ms)?;
        Ok(PgStore {
            client: Some(client),
            config,
            shown: redacted(url),
            statements: HashMap::new(),
            statement_failed: false,
        })
    }

    fn open(config: &postgres::Config, url: &str) -> Result<Client, StoreError> {
        config.connect(NoTls).map_err(|err| {
            StoreError::Database(format!(
                "cannot connect to PostgreSQL at {}: {}; is it running, and does the database \
                 exist?",
                redacted(url),
                describe(&err)
            ))
        })
    }

    /// The schema version of the open database.
    #[cfg(any(test, feature = "test-support"))]
    pub fn schema_version(&mut self) -> Result<i64, StoreError> {
        postgres_schema::version(self.client()?)
    }

    pub(super) fn client(&mut self) -> Result<&mut Client, StoreError> {
        self.client
            .as_mut()
            .ok_or_else(|| StoreError::Database("the PostgreSQL connection is closed".into()))
    }

    /// The connection, opened again if it broke (only between batches).
    pub(super) fn reconnect_if_closed(&mut self) -> Result<(), StoreError> {
        if self
            .client
            .as_ref()
            .is_some_and(|client| !client.is_closed())
        {
            return Ok(());
        }
        self.statements.clear();
        let client = self.config.connect(NoTls).map_err(|err| {
            StoreError::Database(format!(
                "the connection to PostgreSQL at {} broke and cannot be opened again: {}",
                self.shown,
                describe(&err)
            ))
        })?;
        tracing::info!("connected to PostgreSQL again");
        if let Some(old) = self.client.replace(client) {
            close_off_reactor(old);
        }
        Ok(())
    }

    pub(super) fn statement(&mut self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let prepared = self.client()?.prepare(sql);
        let statement = self.checked(prepared)?;
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }

    /// A statement's outcome, noting a failure: PostgreSQL then refuses every statement until
    /// the request's savepoint is rolled back.
    pub(super) fn checked<T>(
        &mut self,
        outcome: Result<T, postgres::Error>,
    ) -> Result<T, StoreError> {
        outcome.map_err(|err| {
            self.statement_failed = true;
            database(err)
        })
    }

    pub(super) fn query(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<Row>, StoreError> {
        let statement = self.statement(sql)?;
        let rows = self.client()?.query(&statement, params);
        self.checked(rows)
    }

    pub(super) fn query_opt(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<Option<Row>, StoreError> {
        let statement = self.statement(sql)?;
        let row = self.client()?.query_opt(&statement, params);
        self.checked(row)
    }

    pub(super) fn execute(
        &mut self,
        sql: &str,
        params: &[&(dyn ToSql + Sync)],
    ) -> Result<u64, StoreError> {
        let statement = self.statement(sql)?;
        let changed = self.client()?.execute(&statement, params);
        self.checked(changed)
    }
}

/// Closes a connection on a thread of its own: the blocking client runs a small runtime of its
/// own to close, which must not happen on a tokio worker thread.
fn close_off_reactor(client: Client) {
    let closing = std::thread::Builder::new()
        .name("kingme-pg-close".into())
        .spawn(move || drop(client));
    if let Err(err) = closing {
        tracing::warn!(%err, "could not close a PostgreSQL connection cleanly");
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            close_off_reactor(client);
        }
    }
}
