// Noughts and crosses as boardgame.io 0.50 defines a game (its tutorial's game): the game both
// the server and the load driver's clients run.
const { INVALID_MOVE } = require('boardgame.io/core');

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function isVictory(cells) {
  return LINES.some(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
}

const TicTacToe = {
  name: 'tic-tac-toe',
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (G.cells[id] !== null) return INVALID_MOVE;
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    if (isVictory(G.cells)) return { winner: ctx.currentPlayer };
    if (G.cells.every((c) => c !== null)) return { draw: true };
  },
};

module.exports = { TicTacToe };
