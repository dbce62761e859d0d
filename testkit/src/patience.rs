//! How long a test waits for each thing it waits for before it fails instead of hanging. These
//! are guards against a hung test on a loaded two-core machine, not measurements: nothing a test
//! waits for should take a fraction of them, and a passing test never waits them out.

use std::time::Duration;

/// A message from the server to a test client: an answer, a bot's move at the tests' levels,
/// an announcement.
pub const REPLY: Duration = Duration::from_secs(120);

/// A bot process (`kingme bot`, PROTOCOL.md's Python bot): a line it says, or its end after the
/// games it was asked to play.
pub const BOT: Duration = Duration::from_secs(120);

/// A server or cluster node process: a line of its log (it listens, it took over a game), or
/// its exit.
pub const SERVER_LOG: Duration = Duration::from_secs(30);

/// An event from the kingme client's own connection task (`kingme_client::net`), failing over
/// to another node included.
pub const CLIENT_EVENT: Duration = Duration::from_secs(30);

/// The web page in a headless browser showing what the test waits for.
pub const PAGE: Duration = Duration::from_secs(60);
