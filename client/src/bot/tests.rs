//! The bot's state machine driven by hand: what it sends for each thing the server says.

use super::*;
use kingme_shared::protocol::{ClockState, ErrorKind, GameState, MoveRecord};
use kingme_shared::{AnyGame, Side};

fn args(games: u32) -> BotArgs {
    BotArgs {
        level: Level::Random,
        vs: None,
        game: Some(GameKind::TicTacToe),
        games,
        move_delay_ms: 0,
    }
}

fn bot() -> Bot {
    Bot::new(args(3), "robo".to_owned())
}

/// Game `id` of noughts and crosses after `moves`, with the bot ("robo") on the first seat.
fn state(id: u64, moves: &[&str], status: GameStatus) -> GameState {
    let mut game = AnyGame::start(GameKind::TicTacToe);
    let mut records = Vec::new();
    for text in moves {
        let side = game.side_to_move();
        let (text, effect) = game.play_text(text).unwrap();
        records.push(MoveRecord {
            side,
            text,
            path: effect.path,
            removed: effect.removed,
        });
    }
    GameState {
        id: GameId(id),
        spec: GameKind::TicTacToe.into(),
        seats: [
            SeatHolder::Human {
                name: "robo".to_owned(),
                connected: true,
                grace_left_ms: None,
            },
            SeatHolder::Bot {
                level: Level::Random,
            },
        ],
        your_side: Some(Side::First),
        time_control: TimeControl::Unlimited,
        rated: false,
        start_position: AnyGame::start(GameKind::TicTacToe).position_text(),
        moves: records,
        position: game.position_text(),
        side_to_move: game.side_to_move(),
        clocks: ClockState {
            remaining_ms: [None, None],
            running: None,
        },
        status,
    }
}

fn your_turn(id: u64) -> Event {
    Event::Server(ServerMessage::YourTurn {
        game: GameId(id),
        legal_moves: Vec::new(),
        clocks: ClockState {
            remaining_ms: [None, None],
            running: None,
        },
    })
}

fn summary(id: u64, status: GameStatus) -> GameSummary {
    GameSummary {
        id: GameId(id),
        spec: GameKind::TicTacToe.into(),
        seats: [
            SeatHolder::Human {
                name: "someone".to_owned(),
                connected: true,
                grace_left_ms: None,
            },
            SeatHolder::Empty,
        ],
        time_control: TimeControl::Unlimited,
        moves: 0,
        status,
        spectators: 0,
    }
}

fn says(bot: &mut Bot, message: ServerMessage) -> Vec<ClientMessage> {
    bot.event(Event::Server(message), Instant::now()).unwrap()
}

/// The move a finished search would send; the bot's own search result stands in for `think`.
fn search_answer(bot: &mut Bot) -> (GameId, usize, String) {
    let search = bot.searches.pop().expect("a search was started");
    let report = think(&search.position, search.level, &search.limits, search.seed).unwrap();
    (search.game, search.ply, report.text)
}

#[test]
fn a_refused_move_makes_the_bot_read_the_game_again_and_think_again_never_resign() {
    let mut bot = bot();
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    let (game, ply, text) = search_answer(&mut bot);
    let sent = bot.thought(game, ply, Some(text.clone()));
    assert_eq!(
        sent,
        vec![ClientMessage::Move {
            game,
            text: text.clone()
        }]
    );

    let answer = says(
        &mut bot,
        ServerMessage::MoveRejected {
            game,
            text,
            kind: ErrorKind::NotYourTurn,
            reason: "it is not your turn".to_owned(),
        },
    );
    assert_eq!(answer, vec![ClientMessage::Watch { game }]);
    // The server answers with the state and, as it is the bot's move, YourTurn: a new search.
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    assert_eq!(bot.searches.len(), 1, "the bot thinks again");
}

#[test]
fn two_searches_for_one_turn_send_one_move() {
    // A search runs when the connection drops; after the reconnect the server's state and
    // YourTurn start a second one for the same turn. Only the first answer is sent.
    let mut bot = bot();
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    let before = search_answer(&mut bot);
    bot.event(
        Event::Link(LinkEvent::Connected { resumed: true }),
        Instant::now(),
    )
    .unwrap();
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    let after = search_answer(&mut bot);
    let first = bot.thought(before.0, before.1, Some(before.2));
    let second = bot.thought(after.0, after.1, Some(after.2));
    assert_eq!(first.len() + second.len(), 1, "{first:?} {second:?}");
    // A repeated YourTurn for a turn already answered starts nothing.
    bot.event(your_turn(1), Instant::now()).unwrap();
    assert!(bot.searches.is_empty());
}

#[test]
fn a_bot_whose_open_game_vanished_opens_or_joins_another() {
    let mut bot = bot();
    let create = says(&mut bot, ServerMessage::GameList { games: Vec::new() });
    assert!(matches!(create[..], [ClientMessage::CreateGame(_)]));
    says(
        &mut bot,
        ServerMessage::State(state(4, &[], GameStatus::Open)),
    );
    assert_eq!(bot.waiting_alone(), Some(GameId(4)));
    // The server restarted and closed game 4; the bot's new session lists the lobby.
    let list = bot
        .event(
            Event::Link(LinkEvent::Connected { resumed: false }),
            Instant::now(),
        )
        .unwrap();
    assert_eq!(list, vec![ClientMessage::ListGames]);
    let next = says(
        &mut bot,
        ServerMessage::GameList {
            games: vec![summary(9, GameStatus::Open)],
        },
    );
    assert_eq!(next, vec![ClientMessage::Join { game: GameId(9) }]);

    // Even without a reconnect: the lobby no longer lists the open game, so it is gone.
    let mut bot = self::bot();
    says(&mut bot, ServerMessage::GameList { games: Vec::new() });
    says(
        &mut bot,
        ServerMessage::State(state(4, &[], GameStatus::Open)),
    );
    assert_eq!(
        bot.look_again(Instant::now()),
        vec![ClientMessage::ListGames]
    );
    let next = says(&mut bot, ServerMessage::GameList { games: Vec::new() });
    assert!(
        matches!(next[..], [ClientMessage::CreateGame(_)]),
        "{next:?}"
    );
    assert_eq!(bot.waiting_alone(), None);
}

#[test]
fn a_bot_that_lost_a_race_for_a_seat_looks_again() {
    let mut bot = bot();
    let join = says(
        &mut bot,
        ServerMessage::GameList {
            games: vec![summary(5, GameStatus::Open)],
        },
    );
    assert_eq!(join, vec![ClientMessage::Join { game: GameId(5) }]);
    // While the join is on its way, another list asks for nothing more.
    let quiet = says(
        &mut bot,
        ServerMessage::GameList {
            games: vec![summary(5, GameStatus::Open)],
        },
    );
    assert!(quiet.is_empty());
    let again = says(
        &mut bot,
        ServerMessage::Error {
            kind: ErrorKind::NotAllowed,
            message: "game 5 has no open seat; Watch it instead".to_owned(),
            fatal: false,
        },
    );
    assert_eq!(again, vec![ClientMessage::ListGames]);
    // The lobby may still show game 5 open for a moment: the bot does not try it again.
    let next = says(
        &mut bot,
        ServerMessage::GameList {
            games: vec![summary(5, GameStatus::Open)],
        },
    );
    assert!(
        matches!(next[..], [ClientMessage::CreateGame(_)]),
        "{next:?}"
    );
}

#[test]
fn a_bot_plays_every_game_it_sits_in() {
    let mut bot = bot();
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    says(
        &mut bot,
        ServerMessage::State(state(2, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    bot.event(your_turn(2), Instant::now()).unwrap();
    let mut moved = Vec::new();
    while !bot.searches.is_empty() {
        let (game, ply, text) = search_answer(&mut bot);
        moved.extend(bot.thought(game, ply, Some(text)));
    }
    let games: HashSet<GameId> = moved.iter().filter_map(ClientMessage::game).collect();
    assert_eq!(games, HashSet::from([GameId(1), GameId(2)]));
}

#[test]
fn a_bot_asked_for_by_rating_thinks_at_the_nearest_level() {
    let rating = ladder::measured_rating(GameKind::TicTacToe, Level::Expert).unwrap_or(400);
    let mut bot = Bot::new(
        BotArgs {
            vs: Some(rating),
            ..args(1)
        },
        "robo".to_owned(),
    );
    says(
        &mut bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), Instant::now()).unwrap();
    let search = bot.searches.pop().expect("a search was started");
    let wanted = ladder::nearest_level(GameKind::TicTacToe, rating);
    assert_eq!(search.level, wanted);
    assert_ne!(search.level, Level::Random, "--vs overrides --level");
    // Per game: the same rating may name different levels in different games.
    for kind in GameKind::ALL {
        assert_eq!(
            bot.args.level_for(kind),
            ladder::nearest_level(kind, rating)
        );
    }
    assert!(
        bot.args
            .default_name()
            .starts_with(&format!("bot-vs{rating}-"))
    );
}

#[test]
fn vs_and_level_parse_and_do_not_mix() {
    #[derive(clap::Parser)]
    struct Cli {
        #[command(flatten)]
        bot: BotArgs,
    }
    use clap::Parser;
    let parsed = Cli::try_parse_from(["bot", "--vs", "1200", "--game", "pente"]).unwrap();
    assert_eq!(parsed.bot.vs, Some(1200));
    let plain = Cli::try_parse_from(["bot", "--level", "club"]).unwrap();
    assert_eq!(plain.bot.level_for(GameKind::Checkers), Level::Club);
    let both = Cli::try_parse_from(["bot", "--vs", "1200", "--level", "club"]);
    assert!(both.is_err());
    assert!(Cli::try_parse_from(["bot", "--vs", "strong"]).is_err());
}

/// The bot's move in game 1 at the start, sent and then refused for `reason`: what it answers.
fn refused_again(bot: &mut Bot, reason: &str, now: Instant) -> Vec<ClientMessage> {
    says(
        bot,
        ServerMessage::State(state(1, &[], GameStatus::Playing)),
    );
    bot.event(your_turn(1), now).unwrap();
    let (game, ply, text) = search_answer(bot);
    assert!(!bot.thought(game, ply, Some(text.clone())).is_empty());
    bot.event(
        Event::Server(ServerMessage::MoveRejected {
            game,
            text,
            kind: ErrorKind::NotStored,
            reason: reason.to_owned(),
        }),
        now,
    )
    .unwrap()
}

#[test]
fn a_move_refused_again_and_again_is_retried_after_growing_pauses() {
    let mut bot = bot();
    let start = Instant::now();
    let watch = vec![ClientMessage::Watch { game: GameId(1) }];
    // The first refusal reads the game again at once: the bot's view may be stale.
    assert_eq!(refused_again(&mut bot, "the disk is full", start), watch);
    // Refused again: the server cannot store moves; it waits before trying again.
    assert!(refused_again(&mut bot, "the disk is full", start).is_empty());
}

#[test]
fn after_its_pause_a_refused_game_is_read_again_once() {
    let mut bot = bot();
    let start = Instant::now();
    refused_again(&mut bot, "the disk is full", start);
    refused_again(&mut bot, "the disk is full", start);
    assert!(bot.retry_due(start).is_empty(), "not before the pause");
    let after = start + refusals::FIRST_PAUSE;
    assert_eq!(bot.refusals.next(), Some(after));
    assert_eq!(
        bot.retry_due(after),
        vec![ClientMessage::Watch { game: GameId(1) }]
    );
    assert!(bot.retry_due(after).is_empty(), "read again once");
    // Refused a third time: twice the pause.
    refused_again(&mut bot, "the disk is full", after);
    assert_eq!(bot.refusals.next(), Some(after + 2 * refusals::FIRST_PAUSE));
}
