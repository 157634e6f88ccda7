// SPDX-License-Identifier: Apache-2.0
// Checks scripts/vivado-parse.mjs on the hand-made Vivado reports in
// fixtures/ (README.md there): every field of the row for a run that meets
// timing and for one that does not; the merge into vivado.json (by name,
// other rows kept); and that a missing, cut-short or malformed report ends
// with exit 2 and a message naming the file and the field.
//
// usage: node test_vivado_parse.mjs <work dir>
// The reports go to <work dir>/reports (TONIC_REPORTS_DIR), never to
// build/reports.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..', '..');
const parser = path.join(root, 'scripts', 'vivado-parse.mjs');
const fixtures = path.join(here, 'fixtures');
const work = path.resolve(process.argv[2] ?? fs.mkdtempSync('/tmp/tonic-vivado-parse-'));
const reports = path.join(work, 'reports');
fs.rmSync(work, { recursive: true, force: true });
fs.mkdirSync(work, { recursive: true });

let n = 0;
function test(name, fn) {
  fn();
  n++;
  process.stdout.write(`ok   ${name}\n`);
}

function parse(...args) {
  const r = spawnSync(process.execPath, [parser, ...args], {
    encoding: 'utf8', env: { ...process.env, TONIC_REPORTS_DIR: reports },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function row(dir, ...args) {
  const r = parse(dir, '--print', ...args);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

test('a run that meets timing (a window protocol, 1024x128, 100 MHz): every field', () => {
  assert.deepEqual(row(path.join(fixtures, 'met'), '--name', 'example_window_1024x128_100mhz'), {
    block: 'tonic', name: 'example_window_1024x128_100mhz', top: 'tonic_top', params: { FlowCount: 1024, Window: 128 },
    lut: 31874, lutram: 10528, ff: 6143, bram36: 104.5, uram: 0, dsp: 0, carry: 262, muxf: 1356 + 402, levels: 9,
    pct_xcku15p: { lut: 6.1, ff: 0.59, bram36: 10.62, uram: 0, dsp: 0 },
    source: 'vivado', tool: 'Vivado v.2023.2', config: 'tonic_example_window_1024x128', part: 'xcku15p-ffve1517-2-e',
    clock_mhz: 100, period_ns: 10, wns_ns: 1.237, tns_ns: 0, whs_ns: 0.018, failing_endpoints: 0,
    fmax_mhz: 114.12, met: true, data_path_ns: 8.752, logic_ns: 2.153, route_ns: 6.599,
    levels_cells: { CARRY8: 1, LUT3: 1, LUT5: 2, LUT6: 4, RAMB36E2: 1 },
    path_from: 'u_dd/u_acked/g_struct.g_rd[1].g_reg.g_bank[0].u_ram/mem_q_reg_0/CLKARDCLK',
    path_to: 'u_dd/ns_new_q_reg/D', ramb36: 98, ramb18: 13,
  });
});

test('a run that fails timing (a rate protocol, 4096x256, 150 MHz): every field', () => {
  const r = row(path.join(fixtures, 'violated'));
  assert.deepEqual(r, {
    block: 'tonic_rdma', name: 'violated', top: 'tonic_top', params: { FlowCount: 4096, Window: 256 },
    lut: 96212, lutram: 41984, ff: 14687, bram36: 310.5, uram: 16, dsp: 4, carry: 1118, muxf: 5260 + 2112, levels: 14,
    pct_xcku15p: { lut: 18.41, ff: 1.4, bram36: 31.55, uram: 12.5, dsp: 0.2 },
    source: 'vivado', tool: 'Vivado v.2023.2', config: 'tonic_example_rate_4096x256', part: 'xcku15p-ffve1517-2-e',
    clock_mhz: 150, period_ns: 6.667, wns_ns: -0.842, tns_ns: -187.316, whs_ns: 0.012, failing_endpoints: 1204,
    fmax_mhz: 133.17, met: false, data_path_ns: 7.497, logic_ns: 2.51, route_ns: 4.987,
    levels_cells: { CARRY8: 1, LUT3: 1, LUT4: 1, LUT5: 2, LUT6: 7, MUXF7: 1, RAMB36E2: 1 },
    path_from: 'u_dd/u_sent/g_struct.g_rd[0].g_reg.g_bank[0].u_ram/mem_q_reg_bram_3/CLKARDCLK',
    path_to: 'u_dd/cur_valid_q_reg/D', ramb36: 296, ramb18: 29,
  });
  // fmax = 1000 / (period - WNS); RAMB18 counts 1/2.
  assert.equal(r.fmax_mhz, Math.round((1000 / (6.667 + 0.842)) * 100) / 100);
  assert.equal(r.bram36, r.ramb36 + r.ramb18 / 2);
  // The row has every key of a synth.json row that both flows measure.
  for (const k of ['block', 'name', 'top', 'params', 'lut', 'lutram', 'ff', 'bram36', 'uram', 'dsp', 'carry', 'muxf',
    'levels', 'pct_xcku15p']) assert.ok(k in r, k);
});

test('rows merge into vivado.json by name (TONIC_REPORTS_DIR), vivado.md follows', () => {
  for (const [dir, name] of [['met', 'a'], ['violated', 'b'], ['met', 'a']]) {
    const r = parse(path.join(fixtures, dir), '--name', name);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`^vivado-parse: ${name}: `));
  }
  const rows = JSON.parse(fs.readFileSync(path.join(reports, 'vivado.json'), 'utf8'));
  assert.deepEqual(rows.map((x) => [x.name, x.wns_ns]), [['a', 1.237], ['b', -0.842]]);
  const md = fs.readFileSync(path.join(reports, 'vivado.md'), 'utf8');
  assert.match(md, /\| a \| tonic_example_window_1024x128 \| FlowCount=1024 Window=128 \| 100 \| 31874 \|/);
  assert.match(md, /\| b \| .* \| -0\.842 \| 133\.17 \| NO \|/);
});

// A copy of the met run with one file changed (edit null: removed); must
// exit 2 naming the file (`named`, default the changed one) and the field.
function broken(name, file, edit, field, named = file) {
  test(`fails with exit 2: ${name}`, () => {
    const dir = path.join(work, name.replace(/\W+/g, '_'));
    fs.cpSync(path.join(fixtures, 'met'), dir, { recursive: true });
    const f = path.join(dir, file);
    if (edit === null) fs.rmSync(f);
    else fs.writeFileSync(f, edit(fs.readFileSync(f, 'utf8')));
    const r = parse(dir, '--print');
    assert.equal(r.code, 2, `exit ${r.code}, stderr: ${r.err}`);
    assert.ok(r.err.startsWith('vivado-parse: '), r.err);
    assert.ok(r.err.includes(path.join(dir, named)), `message names ${named}: ${r.err}`);
    assert.match(r.err, field);
    assert.equal(r.out, '');
  });
}
const cut = (marker) => (t) => t.slice(0, t.indexOf(marker));
broken('utilization.rpt missing', 'utilization.rpt', null, /missing/);
broken('utilization.rpt cut before BLOCKRAM', 'utilization.rpt', cut('3. BLOCKRAM\n---'), /no section "BLOCKRAM"/);
broken('utilization.rpt cut inside BLOCKRAM', 'utilization.rpt', cut('|   RAMB18 '), /BLOCKRAM: no row "RAMB18"/);
broken('CLB LUTs not a number', 'utilization.rpt', (t) => t.replace(/(\| CLB LUTs +\| +)31874/, '$1 n/a '),
  /CLB Logic: CLB LUTs: "n\/a" is not a number/);
broken('Block RAM Tile != RAMB36 + RAMB18/2', 'utilization.rpt', (t) => t.replace(/(\| Block RAM Tile +\| +)104\.5/, '$1105.5'),
  /Block RAM Tile 105.5 != RAMB36\/FIFO 98 \+ RAMB18 13 \/ 2/);
broken('a synthesized, not routed, design', 'utilization.rpt', (t) => t.replace('Design State : Routed', 'Design State : Synthesized'),
  /Design State: "Synthesized"/);
broken('another device', 'utilization.rpt', (t) => t.replace('xcku15p-ffve1517-2-e', 'xczu3eg-sbva484-1-e'),
  /Device: "xczu3eg-sbva484-1-e" is not the XCKU15P/);
broken('timing_summary.rpt cut before the Clock Summary', 'timing_summary.rpt', cut('| Clock Summary'),
  /no "Clock Summary" section/);
broken('timing_summary.rpt cut inside the Design Timing Summary', 'timing_summary.rpt',
  (t) => t.slice(0, t.indexOf('\n', t.indexOf('    -------      -------')) + 1), /Design Timing Summary: the table has no rows/);
broken('WNS is not a number', 'timing_summary.rpt', (t) => t.replace(/^( +)1\.237( +0\.000 +0 +24512)/m, '$1  inf$2'),
  /Design Timing Summary: WNS\(ns\): "inf" is not a number/);
broken('a value missing from the Design Timing Summary', 'timing_summary.rpt', (t) => t.replace(/^( +1\.237 +)0\.000/m, '$1'),
  /Design Timing Summary: 11 values for 12 columns/);
broken('the period is not the run\'s (wrong XDC)', 'run.json',
  (t) => JSON.stringify({ ...JSON.parse(t), period_ns: 6.667 }),
  /Clock Summary: period 10 ns, but the run asked for 6.667 ns/, 'timing_summary.rpt');
broken('no timing path', 'timing_paths.rpt', cut('Slack ('), /Slack: no timing path/);
broken('no Logic Levels line', 'timing_paths.rpt', (t) => t.replace(/^ *Logic Levels:.*\n/m, ''), /Logic Levels: not in the first path/);
broken('a malformed Data Path Delay', 'timing_paths.rpt', (t) => t.replace('(logic 2.153ns', '(logic ?ns'),
  /Data Path Delay: logic: "\?" is not a number/);
broken('no Data Path Delay line', 'timing_paths.rpt', (t) => t.replace(/^ *Data Path Delay:.*\n/m, ''),
  /Data Path Delay: not in the first path/);
broken('run.json missing', 'run.json', null, /missing/);
broken('run.json not JSON', 'run.json', (t) => t.slice(0, 20), /run\.json: /);

test('no run directory argument: exit 2 with the usage', () => {
  const r = parse();
  assert.equal(r.code, 2);
  assert.match(r.err, /usage: node scripts\/vivado-parse\.mjs <run dir>/);
});

process.stdout.write(`${n} passed, 0 failed\n`);
