//! `/block NAME` and `/unblock NAME` typed in the chat line: a person hides someone's chat for
//! themselves. Done here, never sent to the server; the names are kept in the file beside the
//! person's key ([`crate::local::blocked`]), which the terminal loop writes when they change,
//! and a blocked person's chat lines are dropped as they arrive.

use super::App;

impl App {
    /// Does a typed chat line that is a `/block` or `/unblock` command; `false` for a line to
    /// send.
    pub(super) fn blocking_command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (block, name) = if let Some(name) = line.strip_prefix("/block ") {
            (true, name.trim())
        } else if let Some(name) = line.strip_prefix("/unblock ") {
            (false, name.trim())
        } else if line == "/block" || line == "/unblock" {
            self.complain(format!("{line} NAME: whose chat to hide or show again"));
            return true;
        } else {
            return false;
        };
        if block {
            match self.blocked.block(name) {
                Ok(true) => {
                    self.blocked_changed = true;
                    self.say(format!(
                        "blocked {name}: their chat is hidden from you (/unblock {name} shows it)"
                    ));
                }
                Ok(false) => self.say(format!("{name} is blocked already")),
                Err(err) => self.complain(err.to_string()),
            }
        } else if self.blocked.unblock(name) {
            self.blocked_changed = true;
            self.say(format!("unblocked {name}: their chat is shown again"));
        } else {
            self.say(format!("{name} was not blocked"));
        }
        true
    }
}
