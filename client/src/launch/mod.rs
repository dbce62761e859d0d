//! The command line of the client (`kingme`, `kingme play`, `kingme watch`) and starting it:
//! where to connect (a remote server, or one embedded in this process), which mode (full
//! screen, or plain lines when asked or when standard input or output is not a terminal), and
//! what to do first.

pub mod broken_pipe;

use crate::identity::name::{NO_NAME, default_name};
use crate::net::event::Event;
use crate::net::{Net, NetConfig, Security};
use crate::plain::Start;
use anyhow::{Context, bail};
use kingme_shared::ai::{Level, ladder};
use kingme_shared::protocol::{GameId, GameOptions, Opponent, SeatChoice, TimeControl};
use kingme_shared::{GameKind, GameSpec, Side};
use std::io::IsTerminal;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// Options every mode shares.
#[derive(Debug, Clone, clap::Args)]
pub struct GlobalArgs {
    /// Connect to this server (HOST:PORT) instead of starting one inside kingme.
    #[arg(long, global = true, value_name = "HOST:PORT")]
    pub server: Option<String>,
    /// Your name (default: the name you chose before, else your user name). Each name has its
    /// own key pair on this machine, made the first time the name is used.
    #[arg(long, global = true)]
    pub name: Option<String>,
    /// Play as a guest: unrated, under a name nobody registered, and no key.
    #[arg(long, global = true)]
    pub guest: bool,
    /// Connect without TLS, to a server that runs `kingme-server --plaintext` (a trusted LAN).
    /// A person then signs in only with --insecure; guests play as usual.
    #[arg(long, global = true, requires = "server")]
    pub plaintext: bool,
    /// With --plaintext: sign in anyway. The server, or anyone on the network, could then act
    /// as you at other servers that run without TLS, and read and change your games.
    #[arg(long, global = true, requires = "plaintext")]
    pub insecure: bool,
}

/// The options of the modes that show games to a person (the lobby, `play` and `watch`),
/// given before the subcommand or after it; `kingme bot` and the tools have none of them.
#[derive(Debug, Clone, Default, PartialEq, Eq, clap::Args)]
pub struct ModeArgs {
    /// Plain line mode: the board as text, moves typed at a prompt (automatic when input or
    /// output is not a terminal).
    #[arg(long)]
    pub plain: bool,
    /// Open the embedded server's web door on this address (HOST:PORT; port 0 picks one): the
    /// web page and the WebSocket, so a friend's browser can play here. Its URL is printed
    /// and shown in the lobby. Not with --server.
    #[arg(long, value_name = "HOST:PORT")]
    pub http: Option<String>,
}

impl ModeArgs {
    /// These options together with those given before the subcommand (`kingme --plain play`
    /// and `kingme play --plain` mean the same).
    #[must_use]
    pub fn or(self, before: ModeArgs) -> ModeArgs {
        ModeArgs {
            plain: self.plain || before.plain,
            http: self.http.or(before.http),
        }
    }

    /// Whether any of them was given.
    #[must_use]
    pub fn is_given(&self) -> bool {
        self.plain || self.http.is_some()
    }
}

impl GlobalArgs {
    /// How to connect to `--server`: TLS (a CA's certificate, or one pinned on first use), or
    /// plaintext when asked.
    #[must_use]
    pub fn security(&self) -> Security {
        if self.plaintext {
            Security::Plaintext {
                sign_in: self.insecure,
            }
        } else {
            Security::default_tls()
        }
    }
}

/// `kingme play`: create a game and play it.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// The game and its rules: checkers, pente, pente-free (Pente without the tournament rule)
    /// or tictactoe.
    #[arg(long, default_value = "checkers")]
    pub game: GameSpec,
    /// The opponent: a bot level (random, beginner, novice, easy, casual, intermediate,
    /// skilled, club, advanced, strong, master, expert), a rating such as 1200 (the bot level
    /// whose measured rating is nearest), or "human" for an open seat.
    #[arg(long, default_value = "intermediate", value_parser = parse_vs)]
    pub vs: VsChoice,
    /// Your side: first or second (black/white, x/o), random, or watch.
    #[arg(long, default_value = "first", value_parser = parse_seat)]
    pub color: SeatChoice,
    /// The clock: MINUTES+INCREMENT like 5+3, SECONDSs a move like 10s, or none.
    #[arg(long, default_value = "none", value_parser = parse_time)]
    pub time: TimeControl,
    /// Start from this position (checkers FEN, Pente or noughts-and-crosses position text).
    #[arg(long, value_name = "FEN", conflicts_with = "position_file")]
    pub position: Option<String>,
    /// Start from the position in this file (a checkers board file or a position text).
    #[arg(long, value_name = "FILE")]
    pub(crate) position_file: Option<String>,
    /// The old spelling of `--game pente-free`, still read: the game's free rule where it has one.
    #[arg(long, hide = true)]
    pub(crate) free_pente: bool,
    /// Rate the game (the default, except for a guest): the result changes both sides'
    /// ratings when both are registered people or bots.
    #[arg(long, conflicts_with = "unrated")]
    pub rated: bool,
    /// Play the game unrated.
    #[arg(long)]
    pub unrated: bool,
    /// Plain mode and the web door.
    #[command(flatten)]
    pub mode: ModeArgs,
}

/// `kingme watch`: watch a game.
#[derive(Debug, Clone, clap::Args)]
pub struct WatchArgs {
    /// The game's number, as the lobby lists it.
    pub game: u64,
    /// Plain mode and the web door.
    #[command(flatten)]
    pub mode: ModeArgs,
}

/// Whom `--vs` asks for: an opponent by name, or a bot by rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VsChoice {
    /// An opponent named on the command line: a person or a bot level.
    Named(Opponent),
    /// The bot level whose measured rating in the game is nearest.
    Rating(i32),
}

impl VsChoice {
    /// The opponent this choice means in `kind`.
    #[must_use]
    pub fn opponent(self, kind: GameKind) -> Opponent {
        match self {
            VsChoice::Named(opponent) => opponent,
            VsChoice::Rating(rating) => Opponent::Bot(ladder::nearest_level(kind, rating)),
        }
    }
}

fn parse_vs(text: &str) -> Result<VsChoice, String> {
    match text.trim().parse::<i32>() {
        Ok(rating) => Ok(VsChoice::Rating(rating)),
        Err(_) => parse_opponent(text)
            .map(VsChoice::Named)
            .map_err(|err| format!("{err}, or a rating such as 1200")),
    }
}

fn parse_opponent(text: &str) -> Result<Opponent, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "human" | "open" | "person" => Ok(Opponent::OpenSeat),
        other => other
            .parse::<Level>()
            .map(Opponent::Bot)
            .map_err(|err| format!("{err}, or human for an open seat")),
    }
}

fn parse_seat(text: &str) -> Result<SeatChoice, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "first" | "black" | "x" | "1" => Ok(SeatChoice::Side(Side::First)),
        "second" | "white" | "o" | "2" => Ok(SeatChoice::Side(Side::Second)),
        "random" => Ok(SeatChoice::Random),
        "watch" | "spectate" | "none" => Ok(SeatChoice::Spectate),
        _ => Err(format!(
            "expected a side: first or second (black/white in checkers, x/o in noughts and \
             crosses), random, or watch; got {text:?}"
        )),
    }
}

/// Reads a time control: `5+3` (minutes and increment seconds), `90s+2`, `10s` a move, `none`.
pub(crate) fn parse_time(text: &str) -> Result<TimeControl, String> {
    let trimmed = text.trim().to_ascii_lowercase();
    let bad = |problem: &str| {
        format!(
            "expected a clock like 5+3 (minutes+increment), 10s (a move) or none, got {text:?}: {problem}"
        )
    };
    let number = |part: &str| {
        part.parse::<u32>()
            .map_err(|_| bad(&format!("{part:?} is not a whole number")))
    };
    if matches!(trimmed.as_str(), "none" | "unlimited" | "0") {
        return Ok(TimeControl::Unlimited);
    }
    if let Some((initial, increment)) = trimmed.split_once('+') {
        let initial_secs = match initial.strip_suffix('s') {
            Some(secs) => number(secs)?,
            None => number(initial)?
                .checked_mul(60)
                .ok_or_else(|| bad("too long"))?,
        };
        let increment_secs = number(increment.strip_suffix('s').unwrap_or(increment))?;
        if initial_secs == 0 {
            return Err(bad("the initial time must be at least one second"));
        }
        return Ok(TimeControl::Incremental {
            initial_secs,
            increment_secs,
        });
    }
    if let Some(secs) = trimmed.strip_suffix('s') {
        let secs = number(secs)?;
        if secs == 0 {
            return Err(bad("a move needs at least one second"));
        }
        return Ok(TimeControl::PerMove { secs });
    }
    Err(bad("no + and no s"))
}

impl PlayArgs {
    /// The game and rules asked for: `--game`, with `--free-pente` choosing the free rule.
    #[must_use]
    pub fn spec(&self) -> GameSpec {
        if self.free_pente {
            GameSpec::with_rule(self.game.kind(), "free").unwrap_or(self.game)
        } else {
            self.game
        }
    }

    /// The game options these arguments ask for, for a guest or not (a guest's games are
    /// unrated unless `--rated` says otherwise); a given position is checked here first.
    pub fn options(&self, guest: bool) -> anyhow::Result<GameOptions> {
        let spec = self.spec();
        let start_position = match (&self.position, &self.position_file) {
            (Some(text), _) => Some(
                crate::tui::create_form::check_position(spec, text)
                    .map_err(anyhow::Error::msg)
                    .context("--position")?,
            ),
            (None, Some(path)) => Some(
                crate::tui::create_form::read_board_file(spec, path)
                    .map_err(anyhow::Error::msg)
                    .context("--position-file")?,
            ),
            (None, None) => None,
        };
        if let Some(text) = &start_position {
            let game = crate::game::table::read_position(spec, text).map_err(anyhow::Error::msg)?;
            if game.outcome().is_some() {
                bail!("the start position is already over: give a position where the game goes on");
            }
        }
        Ok(GameOptions {
            spec,
            seat: self.color,
            opponent: self.vs.opponent(spec.kind()),
            time_control: self.time,
            start_position,
            rated: self.rated || !(self.unrated || guest),
        })
    }
}

/// What the user asked for.
#[derive(Debug, Clone)]
pub enum Action {
    /// The lobby (`kingme` alone).
    Lobby(ModeArgs),
    /// `kingme play`: create a game and play it.
    Play(Box<PlayArgs>),
    /// `kingme watch`: watch a game.
    Watch(WatchArgs),
    /// `kingme bot`: play as a bot over the network.
    Bot(crate::bot::BotArgs),
}

impl Action {
    /// The mode's options: plain mode and the web door (none for a bot).
    #[must_use]
    pub fn mode(&self) -> ModeArgs {
        match self {
            Action::Lobby(mode) => mode.clone(),
            Action::Play(args) => args.mode.clone(),
            Action::Watch(args) => args.mode.clone(),
            Action::Bot(_) => ModeArgs::default(),
        }
    }
}

/// Runs the client. Returns whether it ended well (plain mode fails on a refused game).
pub async fn run(global: GlobalArgs, action: Action) -> anyhow::Result<bool> {
    let mode = action.mode();
    if mode.http.is_some() && global.server.is_some() {
        bail!(
            "--http opens the web door of the server inside kingme; with --server, the remote \
             server's own --http serves the page"
        );
    }
    let start = match &action {
        Action::Bot(args) => {
            let Some(address) = global.server.clone() else {
                bail!("kingme bot plays on a server: give its address with --server HOST:PORT");
            };
            // A bot under a name of its own keeps a key like a person; one under the made-up
            // name of this run (`bot-LEVEL-PID`) gets a key for this run only, so no key
            // files pile up.
            let keep_key = global.name.is_some();
            let name = global.name.clone().unwrap_or_else(|| args.default_name());
            let security = global.security();
            let finished = crate::bot::run(args.clone(), address, security, name, keep_key).await?;
            return Ok(finished == args.games);
        }
        Action::Lobby(_) => Start::Lobby,
        Action::Play(args) => Start::Create(Box::new(args.options(global.guest)?)),
        Action::Watch(args) => Start::Watch(GameId(args.game)),
    };
    let plain = mode.plain || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal();
    let name = match global.name.clone().or_else(default_name) {
        Some(name) => name,
        None if plain => bail!(NO_NAME),
        None => match crate::tui::name_prompt::ask()? {
            Some(name) => {
                if let Some(path) = crate::identity::name::remembered_path()
                    && let Err(err) = crate::identity::name::remember(&path, &name)
                {
                    eprintln!("kingme: cannot remember the name for next time: {err}");
                }
                name
            }
            None => return Ok(true),
        },
    };
    let shutdown = CancellationToken::new();
    let (address, security, embedded) = match &global.server {
        Some(address) => (address.clone(), global.security(), None),
        None => {
            let server = crate::net::embedded::EmbeddedServer::start(mode.http.as_deref()).await?;
            if let Some(url) = server.web_url() {
                // Before the TUI takes the screen, and again after it gives it back.
                eprintln!("kingme: the web page of this game server is at {url}");
            }
            (
                server.address().to_string(),
                server.security(),
                Some(server),
            )
        }
    };
    let (events_tx, events) = mpsc::channel::<Event>(256);
    let net = Net::spawn(
        NetConfig {
            guest: global.guest,
            security,
            ..NetConfig::new(address, name.clone())
        },
        events_tx,
        shutdown.clone(),
    );
    let ok = if plain {
        let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        crate::plain::run(net, events, start, colour).await?
    } else {
        let web_url = embedded.as_ref().and_then(|server| server.web_url());
        crate::tui::terminal::run(net, events, &name, start, web_url, global.guest).await?;
        true
    };
    shutdown.cancel();
    if let Some(server) = embedded {
        if let Some(url) = server.web_url() {
            eprintln!("kingme: the web page at {url} closes with this server");
        }
        server.stop().await;
    }
    Ok(ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `kingme play` with these arguments, as clap reads them.
    fn play(args: &[&str]) -> Result<PlayArgs, clap::Error> {
        #[derive(clap::Parser)]
        struct Play {
            #[command(flatten)]
            args: PlayArgs,
        }
        <Play as clap::Parser>::try_parse_from(std::iter::once("play").chain(args.iter().copied()))
            .map(|play| play.args)
    }

    #[test]
    fn the_game_flag_takes_a_spec_and_the_old_free_pente_flag_still_works() {
        let spec = |args: &[&str]| play(args).map(|args| args.spec().name());
        assert_eq!(spec(&[]).ok(), Some("checkers"));
        assert_eq!(spec(&["--game", "pente"]).ok(), Some("pente"));
        assert_eq!(spec(&["--game", "pente-free"]).ok(), Some("pente-free"));
        assert_eq!(
            spec(&["--game", "pente", "--free-pente"]).ok(),
            Some("pente-free")
        );
        // The old flag meant nothing for other games, and still does not.
        assert_eq!(
            spec(&["--game", "checkers", "--free-pente"]).ok(),
            Some("checkers")
        );
        let err = spec(&["--game", "chess"])
            .expect_err("no such game")
            .to_string();
        assert!(
            err.contains("checkers, pente, pente-free, tictactoe"),
            "{err}"
        );
        let options = play(&["--game", "pente-free", "--position", "1:K10:A1:0,0"])
            .expect("arguments")
            .options(false)
            .expect("options");
        assert_eq!(options.spec.name(), "pente-free");
        assert_eq!(options.start_position.as_deref(), Some("1:K10:A1:0,0"));
    }

    #[test]
    fn games_are_rated_unless_asked_otherwise_or_played_as_a_guest() {
        let rated = |args: &[&str], guest| {
            play(args)
                .expect("arguments")
                .options(guest)
                .expect("options")
                .rated
        };
        assert!(rated(&[], false));
        assert!(!rated(&[], true));
        assert!(!rated(&["--unrated"], false));
        assert!(rated(&["--rated"], true));
        assert!(play(&["--rated", "--unrated"]).is_err());
    }

    #[test]
    fn clocks_parse_and_bad_ones_are_explained() {
        assert_eq!(
            parse_time("5+3"),
            Ok(TimeControl::Incremental {
                initial_secs: 300,
                increment_secs: 3
            })
        );
        assert_eq!(
            parse_time("90s+2"),
            Ok(TimeControl::Incremental {
                initial_secs: 90,
                increment_secs: 2
            })
        );
        assert_eq!(parse_time("10s"), Ok(TimeControl::PerMove { secs: 10 }));
        assert_eq!(parse_time("none"), Ok(TimeControl::Unlimited));
        let err = parse_time("5+x").expect_err("bad");
        assert!(err.contains("\"x\" is not a whole number"), "{err}");
        assert!(parse_time("0s").is_err());
        assert!(parse_time("fast").is_err());
    }

    #[test]
    fn sides_and_opponents_parse() {
        assert_eq!(parse_seat("Black"), Ok(SeatChoice::Side(Side::First)));
        assert_eq!(parse_seat("o"), Ok(SeatChoice::Side(Side::Second)));
        assert!(
            parse_seat("green")
                .expect_err("bad")
                .contains("expected a side")
        );
        assert_eq!(parse_opponent("expert"), Ok(Opponent::Bot(Level::Expert)));
        assert_eq!(parse_opponent("human"), Ok(Opponent::OpenSeat));
        assert!(parse_opponent("god").expect_err("bad").contains("or human"));
        assert_eq!(
            parse_vs("easy"),
            Ok(VsChoice::Named(Opponent::Bot(Level::Easy)))
        );
        assert!(parse_vs("god").expect_err("bad").contains("a rating"));
        // A rating means the level nearest to it in the game asked for.
        for kind in GameKind::ALL {
            assert_eq!(
                parse_vs("-400").expect("a rating").opponent(kind),
                Opponent::Bot(Level::Random)
            );
            assert_eq!(
                parse_vs("1400").expect("a rating").opponent(kind),
                Opponent::Bot(ladder::nearest_level(kind, 1400))
            );
        }
    }
}
