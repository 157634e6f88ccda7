// SPDX-License-Identifier: Apache-2.0
// Checks scripts/plots.mjs on copies of fixtures/ (never writing into the
// source tree): the tonic run has every file (cwnd.csv, tx.csv with
// retransmissions, flows.csv with 3 flows, thr.csv with 2 flows) -> four
// PNGs; the ns3 run has one flow and no thr.csv -> cwnd.png and seq.png,
// the others skipped with a note. A malformed file: its plot skipped, exit
// 2. Without gnuplot on PATH: a warning, exit 0, no PNG. The PNG checks
// are skipped (with a note) only when gnuplot is absent here. Last, the
// plotRunDir(dir, {quiet}) export that other scripts call.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const script = path.join(here, '..', '..', '..', 'scripts', 'plots.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'plots-test-'));
for (const k of ['tonic', 'ns3']) fs.cpSync(path.join(here, 'fixtures', k), path.join(tmp, k), { recursive: true });
const run = (env, ...dirs) => spawnSync(process.execPath, [script, ...dirs], { encoding: 'utf8', env: { ...process.env, ...env } });
const isPng = (f) => fs.existsSync(f) && fs.readFileSync(f).subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
const pngs = (dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.png')).sort();

// Without gnuplot (PATH holds only an empty directory): warning, exit 0, no PNG.
const empty = path.join(tmp, 'empty-path');
fs.mkdirSync(empty);
let p = run({ PATH: empty }, path.join(tmp, 'tonic'));
assert.equal(p.status, 0, p.stderr);
assert.match(p.stderr, /warning: gnuplot not found/);
assert.deepEqual(pngs(path.join(tmp, 'tonic')), []);

const gnuplot = spawnSync('gnuplot', ['--version']).status === 0;
if (!gnuplot) {
  console.log('test_plots: gnuplot not installed: PNG checks skipped');
} else {
  p = run({}, path.join(tmp, 'tonic'), path.join(tmp, 'ns3'));
  assert.equal(p.status, 0, p.stdout + p.stderr);
  assert.deepEqual(pngs(path.join(tmp, 'tonic')), ['cwnd.png', 'flows_cdf.png', 'seq.png', 'thr.png']);
  for (const f of pngs(path.join(tmp, 'tonic'))) assert.ok(isPng(path.join(tmp, 'tonic', f)), f);
  assert.deepEqual(pngs(path.join(tmp, 'ns3')), ['cwnd.png', 'seq.png']);
  assert.match(p.stdout, /ns3: wrote cwnd\.png, seq\.png; skipped flows_cdf\.png \(flows\.csv has 1 flow, no CDF\), thr\.png \(no thr\.csv\)/);
  assert.ok(!fs.readdirSync(path.join(tmp, 'tonic')).some((f) => f.endsWith('.gp')), 'no .gp left after a success');

  // Only summary.json and cwnd.csv: cwnd.png, the rest skipped.
  const sparse = path.join(tmp, 'sparse');
  fs.mkdirSync(sparse);
  for (const f of ['summary.json', 'cwnd.csv']) fs.copyFileSync(path.join(here, 'fixtures', 'ns3', f), path.join(sparse, f));
  p = run({}, sparse);
  assert.equal(p.status, 0, p.stderr);
  assert.deepEqual(pngs(sparse), ['cwnd.png']);
  assert.match(p.stdout, /skipped seq\.png \(no tx\.csv\), flows_cdf\.png \(no flows\.csv\), thr\.png \(no thr\.csv\)/);

  // A malformed tx.csv: named with its line, seq.png skipped, exit 2; cwnd.png still made.
  fs.writeFileSync(path.join(sparse, 'tx.csv'), 'time_us,segment,retransmit\n0,0,0\n1,x,0\n');
  p = run({}, sparse);
  assert.equal(p.status, 2);
  assert.match(p.stderr, /sparse\/tx\.csv:3: segment 'x' is not a number/);
  assert.deepEqual(pngs(sparse), ['cwnd.png']);

  // The API other scripts use (scripts/netsim-experiments.mjs): plotRunDir(dir, {quiet}).
  const { plotRunDir } = await import(script);
  const api = path.join(tmp, 'api');
  fs.cpSync(path.join(here, 'fixtures', 'tonic'), api, { recursive: true });
  const r = await plotRunDir(api, { quiet: true });
  assert.deepEqual(r.wrote, ['cwnd.png', 'seq.png', 'flows_cdf.png', 'thr.png']);
  assert.deepEqual(r.errors, []);
  assert.deepEqual(pngs(api), ['cwnd.png', 'flows_cdf.png', 'seq.png', 'thr.png']);
}
assert.equal(run({}, path.join(tmp, 'nonexistent')).status, 2);
assert.equal(run({}).status, 2);
fs.rmSync(tmp, { recursive: true, force: true });
console.log('test_plots: ok');
