// The lobby: the live game list (the server pushes it while the page watches the lobby, a
// finished game with its result) with a button to join an open seat or watch (a finished game
// opens from the archive), and the form that creates a game with the same options as the
// terminal client (game, seat, opponent and bot level, clock, rated, start position).

function seatText(seat, rating) {
  if (seat === "Empty") return "open seat";
  if (seat.Human) return `${seat.Human.name}${rating}${seat.Human.connected ? "" : " (away)"}`;
  if (seat.Bot) return `${seat.Bot.level.toLowerCase()} bot${rating}`;
  return "?";
}

export function clockText(time) {
  if (time === "Unlimited") return "none";
  if (time.Incremental) {
    const { initial_secs: initial, increment_secs: increment } = time.Incremental;
    return `${Math.round(initial / 60)} min + ${increment} s`;
  }
  if (time.PerMove) return `${time.PerMove.secs} s a move`;
  return "";
}

/** How a game ended, in words: "White won (resignation)", "Drawn (draw agreed)". */
export function resultText(board, { winner, reason }) {
  const code = typeof reason === "string" ? reason : Object.values(reason)[0];
  // FiveInARow is "five in a row": a word starts at each capital.
  const why = code.replace(/([a-zA-Z])(?=[A-Z])/g, "$1 ").toLowerCase();
  const text = winner ? `${board.side_names[winner === "First" ? 0 : 1]} won (${why})` : `drawn (${why})`;
  return text[0].toUpperCase() + text.slice(1);
}

function statusText(status, moves, board) {
  if (status === "Open") return "waiting for a player";
  if (status === "Playing") return `playing, ${moves} moves`;
  if (status.Over) return board ? `${resultText(board, status.Over)}, ${moves} moves` : "over";
  return "";
}

/**
 * Fills the lobby's table, with `ratings` beside the names; `act(message)` sends what a row's
 * button asks.
 */
export function showGames(tbody, games, catalogue, me, act, ratings) {
  const rows = games.map((game) => {
    const row = document.createElement("tr");
    const spec = catalogue.specs.find((entry) => entry.spec.kind === game.spec.kind
      && entry.spec.variant === game.spec.variant);
    const board = catalogue.board(game.spec.kind);
    const cells = [
      String(game.id), spec ? spec.name : game.spec.kind,
      game.seats.map((seat) => seatText(seat, ratings.label(board, seat))).join(" vs "),
      clockText(game.time_control),
      statusText(game.status, game.moves, board)
        + (game.spectators ? `, ${game.spectators} watching` : ""),
    ];
    for (const text of cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      row.appendChild(cell);
    }
    const actions = document.createElement("td");
    const mine = game.seats.some((seat) => seat.Human && seat.Human.name === me);
    const button = (label, message) => {
      const b = document.createElement("button");
      b.textContent = label;
      b.setAttribute("aria-label", `${label} game ${game.id}`);
      b.addEventListener("click", () => act(message));
      actions.appendChild(b);
    };
    if (game.status === "Open" && !mine) button("Join", { Join: { game: game.id } });
    if (mine && game.status !== "Open" && !game.status.Over) button("Resume", { Watch: { game: game.id } });
    else button("Watch", { Watch: { game: game.id } });
    row.appendChild(actions);
    return row;
  });
  if (rows.length === 0) {
    const row = document.createElement("tr");
    const cell = document.createElement("td");
    cell.colSpan = 6;
    cell.textContent = "No games yet: create one below.";
    row.appendChild(cell);
    rows.push(row);
  }
  // The rows are drawn afresh on every push: a button that had the keyboard's focus keeps it.
  const focused = tbody.contains(document.activeElement)
    ? document.activeElement.getAttribute("aria-label") : null;
  tbody.replaceChildren(...rows);
  if (focused) {
    [...tbody.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === focused)?.focus();
  }
}

/** Fills the create form's choices from the catalogue. */
export function fillCreateForm(catalogue) {
  const specs = document.getElementById("create-spec");
  specs.replaceChildren(...catalogue.specs.map((entry, index) => new Option(entry.name, String(index))));
  const opponent = document.getElementById("create-opponent");
  for (const entry of catalogue.levels) {
    opponent.appendChild(new Option(`${entry.name} bot`, entry.level));
  }
  opponent.value = catalogue.levels.find((entry) => entry.level === "Beginner")?.level || "open";
}

/** The `CreateGame` message the form describes. */
export function createMessage(catalogue) {
  const spec = catalogue.specs[Number(document.getElementById("create-spec").value)].spec;
  const seatChoice = document.getElementById("create-seat").value;
  const seat = seatChoice === "First" || seatChoice === "Second" ? { Side: seatChoice } : seatChoice;
  const opponentChoice = document.getElementById("create-opponent").value;
  const opponent = opponentChoice === "open" ? "OpenSeat" : { Bot: opponentChoice };
  const [clock, a, b] = document.getElementById("create-clock").value.split(":");
  const time_control = clock === "inc"
    ? { Incremental: { initial_secs: Number(a), increment_secs: Number(b) } }
    : clock === "move" ? { PerMove: { secs: Number(a) } } : "Unlimited";
  const rated = document.getElementById("create-rated").checked;
  const start = document.getElementById("create-start").value.trim();
  const start_position = start === "" ? null : start;
  return { CreateGame: { spec, seat, opponent, time_control, start_position, rated } };
}
