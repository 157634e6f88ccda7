// SPDX-License-Identifier: Apache-2.0
// netlist.mjs — the Yosys 0.69 gate netlist of a manifest config, for the
// netlist-vs-RTL simulation (docs/netlist.md, tb/unit/netlist/).
//
// For one config of rtl/manifest/*.json: read_slang -j 1 with the config's
// sources, "params" (never "model_params": the structural memories, what
// synthesis sees), include dirs and "model_defines" (-D, as `make lint`
// gives them), then the technology-independent `synth -flatten` (memories
// mapped to flip-flops and logic by memory_map, logic through ABC to
// Yosys' internal gates), and `write_verilog -noattr`: plain Verilog that
// Verilator simulates, with no vendor cells and no simulation library.
// The top is renamed <top>_netlist.
//
// Writes into --out DIR (default build/netlist/<config>/):
//   <top>_netlist.v  the netlist
//   ports.hpp        the top's ports as X-macros, from the netlist's module
//                    header: TONIC_NETLIST_INPUTS(X) and
//                    TONIC_NETLIST_OUTPUTS(X), each X(name, width); the
//                    comparison harness copies every input and compares
//                    every output through them, so a port added to the top
//                    is compared without touching the harness
//   stat.txt, yosys.log  Yosys' cell statistics and log
//   result.json      this run's row (below)
// and merges the row into build/reports/netlist.json (key "name"): name,
// top, params, defines, yosys_s, cells, netlist_bytes, inputs, outputs.
// Also merged later by the comparison test: cycles compared (same row, key
// "name"; scripts only add their own fields).
//
// usage: node netlist.mjs --config C [--out DIR] [--no-report]
//        node netlist.mjs --config C --verilate --prefix P [--out DIR] [--jobs N] [--verilator BIN] [--no-report]
// --verilate: Verilator --cc --build of DIR/<top>_netlist.v (an earlier run
// of the first form) into DIR/obj/ (static library P__ALL.a, header P.h;
// the runtime is not built: the testbench links the project's
// tonic_verilated_rt), timed: verilator_s (Verilator plus the C++ compile)
// goes into the report row. The netlist is Yosys output: Verilator's lint
// warnings are off for it (`make lint` covers the RTL).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './lib/cli.mjs';
import { loadConfigs, ROOT } from './manifest.mjs';
import { readReport, REPORTS } from './report.mjs';

/// The command line (parsed by main() only: other scripts import this file).
const CLI = {
  name: 'netlist',
  usage: 'node scripts/netlist.mjs --config C [--out DIR] [--no-report]\n' +
    '       node scripts/netlist.mjs --config C --verilate --prefix P [--out DIR] [--jobs N] [--verilator BIN] [--no-report]',
  description: 'The Yosys gate netlist of a manifest config (docs/netlist.md); with --verilate, Verilator\n' +
    '--cc --build of an earlier run\'s netlist into DIR/obj/.',
  options: {
    config: { type: 'string', arg: 'C', help: 'the manifest config (required)' },
    out: { type: 'string', arg: 'DIR', shown: 'build/netlist/<config>', help: 'where the files go' },
    'no-report': { type: 'boolean', help: 'do not merge the row into build/reports/netlist.json' },
    verilate: { type: 'boolean', help: 'Verilate DIR/<top>_netlist.v (needs --prefix)' },
    prefix: { type: 'string', arg: 'P', help: 'the Verilated class prefix (with --verilate)' },
    jobs: { type: 'number', default: 1, help: 'compile jobs of verilator --build' },
    verilator: { type: 'string', arg: 'BIN', default: 'verilator', help: 'the Verilator executable' },
  },
};

/// The Yosys script of a config (paths relative to the project root).
export function yosysScript(c) {
  const params = Object.entries(c.params).map(([k, v]) => ` -G ${k}=${v}`).join('');
  const defines = Object.entries(c.model_defines).map(([k, v]) => ` -D ${k}=${v}`).join('');
  const incs = c.include_dirs.map((d) => ` -I ${d}`).join('');
  // A word-level netlist (synth -run begin:fine) is not an option: it keeps
  // $alu, $macc_v2 and $bwmux cells that write_verilog emits as instances of
  // modules no simulator has.
  const synth = [`synth -flatten -top ${c.top}`];
  return [
    `read_slang -j 1${incs}${defines} ${c.sources.join(' ')} --top ${c.top}${params}`,
    // The RTL top's ports, for the check against the netlist's.
    `tee -q -o out/rtl_ports.txt select -list ${c.top}/i:* ${c.top}/o:*`,
    ...synth,
    // Internal names only (Verilator does not need them; smaller file).
    'opt_clean -purge',
    `rename ${c.top} ${c.top}_netlist`,
    'tee -q -o out/stat.txt stat',
    `write_verilog -noattr out/${c.top}_netlist.v`,
  ].join('; ');
}

/// The ports of the first module of a write_verilog file, in declaration
/// order: [{dir: 'input'|'output', name, width}].
export function netlistPorts(text) {
  const ports = [];
  const re = /^\s*(input|output|inout)\s+(?:signed\s+)?(?:\[(\d+):(\d+)\]\s+)?([A-Za-z_][A-Za-z0-9_$]*)\s*;/gm;
  const end = text.indexOf('endmodule');
  for (const m of text.slice(0, end < 0 ? text.length : end).matchAll(re)) {
    if (m[1] === 'inout') throw new Error(`inout port ${m[4]}: not supported`);
    const width = m[2] === undefined ? 1 : Math.abs(Number(m[2]) - Number(m[3])) + 1;
    ports.push({ dir: m[1], name: m[4], width });
  }
  return ports;
}

/// ports.hpp: the X-macro lists of the inputs and outputs.
export function portsHeader(c, ports) {
  const list = (dir) => ports.filter((p) => p.dir === dir).map((p) => `  X(${p.name}, ${p.width})`).join(' \\\n');
  return [
    `// Generated by scripts/netlist.mjs from the netlist of ${c.name} (${c.top}); do not edit.`,
    '// Every port of the top, X(name, width bits), in declaration order.',
    '#pragma once',
    `#define TONIC_NETLIST_CONFIG "${c.name}"`,
    `#define TONIC_NETLIST_INPUTS(X) \\\n${list('input')}`,
    `#define TONIC_NETLIST_OUTPUTS(X) \\\n${list('output')}`,
    '',
  ].join('\n');
}

/// Cell count from Yosys' `stat` output.
function cellCount(stat) {
  const m = /^\s*(\d+)\s+cells\s*$/m.exec(stat) ?? /Number of cells:\s*(\d+)/.exec(stat);
  return m ? Number(m[1]) : null;
}

function runYosys(c, outDir) {
  const mounts = [...new Set(['rtl', ...[...c.sources, ...c.include_dirs].map((f) => f.split('/')[0])])];
  const log = fs.openSync(path.join(outDir, 'yosys.stdout.txt'), 'w');
  return new Promise((resolve) => {
    const p = spawn(path.join(ROOT, 'scripts', 'yosys'),
      [...mounts.flatMap((m) => ['--mount', m]), '--out', outDir, '--', '-q', '-l', 'out/yosys.log', '-p', yosysScript(c)],
      { cwd: ROOT, stdio: ['ignore', log, log] });
    p.on('close', (code) => {
      fs.closeSync(log);
      resolve(code);
    });
  });
}

/// Verilator flags of the netlist model: those of every model
/// (cmake/TonicModel.cmake) without the lint warnings.
const VERILATOR_FLAGS = ['--assert', '--x-assign', 'fast', '--x-initial', 'fast', '-O3', '-Wno-fatal', '-Wno-lint',
  '-Wno-style'];

function verilate(c, outDir, prefix, jobs, bin) {
  const file = path.join(outDir, `${c.top}_netlist.v`);
  if (!fs.existsSync(file)) throw new Error(`${file}: no netlist (run without --verilate first)`);
  const mdir = path.join(outDir, 'obj');
  const argv = ['--cc', '--build', '-j', String(jobs), '--prefix', prefix, '--Mdir', mdir, '--top-module',
    `${c.top}_netlist`, ...VERILATOR_FLAGS, ...['OPT_FAST=-O0', 'OPT_SLOW=-O0', 'OPT_GLOBAL=-O1'].flatMap((f) => ['-MAKEFLAGS', f]),
    file];
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const p = spawn(bin, argv, { cwd: outDir, stdio: ['ignore', 'inherit', 'inherit'] });
    p.on('error', reject);
    p.on('close', (code) => {
      if (code !== 0) reject(new Error(`verilator exit ${code} on ${file}`));
      else resolve(Math.round((Date.now() - t0) / 100) / 10);
    });
  });
}

async function main() {
  const { values: opts } = cli(CLI);
  const name = opts.config;
  if (!name) throw new Error('usage: node netlist.mjs --config C [--out DIR] [--no-report]');
  const c = loadConfigs().find((x) => x.name === name);
  if (!c) throw new Error(`no config ${name} in rtl/manifest/*.json`);
  const outDir = path.resolve(opts.out ?? path.join(ROOT, 'build', 'netlist', name));
  fs.mkdirSync(outDir, { recursive: true });
  if (opts.verilate) {
    const prefix = opts.prefix;
    if (!prefix) throw new Error('--verilate needs --prefix');
    const verilatorS = await verilate(c, outDir, prefix, opts.jobs, opts.verilator);
    if (!opts['no-report']) mergeReport({ name: c.name, verilator_s: verilatorS });
    process.stdout.write(`netlist: ${c.name}: Verilator + C++ compile ${verilatorS} s -> ${path.relative(ROOT, outDir)}/obj/${prefix}__ALL.a\n`);
    return;
  }
  const file = path.join(outDir, `${c.top}_netlist.v`);
  const t0 = Date.now();
  const code = await runYosys(c, outDir);
  const yosysS = Math.round((Date.now() - t0) / 100) / 10;
  if (code !== 0 || !fs.existsSync(file)) {
    throw new Error(`yosys exit ${code} for ${name}, see ${path.relative(ROOT, outDir)}/yosys.log and yosys.stdout.txt`);
  }
  const text = fs.readFileSync(file, 'utf8');
  const ports = netlistPorts(text);
  if (!ports.some((p) => p.name === 'clk_i' && p.dir === 'input')) throw new Error(`${file}: no input clk_i`);
  // Every port of the RTL top is a port of the netlist and the reverse.
  const rtlPorts = fs.readFileSync(path.join(outDir, 'rtl_ports.txt'), 'utf8').split('\n')
    .map((l) => l.trim()).filter((l) => l.startsWith(`${c.top}/`)).map((l) => l.slice(c.top.length + 1)).sort();
  const netPorts = ports.map((p) => p.name).sort();
  if (rtlPorts.join(' ') !== netPorts.join(' ')) {
    throw new Error(`${c.name}: ports differ: RTL ${rtlPorts.join(' ')}; netlist ${netPorts.join(' ')}`);
  }
  fs.writeFileSync(path.join(outDir, 'ports.hpp'), portsHeader(c, ports));
  const stat = fs.readFileSync(path.join(outDir, 'stat.txt'), 'utf8');
  const row = {
    name: c.name,
    top: c.top,
    params: c.params,
    defines: c.model_defines,
    yosys_s: yosysS,
    cells: cellCount(stat),
    netlist_bytes: text.length,
    inputs: ports.filter((p) => p.dir === 'input').length,
    outputs: ports.filter((p) => p.dir === 'output').length,
    output_bits: ports.filter((p) => p.dir === 'output').reduce((s, p) => s + p.width, 0),
  };
  fs.writeFileSync(path.join(outDir, 'result.json'), JSON.stringify(row, null, 2) + '\n');
  if (!opts['no-report']) mergeReport(row);
  process.stdout.write(`netlist: ${c.name}: ${row.cells} cells, ${(row.netlist_bytes / 1e6).toFixed(1)} MB, `
    + `${row.inputs} inputs, ${row.outputs} outputs, yosys ${yosysS} s -> ${path.relative(ROOT, file)}\n`);
}

/// Merges `row`'s fields into its row of build/reports/netlist.json (other
/// fields of that row, e.g. the test's cycle counts, are kept).
export function mergeReport(row) {
  const rows = readReport('netlist.json');
  const i = rows.findIndex((r) => r.name === row.name);
  if (i >= 0) rows[i] = { ...rows[i], ...row };
  else rows.push(row);
  rows.sort((a, b) => a.name.localeCompare(b.name));
  fs.mkdirSync(REPORTS, { recursive: true });
  fs.writeFileSync(path.join(REPORTS, 'netlist.json'), JSON.stringify(rows, null, 2) + '\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    process.stderr.write(`netlist: ${e.message}\n`);
    process.exit(1);
  });
}
