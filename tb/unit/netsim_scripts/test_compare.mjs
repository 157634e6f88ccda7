// SPDX-License-Identifier: Apache-2.0
// Checks scripts/compare.mjs on the hand-written runs of fixtures/:
//   tonic cwnd: 10 from 0, 20 from 100, 10 from 400, 11 from 900, 12 from 1020 us;
//         completion 1010 us (first segment at 0): its end is max(1020, 1010) = 1020
//   ns3   cwnd: 10 from 0, 20 from 200, 10 from 400, 12 from 950 us;
//         completion 1000 us: its end is max(950, 1000) = 1000
// so T = min(1020, 1000) = 1000 and |tonic - ns3| is 10 on [100, 200),
// 1 on [900, 950) and 1 on [950, 1000): (1000 + 50 + 50) / 1000 = 1.1
// segments; completion (1010 - 1000) / 1000 = +1.0 %; both one fast
// retransmit, no timeout: "match". Then the verdict's criteria one by one,
// the end rule, and malformed input (exit 2 naming the file and line).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, '..', '..', '..', 'scripts', 'compare.mjs');
const { compareDirs, compareRuns, cwndMeanAbsDiff, readRun, runEnd } = await import(script);
const fx = (k) => path.join(here, 'fixtures', k);
const near = (a, b, what) => assert.ok(Math.abs(a - b) < 1e-9, `${what}: ${a}, expected ${b}`);

// 1. The figures of the fixture pair.
const row = compareDirs(fx('tonic'), fx('ns3'), 'fixture');
near(row.completion_diff_pct, 1.0, 'completion diff');
near(row.cwnd_mean_abs_diff, 1.1, 'mean |cwnd diff|');
assert.deepEqual(row.cwnd_interval_us, [0, 1000]);
assert.deepEqual(row.completion_time_us, { tonic: 1010, ns3: 1000 });
assert.deepEqual(row.fast_retransmit_episodes, { tonic: 1, ns3: 1 });
assert.deepEqual(row.timeouts, { tonic: 0, ns3: 0 });
assert.deepEqual(row.retransmitted_segments, { tonic: 2, ns3: 2 });
assert.equal(row.verdict, 'match');
assert.deepEqual(row.failed, []);
assert.equal(row.label, 'fixture');

// 2. The verdict, one criterion at a time (summaries edited in memory).
const tonic = readRun(fx('tonic'));
const ns3 = readRun(fx('ns3'));
const edit = (run, fields) => ({ ...run, summary: { ...run.summary, ...fields } });
const verdict = (t, n) => compareRuns(t, n);
let r = verdict(edit(tonic, { fast_retransmit_episodes: 2 }), ns3);
assert.equal(r.verdict, 'differs');
assert.equal(r.failed.length, 1);
assert.match(r.failed[0], /^fast_retransmit_episodes \(tonic 2, ns3 1\)/);
r = verdict(tonic, edit(ns3, { timeouts: 1 }));
assert.equal(r.verdict, 'differs');
assert.match(r.failed[0], /^timeouts \(tonic 0, ns3 1\)/);
r = verdict(edit(tonic, { completion_time_us: 1020 }), ns3);   // +2.00 %: still within
assert.equal(r.verdict, 'match');
r = verdict(edit(tonic, { completion_time_us: 979.9 }), ns3);  // -2.01 %
assert.equal(r.verdict, 'differs');
assert.match(r.failed[0], /^completion \(-2\.01 % > 2 %\)/);
r = verdict(edit(tonic, { completion_time_us: -1 }), ns3);
assert.equal(r.verdict, 'differs');
assert.equal(r.completion_diff_pct, null);
assert.match(r.failed[0], /tonic did not complete/);
r = verdict(edit(tonic, { fast_retransmit_episodes: 3, timeouts: 2, completion_time_us: 2000 }), ns3);
assert.equal(r.failed.length, 3);

// 3. The end rule: the later of the last cwnd row and start + completion
// (start: the first tx.csv row; 0 without tx.csv); sim_time_us when
// incomplete. And the integral with a shifted start.
assert.equal(runEnd(tonic), 1020);
assert.equal(runEnd(ns3), 1000);
assert.equal(runEnd({ ...ns3, tx: [{ time_us: 30, segment: 0, retransmit: 0 }] }), 1030);
assert.equal(runEnd({ ...ns3, tx: null }), 1000);
assert.equal(runEnd(edit(ns3, { completion_time_us: -1 })), 1100);
const steps = (...p) => p.map(([t, c]) => ({ time_us: t, cwnd_segments: c }));
// Before its first row a trace holds its first value: a = 4 on [0, 50), b = 2.
near(cwndMeanAbsDiff(steps([50, 4]), steps([0, 2], [25, 6]), 100), (2 * 25 + 2 * 25 + 2 * 50) / 100, 'first-value rule');
assert.equal(cwndMeanAbsDiff(steps([0, 1]), steps([0, 1]), 0), null);
near(cwndMeanAbsDiff(steps([0, 1], [10, 5]), steps([0, 1], [10, 5]), 20), 0, 'identical traces');
// Several rows at one time: the last wins.
near(cwndMeanAbsDiff(steps([0, 1], [0, 3]), steps([0, 3]), 10), 0, 'same-time rows');

// 4. The CLI: the block, --json, and malformed input -> exit 2 naming file:line.
const node = process.execPath;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-test-'));
const run = (...args) => spawnSync(node, [script, ...args], { encoding: 'utf8' });
let p = run(fx('tonic'), fx('ns3'), '--json', path.join(tmp, 'row.json'), '--label', 'cli');
assert.equal(p.status, 0, p.stderr);
assert.match(p.stdout, /completion \(us\)\s+1010\.000\s+1000\.000\s+\+1\.00 %/);
assert.match(p.stdout, /mean \|cwnd diff\|\s+1\.100 segments over \[0, 1000\.000\] us/);
assert.match(p.stdout, /verdict\s+match/);
const json = JSON.parse(fs.readFileSync(path.join(tmp, 'row.json'), 'utf8'));
assert.equal(json.label, 'cli');
assert.equal(json.verdict, 'match');

const broken = (name, file, text) => {
  const dir = path.join(tmp, name);
  fs.cpSync(fx('tonic'), dir, { recursive: true });
  if (text === null) fs.rmSync(path.join(dir, file));
  else fs.writeFileSync(path.join(dir, file), text);
  return dir;
};
const cases = [
  [broken('short_row', 'cwnd.csv', 'time_us,cwnd_segments,ssthresh_segments\n0,10,-1\n5,11,-1\n7,12\n'), /cwnd\.csv:4: 2 fields, expected 3/],
  [broken('not_number', 'cwnd.csv', 'time_us,cwnd_segments,ssthresh_segments\n0,ten,-1\n'), /cwnd\.csv:2: cwnd_segments 'ten' is not a number/],
  [broken('bad_header', 'cwnd.csv', 'time,cwnd\n0,10\n'), /cwnd\.csv:1: header/],
  [broken('backwards', 'cwnd.csv', 'time_us,cwnd_segments,ssthresh_segments\n5,10,-1\n4,11,-1\n'), /cwnd\.csv:3: time_us goes backwards/],
  [broken('no_rows', 'cwnd.csv', 'time_us,cwnd_segments,ssthresh_segments\n'), /cwnd\.csv:2: no rows/],
  [broken('no_cwnd', 'cwnd.csv', null), /cwnd\.csv: missing/],
  [broken('bad_tx', 'tx.csv', 'time_us,segment,retransmit\n0,0,0\n1,1,2\n'), /tx\.csv:3: retransmit must be 0 or 1/],
  [broken('no_summary', 'summary.json', null), /summary\.json: missing/],
  [broken('bad_json', 'summary.json', '{\n  "simulator": "tonic",\n  "timeouts": ,\n}\n'), /summary\.json:3: invalid JSON/],
  [broken('no_key', 'summary.json', '{"simulator": "tonic", "scenario": "x", "completion_time_us": 1}\n'), /summary\.json: "fast_retransmit_episodes" missing/],
];
for (const [dir, want] of cases) {
  p = run(dir, fx('ns3'));
  assert.equal(p.status, 2, `${dir}: status ${p.status}\n${p.stdout}${p.stderr}`);
  const lines = p.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `${dir}: one line expected:\n${p.stderr}`);
  assert.match(lines[0], want, dir);
  assert.ok(lines[0].includes(dir), `${dir}: the message names the file: ${lines[0]}`);
}
assert.equal(run(fx('tonic')).status, 2);             // usage
assert.equal(run(fx('tonic'), fx('ns3'), '--bogus').status, 2);
fs.rmSync(tmp, { recursive: true, force: true });
console.log('test_compare: ok');
