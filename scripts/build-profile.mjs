// SPDX-License-Identifier: Apache-2.0
// build-profile.mjs — where the time of `make test` goes: the build, per
// Verilated model and per test executable (from Ninja's log), and the tests,
// per CTest label (from a JUnit file that ctest writes with --output-junit).
//
// Ninja's log holds each job's start and end (ms since the build started),
// so a job's time is its wall time on a loaded machine; with -j N the sum of
// the jobs is about N x the build's wall time. Jobs are grouped by what they
// build: a model (rtl/CMakeFiles/<model>.dir: Verilator's C++ and its
// library; the Verilator run itself is the job that writes V<model>.cmake),
// a test or tool executable (<folder>/CMakeFiles/<exe>.dir and its link), or
// "other" (the shared runtime, the Catch2 main, the fuzz / netlist models).
//
// usage: node scripts/build-profile.mjs --build DIR [--junit FILE] [--label NAME] [--top N]
// Writes build/reports/build_profile.json (merged by --label: one entry per
// measured tree, e.g. "before" and "after") and, with --docs, the table in
// docs/results.md.
import fs from 'node:fs';
import path from 'node:path';

import { cli } from './lib/cli.mjs';
import { ROOT } from './manifest.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

const { values: opts } = cli({
  name: 'build-profile',
  description: 'Groups the jobs of a Ninja build (its .ninja_log) by model and executable, and the CTest\n' +
    'run of a JUnit file by label; writes build/reports/build_profile.json.',
  options: {
    build: { type: 'string', arg: 'DIR', help: 'the build directory (its .ninja_log; required)' },
    junit: { type: 'string', arg: 'FILE', help: 'the JUnit file of `ctest --output-junit` (test times)' },
    label: { type: 'string', default: 'current', help: 'the name of this measurement in the report' },
    wall: { type: 'string', arg: 'K=S,...', help: 'measured wall times in seconds, e.g. lint=120,build=900,test=400' },
    top: { type: 'number', integer: true, min: 1, default: 15, help: 'rows of the slowest models / executables' },
    docs: { type: 'boolean', help: 'also write the table in docs/results.md' },
  },
});
if (!opts.build) {
  process.stderr.write('build-profile: --build DIR is required\n');
  process.exit(2);
}

/// The jobs of the last build in a .ninja_log (v5): [{out, ms}].
function ninjaJobs(dir) {
  const file = path.join(dir, '.ninja_log');
  if (!fs.existsSync(file)) throw new Error(`no ${file}`);
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  // One entry per output (a later line for the same output replaces it).
  const byOut = new Map();
  for (const l of lines) {
    const [start, end, , out] = l.split('\t');
    byOut.set(out, { out, ms: Number(end) - Number(start) });
  }
  return [...byOut.values()];
}

/// The text of an XML attribute value: the five named entities and numeric ones.
const unescapeXml = (v) => v.replace(/&(quot|apos|lt|gt|amp|#x[0-9a-fA-F]+|#\d+);/g, (_, e) => (
  { quot: '"', apos: "'", lt: '<', gt: '>', amp: '&' }[e] ??
    String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))));

/// What a job builds: ['model', name] | ['exe', name] | ['other', name].
function groupOf(out) {
  let m = out.match(/^rtl\/CMakeFiles\/([^/]+)\.dir\//) ?? out.match(/^rtl\/lib([^/]+)\.a$/);
  if (m) return ['model', m[1]];
  m = out.match(/CMakeFiles\/([^/]+)\.dir\/(?:CMakeFiles\/\1\.dir\/)?V\1\.dir\//);
  if (m) return ['model', m[1]];  // models declared elsewhere (fuzz, netlist, trace)
  m = out.match(/CMakeFiles\/([^/]+)\.dir\//);
  if (m) return ['exe', m[1]];
  m = out.match(/^(?:.*\/)?([^/]+)$/);
  return ['exe', m[1].replace(/^lib|\.a$/g, '')];
}

function profile() {
  const jobs = ninjaJobs(path.resolve(opts.build));
  const groups = new Map();
  for (const j of jobs) {
    const [kind, name] = groupOf(j.out);
    const k = `${kind}:${name}`;
    const g = groups.get(k) ?? { kind, name, jobs: 0, s: 0 };
    g.jobs += 1;
    g.s += j.ms / 1000;
    groups.set(k, g);
  }
  const all = [...groups.values()].map((g) => ({ ...g, s: Math.round(g.s * 10) / 10 }));
  const sum = (kind) => Math.round(all.filter((g) => g.kind === kind).reduce((a, g) => a + g.s, 0));
  const out = {
    label: opts.label,
    build_dir: path.relative(ROOT, path.resolve(opts.build)),
    jobs: jobs.length,
    models: all.filter((g) => g.kind === 'model').length,
    job_s: { models: sum('model'), executables: sum('exe') },
    slowest_models: all.filter((g) => g.kind === 'model').sort((a, b) => b.s - a.s).slice(0, opts.top),
    slowest_executables: all.filter((g) => g.kind === 'exe').sort((a, b) => b.s - a.s).slice(0, opts.top),
  };
  if (opts.wall) {
    out.wall_s = Object.fromEntries(opts.wall.split(',').map((kv) => kv.split('=')).map(([k, v]) => [k, Number(v)]));
  }
  if (opts.junit) out.tests = junit(opts.junit);
  return out;
}

/// Test times by label from ctest's JUnit file (labels from ctest --show-only=json-v1 next to it).
function junit(file) {
  const xml = fs.readFileSync(file, 'utf8');
  const cases = [...xml.matchAll(/<testcase name="([^"]*)"[^>]*time="([\d.]+)"[^>]*?(\/>|>)/g)]
    .map((m) => ({ name: unescapeXml(m[1]), s: Number(m[2]) }));
  const labelsFile = file.replace(/\.xml$/, '') + '.labels.json';
  const labelOf = new Map();
  if (fs.existsSync(labelsFile)) {
    for (const t of JSON.parse(fs.readFileSync(labelsFile, 'utf8')).tests ?? []) {
      const l = (t.properties ?? []).find((p) => p.name === 'LABELS')?.value ?? [];
      labelOf.set(t.name, l[0] ?? '(none)');
    }
  }
  const by = new Map();
  for (const c of cases) {
    const l = labelOf.get(c.name) ?? '(none)';
    const g = by.get(l) ?? { label: l, tests: 0, s: 0 };
    g.tests += 1;
    g.s += c.s;
    by.set(l, g);
  }
  const labels = [...by.values()].map((g) => ({ ...g, s: Math.round(g.s * 10) / 10 })).sort((a, b) => b.s - a.s);
  return { count: cases.length, s: Math.round(cases.reduce((a, c) => a + c.s, 0)), labels };
}

const row = profile();
fs.mkdirSync(REPORTS, { recursive: true });
const file = path.join(REPORTS, 'build_profile.json');
const prev = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : [];
const merged = [...prev.filter((r) => r.label !== row.label), row];
fs.writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
process.stdout.write(`build-profile ${row.label}: ${row.jobs} jobs, ${row.models} models; job time: models ` +
  `${row.job_s.models} s, executables ${row.job_s.executables} s` +
  (row.tests ? `; tests ${row.tests.count} in ${row.tests.s} s (CPU-seconds of the tests)` : '') + '\n');

if (opts.docs) {
  const summary = markdownTable(merged, [
    ['measurement', (r) => r.label], ['wall s (setup / lint / build / test)', (r) => (r.wall_s
      ? ['setup', 'lint', 'build', 'test'].map((k) => r.wall_s[k] ?? '-').join(' / ') : '')],
    ['build jobs', (r) => r.jobs], ['models built', (r) => r.models],
    ['job s: models', (r) => r.job_s.models], ['job s: executables', (r) => r.job_s.executables],
    ['tests', (r) => r.tests?.count ?? ''], ['test s (sum)', (r) => r.tests?.s ?? ''],
  ]);
  const last = merged.at(-1);
  const models = markdownTable(last.slowest_models, [['model', (g) => g.name], ['jobs', (g) => g.jobs], ['job s', (g) => g.s]]);
  const exes = markdownTable(last.slowest_executables, [['executable', (g) => g.name], ['jobs', (g) => g.jobs], ['job s', (g) => g.s]]);
  const labels = last.tests ? markdownTable(last.tests.labels, [['label', (g) => g.label], ['tests', (g) => g.tests], ['s', (g) => g.s]]) : '';
  updateResults('build_profile', 'Where the time of make test goes',
    'From `scripts/build-profile.mjs` (Ninja\'s log and ctest\'s JUnit file of a `make test` run on a fresh clone, 2 cores). ' +
    'Job seconds are the wall time of each build job; with `-j 2` they add up to about twice the build\'s wall time.\n\n' +
    summary + `\nSlowest models (${last.label}):\n\n` + models + `\nSlowest executables (${last.label}):\n\n` + exes +
    (labels ? `\nTests by label (${last.label}), seconds of each test summed (ctest -j 2 runs two at once):\n\n` + labels : ''));
}
