// The review board: a finished game reviewed by the server's engine (`Analyse`), shown as an
// evaluation graph over the game, the numbered moves with their marks (?! an inaccuracy, ? a
// mistake, ?? a blunder), and the positions stepped through (buttons, or ← and →) with the
// engine's best move drawn on the board, the endgame database's exact result and Pente's missed
// forced wins where there are any. The server computes; the page only shows.

import { readPosition, afterRecord, moveText } from "./games.js";
import { element } from "./board.js";

const MARKS = { Good: "", Inaccuracy: "?!", Mistake: "?", Blunder: "??" };
const WORDS = { Good: "a good move", Inaccuracy: "an inaccuracy", Mistake: "a mistake", Blunder: "a blunder" };
const GRAPH_WIDTH = 600;
const GRAPH_HEIGHT = 150;

export class ReviewBoard {
  /**
   * `view`: the board; `send(message)`: to the server; `sideName(game, side)`: a side's name;
   * `mateBound`: beyond it an evaluation is a forced win; `onClose()`: the review was closed.
   */
  constructor({ view, send, sideName, mateBound, onClose }) {
    this.view = view;
    this.send = send;
    this.sideName = sideName;
    this.mateBound = mateBound;
    this.onClose = onClose;
    this.game = null;
    this.review = null;
    this.asked = null;
    this.step = 0;
    const $ = (id) => document.getElementById(id);
    this.section = $("review");
    this.steps = $("review-steps");
    $("review-first").addEventListener("click", () => this.show(0));
    $("review-back").addEventListener("click", () => this.show(this.step - 1));
    $("review-next").addEventListener("click", () => this.show(this.step + 1));
    $("review-last").addEventListener("click", () => this.show(this.plies().length));
    $("review-close").addEventListener("click", () => this.close());
    document.addEventListener("keydown", (event) => {
      if (!this.isOpen() || !this.review) return;
      if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
      const to = { ArrowLeft: this.step - 1, ArrowRight: this.step + 1, Home: 0, End: this.plies().length }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      event.stopPropagation();
      this.show(to);
    }, true);
  }

  isOpen() { return !this.section.hidden; }

  plies() { return this.review ? this.review.plies : []; }

  /** Opens the review of `game` (finished): asks the server, or shows the review it gave. */
  open(game) {
    const id = game.state.id;
    this.section.hidden = false;
    this.steps.hidden = false;
    if (this.game && this.game.state.id === id && this.review) {
      this.show(this.step);
      return;
    }
    this.game = game;
    this.review = null;
    this.asked = id;
    document.getElementById("review-graph").replaceChildren();
    document.getElementById("review-moves").replaceChildren();
    document.getElementById("review-note").textContent = "";
    this.progress(0, game.state.moves.length + 1);
    document.getElementById("review-progress-text").textContent = "Asking the server's engine to review the game…";
    this.send({ Analyse: { game: id, depth: null, time_ms: null } });
  }

  /** Hides the review; the board shows the game's end again. */
  close() {
    this.section.hidden = true;
    this.steps.hidden = true;
    delete document.body.dataset.review;
    this.onClose();
  }

  /** The game on screen changed: a review of another game is put away. */
  leave() {
    this.section.hidden = true;
    this.steps.hidden = true;
  }

  progress(done, total) {
    const bar = document.getElementById("review-progress");
    bar.hidden = false;
    bar.max = Math.max(1, total);
    bar.value = done;
    document.getElementById("review-progress-text").textContent =
      `The engine is reviewing the game: ${done} of ${total} positions.`;
  }

  /** What the server said about the review asked for; `true` when nothing else need see it. */
  receive(kind, body) {
    if (kind === "AnalysisProgress" && body.game === this.asked) {
      this.progress(body.done, body.total);
      return true;
    }
    if (kind === "Analysis" && body.game === this.asked) {
      this.asked = null;
      this.got(body.review);
      return true;
    }
    if (kind === "Error" && this.asked !== null && !body.fatal) {
      this.asked = null;
      document.getElementById("review-progress").hidden = true;
      document.getElementById("review-progress-text").textContent = `No review: ${body.message}`;
      // The page's banner says it too.
      return false;
    }
    return false;
  }

  got(review) {
    const game = this.game;
    this.review = review;
    // The position before each move, and after the last.
    const board = game.board;
    let pieces = readPosition(board, game.state.start_position).pieces;
    this.positions = [pieces];
    for (const record of game.state.moves) {
      pieces = afterRecord(board, pieces, record);
      this.positions.push(pieces);
    }
    document.getElementById("review-progress").hidden = true;
    const counts = { Inaccuracy: 0, Mistake: 0, Blunder: 0 };
    for (const ply of review.plies) if (ply.class in counts) counts[ply.class] += 1;
    document.getElementById("review-progress-text").textContent =
      `Reviewed: ${counts.Inaccuracy} inaccuracies (?!), ${counts.Mistake} mistakes (?), `
      + `${counts.Blunder} blunders (??). Step through with ← and →.`;
    this.drawGraph();
    this.drawMoves();
    // For scripts (the browser test): the review is shown.
    document.body.dataset.review = "shown";
    this.show(0);
  }

  /** An evaluation as a person reads it: pawns (a checkers man is 1.00), or a forced win. */
  evalText(value) {
    if (Math.abs(value) >= this.mateBound) {
      return `${this.sideName(this.game, value > 0 ? "First" : "Second")} wins by force`;
    }
    return `${value >= 0 ? "+" : "−"}${(Math.abs(value) / 100).toFixed(2)}`;
  }

  /** The height of an evaluation in the graph, -1 to 1: squashed, a forced win at the edge. */
  squash(value) {
    if (Math.abs(value) >= this.mateBound) return Math.sign(value);
    return Math.tanh(value / 400);
  }

  drawGraph() {
    const plies = this.plies();
    const values = [...plies.map((ply) => ply.eval_before), this.review.final_eval];
    const stepX = GRAPH_WIDTH / Math.max(1, values.length - 1);
    const y = (value) => GRAPH_HEIGHT / 2 - this.squash(value) * (GRAPH_HEIGHT / 2 - 12);
    const svg = element("svg", {
      viewBox: `0 0 ${GRAPH_WIDTH} ${GRAPH_HEIGHT}`, role: "img", class: "eval-graph",
      "aria-label": `Evaluation over the game, ${this.sideName(this.game, "First")} up, `
        + `${this.sideName(this.game, "Second")} down; the marks are the inaccuracies, mistakes `
        + "and blunders; click a point to go to its position",
    });
    element("rect", { x: 0, y: 0, width: GRAPH_WIDTH, height: GRAPH_HEIGHT / 2, fill: "var(--graph-first)" }, svg);
    element("rect", { x: 0, y: GRAPH_HEIGHT / 2, width: GRAPH_WIDTH, height: GRAPH_HEIGHT / 2, fill: "var(--graph-second)" }, svg);
    element("line", { x1: 0, y1: GRAPH_HEIGHT / 2, x2: GRAPH_WIDTH, y2: GRAPH_HEIGHT / 2, stroke: "var(--line)", "stroke-width": 1 }, svg);
    const points = values.map((value, index) => `${index * stepX},${y(value)}`).join(" ");
    element("polyline", { points, fill: "none", stroke: "var(--ink)", "stroke-width": 3 }, svg);
    this.cursor = element("line", { y1: 0, y2: GRAPH_HEIGHT, stroke: "var(--accent)", "stroke-width": 3, class: "graph-cursor" }, svg);
    values.forEach((value, index) => {
      const ply = plies[index];
      const mark = ply ? MARKS[ply.class] : "";
      // The marked moves by size and shape: a blunder the largest; every point may be clicked.
      const radius = { "??": 9, "?": 7, "?!": 5 }[mark] || 4;
      const dot = element("circle", {
        cx: index * stepX, cy: y(value), r: radius,
        fill: mark ? "var(--paper)" : "var(--ink)", stroke: "var(--ink)", "stroke-width": mark ? 3 : 1,
        class: mark ? "marked" : "", "data-step": index,
      }, svg);
      dot.addEventListener("click", () => this.show(index));
    });
    svg.addEventListener("click", (event) => {
      if (event.target.tagName === "circle") return;
      const box = svg.getBoundingClientRect();
      const index = Math.round(((event.clientX - box.left) / box.width) * GRAPH_WIDTH / stepX);
      this.show(index);
    });
    document.getElementById("review-graph").replaceChildren(svg);
    this.stepX = stepX;
  }

  drawMoves() {
    const moves = this.game.state.moves;
    const offset = moves.length > 0 && moves[0].side === "Second" ? 1 : 0;
    document.getElementById("review-moves").replaceChildren(...this.plies().map((ply, index) => {
      const number = index + offset;
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      const mark = MARKS[ply.class];
      button.textContent = `${Math.floor(number / 2) + 1}${number % 2 === 0 ? "." : "..."} `
        + `${this.sideName(this.game, ply.mover)} ${moveText(this.game.board, moves[index])}${mark}`;
      if (mark) button.dataset.mark = mark;
      button.className = ply.class.toLowerCase();
      button.addEventListener("click", () => this.show(index + 1));
      item.append(button);
      return item;
    }));
  }

  /** Shows the position after `step` moves (0: the start), with the best move in it. */
  show(step) {
    const plies = this.plies();
    if (!this.review) return;
    this.step = Math.max(0, Math.min(plies.length, step));
    const records = this.game.state.moves;
    const last = this.step > 0 ? records[this.step - 1].path : [];
    this.view.setPosition(this.positions[this.step], last, false);
    const next = plies[this.step];
    if (next) this.view.setBest(next.best_squares);
    this.cursor.setAttribute("x1", this.step * this.stepX);
    this.cursor.setAttribute("x2", this.step * this.stepX);
    const buttons = document.querySelectorAll("#review-moves button");
    buttons.forEach((button, index) => {
      if (index + 1 === this.step) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    if (this.step > 0) buttons[this.step - 1].scrollIntoView({ block: "nearest" });
    document.getElementById("review-at").textContent = `${this.step} / ${plies.length}`;
    document.getElementById("review-note").textContent = this.note();
    // For scripts (the browser test): the step shown.
    document.body.dataset.reviewStep = String(this.step);
  }

  /** What the step shows, in words: the move that led here and what the engine prefers next. */
  note() {
    const plies = this.plies();
    const parts = [];
    const done = plies[this.step - 1];
    if (done) {
      const word = WORDS[done.class];
      parts.push(`Move ${this.step}, ${this.sideName(this.game, done.mover)} ${done.played}`
        + `${MARKS[done.class]}: ${word}`
        + (done.class === "Good" ? "." : `; the engine preferred ${done.best}.`)
        + ` Evaluation ${this.evalText(done.eval_before)} before, ${this.evalText(done.eval_after)} after.`);
      if (done.missed_win) parts.push(`A forced win was missed: ${done.missed_win}.`);
    } else {
      parts.push("The start.");
    }
    const next = plies[this.step];
    if (next) {
      parts.push(`Best now for ${this.sideName(this.game, next.mover)}: ${next.best} (drawn on the board).`);
      if (next.exact) {
        const result = { Win: "wins", Loss: "loses", Draw: "draws" }[next.exact];
        parts.push(`Endgame database: ${this.sideName(this.game, next.mover)}, to move, ${result} with best play.`);
      }
    } else {
      parts.push(`The end. Evaluation ${this.evalText(this.review.final_eval)}.`);
    }
    return parts.join(" ");
  }
}
