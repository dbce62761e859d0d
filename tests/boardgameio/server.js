// boardgame.io's own server (Koa, socket.io, in-memory storage) with noughts and crosses, for
// the comparison in docs/measurements/load.md: node server.js PORT API_PORT (the game's socket.io server on
// PORT, the lobby API, where matches are created and joined, on API_PORT: with the versions
// locked here the API on the game's own port answers 404).
const { Server, Origins } = require('boardgame.io/server');
const { TicTacToe } = require('./tictactoe');

const port = Number(process.argv[2] || 8000);
const apiPort = Number(process.argv[3] || port + 1);
const server = Server({ games: [TicTacToe], origins: [Origins.LOCALHOST] });
server.run({ port, lobbyConfig: { apiPort } }, () =>
  console.log(`boardgame.io listening port=${port} api=${apiPort} pid=${process.pid}`),
);
