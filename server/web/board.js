// The board as SVG, for every game from the catalogue's layout: squares, a checkered board or
// the points of a Go-like grid, with the squares' numbers where moves are written with them;
// pieces drawn by shape and lightness; the selection, the legal targets and the last move
// marked by shape as well as colour. A move is chosen square by square
// (click-click, drag, or the keyboard's cursor with Enter), matched against the legal moves'
// paths, so a multi-jump is entered landing by landing; the opponent's move slides along its path.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100;
/** The labels' margin in board units (a cell is 100) on an 8-wide board; a wider one scales it. */
const MARGIN = 36;
const STEP_MS = 150;

/** An SVG element `name` with `attributes`, appended to `parent` if given. */
export function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

export class BoardView {
  /**
   * `host`: the element to draw in; `onMove(text)`: a whole legal move was chosen;
   * `onNote(text)`: something to tell the person (why a square cannot be chosen).
   */
  constructor(host, { onMove, onNote }) {
    this.host = host;
    this.onMove = onMove;
    this.onNote = onNote;
    this.board = null;
    this.pieces = new Map();
    this.legal = [];
    this.chosen = [];
    this.cursor = null;
    this.flip = false;
    this.lastPath = [];
    this.bestPath = [];
    host.addEventListener("keydown", (event) => this.key(event));
  }

  /**
   * Shows a board: `board` from the catalogue, `flip` to put the second row of cells on top.
   * It starts empty: the last game's pieces, last move and legal moves name squares this board
   * may not have (a smaller board than the last), so they go with it.
   */
  show(board, flip) {
    this.board = board;
    this.flip = flip;
    this.scale = Math.max(1, board.columns / 8);
    this.margin = MARGIN * this.scale;
    this.pieces = new Map();
    this.lastPath = [];
    this.bestPath = [];
    this.legal = [];
    this.chosen = [];
    this.cursor = { row: Math.floor(board.rows / 2), column: Math.floor(board.columns / 2) };
    this.draw();
  }

  /** New pieces; `lastPath` is the last move's path (marked), `slide` whether to animate it. */
  setPosition(pieces, lastPath, slide) {
    this.pieces = pieces;
    this.lastPath = lastPath || [];
    this.bestPath = [];
    this.chosen = [];
    this.draw();
    if (slide && this.lastPath.length > 1) this.slide(this.lastPath);
  }

  /**
   * The review board's best move, drawn over the position: its squares framed and its path as
   * a line (a deep purple with a light casing, 3:1 against every square and piece colour).
   */
  setBest(path) {
    this.bestPath = path || [];
    this.draw();
  }

  /** The legal moves as {text, path}; empty when it is not the viewer's turn. */
  setLegal(legal) {
    this.legal = legal;
    this.chosen = [];
    this.draw();
  }

  cellPosition(row, column) {
    const r = this.flip ? this.board.rows - 1 - row : row;
    const c = this.flip ? this.board.columns - 1 - column : column;
    return { x: this.margin + c * CELL + CELL / 2, y: r * CELL + CELL / 2 };
  }

  squareAt(row, column) {
    return this.board.squares.find((s) => s.row === row && s.column === column);
  }

  squarePosition(number) {
    const square = this.board.byNumber.get(number);
    return this.cellPosition(square.row, square.column);
  }

  /** Legal moves that begin with the chosen squares followed by `next` (if given). */
  matching(next) {
    const prefix = next === undefined ? this.chosen : [...this.chosen, next];
    return this.legal.filter((move) => prefix.every((square, i) => move.path[i] === square));
  }

  targets() {
    if (this.chosen.length === 0) return new Set(this.legal.map((move) => move.path[0]));
    return new Set(this.matching()
      .filter((move) => move.path.length > this.chosen.length)
      .map((move) => move.path[this.chosen.length]));
  }

  /** The person chose a square (by click, drop or key). */
  choose(number) {
    if (this.legal.length === 0) {
      this.onNote("it is not your move");
      return;
    }
    const candidates = this.matching(number);
    if (candidates.length === 0) {
      // The chosen piece again puts it back; another piece that can move is picked up instead.
      if (this.chosen.length === 1 && this.chosen[0] === number) {
        this.chosen = [];
        this.draw();
        return;
      }
      if (this.chosen.length > 0 && this.legal.some((move) => move.path[0] === number)) {
        this.chosen = [];
        this.choose(number);
        return;
      }
      this.onNote(this.chosen.length === 0
        ? `no move starts on ${this.board.byNumber.get(number).name}`
        : `${this.board.byNumber.get(number).name} is not a legal next square`);
      return;
    }
    const length = this.chosen.length + 1;
    const complete = candidates.filter((move) => move.path.length === length);
    if (complete.length === 1 && candidates.length === 1) {
      this.chosen = [];
      this.onMove(complete[0].text);
      this.draw();
      return;
    }
    this.chosen.push(number);
    this.onNote("");
    this.draw();
  }

  key(event) {
    if (!this.board) return;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      const [dr, dc] = moves[event.key];
      const sign = this.flip ? -1 : 1;
      this.cursor.row = Math.min(this.board.rows - 1, Math.max(0, this.cursor.row + dr * sign));
      this.cursor.column = Math.min(this.board.columns - 1, Math.max(0, this.cursor.column + dc * sign));
      const square = this.squareAt(this.cursor.row, this.cursor.column);
      this.onNote(square ? this.describe(square) : "not a playing square");
      this.draw();
    } else if (event.key === "Enter" || event.key === " ") {
      const square = this.squareAt(this.cursor.row, this.cursor.column);
      if (square) this.choose(square.square);
    } else if (event.key === "Escape") {
      this.chosen = [];
      this.draw();
    } else {
      return;
    }
    event.preventDefault();
  }

  describe(square) {
    const piece = this.pieces.get(square.square);
    const side = piece ? this.board.side_names[piece.side === "First" ? 0 : 1] : null;
    const what = piece ? `${side} ${piece.kind}` : "empty";
    const target = this.targets().has(square.square) ? ", can be chosen" : "";
    return `${square.name}: ${what}${target}`;
  }

  draw() {
    if (!this.board) return;
    const board = this.board;
    const width = this.margin + board.columns * CELL;
    const height = board.rows * CELL + this.margin;
    const svg = element("svg", {
      viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": `${board.name} board; the board as text is below`,
    });
    this.drawSurface(svg);
    const targets = this.targets();
    for (const square of board.squares) {
      const { x, y } = this.cellPosition(square.row, square.column);
      const cell = element("rect", {
        x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
        fill: "transparent", class: "cell", "data-square": square.square,
      }, svg);
      cell.addEventListener("pointerdown", (event) => this.pointerDown(event, square.square));
      if (board.numbered) this.drawNumber(svg, square, x, y);
      if (this.lastPath.includes(square.square)) {
        element("rect", {
          x: x - CELL / 2 + 4, y: y - CELL / 2 + 4, width: CELL - 8, height: CELL - 8,
          fill: "none", stroke: "var(--last)", "stroke-width": 6, "stroke-dasharray": "14 8",
          "pointer-events": "none",
        }, svg);
      }
    }
    for (const [number, piece] of this.pieces) this.drawPiece(svg, number, piece);
    this.drawBest(svg);
    for (const number of this.chosen) {
      const { x, y } = this.squarePosition(number);
      element("rect", {
        x: x - CELL / 2 + 3, y: y - CELL / 2 + 3, width: CELL - 6, height: CELL - 6,
        fill: "none", stroke: "var(--accent)", "stroke-width": 8, "pointer-events": "none",
      }, svg);
    }
    // Before a piece is picked up, rings mark the pieces that can move; then dots mark where
    // it can go. A placement game marks its empty points only when there are few of them.
    const placing = this.legal.every((move) => move.path.length === 1);
    if (this.chosen.length === 0 && !placing) {
      for (const number of targets) {
        const { x, y } = this.squarePosition(number);
        element("circle", {
          cx: x, cy: y, r: 44, fill: "none", stroke: "var(--target)", "stroke-width": 5,
          "stroke-dasharray": "10 6", "pointer-events": "none", class: "movable",
          "data-square": number,
        }, svg);
      }
    } else if (targets.size <= 40) {
      for (const number of targets) {
        const { x, y } = this.squarePosition(number);
        element("circle", {
          cx: x, cy: y, r: 13, fill: "var(--target)", stroke: "var(--ink)", "stroke-width": 3,
          "pointer-events": "none", class: "target", "data-square": number,
        }, svg);
      }
    }
    if (document.activeElement === this.host && this.cursor) {
      const { x, y } = this.cellPosition(this.cursor.row, this.cursor.column);
      element("rect", {
        x: x - CELL / 2 + 10, y: y - CELL / 2 + 10, width: CELL - 20, height: CELL - 20,
        fill: "none", stroke: "var(--accent)", "stroke-width": 4, "stroke-dasharray": "6 6",
        "pointer-events": "none", class: "cursor",
      }, svg);
    }
    this.host.replaceChildren(svg);
    this.svg = svg;
  }

  drawSurface(svg) {
    const board = this.board;
    const top = 0;
    const left = this.margin;
    const width = board.columns * CELL;
    const height = board.rows * CELL;
    if (board.surface === "intersections") {
      element("rect", { x: left, y: top, width, height, fill: "var(--wood)" }, svg);
      for (let i = 0; i < board.rows; i += 1) {
        const y = top + i * CELL + CELL / 2;
        element("line", { x1: left + CELL / 2, y1: y, x2: left + width - CELL / 2, y2: y, stroke: "var(--ink)", "stroke-width": 2 }, svg);
      }
      for (let i = 0; i < board.columns; i += 1) {
        const x = left + i * CELL + CELL / 2;
        element("line", { x1: x, y1: top + CELL / 2, x2: x, y2: top + height - CELL / 2, stroke: "var(--ink)", "stroke-width": 2 }, svg);
      }
    } else {
      for (let row = 0; row < board.rows; row += 1) {
        for (let column = 0; column < board.columns; column += 1) {
          const { x, y } = this.cellPosition(row, column);
          const dark = board.surface === "checkered" && (row + column) % 2 === 1;
          element("rect", {
            x: x - CELL / 2, y: y - CELL / 2, width: CELL, height: CELL,
            fill: dark ? "var(--dark-square)" : "var(--light-square)",
            stroke: board.surface === "squares" ? "var(--ink)" : "none", "stroke-width": 3,
          }, svg);
        }
      }
    }
    const labelSize = 26 * this.scale;
    board.column_labels.forEach((label, column) => {
      const { x } = this.cellPosition(0, column);
      element("text", { x, y: height + this.margin - 8, "text-anchor": "middle", "font-size": labelSize, fill: "var(--ink)" }, svg).textContent = label;
    });
    board.row_labels.forEach((label, row) => {
      const { y } = this.cellPosition(row, 0);
      element("text", { x: this.margin / 2, y: y + 9 * this.scale, "text-anchor": "middle", "font-size": labelSize, fill: "var(--ink)" }, svg).textContent = label;
    });
  }

  /** The best move: each square framed solid (the last move's frame is dashed), and a line. */
  drawBest(svg) {
    if (this.bestPath.length === 0) return;
    const group = element("g", { class: "best", "pointer-events": "none", "data-path": this.bestPath.join("-") }, svg);
    const points = this.bestPath.filter((number) => this.board.byNumber.has(number))
      .map((number) => this.squarePosition(number));
    for (const { x, y } of points) {
      element("rect", {
        x: x - CELL / 2 + 5, y: y - CELL / 2 + 5, width: CELL - 10, height: CELL - 10,
        fill: "none", stroke: "var(--second)", "stroke-width": 12,
      }, group);
      element("rect", {
        x: x - CELL / 2 + 5, y: y - CELL / 2 + 5, width: CELL - 10, height: CELL - 10,
        fill: "none", stroke: "var(--best)", "stroke-width": 7,
      }, group);
    }
    if (points.length > 1) {
      const line = points.map(({ x, y }) => `${x},${y}`).join(" ");
      element("polyline", { points: line, fill: "none", stroke: "var(--second)", "stroke-width": 16, "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
      element("polyline", { points: line, fill: "none", stroke: "var(--best)", "stroke-width": 9, "stroke-linecap": "round", "stroke-linejoin": "round" }, group);
      const { x, y } = points[points.length - 1];
      element("circle", { cx: x, cy: y, r: 14, fill: "var(--best)", stroke: "var(--second)", "stroke-width": 4 }, group);
    }
  }

  /** The square's number in its top left corner, clear of the piece standing on it. */
  drawNumber(svg, square, x, y) {
    const dark = this.board.surface === "checkered" && (square.row + square.column) % 2 === 1;
    element("text", {
      x: x - CELL / 2 + 5, y: y - CELL / 2 + 19, "font-size": 17,
      fill: dark ? "var(--number-on-dark)" : "var(--number-on-light)",
      "pointer-events": "none", class: "square-number", "aria-hidden": "true",
    }, svg).textContent = square.name;
  }

  drawPiece(svg, number, piece) {
    const { x, y } = this.squarePosition(number);
    const group = element("g", { class: "piece", "data-square": number, "pointer-events": "none" }, svg);
    group.style.transform = `translate(${x}px, ${y}px)`;
    const fill = piece.side === "First" ? "var(--first)" : "var(--second)";
    const contrast = piece.side === "First" ? "var(--second)" : "var(--first)";
    if (piece.kind === "cross") {
      for (const [a, b] of [[-30, 30], [30, -30]]) {
        element("line", { x1: -30, y1: a, x2: 30, y2: b, stroke: "var(--ink)", "stroke-width": 12, "stroke-linecap": "round" }, group);
      }
    } else if (piece.kind === "nought") {
      element("circle", { r: 30, fill: "none", stroke: "var(--ink)", "stroke-width": 10 }, group);
    } else {
      const radius = piece.kind === "stone" ? 44 : 38;
      element("circle", { r: radius, fill, stroke: "var(--ink)", "stroke-width": 4 }, group);
      if (piece.kind === "man" || piece.kind === "king") {
        element("circle", { r: 26, fill: "none", stroke: contrast, "stroke-width": 3 }, group);
      }
      if (piece.kind === "king") {
        element("text", { y: 13, "text-anchor": "middle", "font-size": 40, "font-weight": 700, fill: contrast }, group).textContent = "K";
      }
    }
  }

  /** Slides the piece now standing at the path's end from its first square along the path. */
  slide(path) {
    const group = this.svg.querySelector(`.piece[data-square="${path[path.length - 1]}"]`);
    if (!group) return;
    // For scripts (the browser test): the path of the last move animated.
    this.host.dataset.slide = path.join("-");
    const at = (number) => {
      const { x, y } = this.squarePosition(number);
      return `translate(${x}px, ${y}px)`;
    };
    group.style.transition = "none";
    group.style.transform = at(path[0]);
    group.getBoundingClientRect();
    group.style.transition = "";
    path.slice(1).forEach((number, i) => {
      setTimeout(() => { group.style.transform = at(number); }, STEP_MS * i + 20);
    });
  }

  svgPoint(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  squareUnder(point) {
    let column = Math.floor((point.x - this.margin) / CELL);
    let row = Math.floor(point.y / CELL);
    if (this.flip) {
      column = this.board.columns - 1 - column;
      row = this.board.rows - 1 - row;
    }
    return this.squareAt(row, column)?.square;
  }

  /** Click-click and drag: a press chooses its square; a release on another square chooses it. */
  pointerDown(event, number) {
    event.preventDefault();
    this.host.focus({ preventScroll: true });
    const before = this.chosen.length;
    this.choose(number);
    if (this.chosen.length === 0 || this.chosen.length === before) return;
    const group = this.svg.querySelector(`.piece[data-square="${number}"]`);
    const svg = this.svg;
    const move = (e) => {
      if (!group) return;
      const p = this.svgPoint(e);
      group.style.transition = "none";
      group.style.transform = `translate(${p.x}px, ${p.y}px)`;
    };
    const up = (e) => {
      svg.removeEventListener("pointermove", move);
      svg.removeEventListener("pointerup", up);
      const target = this.squareUnder(this.svgPoint(e));
      if (target !== undefined && target !== number) this.choose(target);
      else this.draw();
    };
    svg.addEventListener("pointermove", move);
    svg.addEventListener("pointerup", up);
    svg.setPointerCapture?.(event.pointerId);
  }
}
