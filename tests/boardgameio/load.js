// boardgame.io's workload, driven with boardgame.io's own client, for the comparison with
// `kingme-load --fresh-connections` in docs/measurements/load.md: MATCHES matches at once, each created over
// the lobby API, joined by two players on two new socket.io connections, played with random
// moves as fast as the server answers, then both disconnect and a new match takes the slot.
//
//   node load.js --server http://127.0.0.1:8000 --api http://127.0.0.1:8001 --server-pid PID \
//       --matches 1000 --secs 20
//
// Prints matches and moves per second, handshake latency (client start to its first state),
// relay latency (a move sent to the opponent seeing it) and the server's CPU time per move
// (user and system, from /proc). Counts start after a warm-up of --warmup seconds.
const fs = require('fs');
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { TicTacToe } = require('./tictactoe');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const server = option('server', 'http://127.0.0.1:8000');
const api = option('api', 'http://127.0.0.1:8001');
const serverPid = option('server-pid', null);
const matches = Number(option('matches', 1000));
const secs = Number(option('secs', 20));
const warmup = Number(option('warmup', 5));

let counting = false;
const counts = { matches: 0, moves: 0, errors: 0 };
const handshakes = [];
const relays = [];

function cpuTicks() {
  if (!serverPid) return null;
  const fields = fs.readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime, fields 14 and 15
}

async function post(path, body) {
  const response = await fetch(`${api}/games/${TicTacToe.name}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

// One match from creation to both players gone.
async function playMatch() {
  const { matchID } = await post('/create', { numPlayers: 2 });
  const seats = [];
  for (const playerID of ['0', '1']) {
    const { playerCredentials } = await post(`/${matchID}/join`, { playerID, playerName: `p${playerID}` });
    seats.push({ playerID, credentials: playerCredentials });
  }
  const sent = new Map(); // turn -> time the move of that turn was sent
  let clients = [];
  await new Promise((resolve) => {
    let finished = 0;
    clients = seats.map(({ playerID, credentials }) => {
      const started = process.hrtime.bigint();
      let handshook = false;
      let actedOnTurn = 0;
      let seenTurn = 1;
      const client = Client({
        game: TicTacToe,
        multiplayer: SocketIO({ server, socketOpts: { transports: ['websocket'] } }),
        matchID,
        playerID,
        credentials,
        debug: false,
      });
      client.subscribe((state) => {
        if (!state) return;
        const now = process.hrtime.bigint();
        if (!handshook) {
          handshook = true;
          if (counting) handshakes.push(Number(now - started) / 1e6);
        }
        const { ctx, G } = state;
        // The last move ends the game without starting another turn.
        const reached = ctx.gameover ? ctx.turn + 1 : ctx.turn;
        if (reached > seenTurn) {
          // The opponent's move (or our own echo) arrived.
          for (let turn = seenTurn; turn < reached; turn += 1) {
            const at = sent.get(turn);
            if (at !== undefined && turn !== actedOnTurn) {
              if (counting) {
                relays.push(Number(now - at) / 1e6);
                counts.moves += 1;
              }
              sent.delete(turn);
            }
          }
          seenTurn = reached;
        }
        if (ctx.gameover) {
          if (!client.finished) {
            client.finished = true;
            finished += 1;
            if (finished === 2) resolve();
          }
          return;
        }
        if (state.isActive && ctx.currentPlayer === playerID && actedOnTurn !== ctx.turn) {
          const free = [];
          G.cells.forEach((cell, id) => { if (cell === null) free.push(id); });
          actedOnTurn = ctx.turn;
          sent.set(ctx.turn, process.hrtime.bigint());
          client.moves.clickCell(free[Math.floor(Math.random() * free.length)]);
        }
      });
      client.start();
      return client;
    });
  });
  clients.forEach((client) => client.stop());
}

async function slot() {
  for (;;) {
    try {
      await playMatch();
      if (counting) counts.matches += 1;
    } catch (err) {
      counts.errors += 1;
      if (counts.errors <= 3) console.error(`a match failed: ${err.message}`);
    }
  }
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

function summary(name, values) {
  const sorted = Float64Array.from(values).sort();
  return `${name} p50 ${percentile(sorted, 50).toFixed(1)} / p99 ${percentile(sorted, 99).toFixed(1)} / max ${sorted[sorted.length - 1]?.toFixed(1)} ms`;
}

async function main() {
  for (let i = 0; i < matches; i += 1) slot();
  await new Promise((r) => setTimeout(r, warmup * 1000));
  counting = true;
  const cpuStart = cpuTicks();
  const start = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, secs * 1000));
  counting = false;
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  const cpuEnd = cpuTicks();
  console.log(`boardgame.io: ${matches} matches at once, ${elapsed.toFixed(1)} s counted`);
  console.log(`matches/s ${(counts.matches / elapsed).toFixed(0)}, moves/s ${(counts.moves / elapsed).toFixed(0)}, errors ${counts.errors}`);
  console.log(summary('handshake', handshakes));
  console.log(summary('relay', relays));
  if (cpuStart !== null) {
    const cpuSecs = (cpuEnd - cpuStart) / 100;
    console.log(`server CPU ${cpuSecs.toFixed(1)} s, ${((cpuSecs * 1e6) / Math.max(1, counts.moves)).toFixed(0)} µs per move`);
  }
  process.exit(0);
}

main();
