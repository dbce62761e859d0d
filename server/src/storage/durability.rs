//! What a committed batch survives: the operator's choice between speed and power-loss safety
//! (`kingme-server --fsync`). Either way a move is announced only after its batch is committed;
//! the choice is what "committed" promises.

/// How durable a committed batch is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Durability {
    /// A committed batch survives the server process being killed (even with SIGKILL) or
    /// crashing: it is in the operating system's hands before anyone hears of it. A power loss
    /// or an operating-system crash may lose the last moments of play (never corrupting the
    /// database). SQLite: WAL with `synchronous=NORMAL`, no fsync per batch.
    #[default]
    Process,
    /// A committed batch also survives a power loss or an operating-system crash: every batch
    /// waits for its fsync. SQLite: WAL with `synchronous=FULL`.
    PowerLoss,
}

impl Durability {
    /// SQLite's `synchronous` setting that keeps this promise in WAL mode.
    #[must_use]
    pub fn sqlite_synchronous(self) -> &'static str {
        match self {
            Durability::Process => "NORMAL",
            Durability::PowerLoss => "FULL",
        }
    }

    /// The promise in a few words, for the log.
    #[must_use]
    pub fn promise(self) -> &'static str {
        match self {
            Durability::Process => "a committed move survives a killed server (not a power loss)",
            Durability::PowerLoss => "a committed move survives a power loss (fsync per batch)",
        }
    }
}
