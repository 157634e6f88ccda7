// SPDX-License-Identifier: Apache-2.0
// new-protocol.mjs — `scripts/new-protocol <name> --credit {window|rate|tokens}`:
// writes a new protocol folder (docs/protocol-api.md) that compiles, is
// documented and passes scripts/check-protocol: user_configs.vh,
// incoming.v, periodic_updates.v and README.md. Each template is a small
// working protocol to start from, not an empty shell:
//   window  AIMD window: +1 segment per new ack (up to W), halve and mark
//           the lost segment on a NACK, window 1 and go-back-N on a timeout
//   rate    a rate that halves on a CNP (not below RateMin) and climbs back
//           by RateStep per new ack (up to RateInit); go-back-N on a NACK
//           and on a timeout
//   tokens  receiver-driven (NDP-like): the engine turns pulls into
//           tokens; a NACK marks the trimmed segment; a timeout marks every
//           unacked segment and adds one token
// All three restart the retransmission timer on new acks and back the RTO
// off exponentially on timeouts.
//
// usage: scripts/new-protocol <name> --credit {window|rate|tokens} [--dir DIR] [--force]
//   <name>   [a-z][a-z0-9_]* (the folder name)
//   --dir    where to create it (default protocols/<name>)
//   --force  overwrite an existing folder's five files
// Exit 0: written; 2: bad usage or the folder exists.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, usageLine } from './lib/cli.mjs';
import { ROOT } from './manifest.mjs';

const SCHEMES = {
  window: {
    enumName: 'CreditWindow',
    what: 'a congestion window (AIMD)',
    user: ['logic       backoff;  // a timeout backed the RTO off; the next new ack resets it'],
    userInit: "'{backoff: 1'b0}",
    userBits: 1,
    extra: [
      '// Window growth per new ack (segments) and the floor of a halving.',
      'localparam int unsigned WndStep  = 1;',
      'localparam int unsigned WndFloor = 2;',
    ],
    rateInit: 0, burst: 0, tokensInit: 0, initWnd: 10,
    optional: [],
  },
  rate: {
    enumName: 'CreditRate',
    what: 'a rate (bytes per 2^20 cycles), cut on congestion notifications',
    user: ['logic       backoff;  // a timeout backed the RTO off; the next new ack resets it',
      'logic [26:0] rate;    // the flow\'s current rate (RU: bytes per 2^20 cycles; 2^27 RU > 100 Gb/s)'],
    userInit: "'{backoff: 1'b0, rate: 27'(RateInit)}",
    userBits: 28,
    extra: [
      '// Rate control (RU = bytes per 2^20 cycles, docs/design/credit-schemes.md):',
      '// halve on a CNP, not below RateMin;',
      '// + RateStep per new ack up to RateInit (the line rate by default).',
      'localparam int unsigned RateMin  = 1310720;    // 1 Gb/s: 125 MB/s * 2^20 / 1e8',
      'localparam int unsigned RateStep = 131072;     // 100 Mb/s per new ack',
    ],
    rateInit: 131072000, burst: 262144, tokensInit: 0, initWnd: 120,
    optional: [
      '// Optional: a rate cut voids the credit in hand and reaches the segments',
      '// already queued (docs/design/credit-schemes.md, "Rate cuts and the wire',
      '// gate"); without it, token-bucket semantics.',
      '// `define TONIC_RATE_CUT_VOIDS',
    ],
  },
  tokens: {
    enumName: 'CreditToken',
    what: 'receiver-granted tokens (pulls)',
    user: ['logic       backoff;  // a timeout backed the RTO off; the next new ack resets it'],
    userInit: "'{backoff: 1'b0}",
    userBits: 1,
    extra: [
      '// Tokens one timeout adds (the first marked segment goes without a pull).',
      'localparam int unsigned RtoTokens = 1;',
    ],
    rateInit: 0, burst: 0, tokensInit: 15, initWnd: 120,
    optional: [
      '// Optional: a token write with tokens_set_o (TONIC_PROTO_DRIVE_CREDIT_SET)',
      '// sets the flow\'s credit, the segments already queued included',
      '// (docs/design/credit-schemes.md, "Token sets"); without it a set is an add.',
      '// `define TONIC_TOKEN_SET',
    ],
  },
};

const HEAD = (name, scheme) => `// SPDX-License-Identifier: Apache-2.0
// Protocol "${name}" (credit scheme: ${scheme}), made by scripts/new-protocol
// from its ${scheme} template; docs/protocol-api.md is the reference.`;

function userConfigs(name, scheme) {
  const s = SCHEMES[scheme];
  return `${HEAD(name, scheme)}
//
// user_configs.vh: the configuration and the per-flow user state. Included
// inside the body of tonic_proto_incoming, tonic_proto_periodic and the DD
// engine: no include guard on purpose (each module needs its own copy).

// Credit scheme (tonic_dd_pkg::credit_e): ${s.what}.
localparam tonic_dd_pkg::credit_e CreditScheme = tonic_dd_pkg::${s.enumName};

// Initial window (segments; the engine caps segments in flight by it) and
// the retransmission timeout (cycles at 100 MHz).
localparam int unsigned InitWnd  = ${s.initWnd};
localparam int unsigned RtoInit  = 20000;    // 200 us; a new ack resets the RTO to it
localparam int unsigned RtoMin   = 20000;
localparam int unsigned RtoMax   = 1280000;  // exponential back-off stops here (RtoInit << 6)
${s.extra.join('\n')}
// Rate and token schemes (docs/design/credit-schemes.md); 0 where unused.
localparam int unsigned RateInit   = ${s.rateInit};  // rate on ADD (RU)
localparam int unsigned BurstBytes = ${s.burst};  // burst D (bytes)
localparam int unsigned TokensInit = ${s.tokensInit};  // tokens on ADD (segments)
${s.optional.map((l) => `${l}\n`).join('')}
// User state: ${s.userBits} bit(s) per flow, kept by the engine and handed to both
// modules as user_i; written back through user_we_o / user_o. The limit for
// this scheme is ${({ window: 448, rate: 340, tokens: 256 })[scheme]} bytes, and the engine's tonic_dd_pkg::UserWMax
// bits (scripts/check-protocol).
typedef struct packed {
  ${s.user.join('\n  ')}
} user_t;

// The protocol modules take UserW as a parameter (TONIC_PROTO_PARAMS(${s.userBits}) in
// incoming.v and periodic_updates.v must match); rtl/dd/tonic_proto_config.svh
// checks it against $bits(user_t) and defines TONIC_PROTO_MODULE around the include.
\`ifndef TONIC_PROTO_MODULE
localparam int unsigned UserW = $bits(user_t);
\`endif
localparam user_t UserInit = ${s.userInit};

// Same-flow merge (docs/protocol-api.md): the user state written when
// incoming stage 2 and a periodic call of the flow both write it in one
// cycle (the engine evaluates this; typ is the incoming event's type). The
// periodic call here writes only on a timeout, and a merged call has none
// (the ack beats it), so the two never both write: incoming's. A protocol
// whose periodic call keeps timers of its own picks per field.
/* verilator lint_off UNUSEDSIGNAL */
function automatic user_t user_merge(tonic_dd_pkg::rx_type_e typ, user_t merge_old,
                                     user_t merge_in, user_t merge_per);
  return merge_in;
endfunction
/* verilator lint_on UNUSEDSIGNAL */
`;
}

function incoming(name, scheme) {
  const s = SCHEMES[scheme];
  const body = {
    window: `  // New ack: one more segment of window (clamped to W by the engine).
  // NACK: halve the window (not below WndFloor) and mark the segment the
  // receiver reports missing, [cum_ack, cum_ack + 1).
  logic [31:0] wnd_n;
  assign wnd_n = nack ? ((32'(wnd_i) >> 1) > 32'(WndFloor) ? 32'(wnd_i) >> 1 : 32'(WndFloor))
                      : 32'(wnd_i) + 32'(WndStep);

  assign wnd_we_o        = new_ack || nack;
  assign mark_we_o       = nack;
  assign rto_we_o        = new_ack && u.backoff;
  assign timer_restart_o = (new_ack || nack) && (flight_i != '0);
  assign user_we_o       = new_ack && u.backoff;
  \`TONIC_PROTO_NO_CREDIT;
  \`TONIC_PROTO_DRIVE_VALUES(wnd_n, cum_ack_i, cum_ack_i + 32'd1, 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, next_new_i, posted_i, acked_i, pending_i, rto_i, sack_valid_i,
                       sack_idx_i, ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax)};`,
    rate: `  // CNP: halve the rate (not below RateMin). New ack: + RateStep up to
  // RateInit. NACK: go back N, mark [cum_ack, next_new).
  logic        cnp;
  logic [26:0] half, up;
  assign cnp  = type_i == tonic_dd_pkg::RxCnp;
  assign half = (u.rate >> 1) > 27'(RateMin) ? u.rate >> 1 : 27'(RateMin);
  assign up   = (u.rate < 27'(RateInit - RateStep)) ? u.rate + 27'(RateStep) : 27'(RateInit);
  always_comb begin
    u_n.backoff = new_ack ? 1'b0 : u.backoff;
    u_n.rate    = cnp ? half : (new_ack ? up : u.rate);
  end

  assign wnd_we_o        = 1'b0;
  assign mark_we_o       = nack;
  assign rto_we_o        = new_ack && u.backoff;
  assign timer_restart_o = (new_ack || nack) && (flight_i != '0);
  assign user_we_o       = new_ack || cnp;
  assign rate_we_o       = (cnp && half != u.rate) || (new_ack && !cnp && up != u.rate);
  assign tokens_we_o     = 1'b0;
  \`TONIC_PROTO_DRIVE_CREDIT(32'(u_n.rate), 0);
  \`TONIC_PROTO_DRIVE_VALUES(1, cum_ack_i, next_new_i, 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, wnd_i, posted_i, acked_i, pending_i, rto_i, sack_valid_i, sack_idx_i,
                       ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax)};`,
    tokens: `  // NACK (a trimmed segment's header came back): mark [sack_idx,
  // sack_idx + 1); the retransmission waits for a token like any segment.
  // PULL: nothing here, the engine turns the pull number into tokens.
  assign wnd_we_o        = 1'b0;
  assign mark_we_o       = nack;
  assign rto_we_o        = new_ack && u.backoff;
  assign timer_restart_o = (new_ack || nack) && (flight_i != '0);
  assign user_we_o       = new_ack && u.backoff;
  assign {rate_we_o, tokens_we_o} = '0;
  \`TONIC_PROTO_DRIVE_CREDIT(0, 0);
  \`TONIC_PROTO_DRIVE_VALUES(1, sack_idx_i, sack_idx_i + 32'd1, 32'(RtoInit), u_n);

  // Inputs and configuration this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, info_i, now_i, wnd_i, next_new_i, posted_i, acked_i, pending_i, rto_i, cum_ack_i,
                       sack_valid_i, ecn_i, grant_i, newly_acked_i, dup_i, 32'(RtoMax),
                       32'(RtoTokens)};`,
  }[scheme];
  const userN = scheme === 'rate' ? '' : `  always_comb begin
    u_n         = u;
    u_n.backoff = 1'b0;  // a new ack ends the back-off
  end
`;
  return `${HEAD(name, scheme)}
//
// tonic_proto_incoming: stage 2 of the incoming pipeline. Combinational, one
// event (ack, NACK, pull, CNP, ...) of one flow per cycle; the engine's
// stage 1 has already moved wnd_start to the cumulative ack (old_start_i is
// where it was). Each write has an enable (*_we_o); every value output is
// 0 while its enable is 0 (TONIC_PROTO_DRIVE_VALUES). Keep it within 32
// logic levels: scripts/check-protocol measures it.
\`default_nettype none
\`include "tonic_proto_ports.svh"

module tonic_proto_incoming #(\`TONIC_PROTO_PARAMS(${s.userBits})) (\`TONIC_PROTO_INCOMING_PORTS);
  \`include "tonic_proto_config.svh"

  user_t u, u_n;
  logic  new_ack, nack;
  assign u       = user_t'(user_i);
  assign new_ack = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);  // the window moved
  assign nack    = type_i == tonic_dd_pkg::RxNack;
${userN}
${body}
endmodule

\`default_nettype wire
`;
}

function periodic(name, scheme) {
  const s = SCHEMES[scheme];
  const tokens = scheme === 'tokens';
  const periodicUnused = { window: ", 32'(WndStep), 32'(WndFloor)", rate: ", 32'(RateMin), 32'(RateStep)", tokens: '' };
  return `${HEAD(name, scheme)}
//
// tonic_proto_periodic: runs when the engine visits a flow on its periodic
// scan${scheme === 'window' ? ' (while its retransmission timer is armed)' : ' (every visit: rate and token schemes)'}. Combinational. Only a
// retransmission timeout (timeout_i) does anything: ${scheme === 'window' ? 'window 1, ' : ''}go back N (mark
// [wnd_start, next_new)), rto = min(2 * rto, RtoMax), restart the timer,
// set the user bit backoff${tokens ? ', add RtoTokens tokens' : ''}. Without timeout_i every enable
// (and every value output) is 0.
\`default_nettype none
\`include "tonic_proto_ports.svh"

module tonic_proto_periodic #(\`TONIC_PROTO_PARAMS(${s.userBits})) (\`TONIC_PROTO_PERIODIC_PORTS);
  \`include "tonic_proto_config.svh"

  user_t u_n;
  always_comb begin
    u_n         = user_t'(user_i);
    u_n.backoff = 1'b1;
  end

  assign wnd_we_o = ${scheme === 'window' ? 'timeout_i' : "1'b0"};
  assign {mark_we_o, rto_we_o, timer_restart_o, user_we_o} = {4{timeout_i}};
  assign rate_we_o   = 1'b0;
  assign tokens_we_o = ${tokens ? 'timeout_i' : "1'b0"};
  \`TONIC_PROTO_DRIVE_CREDIT(0, ${tokens ? 'RtoTokens' : '0'});
  \`TONIC_PROTO_DRIVE_VALUES(1, wnd_start_i, next_new_i,
                            tonic_proto_pkg::rto_backoff(rto_i, 32'(RtoMax)), u_n);

  // Inputs this protocol does not use.
  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, posted_i, flight_i, acked_i, pending_i${periodicUnused[scheme]}};
endmodule

\`default_nettype wire
`;
}

function readme(name, scheme) {
  const s = SCHEMES[scheme];
  return `# ${name}

A Tonic protocol made by \`scripts/new-protocol ${name} --credit ${scheme}\`
(credit scheme: **${scheme}**, ${s.what}). It is a working starting
point; edit the three files and keep this README's tables in step.

## Files

| file | module / contents |
|---|---|
| \`user_configs.vh\` | \`CreditScheme\`, \`user_t\` (${s.userBits} bit(s)), \`UserInit\`, \`InitWnd\`, RTO bounds, the scheme's parameters |
| \`incoming.v\` | \`tonic_proto_incoming\`: stage 2 of the incoming pipeline, one event per cycle |
| \`periodic_updates.v\` | \`tonic_proto_periodic\`: the periodic visit (retransmission timeout) |

## Behaviour

${{
    window: '- new ack: window + `WndStep` (the engine clamps it to 1..W);\n- NACK: window / 2 (not below `WndFloor`), mark `[cum_ack, cum_ack + 1)`;\n- timeout: window 1, mark `[wnd_start, next_new)` (go back N), RTO doubles up to `RtoMax`.',
    rate: '- CNP: rate / 2 (not below `RateMin`), sent to the engine through `rate_we_o` / `rate_o`;\n- new ack: rate + `RateStep` up to `RateInit`;\n- NACK: mark `[cum_ack, next_new)` (go back N);\n- timeout: mark `[wnd_start, next_new)`, RTO doubles up to `RtoMax`.',
    tokens: '- the engine turns the receiver\'s pulls into tokens, one segment each (`TokensInit` on ADD);\n- NACK: mark `[sack_idx, sack_idx + 1)` (the trimmed segment);\n- timeout: mark `[wnd_start, next_new)`, add `RtoTokens` tokens, RTO doubles up to `RtoMax`.',
  }[scheme]}

## Checking it

    scripts/check-protocol ${path.relative(ROOT, path.join(ROOT, 'protocols', name))}

checks the files, the interface (every port, by name and width, as the DD
engine connects them), lint (Verilator -Wall and Yosys read_slang), that
every output is driven on every path, the user state against the
${scheme} scheme's limit, and the logic levels of each module with a
verdict (<= 32 pass, 33-42 marginal, > 42 fail; docs/timing-model.md).
Nothing else needs an edit: \`protocol.json\` says which receiver it pairs
with, and every tool finds the folder (the next configure builds
\`tonic_${name}_1024x128\`, its small and soak builds and its modules;
\`make lint\`, \`make synth-estimate\` and \`tonic-soak --protocol ${name}\`
include it; docs/protocol-api.md).
`;
}

/// The receiver mode each template pairs with (protocol.json "receiver"):
/// the window template reacts to acks, the rate one to CNPs and go-back-N
/// NACKs, the token one to pulls and NACKs of trimmed segments.
const RECEIVER = { window: 'tcp', rate: 'roce', tokens: 'ndp' };

/// protocol.json: the descriptor every tool reads (scripts/registry.mjs).
function descriptor(name, scheme) {
  return `${JSON.stringify({
    doc: `${name}: made by scripts/new-protocol from the ${scheme} template`,
    receiver: RECEIVER[scheme],
  }, null, 2)}\n`;
}

/// Writes the five files of protocol `name` into `dir`; returns their paths.
export function scaffold(name, scheme, dir, force = false) {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new UsageError(`bad protocol name "${name}": use [a-z][a-z0-9_]*`);
  if (!(scheme in SCHEMES)) throw new UsageError(`--credit must be one of ${Object.keys(SCHEMES).join(', ')}, not "${scheme}"`);
  const files = {
    'user_configs.vh': userConfigs(name, scheme),
    'incoming.v': incoming(name, scheme),
    'periodic_updates.v': periodic(name, scheme),
    'README.md': readme(name, scheme),
    'protocol.json': descriptor(name, scheme),
  };
  if (!force && Object.keys(files).some((f) => fs.existsSync(path.join(dir, f)))) {
    throw new UsageError(`${dir} already has protocol files (use --force to overwrite)`);
  }
  fs.mkdirSync(dir, { recursive: true });
  for (const [f, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, f), text);
  return Object.keys(files).map((f) => path.join(dir, f));
}

class UsageError extends Error {}

/// The command line of scripts/new-protocol.
const CLI = {
  name: 'new-protocol',
  usage: 'scripts/new-protocol <name> --credit {window|rate|tokens} [--dir DIR] [--force]',
  description: 'Writes a new protocol folder from a template that passes scripts/check-protocol.',
  options: {
    credit: { type: 'string', arg: '{window|rate|tokens}', help: 'the credit scheme (required)' },
    dir: { type: 'string', arg: 'DIR', shown: 'protocols/<name>', help: 'the folder to write' },
    force: { type: 'boolean', help: "overwrite an existing folder's five files" },
  },
  positionals: { names: '<name>', min: 1, max: 1 },
};

function main(argv) {
  const { values: o, positionals } = cli(CLI, argv);
  const name = positionals[0];
  const scheme = o.credit ?? null;
  const dir = o.dir ?? null;
  const force = o.force;
  if (!scheme) { console.error(`new-protocol: --credit is required\n${usageLine(CLI)}`); return 2; }
  try {
    const out = scaffold(name, scheme, dir ?? path.join(ROOT, 'protocols', name), force);
    for (const f of out) console.log(`new-protocol: wrote ${path.relative(process.cwd(), f)}`);
    console.log(`new-protocol: check it with scripts/check-protocol ${path.relative(process.cwd(), path.dirname(out[0]))}`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) { console.error(`new-protocol: ${e.message}`); return 2; }
    throw e;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv.slice(2)));
}
