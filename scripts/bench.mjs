// SPDX-License-Identifier: Apache-2.0
// bench.mjs — `make bench`: Verilator simulation speed of every model and
// its build time.
//
// 1. Configures build/bench (Release), builds the shared runtime, then
//    builds, one at a time and timed (after removing its outputs),
//    each Verilated model of rtl/manifest/*.json (verilate + C++ compile,
//    `cmake --build -j 2`): that wall time is the model's `build_s`.
// 2. Builds and runs every benchmark executable (tonic_add_bench) with
//    --runs 3; each prints the median cycles/s of its cases.
// 3. Writes build/reports/bench.json (objects with name, suite,
//    cycles_per_s, build_s, cycles, runs), build/reports/bench.md and the
//    table in docs/results.md.
//
// usage: node bench.mjs [--cycles N] [--filter S] [--no-build-times] [--build DIR]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfigs, ROOT } from './manifest.mjs';
import { cli } from './lib/cli.mjs';
import { markdownTable, readReport, REPORTS, updateResults, writeReport } from './report.mjs';

const { values: opts } = cli({
  name: 'bench',
  description: 'Verilator simulation speed of every model and its build time (build/bench, Release);\n' +
    'writes build/reports/bench.json, build/reports/bench.md and the table in docs/results.md.',
  options: {
    cycles: { type: 'number', help: 'cycles per benchmark case (passed to every bench_* executable)' },
    filter: { type: 'string', arg: 'S', help: 'only models and cases whose name contains S' },
    'no-build-times': { type: 'boolean', help: 'do not rebuild each model to time it' },
    build: { type: 'string', arg: 'DIR', help: 'the build tree (default build/bench, its own; e.g. build/dev with\n' +
      '--no-build-times: only the benchmark executables are built)' },
  },
});
const BUILD = path.resolve(ROOT, opts.build ?? path.join('build', 'bench'));
const cycles = opts.cycles === undefined ? null : String(opts.cycles);
const filter = opts.filter ?? null;

function sh(cmd, argv, quiet = true) {
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) {
    process.stderr.write(`bench: ${cmd} ${argv.join(' ')} failed\n${r.stdout ?? ''}${r.stderr ?? ''}`);
    process.exit(1);
  }
  return r.stdout;
}

sh('cmake', ['-S', '.', '-B', BUILD, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release']);
// Shared objects first (the Verilator runtime, the Catch2 main) so model
// timings measure the model alone.
sh('cmake', ['--build', BUILD, '--target', 'tonic_verilated_rt', 'tonic_catch_main', '-j', '2']);

// Removes one model's build outputs (Verilator's C++, objects, library) so
// the next build of that target redoes exactly that work. Kept: the
// verilate() bookkeeping (V<name>_copy.cmake, verilator_args.txt), which
// CMake reads at configure time; removing it would re-run CMake, and with
// it Verilator for every model. (`ninja -t clean <target>` also removes
// order-only dependencies such as the shared runtime.)
function removeModelOutputs(name) {
  const keep = new Set([`V${name}_copy.cmake`, 'verilator_args.txt']);
  const found = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (!e.isDirectory()) continue;
      if (e.name === `${name}.dir` && path.basename(dir) === 'CMakeFiles') found.push(full);
      else walk(full);
    }
  };
  walk(path.join(BUILD, 'rtl'));  // rtl/CMakeLists.txt declares every model
  for (const dir of found) {
    const purge = (d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        if (e.isDirectory()) purge(full);
        else if (!keep.has(e.name)) fs.rmSync(full);
      }
    };
    purge(dir);
    fs.rmSync(path.join(dir, '..', '..', `lib${name}.a`), { force: true });
  }
}

const models = loadConfigs().filter((c) => c.model !== false && (!filter || c.name.includes(filter)));
const buildS = {};
if (!opts['no-build-times']) {
  for (const c of models) {
    removeModelOutputs(c.name);
    const t0 = process.hrtime.bigint();
    sh('cmake', ['--build', BUILD, '--target', c.name, '-j', '2']);
    buildS[c.name] = Math.round(Number(process.hrtime.bigint() - t0) / 1e8) / 10;
    process.stdout.write(`bench: built ${c.name} in ${buildS[c.name]} s\n`);
  }
}
sh('cmake', ['--build', BUILD, '--target', 'all', 'benches', '-j', '2']);

// Benchmark executables: bench_* below build/bench/tb.
function findBenches(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...findBenches(full));
    else if (e.name.startsWith('bench_') && !e.name.includes('.')) out.push(full);
  }
  return out.sort();
}
const rows = [];
// Without build times a row keeps the build time of its last timing.
const before = new Map(readReport('bench.json').map((r) => [r.name, r]));
for (const exe of findBenches(path.join(BUILD, 'tb'))) {
  const argv = ['--runs', '3'];
  if (cycles) argv.push('--cycles', cycles);
  if (filter) argv.push('--filter', filter);
  process.stdout.write(`bench: running ${path.relative(ROOT, exe)}\n`);
  const outText = execFileSync(exe, argv, { encoding: 'utf8', maxBuffer: 1 << 26 });
  for (const line of outText.split('\n').filter((l) => l.startsWith('{'))) {
    const r = JSON.parse(line);
    r.build_s = buildS[r.name] ?? (opts['no-build-times'] ? before.get(r.name)?.build_s ?? null : null);
    r.cycles_per_s = Math.round(r.cycles_per_s);
    r.runs = r.runs.map(Math.round);
    rows.push(r);
    process.stdout.write(`bench: ${r.name}: ${r.cycles_per_s} cycles/s (build ${r.build_s} s)\n`);
  }
}
// Keep rows of benches that still exist; with --filter also the earlier
// rows it did not select (a model's row or a bench case's, e.g. the rx
// reference model's).
const valid = new Set(rows.map((r) => r.name));
if (filter) for (const name of before.keys()) if (!name.includes(filter)) valid.add(name);
const merged = writeReport('bench.json', rows, 'name', valid);
const table = markdownTable(merged, [
  ['suite', (r) => r.suite], ['model', (r) => r.name],
  ['cycles/s (median of 3)', (r) => r.cycles_per_s.toLocaleString('en-US')],
  ['model build (s)', (r) => r.build_s ?? ''],
]);
const note = 'Verilator 5.006, -O3, one thread, random traffic; `make bench` on the 2-core machine. ' +
  'Wall-clock figures: they vary with the machine.\n\n';
fs.writeFileSync(path.join(REPORTS, 'bench.md'), note + table);
updateResults('bench', 'Simulation speed (Verilator)', note + table);
