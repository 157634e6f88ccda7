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
  const incs = c.include_dirs.map((d) => ` -I ${d}`).join('');
  return [
    `read_slang -j 1${incs} ${c.sources.join(' ')} --top ${c.top}${params}`,
    `synth_xilinx -family xcup -top ${c.top} -flatten -noiopad`,
    'tee -q -o out/stat.txt stat',
    // The netlist for scripts/levels.mjs: cells and connections only, without
    // the unused Xilinx cell library (17 MB of JSON on its own), unused
    // internal wires and src/hdlname attributes. It goes to stdout: YoWASP's
    // in-memory file system writes large files very slowly (a 23k-LUT
    // netlist did not finish in 20 minutes); stdout streams to the host.
    'opt_clean -purge',
    'setattr -unset src -unset hdlname',
    `hierarchy -top ${c.top} -purge_lib`,
    'write_json',
  ].join('; ');
}

function run(c) {
  const outDir = path.join(ROOT, 'build', 'synth', c.name);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  // Yosys' log goes to out/yosys.log (-q -l), the netlist to stdout.
  const raw = fs.openSync(path.join(outDir, 'stdout.txt'), 'w');
  const err = fs.openSync(path.join(outDir, 'stderr.txt'), 'w');
  const t0 = Date.now();
  return new Promise((resolve) => {
    // Mount rtl/ plus the top-level folders of other sources and include dirs.
    const mounts = [...new Set(['rtl', ...[...c.sources, ...c.include_dirs].map((f) => f.split('/')[0])])];
    const p = spawn(path.join(ROOT, 'scripts', 'yosys'),
      [...mounts.flatMap((m) => ['--mount', m]), '--out', outDir, '--', '-q', '-l', 'out/yosys.log', '-p', yosysScript(c)],
      { cwd: ROOT, stdio: ['ignore', raw, err] });
    p.on('close', (code) => {
      fs.closeSync(raw);
      fs.closeSync(err);
      const synthS = (Date.now() - t0) / 1000;
      if (code !== 0) {
        resolve({ error: `yosys exit ${code}, see build/synth/${c.name}/yosys.log and stderr.txt` });
        return;
      }
      // stdout: warnings (with -q), then the JSON document from a line "{".
      const text = fs.readFileSync(path.join(outDir, 'stdout.txt'), 'utf8');
      const m = /^(?:\x1b\[[0-9;]*m)*\{$/m.exec(text);  // a line "{", maybe after colour codes
      const start = m ? m.index + m[0].length - 1 : -1;
      if (start < 0) {
        resolve({ error: `no netlist on Yosys' stdout, see build/synth/${c.name}/stdout.txt` });
        return;
      }
      fs.writeFileSync(path.join(outDir, 'net.json'), text.slice(start));
      fs.rmSync(path.join(outDir, 'stdout.txt'));
      const netlist = JSON.parse(text.slice(start));
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
// Targets come from the manifest, also for rows kept from earlier runs.
const target = new Map(all.map((c) => [c.name, c.levels_target ?? null]));
const merged = writeReport('synth.json', rows, 'name', valid).map((r) => {
  const t = target.get(r.name) ?? null;
  return { ...r, levels_target: t, meets_target: t == null ? null : r.levels <= t };
});
fs.writeFileSync(path.join(REPORTS, 'synth.json'), JSON.stringify(merged, null, 2) + '\n');
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
