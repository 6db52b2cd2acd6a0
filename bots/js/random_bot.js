#!/usr/bin/env node
// A complete arena bot in Node.js (no packages) that plays a random legal move,
// for every variant. Copy it to start your own bot: replace chooseMove().
// The protocol is described in protocol/PROTOCOL.md.
//
//     node random_bot.js [--seed N]
'use strict';

const readline = require('readline');

// A small seedable generator (mulberry32): Math.random cannot be seeded.
function makeRng(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function parseSeed(argv) {
  const i = argv.indexOf('--seed');
  if (i >= 0 && /^\d+$/.test(argv[i + 1] || '')) return Number(argv[i + 1]) >>> 0;
  if (i >= 0) {
    console.error('usage: node random_bot.js [--seed N]');
    process.exit(2);
  }
  return Math.floor(Math.random() * 4294967296);
}

// One JSON object per line. On Linux, writes to a pipe are synchronous, so the
// line is out before the next one is read.
function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

// stdout belongs to the protocol; logs go to stderr.
function log(text) {
  process.stderr.write(text + '\n');
}

function chooseMove(turn, rng) {
  // turn.legal_moves is the complete list of legal moves, never empty.
  const moves = turn.legal_moves;
  return moves[Math.floor(rng() * moves.length)];
}

const seed = parseSeed(process.argv.slice(2));
const rng = makeRng(seed);
log(`random_bot.js: seed ${seed}`);

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch (e) {
    log(`ignoring a line that is not JSON: ${line.slice(0, 80)}`);
    return;
  }
  if (message === null || typeof message !== 'object') return;
  switch (message.type) {
    case 'hello':
      send({ type: 'ready', name: 'random-js', protocol: 1, author: 'arena examples' });
      break;
    case 'new_game':
      log(`game ${message.game_id}: ${message.variant.id} as ${message.color}`);
      break;
    case 'turn':
      send({ type: 'move', move: chooseMove(message, rng) });
      break;
    case 'game_over':
      log(`game ${message.game_id}: ${message.result} (${message.reason})`);
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      // Unknown types: ignore them (newer referees may send more).
      break;
  }
});
// End of file: the referee is gone.
input.on('close', () => process.exit(0));
