//! `kingme admin`: a server's admin bans and unbans, mutes and unmutes, closes a game,
//! announces, and reads the admin log. Each command signs in over the ordinary connection with
//! the admin's own identity (the key whose fingerprint the server's configuration names, see
//! `kingme identity show`), asks once, and prints the server's answer; a refusal (not an admin,
//! a guest) is an error with the server's words.

use crate::archive::ask;
use crate::launch::GlobalArgs;
use anyhow::bail;
use kingme_shared::protocol::{AdminAction, AdminLogEntry, ClientMessage, GameId, ServerMessage};
use std::io::Write;

/// `kingme admin`: moderate a server you are an admin of (`--server HOST:PORT`).
#[derive(Debug, Clone, clap::Args)]
pub struct AdminArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: AdminCommand,
}

/// What an admin does.
#[derive(Debug, Clone, clap::Subcommand)]
pub enum AdminCommand {
    /// Ban NAME: their sign-in is refused with the reason, their games in progress end as
    /// lost, their open games close, and they are disconnected.
    Ban {
        /// The person's name.
        // Not `name`: clap would take it for the global `--name`, whom to sign in as.
        #[arg(value_name = "NAME")]
        person: String,
        /// Why, told to them when they try to sign in.
        #[arg(long)]
        reason: Option<String>,
    },
    /// Lift NAME's ban.
    Unban {
        /// The person's name.
        // Not `name`: clap would take it for the global `--name`, whom to sign in as.
        #[arg(value_name = "NAME")]
        person: String,
    },
    /// Mute NAME: their chat is refused.
    Mute {
        /// The person's name.
        // Not `name`: clap would take it for the global `--name`, whom to sign in as.
        #[arg(value_name = "NAME")]
        person: String,
    },
    /// Lift NAME's mute.
    Unmute {
        /// The person's name.
        // Not `name`: clap would take it for the global `--name`, whom to sign in as.
        #[arg(value_name = "NAME")]
        person: String,
    },
    /// End game GAME at once, without a result (aborted).
    Close {
        /// The game's number, as the lobby lists it.
        game: u64,
    },
    /// Tell every person connected to the server TEXT.
    Announce {
        /// What to say (the words are joined with spaces).
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Print the admin log, newest first: who did what, when.
    Log,
}

impl AdminCommand {
    /// The action this command asks for; `None` for the log.
    #[must_use]
    pub fn action(&self) -> Option<AdminAction> {
        Some(match self {
            AdminCommand::Ban { person, reason } => AdminAction::Ban {
                name: person.clone(),
                reason: reason.clone(),
            },
            AdminCommand::Unban { person } => AdminAction::Unban {
                name: person.clone(),
            },
            AdminCommand::Mute { person } => AdminAction::Mute {
                name: person.clone(),
            },
            AdminCommand::Unmute { person } => AdminAction::Unmute {
                name: person.clone(),
            },
            AdminCommand::Close { game } => AdminAction::Close {
                game: GameId(*game),
            },
            AdminCommand::Announce { text } => AdminAction::Announce {
                text: text.join(" "),
            },
            AdminCommand::Log => return None,
        })
    }
}

/// A log entry as one line: `2026.11.29 01:02:03  root  3f2a...  ban mallory (spam)`.
#[must_use]
pub fn log_line(entry: &AdminLogEntry) -> String {
    let secs = entry.at_ms.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{} {:02}:{:02}:{:02}  {}  {}  {}",
        kingme_shared::record::utc_date(entry.at_ms),
        secs / 3600,
        secs / 60 % 60,
        secs % 60,
        entry.admin,
        entry.fingerprint,
        entry.action
    )
}

/// Runs `kingme admin` against `--server`, and prints the answer.
pub async fn run(global: &GlobalArgs, args: &AdminArgs) -> anyhow::Result<()> {
    if global.server.is_none() {
        bail!(
            "kingme admin acts on a server you are an admin of: give its address with --server \
             HOST:PORT"
        );
    }
    let mut out = std::io::stdout().lock();
    match args.command.action() {
        Some(action) => {
            let done = ask(
                global,
                ClientMessage::Admin(action),
                |message| match message {
                    ServerMessage::AdminDone { message, .. } => Some(message),
                    _ => None,
                },
            )
            .await?;
            writeln!(out, "{done}")?;
        }
        None => {
            let entries = ask(global, ClientMessage::AdminLog, |message| match message {
                ServerMessage::AdminLog { entries } => Some(entries),
                _ => None,
            })
            .await?;
            if entries.is_empty() {
                writeln!(out, "the admin log is empty")?;
            }
            for entry in &entries {
                writeln!(out, "{}", log_line(entry))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        command: AdminCommand,
    }

    fn action(args: &[&str]) -> Option<AdminAction> {
        Cli::try_parse_from(std::iter::once("admin").chain(args.iter().copied()))
            .expect("arguments")
            .command
            .action()
    }

    #[test]
    fn each_command_is_its_action() {
        assert_eq!(
            action(&["ban", "mallory", "--reason", "spam"]),
            Some(AdminAction::Ban {
                name: "mallory".into(),
                reason: Some("spam".into())
            })
        );
        assert_eq!(
            action(&["announce", "back", "at", "five"]),
            Some(AdminAction::Announce {
                text: "back at five".into()
            })
        );
        assert_eq!(
            action(&["close", "7"]),
            Some(AdminAction::Close { game: GameId(7) })
        );
        assert_eq!(action(&["log"]), None);
        assert!(Cli::try_parse_from(["admin", "announce"]).is_err());
    }

    #[test]
    fn a_log_line_says_when_who_and_what() {
        let entry = AdminLogEntry {
            at_ms: 1_764_378_123_000,
            admin: "root".into(),
            fingerprint: "3f".repeat(16),
            action: AdminAction::Mute { name: "eve".into() },
        };
        let line = log_line(&entry);
        assert!(
            line.ends_with(&format!("  root  {}  mute eve", "3f".repeat(16))),
            "{line}"
        );
        assert!(line.starts_with("2025.11.29 01:02:03"), "{line}");
    }
}
