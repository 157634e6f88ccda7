// SPDX-License-Identifier: Apache-2.0
// vivado.mjs — `make vivado`: one Tonic top through Vivado on the Kintex
// UltraScale+ XCKU15P (xcku15p-ffve1517-2-e), out of context
// (synth/vivado/tonic.tcl, synth/vivado/README.md).
//
// usage: node scripts/vivado.mjs --protocol P --flows N --window W
//                                [--clock 100|150] [--dry-run] [--out DIR]
//   --protocol  a protocol with a tonic_top config in rtl/manifest/*.json
//               (its include_dirs hold protocols/<P>)
//   --flows     FlowCount: a power of two in 16..65536
//   --window    Window: a power of two in 8..256
//   --clock     MHz: 100 (default; synth/vivado/tonic_100mhz.xdc) or 150
//   --dry-run   write the run files only, run nothing
//   --out       where run directories go (default build/vivado)
//
// The sources come from the manifest through loadConfigs() (the one list
// Verilator/CMake, `make lint` and `make synth-estimate` use): the tonic_top
// config of that protocol (one with these parameters and "synth": true if
// there is one, else any "synth": true one, else the first), its sources,
// include_dirs and top, with FlowCount and Window set from the options.
// Writes <out>/<P>_<N>x<W>_<clock>mhz/files.tcl (absolute paths, read by
// tonic.tcl) and run.json (the same run for scripts/vivado-parse.mjs). Then,
// when `vivado` is on PATH, runs in that directory
//   vivado -mode batch -nojournal -log vivado.log -source synth/vivado/tonic.tcl -tclargs files.tcl
// and parses its reports into build/reports/vivado.json
// (scripts/vivado-parse.mjs).
//
// Ranges (the RTL's elaboration checks): FlowCount <= 65536
// (tonic_dd_engine), >= 16 (tonic_flow_fifo with 8 write ports in the DD
// engine of the rate and token protocols, tonic_rate_timer); Window 8..256
// (tonic_dd_engine, rtl/dd/tonic_proto_config.svh).
//
// Exit: 0 done; 1 Vivado failed; 2 bad options (or unreadable reports);
// 3 Vivado not on PATH (the run files are written; the message says how to
// run them on a machine with Vivado).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cli } from './lib/cli.mjs';
import { loadConfigs, ROOT } from './manifest.mjs';
import { parseRun, mergeRow, ParseError } from './vivado-parse.mjs';

export const PART = 'xcku15p-ffve1517-2-e';
export const CLOCKS = {
  100: { period: '10.000', xdc: 'synth/vivado/tonic_100mhz.xdc' },
  150: { period: '6.667', xdc: 'synth/vivado/tonic_150mhz.xdc' },
};
export const FLOWS = { min: 16, max: 65536 };
export const WINDOW = { min: 8, max: 256 };
const TCL = path.join(ROOT, 'synth', 'vivado', 'tonic.tcl');

function fail(msg, code = 2) {
  process.stderr.write(`vivado.mjs: ${msg}\n`);
  process.exit(code);
}

/// The protocols of the tonic_top configs: name -> configs (manifest order).
function protocolConfigs(configs) {
  const byProto = new Map();
  for (const c of configs.filter((x) => x.top === 'tonic_top')) {
    for (const d of c.include_dirs) {
      const m = /^protocols\/([^/]+)$/.exec(d);
      if (!m) continue;
      if (!byProto.has(m[1])) byProto.set(m[1], []);
      byProto.get(m[1]).push(c);
    }
  }
  return byProto;
}

/// A power of two in [lo, hi] from an option string, else null.
function pow2In(text, { min, max }) {
  if (!/^[0-9]+$/.test(text ?? '')) return null;
  const n = Number(text);
  return n >= min && n <= max && (n & (n - 1)) === 0 ? n : null;
}

/// One Tcl word: bare when it is plain, else in braces (no braces,
/// backslashes or newlines inside: such a path is refused).
function tclWord(s) {
  const t = String(s);
  if (/^[A-Za-z0-9_.\/:+=-]+$/.test(t)) return t;
  if (/[{}\\\n]/.test(t)) fail(`cannot quote "${t}" for Tcl (braces, backslashes or newlines in a path)`);
  return `{${t}}`;
}

function onPath(cmd) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const f = path.join(dir, cmd);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return f;
    } catch {
      // not here
    }
  }
  return null;
}

// flows, window and clock stay text here: their checks below name the value as given.
const { values: opts } = cli({
  name: 'vivado.mjs',
  usage: 'node scripts/vivado.mjs --protocol P --flows N --window W [--clock 100|150] [--dry-run] [--out DIR]',
  description: 'One Tonic top through Vivado on the XCKU15P, out of context (synth/vivado/README.md); without\n' +
    'vivado on PATH: the run files only, exit 3.',
  options: {
    protocol: { type: 'string', arg: 'P', help: 'a protocol with a tonic_top config in rtl/manifest/*.json (required)' },
    flows: { type: 'string', arg: 'N', help: `FlowCount: a power of two in ${FLOWS.min}..${FLOWS.max} (required)` },
    window: { type: 'string', arg: 'W', help: `Window: a power of two in ${WINDOW.min}..${WINDOW.max} (required)` },
    clock: { type: 'string', arg: '100|150', default: '100', help: 'MHz' },
    'dry-run': { type: 'boolean', help: 'write the run files only, run nothing' },
    out: { type: 'string', arg: 'DIR', default: path.join(ROOT, 'build', 'vivado'), shown: 'build/vivado',
      help: 'where run directories go' },
  },
});

let byProto;
try {
  byProto = protocolConfigs(loadConfigs());
} catch (e) {
  fail(`manifest: ${e.message}`);
}
const known = [...byProto.keys()].sort().join(', ');
if (!opts.protocol) fail(`--protocol is required (one of: ${known})`);
if (!byProto.has(opts.protocol)) {
  fail(`unknown protocol "${opts.protocol}" (no tonic_top config in rtl/manifest/*.json has protocols/${opts.protocol}); known: ${known}`);
}
if (opts.flows === undefined) fail('--flows is required');
const flows = pow2In(opts.flows, FLOWS);
if (flows === null) {
  fail(`--flows ${opts.flows}: FlowCount must be a power of two in ${FLOWS.min}..${FLOWS.max} (tonic_dd_engine, tonic_flow_fifo, tonic_rate_timer)`);
}
if (opts.window === undefined) fail('--window is required');
const window = pow2In(opts.window, WINDOW);
if (window === null) {
  fail(`--window ${opts.window}: Window must be a power of two in ${WINDOW.min}..${WINDOW.max} (tonic_dd_engine)`);
}
if (!Object.hasOwn(CLOCKS, opts.clock)) fail(`--clock ${opts.clock}: must be 100 or 150 (MHz)`);
const clock = CLOCKS[opts.clock];

// The config: these parameters and synth, else synth, else the first.
const cands = byProto.get(opts.protocol);
const same = (c) => Number(c.params.FlowCount) === flows && Number(c.params.Window) === window;
const config = cands.find((c) => c.synth && same(c)) ?? cands.find((c) => c.synth) ?? cands[0];
const params = { ...config.params, FlowCount: flows, Window: window };

const name = `${opts.protocol}_${flows}x${window}_${opts.clock}mhz`;
const runDir = path.resolve(opts.out, name);
fs.mkdirSync(runDir, { recursive: true });
const abs = (f) => path.join(ROOT, f);
const rel = (f) => {
  const r = path.relative(process.cwd(), f);
  return r === '' ? '.' : r.startsWith('..') || path.isAbsolute(r) ? f : r;
};
const list = (xs) => (xs.length ? `{\n${xs.map((x) => `  ${tclWord(x)}\n`).join('')}}` : '{}');
const filesTcl = path.join(runDir, 'files.tcl');
fs.writeFileSync(filesTcl, [
  '# Generated by scripts/vivado.mjs; do not edit (rerun it instead).',
  `# ${name}: sources of manifest config ${config.name} (block ${config.block}),`,
  `# ${Object.entries(params).map(([k, v]) => `${k}=${v}`).join(' ')}, ${PART}, ${opts.clock} MHz.`,
  '# Read by synth/vivado/tonic.tcl (see its header).',
  `set tonic_config ${tclWord(config.name)}`,
  `set tonic_top ${tclWord(config.top)}`,
  `set tonic_part ${PART}`,
  `set tonic_period_ns ${clock.period}`,
  `set tonic_xdc ${tclWord(abs(clock.xdc))}`,
  `set tonic_out_dir ${tclWord(runDir)}`,
  `set tonic_generics {${Object.entries(params).map(([k, v]) => `${tclWord(k)} ${tclWord(v)}`).join(' ')}}`,
  `set tonic_include_dirs ${list(config.include_dirs.map(abs))}`,
  `set tonic_sources ${list(config.sources.map(abs))}`,
  '',
].join('\n'));
fs.writeFileSync(path.join(runDir, 'run.json'), JSON.stringify({
  name, block: config.block, config: config.name, protocol: opts.protocol, top: config.top, params,
  part: PART, clock_mhz: Number(opts.clock), period_ns: Number(clock.period), xdc: clock.xdc,
  sources: config.sources, include_dirs: config.include_dirs,
}, null, 2) + '\n');
process.stdout.write(`vivado.mjs: ${rel(filesTcl)} (config ${config.name}, ` +
  `FlowCount=${flows} Window=${window}, ${PART}, ${opts.clock} MHz)\n`);
if (opts['dry-run']) process.exit(0);

const vivado = onPath('vivado');
const cmd = ['-mode', 'batch', '-nojournal', '-log', 'vivado.log', '-source', TCL, '-tclargs', filesTcl];
if (!vivado) {
  fail([
    'Vivado is not on PATH: nothing was run (the run files above are written).',
    'On a machine with Vivado (2023.x or 2024.x, with the Kintex UltraScale+ devices), in a checkout of',
    'this project, run the same `make vivado` / `node scripts/vivado.mjs` command there (files.tcl holds',
    'absolute paths of this checkout, so regenerate it rather than copy it); or by hand:',
    `  cd ${runDir} && vivado ${cmd.join(' ')}`,
    `  node ${path.join(ROOT, 'scripts', 'vivado-parse.mjs')} ${runDir}`,
  ].join('\n'), 3);
}

process.stdout.write(`vivado.mjs: running ${vivado} in ${rel(runDir)} (log: vivado.log)\n`);
const r = spawnSync(vivado, cmd, { cwd: runDir, stdio: 'inherit' });
if (r.error) fail(`cannot run ${vivado}: ${r.error.message}`, 1);
if (r.status !== 0) fail(`Vivado failed (exit ${r.status ?? r.signal}), see ${rel(path.join(runDir, 'vivado.log'))}`, 1);
try {
  mergeRow(parseRun(runDir, name));
} catch (e) {
  if (e instanceof ParseError) fail(e.message);
  throw e;
}
