// SPDX-License-Identifier: Apache-2.0
// line-rate.mjs — `make line-rate`: every protocol's 1024 x 128 build at
// line rate, in segments per cycle, and its ack-to-retransmit latency in
// cycles, from tonic-run's suite (sim/run/tonic_run.cpp on
// lib/tonic/line_rig.hpp: saturated flows, each protocol's receiver model).
//
// 1. Line rate: --flows 1, 16 and 1024, no loss, RTT --rtt cycles (short
//    enough that one flow's window covers it): segments per cycle.
// 2. Latency: the suite's bottleneck run (32 flows into one switch port:
//    drop-tail, ECN marks or trimming by credit scheme): the median and p99
//    cycles from the rx beat that triggered a retransmission to that
//    retransmission leaving, over the retransmissions with an unambiguous
//    trigger (lib/tonic/line_rig.hpp: at line rate a saturated flow's beats
//    come every cycle, so none qualifies there).
// Writes build/reports/line_rate.json and the table in docs/results.md.
// Every figure counts cycles, so the run is deterministic (same seed, same
// figures). A report, not a test: what each protocol's credit allows differs
// (the table's note); tb/unit/tonic checks the window protocols' bounds.
//
// usage: node line-rate.mjs [--exe PATH] [--cycles N] [--rtt N]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './manifest.mjs';
import { cli } from './lib/cli.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

const { values: opts } = cli({
  name: 'line-rate',
  description: 'Every protocol at line rate (1, 16, 1024 flows) and its ack-to-retransmit latency, from\n' +
    "tonic-run's suite; writes build/reports/line_rate.json and the table in docs/results.md.",
  options: {
    exe: { type: 'string', default: 'build/dev/sim/run/tonic-run', arg: 'PATH', help: 'the tonic-run executable' },
    cycles: { type: 'number', integer: true, min: 1000, default: 200000, help: 'cycles per run' },
    rtt: { type: 'number', integer: true, min: 2, default: 40, help: 'round-trip time in cycles' },
  },
});
const exe = path.resolve(ROOT, opts.exe);
if (!fs.existsSync(exe)) {
  process.stderr.write(`line-rate: no ${path.relative(ROOT, exe)} (build it: cmake --build build/dev --target tonic-run)\n`);
  process.exit(2);
}
const work = path.join(ROOT, 'build', 'line-rate');
fs.rmSync(work, { recursive: true, force: true });

/// One suite run of every protocol (no loss); the rows of its summary.json.
/// The bottleneck runs count only with `bottleneck` (else 2 flows, quick).
function suite(name, flows, bottleneck = false) {
  const out = path.join(work, name);
  const args = ['--suite', '--flows', String(flows), '--rtt', String(opts.rtt), '--loss', '0',
    '--cycles', String(opts.cycles), ...(bottleneck ? [] : ['--bottleneck-flows', '2']), '--quiet', '--out', out];
  const r = spawnSync(exe, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) {
    process.stderr.write(`line-rate: tonic-run ${args.join(' ')} exited ${r.status}\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
  const j = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8'));
  return j.runs;
}

const FLOWS = [1, 16, 1024];
const byProto = new Map();
const row = (p) => byProto.get(p) ?? byProto.set(p, { protocol: p }).get(p);
for (const n of FLOWS) {
  for (const x of suite(`flows${n}`, n, n === 16)) {
    const r = row(x.protocol);
    if (x.network !== 'line rate') {
      if (n !== 16) continue;  // the quick 2-flow bottleneck runs
      const l = x.ack_to_retransmit_cycles;
      r.latency = { count: l.count, min: l.min, median: l.median, p99: l.p99 };
      r.errors_bottleneck = x.check_errors;
      continue;
    }
    r.credit = x.credit;
    r.model = x.model;
    r[`spc_${n}`] = x.segments_per_cycle;
    r[`rx_${n}`] = x.cycles ? x.rx_beats / x.cycles : 0;  // rx beats into the DUT per cycle (at most 1)
    r[`errors_${n}`] = x.check_errors;
  }
}
const rows = [...byProto.values()].sort((a, b) => a.protocol.localeCompare(b.protocol));

fs.mkdirSync(REPORTS, { recursive: true });
const settings = { cycles: opts.cycles, rtt: opts.rtt, flows: FLOWS, latency: 'the suite bottleneck (32 flows)' };
fs.writeFileSync(path.join(REPORTS, 'line_rate.json'), JSON.stringify({ settings, rows }, null, 2) + '\n');
const f4 = (v) => (typeof v === 'number' ? v.toFixed(4) : '');
const table = markdownTable(rows, [
  ['protocol', (r) => r.protocol], ['credit', (r) => r.credit], ['build', (r) => r.model],
  ...FLOWS.map((n) => [`seg/cycle, ${n} flow${n > 1 ? 's' : ''}`, (r) => f4(r[`spc_${n}`])]),
  ['rx beats/cycle, 1024 flows', (r) => f4(r.rx_1024)],
  ['ack->rtx median (cycles, bottleneck)', (r) => r.latency?.median ?? ''],
  ['ack->rtx p99', (r) => r.latency?.p99 ?? ''], ['retransmissions timed', (r) => r.latency?.count ?? ''],
]);
const note = `\`make line-rate\` (scripts/line-rate.mjs): tonic-run's suite on each protocol's 1024 x 128 build, ` +
  `saturated flows with the protocol's receiver model, RTT ${opts.rtt} cycles, ${opts.cycles.toLocaleString('en-US')} ` +
  'cycles per run from cycle 0 (the ramp-up counts); segments per cycle without loss; the ack-to-retransmit ' +
  'latency (from the rx beat that triggered a retransmission to the retransmission leaving) over the ' +
  'retransmissions with an unambiguous trigger in the suite\'s bottleneck run (32 flows into one switch port: ' +
  'drop-tail, ECN or trimming by credit). What a flow may send differs by credit: a rate flow is ' +
  'capped at 100 Gb/s, one 1000-B segment per 8 cycles (0.125 for one flow); an NDP flow has its first ' +
  'window and then one segment per pull, so with few flows the pull loop (RTT) bounds it, and its receivers ' +
  'answer a segment with an ACK and a PULL, two rx beats into a port that takes one per cycle: with many ' +
  'flows that port is full (the rx beats column) and bounds NDP. Cycle counts: the same on any machine.\n\n';
updateResults('line-rate', 'Line rate and retransmit latency (tonic-run)', note + table);
for (const r of rows) {
  process.stdout.write(`line-rate: ${r.protocol.padEnd(13)} ${FLOWS.map((n) => `${n}: ${f4(r[`spc_${n}`])}`).join('  ')}` +
    `  ack->rtx median ${r.latency?.median ?? '-'} p99 ${r.latency?.p99 ?? '-'} cycles\n`);
}
const errors = rows.filter((r) => FLOWS.some((n) => r[`errors_${n}`]) || r.errors_bottleneck);
process.stdout.write('line-rate: build/reports/line_rate.json, docs/results.md\n');
if (errors.length) {
  // tonic-run's own checks (delivery, order, credit) failed in a run.
  process.stdout.write(`line-rate: check errors in ${errors.map((r) => r.protocol).join(', ')} (build/line-rate/)\n`);
  process.exit(1);
}
