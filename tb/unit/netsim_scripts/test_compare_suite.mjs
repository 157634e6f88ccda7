// SPDX-License-Identifier: Apache-2.0
// Checks scripts/compare-suite.mjs end to end with stand-in simulators
// (fake_sim.mjs: each run copies fixtures/tonic or fixtures/ns3, so every
// pattern compares as the fixture pair: +1.00 %, 1.10 segments, match).
// The suite runs from a copy of the scripts in a temporary project root,
// so scripts/report.mjs's updateResults edits a copy of docs/results.md
// (never the real one) and TONIC_REPORTS_DIR keeps compare.json out of
// build/reports. Checked: the simulators' command lines, compare.json, the
// docs/results.md section (appended when absent, replaced in place when
// present, the rest of the file untouched), the overlay PNGs (the first
// pattern's in docs/img, only when gnuplot is installed), and exit 1 naming
// the command line for a missing or failing simulator or malformed output.
// The default scenario is the reference protocol's single.json (of a copy of
// protocols/ in the temporary root); a tree without a reference protocol
// must say so (exit 2).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadProtocols, referenceProtocol } from '../../../scripts/registry.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const real = path.join(here, '..', '..', '..');
const hash = (f) => crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
const realResults = path.join(real, 'docs', 'results.md');
const realHash = hash(realResults);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-suite-test-'));
const root = path.join(tmp, 'root');
fs.mkdirSync(path.join(root, 'scripts'), { recursive: true });
for (const f of fs.readdirSync(path.join(real, 'scripts')).filter((n) => n.endsWith('.mjs'))) {
  fs.copyFileSync(path.join(real, 'scripts', f), path.join(root, 'scripts', f));
}
// and the helpers they import (scripts/lib/).
fs.cpSync(path.join(real, 'scripts', 'lib'), path.join(root, 'scripts', 'lib'), { recursive: true });
fs.mkdirSync(path.join(root, 'docs'));
// The copy starts without a compare section (the real file may have one:
// the first run below must append it).
const original = (() => {
  const text = fs.readFileSync(realResults, 'utf8');
  const i = text.indexOf('<!-- compare:begin -->');
  const j = text.indexOf('<!-- compare:end -->');
  if (i < 0 || j < i) return text;
  const head = text.slice(0, i).replace(/\n## [^\n]*\n\n$/, '\n');
  return head + text.slice(j + '<!-- compare:end -->'.length).replace(/^\n/, '');
})();
const results = path.join(root, 'docs', 'results.md');
fs.writeFileSync(results, original);
// The protocol folders (the registry gives the default scenario and the ns-3 TCP's name).
fs.cpSync(path.join(real, 'protocols'), path.join(root, 'protocols'), { recursive: true });
const protocols = loadProtocols();
const ref = referenceProtocol(protocols);
assert.ok(ref && ref.scenarios.single && ref.ns3, 'the tree has a reference protocol with netsim/single.json and an ns-3 TCP');
const other = protocols.find((p) => !p.reference);
const configRel = ref.scenarios.single;  // protocols/<reference>/netsim/single.json
const config = path.join(root, configRel);
fs.writeFileSync(config, `{"name": "fixture_single", "protocol": "${ref.name}"}\n`);
const bin = path.join(tmp, 'bin');
fs.mkdirSync(bin);
const fake = (name, kind) => {
  const f = path.join(bin, name);
  fs.writeFileSync(f, `#!/bin/sh\nexec '${process.execPath}' '${path.join(here, 'fake_sim.mjs')}' ${kind} "$@"\n`, { mode: 0o755 });
  return f;
};
const netsim = fake('tonic-netsim', 'tonic');
const ns3 = fake('tonic-ns3', 'ns3');
const reports = path.join(tmp, 'reports');
const out = path.join(tmp, 'compare');
const suite = (args, env = {}) => spawnSync(process.execPath, [path.join(root, 'scripts', 'compare-suite.mjs'), ...args],
  { encoding: 'utf8', env: { ...process.env, TONIC_REPORTS_DIR: reports, ...env } });
const gnuplot = spawnSync('gnuplot', ['--version']).status === 0;
const slugs = ['drops_5_37_38', 'drops_100', 'drop_every_200', 'drops_20_21_22_23', 'loss_0.0005_seed_7',
  'drops_1000', 'drops_1500_1501', 'drop_every_500', 'loss_0.002_seed_1'];

// 1. The default patterns (default --config, relative to the root).
let p = suite(['--netsim', netsim, '--ns3', ns3, '--out', out]);
assert.equal(p.status, 0, p.stdout + p.stderr);
assert.match(p.stdout, /9 of 9 patterns match/);
const argv = JSON.parse(fs.readFileSync(path.join(out, 'loss_0.0005_seed_7', 'tonic', 'argv.json'), 'utf8'));
assert.deepEqual(argv, ['--config', config, '--out', path.join(out, 'loss_0.0005_seed_7', 'tonic'), '--quiet', '--loss=0.0005', '--seed=7']);
assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'drops_5_37_38', 'ns3', 'argv.json'), 'utf8')).slice(4), ['--quiet', '--drops=5,37,38']);
let rows = JSON.parse(fs.readFileSync(path.join(reports, 'compare.json'), 'utf8'));
assert.deepEqual(rows.map((r) => r.label).sort(), [...slugs].sort());
for (const r of rows) {
  assert.equal(r.verdict, 'match');
  assert.ok(Math.abs(r.completion_diff_pct - 1) < 1e-9);
  assert.ok(Math.abs(r.cwnd_mean_abs_diff - 1.1) < 1e-9);
  assert.equal(r.config, configRel);
}
// The section was absent: appended after the untouched original.
let doc = fs.readFileSync(results, 'utf8');
assert.ok(doc.startsWith(original), 'the rest of results.md is untouched');
let section = doc.slice(doc.indexOf('<!-- compare:begin -->'), doc.indexOf('<!-- compare:end -->'));
assert.equal(doc.split('<!-- compare:begin -->').length, 2);
assert.ok(doc.includes(`## ${ref.name}: Tonic vs ns-3 (scripts/compare-suite.mjs)`), 'the section title names the protocol');
assert.ok(doc.includes(`ns-3 = ${ref.ns3},`), 'the note names the ns-3 TCP');
assert.equal(section.split('\n').filter((l) => l.startsWith('| `--')).length, 9);
assert.match(section, /\| `--drops=5,37,38` \| 1010\.0 \/ 1000\.0 \| \+1\.00 % \| 1 \/ 1 \| 0 \/ 0 \| 2 \/ 2 \| 1\.10 \| match \|/);
if (gnuplot) {
  const img = path.join(root, 'docs', 'img');
  assert.deepEqual(fs.readdirSync(img), ['compare_drops_5_37_38.png']);
  for (const s of slugs) assert.ok(fs.existsSync(path.join(out, s, `compare_${s}.png`)), s);
  assert.match(section, /\[img\/compare_drops_5_37_38\.png\]\(img\/compare_drops_5_37_38\.png\)/);
} else {
  console.log('test_compare_suite: gnuplot not installed: overlay checks skipped');
}

// 2. Markers present in the middle of the file: replaced in place.
const [before, after] = ['# Results\n\nintro\n\n<!-- synth:begin -->\nkeep me\n<!-- synth:end -->\n\n## Compare\n\n',
  '\n\n## Later\n\nalso kept\n'];
fs.writeFileSync(results, `${before}<!-- compare:begin -->\nstale table\n<!-- compare:end -->${after}`);
p = suite(['--netsim', netsim, '--ns3', ns3, '--config', config, '--out', out, '--pattern', '--drops=100']);
assert.equal(p.status, 0, p.stdout + p.stderr);
doc = fs.readFileSync(results, 'utf8');
assert.ok(doc.startsWith(`${before}<!-- compare:begin -->\n| drop pattern |`), doc);
assert.ok(doc.endsWith(`<!-- compare:end -->${after}`), doc);
assert.ok(!doc.includes('stale table'));
section = doc.slice(doc.indexOf('<!-- compare:begin -->'), doc.indexOf('<!-- compare:end -->'));
assert.equal(section.split('\n').filter((l) => l.startsWith('| `--')).length, 1);
rows = JSON.parse(fs.readFileSync(path.join(reports, 'compare.json'), 'utf8'));
assert.deepEqual(rows.map((r) => r.label), ['drops_100']);

// 3. Failures: exit 1, the message names the simulator and command line.
p = suite(['--netsim', path.join(bin, 'nonexistent'), '--ns3', ns3, '--out', out]);
assert.equal(p.status, 1);
assert.match(p.stderr, /tonic-netsim not found: .*bin\/nonexistent/);
p = suite(['--netsim', netsim, '--ns3', ns3, '--out', out, '--pattern', '--drops=5,37,38'], { FAKE_SIM_EXIT: '3' });
assert.equal(p.status, 1);
assert.match(p.stderr, /tonic-netsim failed \(exit 3\): \S*tonic-netsim --config \S+ --out \S+ --quiet --drops=5,37,38\n.*failing on purpose/);
p = suite(['--netsim', netsim, '--ns3', ns3, '--out', out, '--pattern', '--drops=100'], { FAKE_SIM_BREAK: '1' });
assert.equal(p.status, 1);
assert.match(p.stderr, /drops_100\/tonic\/cwnd\.csv:3: 1 fields, expected 3/);
p = suite(['--netsim', netsim]);
assert.equal(p.status, 2);
// A tree without a reference protocol: no default scenario.
if (other) {
  p = suite(['--netsim', netsim, '--ns3', ns3, '--out', out], { TONIC_ONLY_PROTOCOLS: other.name });
  assert.equal(p.status, 2, p.stdout + p.stderr);
  assert.match(p.stderr, /no reference protocol.*give --config FILE/);
}

assert.equal(hash(realResults), realHash, 'the real docs/results.md was not touched');
fs.rmSync(tmp, { recursive: true, force: true });
console.log('test_compare_suite: ok');
