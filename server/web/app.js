// The page: signs in (a person's WebCrypto key, or a guest; again by itself after a reload,
// until the person signs out), shows the live lobby, and plays or watches games over the
// WebSocket door. The server judges everything: the page shows what the server says (State,
// MovePlayed, ...) and sends what the person chooses.

import { Connection } from "./net.js";
import { canSign } from "./identity.js";
import {
  loadCatalogue, readPosition, movePath, landings, pieceName, moveText, CAPTURES_TO_WIN,
} from "./games.js";
import { BoardView } from "./board.js";
import { showGames, fillCreateForm, createMessage, clockText, resultText } from "./lobby.js";
import { Ratings, countsForRating } from "./ratings.js";
import { blockedBy, blockingCommand } from "./blocking.js";
import { ReviewBoard } from "./review.js";

const $ = (id) => document.getElementById(id);
const games = new Map();
const ratings = new Ratings();
/** The lobby's last list, drawn again when ratings arrive. */
let lobbyList = [];
let catalogue = null;
let connection = null;
let me = null;
let current = null;
/** The game to open when its State comes: an id, NEXT (the next State: a game just created or
 * joined, or the first of a person's games after signing in) or null. */
let wantedGame = null;
const NEXT = "next";
/** Whether this sign-in was welcomed once: a later Welcome is a reconnection. */
let welcomedOnce = false;
/** The screen shown: a banner belongs to it and goes when another is shown. */
let screenShown = null;
/**
 * Set in this tab's session storage while a person is signed in: a reload signs in again, and
 * another tab (which would take the seats over) asks who you are.
 */
const SIGNED_IN = "kingme-signed-in";

function status(text) { $("status").textContent = text; }

function send(message) {
  if (!connection || !connection.send(message)) status("not connected; trying again…");
}

function showScreen(name) {
  if (name !== screenShown) status("");
  screenShown = name;
  for (const screen of ["signin", "lobby", "game"]) $(screen).hidden = screen !== name;
  send({ WatchLobby: { on: name === "lobby" } });
}

function sideIndex(side) { return side === "First" ? 0 : 1; }

// ---- signing in ----

async function start() {
  catalogue = await loadCatalogue();
  review.mateBound = catalogue.mate_bound;
  fillCreateForm(catalogue);
  const match = location.hash.match(/^#game=(\d+)$/);
  wantedGame = match ? Number(match[1]) : null;
  const signing = await canSign();
  if (!signing) {
    $("guest").checked = true;
    $("guest").disabled = true;
    $("guest").parentElement.append(" (this browser cannot make Ed25519 keys)");
  }
  const saved = localStorage.getItem("kingme-name");
  if (saved) {
    $("name").value = saved;
    $("guest").checked = !signing || localStorage.getItem("kingme-guest") === "yes";
  }
  $("signin-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("name").value.trim();
    if (!name) return;
    signIn(name, $("guest").checked);
  });
  // Signed in before this reload: again, with the key this browser keeps (a guest with the
  // resume token this tab keeps).
  if (saved && sessionStorage.getItem(SIGNED_IN) === "yes") {
    signIn(saved, $("guest").checked);
    return;
  }
  $("signin").hidden = false;
  $("who").textContent = "not signed in";
}

function signIn(name, guest) {
  me = name;
  welcomedOnce = false;
  localStorage.setItem("kingme-name", name);
  localStorage.setItem("kingme-guest", guest ? "yes" : "no");
  sessionStorage.setItem(SIGNED_IN, "yes");
  $("signin").hidden = true;
  $("signout").hidden = false;
  $("signin-error").textContent = "";
  // Rated by default for a person with a key, as in the terminal client; a guest's games are
  // casual (the server refuses a guest's rated game).
  $("create-rated").checked = !guest;
  $("create-rated").disabled = guest;
  connection = new Connection({
    name, guest, onMessage: receive,
    onLink: (state, text) => {
      // For scripts (the browser test) and styles: the link's state.
      document.body.dataset.link = state;
      $("who").textContent = state === "refused" ? text : `${name}${guest ? " (guest)" : ""}: ${text}`;
      if (state === "lost") status(`The connection to the server was lost; trying again (your games wait for you).`);
    },
  });
}

/** The server refused the name: the sign-in form comes back, saying why, for another try. */
function refused(message) {
  sessionStorage.removeItem(SIGNED_IN);
  $("signout").hidden = true;
  screenShown = "signin";
  connection = null;
  me = null;
  current = null;
  games.clear();
  for (const screen of ["lobby", "game"]) $(screen).hidden = true;
  $("signin").hidden = false;
  $("signin-error").textContent = `${message} Choose another name, or play as a guest.`;
  status("");
  $("name").focus();
  $("name").select();
}

// ---- what the server says ----

function receive(kind, body) {
  if (review.receive(kind, body)) return;
  const game = body && body.game !== undefined ? games.get(body.game) : null;
  switch (kind) {
    case "Welcome":
      status("");
      send({ Leaderboard: { kind: null } });
      if (!welcomedOnce) {
        // Signing in: the person's unfinished games come back (a State of each follows, with
        // its chat so far) and the one the link names opens, else the first; a game the link
        // names that is not the person's is watched. (Watching one of the person's own games
        // too would bring its chat a second time.)
        welcomedOnce = true;
        if (wantedGame !== null && !body.games.includes(wantedGame)) send({ Watch: { game: wantedGame } });
        else if (wantedGame === null && body.games.length > 0) wantedGame = NEXT;
      } else {
        // Back after a lost connection: each game's chat so far comes again with its State.
        for (const known of games.values()) known.chat = [];
        if (current !== null && !body.games.includes(current)) {
          // The seats' States come by themselves; a game that was only watched (or is over)
          // is asked for again.
          wantedGame = current;
          send({ Watch: { game: current } });
        }
      }
      if (current === null) showScreen("lobby");
      break;
    case "GameList":
      lobbyList = body.games;
      showGames($("games").tBodies[0], lobbyList, catalogue, me, act, ratings);
      break;
    case "Leaderboard":
      ratings.update(body.entries);
      showGames($("games").tBodies[0], lobbyList, catalogue, me, act, ratings);
      if (games.has(current)) showPlayers(games.get(current));
      break;
    case "State":
      gotState(body);
      break;
    case "YourTurn":
      if (!game) break;
      {
        const { pieces } = readPosition(game.board, game.state.position);
        game.legal = body.legal_moves.map((text) => ({ text, path: movePath(game.board, text) }))
          .filter((move) => move.path)
          .map((move) => ({ ...move, path: landings(game.board, pieces, move.text, move.path) }));
      }
      setClocks(game, body.clocks);
      $("legal-moves").replaceChildren(...body.legal_moves.map((text) => new Option(text)));
      if (game.state.id === current) {
        showLegal(game.legal);
        announce(game, "your move");
      }
      break;
    case "MovePlayed":
      if (!game) break;
      game.state.moves.push(body.record);
      game.state.position = body.position;
      game.state.side_to_move = body.side_to_move;
      game.legal = [];
      setClocks(game, body.clocks);
      if (game.state.id === current) {
        const mine = body.record.side === game.state.your_side;
        showLegal([]);
        showPosition(game, !mine);
        showMoves(game);
        announce(game, `${sideName(game, body.record.side)} played ${body.record.text}`);
      }
      break;
    case "MoveRejected":
      $("move-error").textContent = `${body.text}: ${body.reason}`;
      if (game && game.state.id === current) showLegal(game.legal);
      break;
    case "SeatChanged":
      if (!game) break;
      game.state.seats[sideIndex(body.side)] = body.holder;
      if (game.state.id === current) showPlayers(game);
      break;
    case "GameOver":
      if (!game) break;
      game.state.status = { Over: body.result };
      game.legal = [];
      // A rated game moved its players' ratings, once both sides moved (PLIES_TO_RATE in
      // shared/src/domain/outcome.rs): ask for them again to show the change.
      if (game.state.rated && countsForRating(body.result, game.state.moves.length)) {
        send({ Leaderboard: { kind: null } });
      }
      setClocks(game, body.clocks);
      if (game.state.id === current) { showLegal([]); showStatus(game); }
      break;
    case "DrawOffered":
    case "TakebackRequested":
      if (!game) break;
      if (body.by === game.state.your_side) {
        announce(game, kind === "DrawOffered" ? "you offered a draw" : "you asked to take back");
      } else if (game.state.your_side) {
        offer(game, kind === "DrawOffered" ? "AnswerDraw" : "AnswerTakeback",
          `${sideName(game, body.by)} ${kind === "DrawOffered" ? "offers a draw" : "asks to take back a move"}`);
      } else {
        announce(game, `${sideName(game, body.by)} ${kind === "DrawOffered" ? "offers a draw" : "asks for a takeback"}`);
      }
      break;
    case "DrawDeclined": announce(game, `${sideName(game, body.by)} declined the draw`); break;
    case "TakebackDeclined": announce(game, `${sideName(game, body.by)} declined the takeback`); break;
    case "TookBack": announce(game, `${body.plies} moves taken back`); break;
    case "RematchOffered": announce(game, `${sideName(game, body.by)} asks for a rematch (press Rematch to agree)`); break;
    case "RematchStarted":
      if (game && game.state.id === current) {
        wantedGame = body.rematch;
        if (!game.state.your_side) send({ Watch: { game: body.rematch } });
      }
      break;
    case "Chat":
      if (!game || blockedBy(me).has(body.from)) break;
      game.chat.push(`${body.from}: ${body.text}`);
      if (game.state.id === current) showChat(game);
      break;
    case "Left":
      // A finished game stays on the screen when its table closes, until the person leaves it.
      if (current === body.game && game && game.state.status.Over) break;
      games.delete(body.game);
      if (current === body.game) { current = null; showScreen("lobby"); }
      break;
    case "Error":
      if (body.fatal && (body.kind === "Unauthorized" || body.kind === "VersionMismatch")) {
        refused(body.message);
        break;
      }
      if (body.kind === "NoSuchGame" && typeof wantedGame === "number") {
        // The game a link (or the lobby) named is not there: the address stops naming it.
        wantedGame = null;
        if (current === null) history.replaceState(null, "", "/");
      }
      status(body.message);
      break;
    case "ShuttingDown":
      status(body.message);
      break;
    case "Announcement":
      status(`Announcement from ${body.from}: ${body.text}`);
      break;
    default:
  }
}

/** A lobby button: a game this page already follows opens at once, anything else is asked. */
function act(message) {
  if (message.Watch && games.has(message.Watch.game)) {
    openGame(message.Watch.game);
    return;
  }
  wantedGame = message.Watch ? message.Watch.game : message.Join ? message.Join.game : NEXT;
  send(message);
}

function gotState(state) {
  const board = catalogue.board(state.spec.kind);
  const previous = games.get(state.id);
  games.set(state.id, {
    state, board, legal: [], chat: previous ? previous.chat : [],
    clocks: state.clocks, clocksAt: performance.now(),
  });
  if (current === state.id || wantedGame === state.id || wantedGame === NEXT) openGame(state.id);
}

// ---- the game view ----

const view = new BoardView($("board"), {
  onMove: (text) => play(text),
  onNote: (text) => { $("move-error").textContent = text; },
});

const review = new ReviewBoard({
  view, send, sideName: (game, side) => sideName(game, side), mateBound: 9000,
  onClose: () => {
    const game = games.get(current);
    if (game) { showPosition(game, false); view.setLegal(game.legal); }
  },
});

/**
 * Sends the person's move. The board takes no more choices from then on: until the server
 * answers (MovePlayed, or MoveRejected, which gives the turn back), it is not the person's move.
 */
function play(text) {
  $("move-error").textContent = "";
  showLegal([]);
  send({ Move: { game: current, text } });
}

/**
 * The moves the board offers the person, and `data-turn=mine` on it while there are any (for
 * styles and tests): the mark is never set apart from the moves.
 */
function showLegal(legal) {
  view.setLegal(legal);
  if (legal.length > 0) $("board").dataset.turn = "mine";
  else delete $("board").dataset.turn;
}

function sideName(game, side) {
  return game ? game.board.side_names[sideIndex(side)] : side;
}

function openGame(id) {
  const game = games.get(id);
  current = id;
  wantedGame = null;
  review.leave();
  showScreen("game");
  history.replaceState(null, "", `#game=${id}`);
  const board = game.board;
  const viewer = game.state.your_side;
  const bottom = viewer || board.bottom_side || "First";
  view.show(board, board.bottom_side ? bottom !== board.bottom_side : false);
  game.bottom = bottom;
  const spec = catalogue.specs.find((entry) => entry.spec.kind === game.state.spec.kind
    && entry.spec.variant === game.state.spec.variant);
  $("game-title").textContent = `Game ${id}: ${spec ? spec.name : board.name}`
    + `${game.state.rated ? ", rated" : ""}, clock ${clockText(game.state.time_control)}`
    + (viewer ? `; you play ${sideName(game, viewer)}` : "; watching");
  const link = `${location.origin}/#game=${id}`;
  $("watch-link").href = link;
  $("watch-link").textContent = link;
  $("offer").hidden = true;
  $("move-error").textContent = "";
  showPosition(game, false);
  showLegal(game.legal);
  showMoves(game);
  showChat(game);
  showPlayers(game);
  showStatus(game);
}

function showPosition(game, slide) {
  const { pieces, tallies, captures } = readPosition(game.board, game.state.position);
  game.captures = captures;
  showCaptures(game);
  const last = game.state.moves[game.state.moves.length - 1];
  view.setPosition(pieces, last ? last.path : [], slide);
  const groups = new Map();
  for (const [number, piece] of pieces) {
    const name = pieceName(game.board, piece);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(game.board.byNumber.get(number).name);
  }
  const parts = [...groups].map(([name, squares]) => `${name}: ${squares.join(", ")}`);
  if (parts.length === 0) parts.push("the board is empty");
  $("board-text").textContent = `${parts.join("; ")}. ${tallies.join(". ")} `
    + `${sideName(game, game.state.side_to_move)} to move.`;
}

/** Pente's captured pairs, in each player's line (five win). */
function showCaptures(game) {
  for (const span of document.querySelectorAll(".player .captures")) {
    const pairs = game.captures ? game.captures[sideIndex(span.dataset.side)] : null;
    span.textContent = pairs === null ? "" : `captured pairs: ${pairs} of ${CAPTURES_TO_WIN}`;
  }
}

/**
 * The moves played, numbered as the terminal client numbers them: `1. Black 11-15`, then
 * `1... White 22-18` (a game set up with the second side to move starts at `1...`).
 */
function showMoves(game) {
  const moves = game.state.moves;
  const offset = moves.length > 0 && moves[0].side === "Second" ? 1 : 0;
  $("moves").replaceChildren(...moves.map((record, index) => {
    const ply = index + offset;
    const item = document.createElement("li");
    item.className = ply % 2 === 0 ? "first" : "second";
    item.textContent = `${Math.floor(ply / 2) + 1}${ply % 2 === 0 ? "." : "..."} `
      + `${sideName(game, record.side)} ${moveText(game.board, record)}`;
    return item;
  }));
  $("moves").scrollTop = $("moves").scrollHeight;
}

function showChat(game) {
  $("chat").replaceChildren(...game.chat.map((line) => {
    const item = document.createElement("li");
    item.textContent = line;
    return item;
  }));
  $("chat").scrollTop = $("chat").scrollHeight;
}

function seatName(game, seat) {
  if (seat === "Empty") return "(open seat)";
  const rating = ratings.label(game.board, seat);
  if (seat.Human) {
    const away = seat.Human.connected ? "" : " (away)";
    return seat.Human.name + rating + away;
  }
  if (seat.Bot) return `${seat.Bot.level.toLowerCase()} bot${rating}`;
  return "";
}

function showPlayers(game) {
  for (const [slot, side] of [["bottom-player", game.bottom], ["top-player", game.bottom === "First" ? "Second" : "First"]]) {
    const holder = game.state.seats[sideIndex(side)];
    const name = document.createElement("span");
    name.textContent = `${sideName(game, side)}: ${seatName(game, holder)}`;
    const captures = document.createElement("span");
    captures.className = "captures";
    captures.dataset.side = side;
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.side = side;
    $(slot).replaceChildren(name, captures, clock);
  }
  showCaptures(game);
  tick();
}

function showStatus(game) {
  const s = game.state.status;
  let text;
  if (s === "Open") text = "Waiting for a player to join: share the watch link, or they find it in the lobby.";
  else if (s === "Playing") text = `${sideName(game, game.state.side_to_move)} to move.`;
  else if (s.Over) {
    text = `${resultText(game.board, s.Over)}.`;
    if (game.state.rated && !countsForRating(s.Over, game.state.moves.length)) {
      text += " Not rated: it ended before both sides moved.";
    }
  }
  $("game-status").textContent = text;
  // For scripts (the browser test): whether the game is over.
  if (s.Over) $("game").dataset.over = "yes";
  else delete $("game").dataset.over;
  const seated = Boolean(game.state.your_side);
  for (const button of ["resign", "draw", "takeback"]) $(button).hidden = !seated || Boolean(s.Over);
  $("rematch").hidden = !seated || !s.Over;
  // Only a player in a game going on moves: a spectator is not offered the move form.
  for (const part of ["move-form", "board-help"]) $(part).hidden = !seated || Boolean(s.Over);
  // Any finished game may be reviewed, by its players and by anyone who opens it.
  $("review-open").hidden = !s.Over;
}

function announce(game, text) {
  if (!game || game.state.id !== current) return;
  showStatus(game);
  $("game-status").textContent += ` ${text[0].toUpperCase()}${text.slice(1)}.`;
}

function offer(game, answer, text) {
  $("offer-text").textContent = text;
  $("offer").hidden = false;
  const reply = (accept) => {
    $("offer").hidden = true;
    send({ [answer]: { game: game.state.id, accept } });
  };
  $("offer-yes").onclick = () => reply(true);
  $("offer-no").onclick = () => reply(false);
  $("offer-yes").focus();
}

// ---- clocks ----

function setClocks(game, clocks) {
  game.clocks = clocks;
  game.clocksAt = performance.now();
  if (game.state.id === current) tick();
}

function format(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return `${minutes}:${seconds}`;
}

function tick() {
  const game = games.get(current);
  if (!game) return;
  const over = game.state.status && game.state.status.Over;
  for (const clock of document.querySelectorAll(".player .clock")) {
    const side = clock.dataset.side;
    const left = game.clocks.remaining_ms[sideIndex(side)];
    if (left === null || left === undefined) { clock.textContent = ""; continue; }
    const running = !over && game.clocks.running === side;
    const now = running ? left - (performance.now() - game.clocksAt) : left;
    clock.textContent = format(now);
    clock.classList.toggle("running", running);
    clock.classList.toggle("low", now < 10000);
    clock.setAttribute("aria-label", `${sideName(game, side)}'s clock${running ? ", running" : ""}`);
  }
}
setInterval(tick, 200);

// ---- the person's actions ----

$("create").addEventListener("submit", (event) => {
  event.preventDefault();
  current = null;
  wantedGame = NEXT;
  send(createMessage(catalogue));
});
$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("move-text").value.trim();
  if (text) play(text);
  $("move-text").value = "";
});
$("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("chat-text").value.trim();
  const blocking = me === null ? null : blockingCommand(me, text);
  if (blocking !== null) status(blocking);
  else if (text && current !== null) send({ Chat: { game: current, text } });
  $("chat-text").value = "";
});
$("resign").addEventListener("click", () => {
  if (confirm("Resign this game?")) send({ Resign: { game: current } });
});
$("draw").addEventListener("click", () => send({ OfferDraw: { game: current } }));
$("takeback").addEventListener("click", () => send({ RequestTakeback: { game: current } }));
$("rematch").addEventListener("click", () => send({ Rematch: { game: current } }));
$("review-open").addEventListener("click", () => {
  const game = games.get(current);
  if (game && game.state.status.Over) review.open(game);
});
$("leave").addEventListener("click", () => {
  const game = games.get(current);
  // A spectator stops watching; a player keeps the seat (the lobby can resume it).
  // Forgotten at once, so watching it again from the lobby asks the server afresh.
  if (game && !game.state.your_side) {
    send({ Leave: { game: current } });
    games.delete(current);
  }
  current = null;
  review.leave();
  history.replaceState(null, "", "/");
  showScreen("lobby");
});
$("signout").addEventListener("click", () => {
  // The next visit asks who you are; this browser keeps the name's key for when you come back.
  sessionStorage.removeItem(SIGNED_IN);
  if (connection) connection.close();
  location.assign("/");
});
$("board").addEventListener("focus", () => view.draw());
$("board").addEventListener("blur", () => view.draw());

start().catch((err) => status(`The page could not start: ${err}`));
