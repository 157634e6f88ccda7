// SPDX-License-Identifier: Apache-2.0
// random-programs.mjs — the paper's scalability experiment, redone with the
// open-source flow: random incoming.v programs of growing dependency
// chains, each run through scripts/check-protocol, then levels against the
// estimated delay (docs/timing-model.md) and the count in each verdict band.
//
// usage: node scripts/random-programs.mjs [--count N] [--seed S] [--jobs J]
//                                         [--max-chain K] [--smoke]
//   --count      programs (default 72)
//   --seed       generator seed (default 1); the same seed gives the same programs
//   --jobs       checker processes in parallel (default 2)
//   --max-chain  ops on the dependency chain of the last program (default 16);
//                program i has a chain of 1 + floor(i * (K - 1) / (N - 1)) ops
//   --smoke      2 programs (chains 1 and 6), checked, nothing written to docs/ (the ctest)
//   --from-results  no generation and no checks: the reports, plot and table
//                from an earlier run's build/random-programs/p*/ (their
//                incoming.v and check.json)
// Each program is a window-scheme protocol (scripts/new-protocol's window
// template) whose incoming.v is replaced by a random program: a chain of
// ops, each taking the previous op's result and a second operand (an input
// of the module or an earlier result), drawn from
//   arithmetic  add, sub, add of a shifted copy (multiply by 2^s + 1),
//               compare-and-select (min, max), equality mask
//   logic       xor with a rotation, and/or with a constant, a mux on one bit
//   bitmap      popcount of 64 acked bits under a mask, first set bit of the
//               pending bitmap under a mask, an 8-bit window of the acked
//               bitmap at a variable offset (a 128-bit barrel shift)
// Writes build/random-programs/p<NNN>/ (the programs and each check's
// JSON), build/reports/random_programs.json, build/reports/random_programs.png
// (gnuplot: scripts/gnuplot.mjs's levelsScript), docs/img/random_programs.png
// and the random_programs table of docs/results.md. Exit 1 if a program fails a check other than the levels
// verdict (the generator must only make valid programs).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BANDS } from './check-protocol.mjs';
import { levelsScript, render } from './gnuplot.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { ROOT } from './manifest.mjs';
import { scaffold } from './new-protocol.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

const { values: opts } = cli({
  name: 'random-programs',
  usage: 'node scripts/random-programs.mjs [--count N] [--seed S] [--jobs J] [--max-chain K] [--smoke] [--from-results]',
  description: 'Random incoming.v programs of growing dependency chains, each through scripts/check-protocol;\n' +
    'levels against estimated delay and the count in each verdict band (docs/timing-model.md).',
  options: {
    count: { type: 'number', integer: true, min: 1, shown: '72; 2 with --smoke', help: 'programs' },
    seed: { type: 'number', integer: true, min: 0, default: 1, help: 'generator seed; the same seed gives the same programs' },
    jobs: { type: 'number', integer: true, min: 1, default: 2, help: 'checker processes in parallel' },
    'max-chain': { type: 'number', integer: true, min: 1, shown: '16; 6 with --smoke',
      help: 'ops on the dependency chain of the last program' },
    smoke: { type: 'boolean', help: '2 programs (chains 1 and 6), checked, nothing written to docs/ (the ctest)' },
    'from-results': { type: 'boolean', help: "no generation, no checks: the reports from an earlier run's build/random-programs/p*/" },
  },
});
const smoke = opts.smoke;
const count = opts.count ?? (smoke ? 2 : 72);
const seed = opts.seed;
const jobs = opts.jobs;
const maxChain = opts['max-chain'] ?? (smoke ? 6 : 16);

/// xorshift32: small, seedable, the same on every machine.
function rng(s) {
  let x = (s * 2654435761) >>> 0 || 1;
  const next = () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
  return { int: (n) => next() % n, pick: (a) => a[next() % a.length] };
}

// Second operands: 32-bit inputs, and two 32-bit slices of the bitmaps
// (named wires, so that a bit of them can be selected).
const INPUTS = ['cum_ack_i', 'wnd_start_i', 'next_new_i', 'posted_i', 'rto_i', 'now_i', 'sack_idx_i', 'old_start_i',
  'acked_lo', 'pending_hi'];
const hex = (r) => `32'h${(r.int(0x10000) * 0x10000 + r.int(0x10000)).toString(16).padStart(8, '0')}`;

/// The ops: each returns SV for v = f(a, b) (a: the chain, b: another operand).
const OPS = {
  add: { kind: 'arithmetic', sv: (a, b) => `${a} + ${b}` },
  sub: { kind: 'arithmetic', sv: (a, b) => `${a} - ${b}` },
  shadd: { kind: 'arithmetic', sv: (a, b, r) => `${a} + (${a} << ${1 + r.int(7)}) + ${b}` },
  min: { kind: 'arithmetic', sv: (a, b) => `(${a} < ${b}) ? ${a} : ${b}` },
  max: { kind: 'arithmetic', sv: (a, b) => `(${a} > ${b}) ? ${a} : ${b}` },
  eqmask: { kind: 'arithmetic', sv: (a, b, r) => `(${a} == ${b}) ? ${hex(r)} : ${a}` },
  rotxor: { kind: 'logic', sv: (a, b, r) => { const k = 1 + r.int(31); return `{${a}[${31 - k}:0], ${a}[31:${32 - k}]} ^ ${b}`; } },
  andor: { kind: 'logic', sv: (a, b, r) => `(${a} & ${hex(r)}) | (${b} & ${hex(r)})` },
  bitmux: { kind: 'logic', sv: (a, b, r) => `${b}[${r.int(32)}] ? ${a} : ~${a}` },
  popcnt: { kind: 'bitmap', sv: (a, b) => `${a} + 32'(ones64(acked_i[63:0] & {${a}, ${b}}))` },
  ffs: { kind: 'bitmap', sv: (a) => `${a} ^ 32'(first_set(pending_i[31:0] & ${a}))` },
  window: { kind: 'bitmap', sv: (a) => `${a} ^ 32'(8'(acked_i >> ${a}[6:0]))` },
};

/// incoming.v of program i: a chain of `chain` ops.
function program(i, chain, r) {
  const lines = [];
  const ops = [];
  const vals = ['cum_ack_i'];
  for (let k = 0; k < chain; k++) {
    const name = r.pick(Object.keys(OPS));
    ops.push(name);
    const a = vals[vals.length - 1];
    const b = r.int(3) === 0 && vals.length > 1 ? vals[r.int(vals.length - 1)] : r.pick(INPUTS);
    lines.push(`  assign v${k} = ${OPS[name].sv(a, b, r)};`);
    vals.push(`v${k}`);
  }
  const last = vals[vals.length - 1];
  const text = `// SPDX-License-Identifier: Apache-2.0
// Random program ${i} (scripts/random-programs.mjs, seed ${seed}): a chain of
// ${chain} op(s): ${ops.join(', ')}. Not a protocol: a logic-depth
// sample for the levels experiment (docs/timing-model.md).
\`default_nettype none
\`include "tonic_proto_ports.svh"

module tonic_proto_incoming #(\`TONIC_PROTO_PARAMS(1)) (\`TONIC_PROTO_INCOMING_PORTS);
  \`include "tonic_proto_config.svh"

  // Index of the lowest set bit of x (0 when none).
  function automatic logic [4:0] first_set(logic [31:0] x);
    first_set = 5'd0;
    for (int j = 31; j >= 0; j--) if (x[j]) first_set = 5'(j);
  endfunction

  // Number of ones in x (a loop rather than $countones, which Verilator
  // 5.006's DFG optimizer mis-sizes in this context).
  function automatic logic [6:0] ones64(logic [63:0] x);
    ones64 = 7'd0;
    for (int j = 0; j < 64; j++) ones64 = ones64 + 7'(x[j]);
  endfunction

  logic [31:0] acked_lo, pending_hi;
  assign acked_lo   = acked_i[31:0];
  assign pending_hi = pending_i[63:32];

  logic [31:0] ${Array.from({ length: chain }, (_, k) => `v${k}`).join(', ')};
${lines.join('\n')}

  logic new_ack;
  assign new_ack         = tonic_dd_pkg::seq_lt(old_start_i, wnd_start_i);
  assign wnd_we_o        = new_ack | ${last}[0];
  assign mark_we_o       = type_i == tonic_dd_pkg::RxNack;
  assign rto_we_o        = 1'b0;
  assign timer_restart_o = new_ack;
  assign user_we_o       = 1'b0;
  \`TONIC_PROTO_NO_CREDIT;
  \`TONIC_PROTO_DRIVE_VALUES(${last}, ${last}, ${last} + 32'd1, 32'(RtoInit), user_i);

  logic unused_ok;
  assign unused_ok = ^{tx_i, now_i, wnd_i, next_new_i, posted_i, flight_i, acked_i, pending_i, rto_i, cum_ack_i,
                       sack_valid_i, sack_idx_i, ecn_i, grant_i, old_start_i, newly_acked_i, dup_i, info_i,
                       acked_lo, pending_hi, 32'(RtoMax), 32'(WndStep), 32'(WndFloor)};
endmodule

\`default_nettype wire
`;
  return { text, ops };
}

function checkAsync(dir, json) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'scripts', 'check-protocol.mjs'), dir, '--json', json, '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { out += d; });
    p.on('close', (code) => resolve({ code, out }));
  });
}

const base = path.join(ROOT, 'build', smoke ? 'random-programs-smoke' : 'random-programs');
const fromResults = opts['from-results'];
if (!fromResults) fs.rmSync(base, { recursive: true, force: true });
const r = rng(seed);
const todo = [];
const rows = [];
let bad = 0;
/// A checked program's report row (its chain and ops from the incoming.v header).
function rowOf(t, c) {
  return { name: t.name, chain: t.chain, ops: t.ops.join(' '), kinds: [...new Set(t.ops.map((o) => OPS[o].kind))].join('+'),
    lut: c.incoming.lut, levels: c.levels, delay_ns: c.delay_ns, verdict: c.verdict };
}
if (fromResults) {
  for (const name of fs.existsSync(base) ? fs.readdirSync(base).filter((n) => /^p\d{3}$/.test(n)).sort() : []) {
    const dir = path.join(base, name);
    const head = fs.readFileSync(path.join(dir, 'incoming.v'), 'utf8').match(/a chain of\n\/\/ (\d+) op\(s\): ([a-z, ]+)\./);
    const json = path.join(dir, 'check.json');
    if (!head || !fs.existsSync(json)) { bad++; console.log(`random-programs: ${name}: no result in ${dir}`); continue; }
    const c = JSON.parse(fs.readFileSync(json, 'utf8'));
    if (!c.incoming || Object.entries(c.steps).some(([k, v]) => v !== 'ok' && k !== 'levels')) {
      bad++;
      console.log(`random-programs: ${name}: INVALID program (${json})`);
      continue;
    }
    rows.push(rowOf({ name, chain: Number(head[1]), ops: head[2].split(', ') }, c));
  }
}
for (let i = 0; i < (fromResults ? 0 : count); i++) {
  const chain = count === 1 ? maxChain : 1 + Math.floor((i * (maxChain - 1)) / (count - 1));
  const name = `p${String(i).padStart(3, '0')}`;
  const dir = path.join(base, name);
  scaffold(name, 'window', dir);
  const { text, ops } = program(i, chain, r);
  fs.writeFileSync(path.join(dir, 'incoming.v'), text);
  todo.push({ name, dir, chain, ops });
}

// One checker process per program, --jobs at a time.
await runPool(todo, jobs, async (t) => {
  const json = path.join(t.dir, 'check.json');
  const { out } = await checkAsync(t.dir, json);
  if (!fs.existsSync(json)) {
    bad++;
    console.log(`random-programs: ${t.name}: the checker wrote no result:\n${out}`);
    return;
  }
  const c = JSON.parse(fs.readFileSync(json, 'utf8'));
  const failed = Object.entries(c.steps).filter(([k, v]) => v !== 'ok' && k !== 'levels');
  if (failed.length) {
    bad++;
    console.log(`random-programs: ${t.name}: INVALID program (${failed.map(([k]) => k).join(', ')}):\n${out}`);
    return;
  }
  rows.push(rowOf(t, c));
  console.log(`random-programs: ${t.name}: chain ${t.chain}, ${c.incoming.lut} LUT, ${c.levels} levels, ` +
    `${c.delay_ns} ns: ${c.verdict}`);
});
rows.sort((a, b) => a.name.localeCompare(b.name));

const bands = { pass: 0, marginal: 0, fail: 0 };
for (const row of rows) bands[row.verdict]++;
// How the delay estimate agrees with the verdict bands: programs over 10 ns per band.
const over = { pass: 0, marginal: 0, fail: 0 };
for (const row of rows) if (row.delay_ns > 10) over[row.verdict]++;
const summary = { count: rows.length, invalid: bad, seed, max_chain: maxChain, bands, over_10ns: over,
  levels_min: Math.min(...rows.map((x) => x.levels)), levels_max: Math.max(...rows.map((x) => x.levels)) };
console.log(`random-programs: ${rows.length} programs (${bad} invalid): pass ${bands.pass}, marginal ${bands.marginal}, ` +
  `fail ${bands.fail}; estimated delay > 10 ns: ${over.pass} pass, ${over.marginal} marginal, ${over.fail} fail`);

if (!smoke && rows.length) {
  fs.mkdirSync(REPORTS, { recursive: true });
  fs.writeFileSync(path.join(REPORTS, 'random_programs.json'), JSON.stringify({ summary, programs: rows }, null, 2) + '\n');
  // The plot: levels against the estimated delay, the bands and 10 ns marked (scripts/gnuplot.mjs).
  const png = path.join(REPORTS, 'random_programs.png');
  const failedPlot = render(REPORTS, path.basename(png), levelsScript({ png: path.basename(png),
    title: `Random incoming.v programs (${rows.length}, seed ${seed}): logic levels vs estimated delay`,
    points: rows, bands: BANDS }));
  if (failedPlot) console.log(`random-programs: ${failedPlot}`);
  else {
    fs.mkdirSync(path.join(ROOT, 'docs', 'img'), { recursive: true });
    fs.copyFileSync(png, path.join(ROOT, 'docs', 'img', 'random_programs.png'));
  }
  const bandRows = ['pass', 'marginal', 'fail'].map((v) => ({ v, n: bands[v], over: over[v],
    lv: rows.filter((x) => x.verdict === v).map((x) => x.levels), d: rows.filter((x) => x.verdict === v).map((x) => x.delay_ns) }));
  const range = (a) => (a.length ? `${Math.min(...a)}–${Math.max(...a)}` : '');
  updateResults('random_programs', 'Random incoming.v programs (scripts/random-programs.mjs)',
    `${rows.length} programs, seed ${seed}, chains of 1 to ${maxChain} ops; each through scripts/check-protocol ` +
    `(Yosys synth_xilinx, levels.mjs). Plot: docs/img/random_programs.png.\n\n` +
    markdownTable(bandRows, [
      ['verdict', (x) => `${x.v} (${x.v === 'pass' ? `<= ${BANDS.pass}` : x.v === 'marginal' ? `${BANDS.pass + 1}–${BANDS.marginal}` : `> ${BANDS.marginal}`} levels)`],
      ['programs', (x) => x.n], ['levels', (x) => range(x.lv)], ['estimated delay (ns)', (x) => range(x.d)],
      ['estimated delay > 10 ns', (x) => x.over],
    ]));
  console.log(`random-programs: wrote build/reports/random_programs.json, ${path.relative(ROOT, png)}, docs/img/random_programs.png, docs/results.md`);
}
process.exit(bad || rows.length === 0 ? 1 : 0);
