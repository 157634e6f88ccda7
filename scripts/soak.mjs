// SPDX-License-Identifier: Apache-2.0
// soak.mjs — `make soak` (docs/soak.md): runs tonic-soak for every protocol
// until the total number of cycles is reached, in chunks (one process per
// chunk, a seed per chunk) on --jobs cores, then writes
// build/reports/soak.json (per protocol and in total: cycles, wall seconds,
// cycles/s, flows completed, segments, retransmissions, bad input injected,
// violations, assertion failures) and the table of docs/soak.md.
//
//   node scripts/soak.mjs --exe build/dev/tb/unit/soak/tonic-soak
//        [--cycles 1e9] [--jobs 2] [--seed 1000] [--chunk 2.5e7]
//        [--protocols NAME,NAME] [--aggregate-only]
// Chunk results go to build/soak/<protocol>_<seed>.json as they finish, so
// --aggregate-only rebuilds the report from the chunks already run.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT } from './manifest.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { loadProtocols } from './registry.mjs';
import { markdownTable, REPORTS } from './report.mjs';

// Every protocol folder (scripts/registry.mjs): a new one is soaked with no edit here.
const PROTOCOLS = loadProtocols().map((p) => p.name);
const { values: opts } = cli({
  name: 'soak',
  description: 'Runs tonic-soak for every protocol in chunks on --jobs cores; writes build/reports/soak.json\n' +
    'and the table of docs/soak.md (docs/soak.md). Exit 1 on a violation or an assertion failure.',
  options: {
    exe: { type: 'string', default: 'build/dev/tb/unit/soak/tonic-soak', arg: 'PATH', help: 'the tonic-soak executable' },
    cycles: { type: 'number', default: 1e9, shown: '1e9', help: 'cycles in all, shared by the protocols' },
    jobs: { type: 'number', default: 2, help: 'tonic-soak processes at once' },
    seed: { type: 'number', default: 1000, help: 'seed of the first chunk (+100 per chunk)' },
    chunk: { type: 'number', default: 2.5e7, shown: '2.5e7', help: 'at most this many cycles per process' },
    protocols: { type: 'string', default: PROTOCOLS.join(','), arg: 'P,P...', help: 'the protocols' },
    'aggregate-only': { type: 'boolean', help: 'run nothing: the report from the chunks in build/soak/' },
  },
});
const exe = path.resolve(ROOT, opts.exe);
const total = opts.cycles;
const jobs = Math.max(1, opts.jobs);
const seed0 = opts.seed;
const chunk = opts.chunk;
const protocols = opts.protocols.split(',');
const aggregateOnly = opts['aggregate-only'];
const OUT = path.join(ROOT, 'build', 'soak');
const DOC = path.join(ROOT, 'docs', 'soak.md');

for (const p of protocols) {
  if (!PROTOCOLS.includes(p)) {
    process.stderr.write(`soak: unknown protocol ${p}\n`);
    process.exit(2);
  }
}

/// The chunks: per protocol total / protocols cycles, in pieces of at most
/// `chunk` cycles, interleaved so that an interrupted run covers every
/// protocol.
function plan() {
  const per = Math.ceil(total / protocols.length);
  const n = Math.max(1, Math.ceil(per / chunk));
  const runs = [];
  for (let i = 0; i < n; i++) {
    for (const p of protocols) runs.push({ p, seed: seed0 + 100 * i, cycles: Math.ceil(per / n) });
  }
  return runs;
}

function runChunk(r) {
  const file = path.join(OUT, `${r.p}_${r.seed}.json`);
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(exe, ['--protocol', r.p, '--cycles', String(r.cycles), '--seed', String(r.seed),
      '--json', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('close', (code) => {
      process.stdout.write(out.split('\n').filter((l) => l.startsWith('soak') || l.includes('rror')).join('\n') + '\n');
      if (code !== 0 && !fs.existsSync(file)) {
        fs.writeFileSync(file, JSON.stringify([{ protocol: r.p, seed: r.seed, cycles: 0, wall_s: (Date.now() - t0) / 1e3,
          violations: 1, assertion_failures: 0, first_violation: `tonic-soak exited ${code} without a report` }]));
      }
      resolve();
    });
  });
}

async function runAll() {
  fs.mkdirSync(OUT, { recursive: true });
  const queue = plan();
  process.stdout.write(`soak: ${queue.length} runs of ${queue[0].cycles} cycles on ${jobs} cores (${exe})\n`);
  await runPool(queue, jobs, runChunk);
}

const SUM = ['cycles', 'wall_s', 'phases', 'adds', 'removes', 'posts', 'flows_completed', 'segments',
  'retransmissions', 'lost', 'trimmed', 'reordered', 'acks_lost', 'pauses', 'bad_ctrl', 'bad_rx', 'violations',
  'assertion_failures'];

function aggregate(wallTotal) {
  const rows = new Map();
  const firsts = [];
  for (const f of fs.existsSync(OUT) ? fs.readdirSync(OUT).filter((x) => x.endsWith('.json')).sort() : []) {
    let list;
    try {
      list = JSON.parse(fs.readFileSync(path.join(OUT, f), 'utf8'));
    } catch {
      continue;
    }
    for (const r of list) {
      if (!protocols.includes(r.protocol)) continue;
      const a = rows.get(r.protocol) ?? { protocol: r.protocol, runs: 0, max_settle_cycles: 0 };
      a.runs += 1;
      for (const k of SUM) a[k] = (a[k] ?? 0) + (r[k] ?? 0);
      a.max_settle_cycles = Math.max(a.max_settle_cycles, r.max_settle_cycles ?? 0);
      if (r.first_violation) firsts.push(`${r.protocol} seed ${r.seed}: ${r.first_violation}`);
      rows.set(r.protocol, a);
    }
  }
  const out = protocols.filter((p) => rows.has(p)).map((p) => rows.get(p));
  for (const a of out) {
    a.wall_s = Math.round(a.wall_s * 10) / 10;
    a.cycles_per_s = a.wall_s > 0 ? Math.round(a.cycles / a.wall_s) : 0;
  }
  const tot = { protocol: 'total', runs: 0, max_settle_cycles: 0 };
  for (const a of out) {
    for (const k of [...SUM, 'runs']) tot[k] = (tot[k] ?? 0) + a[k];
    tot.max_settle_cycles = Math.max(tot.max_settle_cycles, a.max_settle_cycles);
  }
  tot.wall_s = Math.round((tot.wall_s ?? 0) * 10) / 10;
  tot.cycles_per_s = tot.wall_s > 0 ? Math.round(tot.cycles / tot.wall_s) : 0;
  if (wallTotal !== null) tot.elapsed_s = Math.round(wallTotal);
  const report = { generated: new Date().toISOString(), requested_cycles: total, jobs, rows: [...out, tot],
    first_violations: firsts.slice(0, 20) };
  fs.mkdirSync(REPORTS, { recursive: true });
  fs.writeFileSync(path.join(REPORTS, 'soak.json'), JSON.stringify(report, null, 2) + '\n');
  return report;
}

function updateDoc(report) {
  if (!fs.existsSync(DOC)) return;
  const fmt = (x) => (typeof x === 'number' ? x.toLocaleString('en-US') : x);
  const rows = report.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, fmt(v)])));
  const table = markdownTable(rows, [
    ['protocol', 'protocol'], ['runs', 'runs'], ['cycles', 'cycles'], ['wall_s', 'CPU-wall s'],
    ['cycles_per_s', 'cycles/s'], ['flows_completed', 'flows completed'], ['segments', 'segments'],
    ['retransmissions', 'retransmissions'], ['adds', 'adds'], ['removes', 'removes'],
    ['bad_ctrl', 'bad ctrl'], ['bad_rx', 'bad rx'], ['max_settle_cycles', 'max settle'],
    ['violations', 'violations'], ['assertion_failures', 'assertion failures']].map(([k, h]) => [h, (r) => r[k] ?? '']));
  const tot = report.rows.at(-1);
  const text = `Last run: ${report.generated.slice(0, 16).replace('T', ' ')} UTC, ${fmt(tot.cycles)} cycles in all`
    + (tot.elapsed_s !== undefined ? `, ${fmt(tot.elapsed_s)} s elapsed on ${report.jobs} cores` : '')
    + ` (requested ${fmt(report.requested_cycles)}).\n\n${table}`;
  const doc = fs.readFileSync(DOC, 'utf8');
  const a = doc.indexOf('<!-- soak:begin -->');
  const b = doc.indexOf('<!-- soak:end -->');
  if (a < 0 || b < a) return;
  fs.writeFileSync(DOC, `${doc.slice(0, a)}<!-- soak:begin -->\n${text}\n${doc.slice(b)}`);
}

const t0 = Date.now();
if (!aggregateOnly) {
  if (!fs.existsSync(exe)) {
    process.stderr.write(`soak: no ${exe} (build it first: cmake --build <build> --target tonic-soak)\n`);
    process.exit(2);
  }
  await runAll();
}
const report = aggregate(aggregateOnly ? null : (Date.now() - t0) / 1e3);
updateDoc(report);
const tot = report.rows.at(-1);
process.stdout.write(`soak: ${tot.cycles} cycles, ${tot.wall_s} s of runs, ${tot.violations} violations, `
  + `${tot.assertion_failures} assertion failures -> build/reports/soak.json\n`);
process.exit(tot.violations || tot.assertion_failures ? 1 : 0);
