// SPDX-License-Identifier: Apache-2.0
// prove.mjs — `make prove`: every formal proof of synth/prove/run.sh, one
// at a time (each is one single-threaded Yosys process), plus the --mutant
// check of each proof that has one (the proof flow must find a planted bug).
//
// Writes build/reports/prove.json (one object per run: id, name, mutant,
// cell, property, method, result, seconds; result "pass" means proved, or
// for a mutant "counterexample found") and the table between the
// prove:begin / prove:end markers of docs/formal.md. Logs: build/prove/.
// Exit status 1 if any run did not pass.
//
// usage: node prove.mjs [--quick] [--only NAME[,NAME...]] [--no-mutants]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './manifest.mjs';
import { cli } from './lib/cli.mjs';
import { markdownTable, writeReport } from './report.mjs';

const { values: opts } = cli({
  name: 'prove',
  description: 'Every formal proof of synth/prove/run.sh, one at a time, plus the --mutant check of each\n' +
    'proof that has one; writes build/reports/prove.json and the table of docs/formal.md.',
  options: {
    quick: { type: 'boolean', help: 'only the proofs run.sh --list marks quick' },
    only: { type: 'string', arg: 'NAME[,NAME...]', help: 'only these proofs' },
    'no-mutants': { type: 'boolean', help: 'skip the --mutant checks' },
  },
});
const quickOnly = opts.quick;
const noMutants = opts['no-mutants'];
const only = opts.only ? new Set(opts.only.split(',')) : null;
const RUN = path.join(ROOT, 'synth', 'prove', 'run.sh');
const LOGS = path.join(ROOT, 'build', 'prove');

const list = spawnSync(RUN, ['--list'], { encoding: 'utf8' });
if (list.status !== 0) {
  process.stderr.write(`prove: ${RUN} --list failed\n${list.stderr}`);
  process.exit(1);
}
const proofs = list.stdout.trim().split('\n').map((l) => {
  const [name, speed, mutant] = l.trim().split(/\s+/);
  return { name, quick: speed === 'quick', mutant: mutant === 'mutant' };
});
const all = new Set(proofs.flatMap((p) => [p.name, `${p.name}_mutant`]));

const rows = [];
let failed = 0;
for (const p of proofs) {
  if (quickOnly && !p.quick) continue;
  if (only && !only.has(p.name)) continue;
  const runs = [[]];
  if (p.mutant && !noMutants) runs.push(['--mutant']);
  for (const extra of runs) {
    const r = spawnSync(RUN, [p.name, ...extra], {
      cwd: ROOT, encoding: 'utf8', env: { ...process.env, TONIC_PROVE_LOG_DIR: LOGS },
    });
    process.stdout.write(r.stdout);
    if (r.status !== 0) {
      failed++;
      process.stderr.write(r.stderr);
    }
    const id = extra.length ? `${p.name}_mutant` : p.name;
    const file = path.join(LOGS, `${id}.json`);
    if (fs.existsSync(file)) {
      rows.push({ id, ...JSON.parse(fs.readFileSync(file, 'utf8')) });
    } else {
      rows.push({ id, name: p.name, mutant: extra.length > 0, result: 'error', seconds: null });
    }
  }
}

const merged = writeReport('prove.json', rows, 'id', all);

// The table of docs/formal.md (every proof known to prove.json).
const table = markdownTable(merged, [
  ['proof', (r) => `\`${r.name}\`${r.mutant ? ' --mutant' : ''}`],
  ['cell', (r) => r.cell ?? ''],
  ['method', (r) => (r.mutant ? `${r.method} (planted bug)` : r.method)],
  ['result', (r) => (r.mutant ? (r.result === 'pass' ? 'bug found' : 'NOT FOUND') : (r.result === 'pass' ? 'proved' : 'FAILED'))],
  ['seconds', (r) => r.seconds ?? ''],
]);
const doc = path.join(ROOT, 'docs', 'formal.md');
if (fs.existsSync(doc)) {
  let text = fs.readFileSync(doc, 'utf8');
  const begin = '<!-- prove:begin -->';
  const end = '<!-- prove:end -->';
  const i = text.indexOf(begin);
  const j = text.indexOf(end);
  if (i >= 0 && j > i) {
    text = `${text.slice(0, i)}${begin}\n${table}${end}${text.slice(j + end.length)}`;
    fs.writeFileSync(doc, text);
  }
}
process.stdout.write(`prove: ${rows.length} runs, ${failed} failed; build/reports/prove.json\n`);
process.exit(failed ? 1 : 0);
