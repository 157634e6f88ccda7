// SPDX-License-Identifier: Apache-2.0
// Checks scripts/vivado.mjs as a command: bad options end with exit 2 and a
// message that says what is wrong (an unknown protocol lists the known
// ones); without `vivado` on PATH it writes the run files and exits 3 with
// how to run them; with a `vivado` on PATH it runs it in the run directory
// and merges the parsed reports into vivado.json. The `vivado` here is a
// stand-in: a shell script that runs synth/vivado/tonic.tcl on the stubs of
// stub_vivado.tcl, whose report commands copy the fixtures/met reports.
//
// usage: node test_vivado_options.mjs <work dir>
// TONIC_TCLSH (environment): the tclsh for the stand-in (default: tclsh on PATH).
// The runs are of the reference protocol (scripts/registry.mjs), the
// known protocols those of the registry.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadProtocols, referenceProtocol } from '../../../scripts/registry.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const script = path.join(root, 'scripts', 'vivado.mjs');
const work = path.resolve(process.argv[2] ?? fs.mkdtempSync('/tmp/tonic-vivado-options-'));
fs.rmSync(work, { recursive: true, force: true });
const runs = path.join(work, 'runs');
const reports = path.join(work, 'reports');
const empty = path.join(work, 'empty-path');  // a PATH without vivado
fs.mkdirSync(empty, { recursive: true });

let n = 0;
function test(name, fn) {
  fn();
  n++;
  process.stdout.write(`ok   ${name}\n`);
}

function vivado(args, env = {}) {
  const r = spawnSync(process.execPath, [script, ...args, '--out', runs], {
    encoding: 'utf8', env: { ...process.env, PATH: empty, TONIC_REPORTS_DIR: reports, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function bad(name, args, message) {
  test(`exit 2: ${name}`, () => {
    const r = vivado(args);
    assert.equal(r.code, 2, `exit ${r.code}; ${r.err}`);
    assert.match(r.err, message);
    assert.equal(r.out, '');
  });
}
const protocols = loadProtocols();
const ref = referenceProtocol(protocols)?.name;
assert.ok(ref, 'the tree has a reference protocol (protocol.json "reference": true)');
const reEsc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const names = reEsc(protocols.map((p) => p.name).join(', '));
const ok = ['--protocol', ref, '--flows', '1024', '--window', '128'];
const known = new RegExp(`known: ${names}`);
bad('unknown protocol, the known ones listed', ['--protocol', 'no_such_protocol', '--flows', '1024', '--window', '128'],
  new RegExp(`unknown protocol "no_such_protocol".*${known.source}`));
bad('a test-only protocol folder is not a protocol', ['--protocol', 'rate_probe', '--flows', '1024', '--window', '128'],
  /unknown protocol "rate_probe"/);
bad('no --protocol', ['--flows', '1024', '--window', '128'], new RegExp(`--protocol is required \\(one of: ${names}`));
bad('flows not a power of two', [...ok.slice(0, 2), '--flows', '1000', '--window', '128'],
  /--flows 1000: FlowCount must be a power of two in 16\.\.65536/);
bad('flows below the range', [...ok.slice(0, 2), '--flows', '8', '--window', '128'], /--flows 8: FlowCount must be/);
bad('flows above the range', [...ok.slice(0, 2), '--flows', '131072', '--window', '128'], /--flows 131072: FlowCount must be/);
bad('flows not a number', [...ok.slice(0, 2), '--flows', '1k', '--window', '128'], /--flows 1k: FlowCount must be/);
bad('no --flows', [...ok.slice(0, 2), '--window', '128'], /--flows is required/);
bad('window above the range', [...ok.slice(0, 4), '--window', '512'], /--window 512: Window must be a power of two in 8\.\.256/);
bad('window below the range', [...ok.slice(0, 4), '--window', '4'], /--window 4: Window must be/);
bad('clock neither 100 nor 150', [...ok, '--clock', '125'], /--clock 125: must be 100 or 150/);
bad('an unknown option', [...ok, '--part', 'xcvu9p'], /Unknown option '--part'.*\n.*usage:/);

test('no vivado on PATH: run files written, exit 3 with how to run them', () => {
  const r = vivado([...ok, '--clock', '150']);
  assert.equal(r.code, 3, r.err);
  const dir = path.join(runs, `${ref}_1024x128_150mhz`);
  assert.match(r.err, /Vivado is not on PATH: nothing was run/);
  assert.ok(r.err.includes(`cd ${dir} && vivado -mode batch -nojournal -log vivado.log -source ` +
    `${path.join(root, 'synth', 'vivado', 'tonic.tcl')} -tclargs ${path.join(dir, 'files.tcl')}`), r.err);
  assert.ok(r.err.includes(`vivado-parse.mjs ${dir}`), r.err);
  const run = JSON.parse(fs.readFileSync(path.join(dir, 'run.json'), 'utf8'));
  assert.deepEqual([run.config, run.params, run.period_ns, run.xdc],
    [`tonic_${ref}_1024x128`, { FlowCount: 1024, Window: 128 }, 6.667, 'synth/vivado/tonic_150mhz.xdc']);
  assert.match(fs.readFileSync(path.join(dir, 'files.tcl'), 'utf8'), /^set tonic_period_ns 6\.667$/m);
  assert.ok(!fs.existsSync(path.join(reports, 'vivado.json')));
});

test('--dry-run: run files only, exit 0 even without vivado', () => {
  const r = vivado([...ok, '--dry-run']);
  assert.equal(r.code, 0, r.err);
  assert.ok(fs.existsSync(path.join(runs, `${ref}_1024x128_100mhz`, 'files.tcl')));
});

// A stand-in `vivado` on PATH: the stubbed flow, with the met fixtures as reports.
const fake = path.join(work, 'fake-bin');
fs.mkdirSync(fake, { recursive: true });
function isExec(f) {
  try {
    fs.accessSync(f, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
const tclsh = process.env.TONIC_TCLSH
  ?? (process.env.PATH ?? '').split(':').map((d) => path.join(d, 'tclsh')).find(isExec);
assert.ok(tclsh, 'no tclsh on PATH (apt package tcl; scripts/setup.sh installs it)');
fs.writeFileSync(path.join(fake, 'vivado'), `#!/bin/sh\nexec '${tclsh}' ` +
  `'${path.join(here, 'stub_vivado.tcl')}' "$@"\n`, { mode: 0o755 });

test('vivado on PATH: runs the flow in the run directory, parses, merges into vivado.json', () => {
  const r = vivado(ok, { PATH: `${fake}:${empty}`, TONIC_STUB_FIXTURES: path.join(here, 'fixtures', 'met') });
  assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  const dir = path.join(runs, `${ref}_1024x128_100mhz`);
  assert.match(fs.readFileSync(path.join(dir, 'vivado.log'), 'utf8'), /^route_design$/m);
  const rows = JSON.parse(fs.readFileSync(path.join(reports, 'vivado.json'), 'utf8'));
  assert.equal(rows.length, 1);
  const row = rows[0];
  assert.deepEqual([row.name, row.block, row.config, row.params, row.clock_mhz, row.lut, row.wns_ns, row.met],
    [`${ref}_1024x128_100mhz`, `protocol_${ref}`, `tonic_${ref}_1024x128`, { FlowCount: 1024, Window: 128 }, 100, 31874,
      1.237, true]);
  assert.match(r.out, new RegExp(`vivado-parse: ${ref}_1024x128_100mhz: 31874 LUT`));
});

test('vivado on PATH: unparsable reports -> exit 2; Vivado fails -> exit 1 and vivado.log', () => {
  const r = vivado([...ok, '--window', '256'], { PATH: `${fake}:${empty}`, TONIC_STUB_FIXTURES: path.join(work, 'none') });
  // The stand-in's reports are placeholders here, so the flow runs but the parse fails.
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /utilization\.rpt: no section "CLB Logic"/);
  fs.writeFileSync(path.join(fake, 'vivado'), '#!/bin/sh\necho "ERROR: [Synth 8-439] stand-in failure" >&2\nexit 1\n');
  const f = vivado(ok, { PATH: `${fake}:${empty}` });
  assert.equal(f.code, 1, f.err);
  assert.match(f.err, new RegExp(`Vivado failed \\(exit 1\\), see .*${ref}_1024x128_100mhz/vivado\\.log`));
});

process.stdout.write(`${n} passed, 0 failed\n`);
