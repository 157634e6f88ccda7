// SPDX-License-Identifier: Apache-2.0
// synth-estimate.mjs — `make synth-estimate`: open-source synthesis estimate
// of every manifest config marked "synth": true.
//
// For each config: Yosys 0.69 `read_slang` + `synth_xilinx -family xcup
// -flatten -noiopad` (out of context), then levels.mjs on the netlist.
// Writes build/reports/synth.json (one object per config: block, name, top,
// params, lut, lutram, ff, bram36, uram, dsp, carry, muxf, levels, % of
// XCKU15P, synth_s), build/reports/synth.md, and the table in docs/results.md.
//
// usage: node synth-estimate.mjs [--block B] [--config C] [--jobs N]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { analyze } from './levels.mjs';
import { loadConfigs, ROOT } from './manifest.mjs';
import { markdownTable, REPORTS, updateResults, writeReport } from './report.mjs';

// Kintex UltraScale+ XCKU15P capacity.
export const XCKU15P = { lut: 522720, ff: 1045440, bram36: 984, uram: 128, dsp: 1968 };

const args = process.argv.slice(2);
const opt = (name, dflt = null) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const jobs = Number(opt('--jobs', '2'));

function yosysScript(c) {
  const params = Object.entries(c.params).map(([k, v]) => ` -G ${k}=${v}`).join('');
  return [
    `read_slang -j 1 ${c.sources.join(' ')} --top ${c.top}${params}`,
    `synth_xilinx -family xcup -top ${c.top} -flatten -noiopad`,
    'tee -q -o out/stat.txt stat',
    'write_json out/net.json',
  ].join('; ');
}

function run(c) {
  const outDir = path.join(ROOT, 'build', 'synth', c.name);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const log = fs.openSync(path.join(outDir, 'yosys.log'), 'w');
  const t0 = Date.now();
  return new Promise((resolve) => {
    const p = spawn(path.join(ROOT, 'scripts', 'yosys'),
      ['--mount', 'rtl', '--out', outDir, '--', '-p', yosysScript(c)],
      { cwd: ROOT, stdio: ['ignore', log, log] });
    p.on('close', (code) => {
      fs.closeSync(log);
      const synthS = (Date.now() - t0) / 1000;
      if (code !== 0) {
        resolve({ error: `yosys exit ${code}, see build/synth/${c.name}/yosys.log` });
        return;
      }
      const netlist = JSON.parse(fs.readFileSync(path.join(outDir, 'net.json'), 'utf8'));
      const r = analyze(netlist, c.top);
      fs.writeFileSync(path.join(outDir, 'levels.json'), JSON.stringify(r, null, 2) + '\n');
      delete r.path;
      resolve({ ...r, synth_s: Math.round(synthS * 10) / 10 });
    });
  });
}

const all = loadConfigs();
let todo = all.filter((c) => c.synth);
if (opt('--block')) todo = todo.filter((c) => c.block === opt('--block'));
if (opt('--config')) todo = todo.filter((c) => c.name === opt('--config'));
if (todo.length === 0) {
  process.stderr.write('synth-estimate: no matching config\n');
  process.exit(2);
}

const rows = [];
let failed = 0;
const queue = [...todo];
async function worker() {
  for (let c = queue.shift(); c; c = queue.shift()) {
    process.stdout.write(`synth-estimate: ${c.name} ...\n`);
    const r = await run(c);
    if (r.error) {
      failed++;
      process.stdout.write(`synth-estimate: ${c.name}: FAILED (${r.error})\n`);
      continue;
    }
    const pct = {};
    for (const k of Object.keys(XCKU15P)) pct[k] = Math.round((r[k] / XCKU15P[k]) * 1e4) / 100;
    const row = {
      block: c.block, name: c.name, top: c.top, params: c.params,
      ...r, pct_xcku15p: pct,
      levels_target: c.levels_target ?? null,
      meets_target: c.levels_target == null ? null : r.levels <= c.levels_target,
    };
    rows.push(row);
    process.stdout.write(`synth-estimate: ${c.name}: ${r.lut} LUT, ${r.ff} FF, ${r.bram36} BRAM36, ` +
      `${r.levels} levels (${r.synth_s} s)\n`);
  }
}
await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));

const valid = new Set(all.filter((c) => c.synth).map((c) => c.name));
const merged = writeReport('synth.json', rows, 'name', valid);
const params = (r) => Object.entries(r.params).map(([k, v]) => `${k}=${v}`).join(' ');
const table = markdownTable(merged, [
  ['block', (r) => r.block], ['config', (r) => r.name], ['params', params],
  ['LUT', (r) => r.lut], ['(LUTRAM)', (r) => r.lutram], ['FF', (r) => r.ff], ['BRAM36', (r) => r.bram36],
  ['URAM', (r) => r.uram], ['DSP', (r) => r.dsp], ['CARRY4', (r) => r.carry],
  ['LUT % KU15P', (r) => r.pct_xcku15p.lut], ['levels', (r) => r.levels],
  ['target', (r) => (r.levels_target == null ? '' : `<= ${r.levels_target} ${r.meets_target ? 'met' : 'MISSED'}`)],
]);
const note = 'Yosys 0.69 `synth_xilinx -family xcup -flatten -noiopad`, out of context; ' +
  '`levels` per docs/timing-model.md (LUT, MUXF = 1, CARRY4 = 1/2).\n\n';
fs.writeFileSync(path.join(REPORTS, 'synth.md'), note + table);
updateResults('synth', 'Synthesis estimate (XCKU15P)', note + table);
process.exit(failed ? 1 : 0);
