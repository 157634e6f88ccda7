// SPDX-License-Identifier: Apache-2.0
// fuzz.mjs — `make fuzz`: runs the libFuzzer targets of tb/fuzz (built in
// build/fuzz by the Makefile) and reports what they reached.
//
// The targets are the registry's (protocol.json "checks": {"fuzz"},
// scripts/registry.mjs). Per target: copies the seed corpus of its
// protocol's folder, protocols/<protocol>/fuzz/corpus/ (none committed: the
// seeds of tb/fuzz/make_seeds.mjs) into a fresh
// working corpus build/fuzz/work/<target>/corpus, runs fuzz_<target> for
// --seconds (-max_total_time, -print_final_stats=1; the log goes to
// build/fuzz/work/<target>/fuzz.log), and parses libFuzzer's output:
// executions, exec/s, edge coverage (cov) and features (ft) of the seeds
// (INITED) and at the end, the corpus size, and the crash files (crash-*,
// timeout-*, oom-*, in build/fuzz/work/<target>/artifacts/). Writes
// build/reports/fuzz.json (one row per target, merged with earlier rows of
// other targets) and the table in docs/fuzz.md.
//
// usage: node fuzz.mjs [--seconds S] [--targets "a b"] [--jobs N] [--build DIR] [--keep-corpus]
//                      [--libfuzzer "-flag=v ..."]
//   --jobs N runs up to N targets at once (each on one core).
//   --libfuzzer passes more flags to every target (e.g. "-len_control=0":
//   long inputs from the start instead of libFuzzer's slowly growing limit).
//   --keep-corpus starts from the working corpus of the last run (plus the seeds).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './manifest.mjs';
import { writeSeeds } from '../tb/fuzz/make_seeds.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { fuzzTarget, loadProtocols } from './registry.mjs';
import { markdownTable, writeReport } from './report.mjs';

const TARGETS = new Map(loadProtocols().map(fuzzTarget).filter(Boolean).map((t) => [t.target, t]));
const ALL = [...TARGETS.keys()];
const { values: opts } = cli({
  name: 'fuzz',
  description: 'Runs the libFuzzer targets of tb/fuzz (built in --build) and writes build/reports/fuzz.json\n' +
    'and the table of docs/fuzz.md. Exit 1 when a target found a crash.',
  options: {
    seconds: { type: 'number', default: 60, help: 'run time of each target (-max_total_time)' },
    targets: { type: 'string', default: ALL.join(' '), arg: '"A B"', help: 'the targets (space or comma separated)' },
    jobs: { type: 'number', default: 1, help: 'targets at once (each on one core)' },
    build: { type: 'string', default: 'build/fuzz', arg: 'DIR', help: 'the fuzz build folder' },
    'keep-corpus': { type: 'boolean', help: 'start from the working corpus of the last run (plus the seeds)' },
    libfuzzer: { type: 'string', default: '', arg: '"-flag=v ..."', dashValue: true,
      help: 'more flags for every target, e.g. "-len_control=0"' },
  },
});
const seconds = opts.seconds;
const targets = (opts.targets || ALL.join(' ')).split(/[\s,]+/).filter(Boolean);
const jobs = Math.max(1, opts.jobs);
const build = path.resolve(ROOT, opts.build);
const keep = opts['keep-corpus'];
const extra = (opts.libfuzzer || '').split(/\s+/).filter(Boolean);

for (const t of targets) {
  if (!ALL.includes(t)) {
    console.error(`fuzz: unknown target ${t} (known: ${ALL.join(', ')})`);
    process.exit(2);
  }
}

function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  if (!fs.existsSync(from)) return;
  for (const f of fs.readdirSync(from)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

/// Numbers of a libFuzzer status line (`#N INITED cov: a ft: b corp: c/d exec/s: e ...`).
function statusOf(line) {
  const num = (re) => {
    const m = line.match(re);
    return m ? Number(m[1]) : null;
  };
  const corp = line.match(/corp: (\d+)\/(\d+)(b|Kb|Mb)/);
  const scale = corp ? { b: 1, Kb: 1024, Mb: 1024 * 1024 }[corp[3]] : 0;
  return {
    execs: num(/^#(\d+)/),
    cov: num(/cov: (\d+)/),
    ft: num(/ft: (\d+)/),
    corpus: corp ? Number(corp[1]) : null,
    corpus_bytes: corp ? Number(corp[2]) * scale : null,
  };
}

function runTarget(t) {
  return new Promise((resolve) => {
    const work = path.join(build, 'work', t);
    const corpus = path.join(work, 'corpus');
    const artifacts = path.join(work, 'artifacts');
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(artifacts, { recursive: true, force: true });
    fs.mkdirSync(artifacts, { recursive: true });
    const seedDir = path.join(ROOT, TARGETS.get(t).corpus);
    if (fs.existsSync(seedDir)) copyDir(seedDir, corpus);
    else writeSeeds(corpus);
    const exe = path.join(build, 'tb', 'fuzz', `fuzz_${t}`);
    const argv = [`-max_total_time=${seconds}`, '-print_final_stats=1', '-timeout=20',
      '-rss_limit_mb=2048', `-artifact_prefix=${artifacts}/`, ...extra, corpus];
    const log = fs.createWriteStream(path.join(work, 'fuzz.log'));
    const started = Date.now();
    console.log(`fuzz: ${t} for ${seconds} s (log: ${path.relative(ROOT, path.join(work, 'fuzz.log'))})`);
    const p = spawn(exe, argv, { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const take = (chunk) => {
      log.write(chunk);
      text += chunk.toString();
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    p.on('close', (code) => {
      log.end();
      const lines = text.split('\n');
      const inited = lines.find((l) => /^#\d+\s+INITED/.test(l));
      const status = lines.filter((l) => /^#\d+\s+(INITED|NEW|REDUCE|pulse|DONE|RELOAD)/.test(l));
      const last = status.length ? statusOf(status[status.length - 1]) : {};
      const stat = (name) => {
        const m = text.match(new RegExp(`stat::${name}:\\s+(\\d+)`));
        return m ? Number(m[1]) : null;
      };
      const crashes = fs.readdirSync(artifacts).filter((f) => /^(crash|timeout|oom|leak)-/.test(f));
      const reasons = [...new Set(lines.filter((l) => /^FUZZ INVARIANT|%Error|Assertion/.test(l)))];
      const wall = (Date.now() - started) / 1000;
      const execs = stat('number_of_executed_units') ?? last.execs;
      resolve({
        target: t,
        seconds: Math.round(wall),
        execs,
        exec_per_s: execs !== null && wall > 0 ? Math.round(execs / wall) : stat('average_exec_per_sec'),
        cov_seeds: inited ? statusOf(inited).cov : null,
        ft_seeds: inited ? statusOf(inited).ft : null,
        cov: last.cov ?? null,
        ft: last.ft ?? null,
        corpus: last.corpus ?? null,
        corpus_bytes: last.corpus_bytes ?? null,
        new_units: stat('new_units_added'),
        peak_rss_mb: stat('peak_rss_mb'),
        crashes: crashes.map((f) => path.relative(ROOT, path.join(artifacts, f))),
        crash_reasons: reasons,
        exit_code: code,
        date: new Date().toISOString(),
      });
    });
  });
}

// Up to `jobs` targets at once.
const rows = await runPool(targets, jobs, runTarget);
rows.sort((a, b) => ALL.indexOf(a.target) - ALL.indexOf(b.target));

const merged = writeReport('fuzz.json', rows, 'target', new Set(ALL));
const table = markdownTable(merged, [
  ['target', (r) => r.target],
  ['seconds', (r) => r.seconds],
  ['executions', (r) => r.execs],
  ['exec/s', (r) => r.exec_per_s],
  ['cov (seeds)', (r) => r.cov_seeds],
  ['cov', (r) => r.cov],
  ['ft (seeds)', (r) => r.ft_seeds],
  ['ft', (r) => r.ft],
  ['corpus', (r) => r.corpus],
  ['crashes', (r) => r.crashes.length],
  ['date', (r) => r.date.slice(0, 16).replace('T', ' ')],
]);
const doc = path.join(ROOT, 'docs', 'fuzz.md');
if (fs.existsSync(doc)) {
  const text = fs.readFileSync(doc, 'utf8');
  const begin = '<!-- fuzz:begin -->';
  const end = '<!-- fuzz:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) fs.writeFileSync(doc, text.slice(0, i) + `${begin}\n${table}${end}` + text.slice(j + end.length));
}
process.stdout.write(table);
let bad = 0;
for (const r of rows) {
  for (const c of r.crashes) console.log(`fuzz: ${r.target}: ${c}`);
  for (const m of r.crash_reasons) console.log(`fuzz: ${r.target}: ${m}`);
  bad += r.crashes.length;
}
if (bad) {
  console.log('fuzz: reproduce with fuzz_<target> <file> (TONIC_FUZZ_VERBOSE=1 for a trace); docs/fuzz.md');
  process.exit(1);
}
