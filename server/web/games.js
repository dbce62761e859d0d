// What the page knows of the games beyond the server's catalogue (/catalogue.json: boards,
// square names and cells, specs, levels): how to read each game's position text into pieces,
// and a move text into the squares it visits. Notation only; the rules stay on the server.

/** The catalogue, fetched once. */
export async function loadCatalogue() {
  const response = await fetch("catalogue.json");
  const catalogue = await response.json();
  for (const board of catalogue.boards) {
    board.byName = new Map(board.squares.map((square) => [square.name, square]));
    board.byNumber = new Map(board.squares.map((square) => [square.square, square]));
    board.byCell = new Map(board.squares.map((square) => [`${square.row},${square.column}`, square]));
    // Squares named by numbers (checkers' 1-32, noughts and crosses' 1-9) show them, as the
    // moves are written with them.
    board.numbered = board.squares.every((square) => /^[0-9]+$/.test(square.name));
    board.botRatings = new Map(board.bot_ratings.map((entry) => [entry.level, entry.rating]));
  }
  catalogue.board = (kind) => catalogue.boards.find((board) => board.kind === kind);
  return catalogue;
}

const FIRST = "First";
const SECOND = "Second";

/**
 * The pieces of a position text: a Map from square number to {side, kind} where kind is
 * "man", "king", "stone", "cross" or "nought"; counts shown beside the board as text
 * (`tallies`); and in Pente the pairs each side captured (`captures`, first side first, five
 * win), else null.
 */
export function readPosition(board, text) {
  const pieces = new Map();
  const tallies = [];
  let captures = null;
  if (board.kind === "TicTacToe") {
    [...text].forEach((mark, index) => {
      if (mark === "X") pieces.set(index + 1, { side: FIRST, kind: "cross" });
      if (mark === "O") pieces.set(index + 1, { side: SECOND, kind: "nought" });
    });
  } else if (board.kind === "Checkers") {
    // PDN FEN: B:W21,22,K30:B1,2 (side to move, then each side's squares; K a king; a-b ranges).
    for (const part of text.split(":").slice(1)) {
      const side = part[0] === "B" ? FIRST : SECOND;
      for (const item of part.slice(1).split(",").filter(Boolean)) {
        const king = item.startsWith("K");
        const [from, to] = item.replace("K", "").split("-").map(Number);
        for (let square = from; square <= (to || from); square += 1) {
          pieces.set(square, { side, kind: king ? "king" : "man" });
        }
      }
    }
  } else if (board.kind === "Pente") {
    // 1:K10,L11:J9,J10:0,2 (side to move, first's stones, second's, stones captured by each).
    const [, first, second, captured] = text.split(":");
    for (const [stones, side] of [[first, FIRST], [second, SECOND]]) {
      for (const name of (stones || "").split(",").filter(Boolean)) {
        const square = board.byName.get(name);
        if (square) pieces.set(square.square, { side, kind: "stone" });
      }
    }
    const [byFirst, bySecond] = (captured || "0,0").split(",").map(Number);
    captures = [byFirst / 2, bySecond / 2];
    tallies.push(`captured pairs: ${board.side_names[0]} ${captures[0]}, ${board.side_names[1]} ${captures[1]} (5 wins)`);
  }
  return { pieces, tallies, captures };
}

/** The pairs a Pente side needs to capture to win. */
export const CAPTURES_TO_WIN = 5;

/**
 * A played move as the move list writes it: its text, and in Pente the stones it captured
 * (`M11x2`), which the placement's own text does not show.
 */
export function moveText(board, record) {
  return board.kind === "Pente" && record.removed.length > 0
    ? `${record.text}x${record.removed.length}` : record.text;
}

/** The squares a move text visits: "11x18x25" is 11, 18, 25; "K10" and "5" one square. */
export function movePath(board, text) {
  const names = text.split(/[-x]/);
  const path = names.map((name) => board.byName.get(name)?.square);
  return path.every((square) => square !== undefined) ? path : null;
}

/**
 * The landings of a checkers capture written short ("1x19" for 1x10x19: the server writes a
 * multi-jump from and to when no other capture joins the two squares), so it can be chosen
 * landing by landing: the jumps from the first square over the other side's pieces that end on
 * the last. The move is known legal (the server listed it); this only finds its squares. Any
 * other move's path is returned as it is.
 */
export function landings(board, pieces, text, path) {
  if (board.kind !== "Checkers" || !text.includes("x") || path.length !== 2) return path;
  const [from, to] = path;
  const mover = pieces.get(from);
  if (!mover) return path;
  const forward = mover.side === board.bottom_side ? -1 : 1;
  const rows = mover.kind === "king" ? [-1, 1] : [forward];
  const at = (square) => board.byNumber.get(square);
  const cell = (row, column) => board.byCell.get(`${row},${column}`);
  const search = (square, taken, route) => {
    const here = at(square);
    let found = null;
    for (const dr of rows) {
      for (const dc of [-1, 1]) {
        const over = cell(here.row + dr, here.column + dc);
        const land = cell(here.row + 2 * dr, here.column + 2 * dc);
        if (!over || !land || taken.has(over.square)) continue;
        const victim = pieces.get(over.square);
        if (!victim || victim.side === mover.side) continue;
        if (pieces.has(land.square) && land.square !== from) continue;
        const next = [...route, land.square];
        const further = search(land.square, new Set([...taken, over.square]), next);
        if (further) return further;
        if (land.square === to) found = next;
      }
    }
    return found;
  };
  return search(from, new Set(), [from]) || path;
}

/** What a piece is called for a person reading the board as text. */
export function pieceName(board, piece) {
  const side = board.side_names[piece.side === FIRST ? 0 : 1];
  return piece.kind === "man" || piece.kind === "king" || piece.kind === "stone"
    ? `${side} ${piece.kind}` : side;
}

/**
 * The pieces after a played move, from the pieces before it and its record (the squares the
 * piece visited, the squares it emptied): a placement puts the side's mark or stone; a move
 * lifts the piece, empties the captured squares, and crowns a checkers man that reached the far
 * row. For stepping through a finished game's positions; the server judged the moves.
 */
export function afterRecord(board, pieces, record) {
  const next = new Map(pieces);
  const path = record.path;
  const to = path[path.length - 1];
  let piece = path.length === 1 ? null : next.get(path[0]);
  if (piece) next.delete(path[0]);
  else if (board.kind === "TicTacToe") piece = { side: record.side, kind: record.side === FIRST ? "cross" : "nought" };
  else if (board.kind === "Pente") piece = { side: record.side, kind: "stone" };
  for (const square of record.removed) next.delete(square);
  if (piece && board.kind === "Checkers" && piece.kind === "man") {
    const farRow = piece.side === board.bottom_side ? 0 : board.rows - 1;
    if (board.byNumber.get(to).row === farRow) piece = { ...piece, kind: "king" };
  }
  if (piece) next.set(to, piece);
  return next;
}
