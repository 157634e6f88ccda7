// SPDX-License-Identifier: Apache-2.0
// A protocol is its folder: scripts/new-protocol writes protocols/<name>/ in
// a scratch copy of the tree, and with no other file edited every tool
// picks it up: the registry lists it, the configure step derives its
// builds, the soak runs it (its own tonic_top build, the RTL assertions and
// the end-to-end scoreboard), `make run PROTOCOL=<name>` runs it at line
// rate and through a bottleneck with its receiver model, tonic-netsim runs
// it in a SystemC network (two senders into one switch port, a scenario
// written outside the tree from the protocol's own constants),
// check-protocol passes it, `make lint` lints its builds and the synthesis
// estimate maps its incoming module. Last, the copy is compared with its
// first snapshot: only files under protocols/<name>/ (and build output) may
// differ.
//
// usage: node test_protocol_folder.mjs --credit window|rate|tokens [--work DIR] [--cycles N] [--keep]
// Exit 0 when every step passed; 1 with the failing step's output.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cli } from '../../../scripts/lib/cli.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { values: opts } = cli({
  name: 'test_protocol_folder',
  usage: 'node tb/unit/protocol_folder/test_protocol_folder.mjs --credit window|rate|tokens [options]',
  description: 'Creates a protocol with scripts/new-protocol in a scratch copy of the tree and runs every tool on it.',
  options: {
    credit: { type: 'string', arg: 'SCHEME', help: 'the credit scheme of the new protocol (window, rate, tokens)' },
    work: { type: 'string', arg: 'DIR', help: 'scratch directory (default: a new one under the system temp dir)' },
    cycles: { type: 'number', integer: true, min: 1000, default: 300000, help: 'soak cycles' },
    keep: { type: 'boolean', help: 'keep the scratch copy' },
  },
});
if (!['window', 'rate', 'tokens'].includes(opts.credit)) {
  process.stderr.write('test_protocol_folder: --credit must be window, rate or tokens\n');
  process.exit(2);
}
const name = `t_${opts.credit}`;
const work = opts.work ? path.resolve(opts.work) : fs.mkdtempSync(path.join(os.tmpdir(), 'tonic-protocol-folder-'));
const tree = path.join(work, 'tree');
const node = process.execPath;

function run(step, cmd, args, { cwd = tree, env = {} } = {}) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 1 << 28 });
  const s = ((Date.now() - t0) / 1000).toFixed(1);
  if (r.status !== 0) {
    process.stdout.write(`FAIL ${step} (${s} s): ${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout}${r.stderr}\n`);
    process.exit(1);
  }
  process.stdout.write(`ok   ${step} (${s} s)\n`);
  return r.stdout;
}

/// sha256 of every file below dir, by path relative to dir, leaving out
/// build output, the tools and the new protocol's folder.
function snapshot(dir) {
  const out = new Map();
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, e.name);
      if (['build', '.tools', '.git'].includes(r) || r === path.join('protocols', name)) continue;
      if (e.isDirectory()) walk(r);
      else if (e.isFile()) out.set(r, crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, r))).digest('hex'));
    }
  };
  walk('');
  return out;
}

// 1. The scratch copy: the files git knows (tracked and new, not ignored).
fs.rmSync(tree, { recursive: true, force: true });
const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
if (files.status !== 0) throw new Error(`git ls-files failed: ${files.stderr}`);
for (const f of files.stdout.split('\0').filter(Boolean)) {
  const from = path.join(ROOT, f);
  if (!fs.existsSync(from)) continue;  // deleted in the working tree
  fs.mkdirSync(path.dirname(path.join(tree, f)), { recursive: true });
  fs.copyFileSync(from, path.join(tree, f));
  fs.chmodSync(path.join(tree, f), fs.statSync(from).mode);
}
fs.symlinkSync(path.join(ROOT, '.tools'), path.join(tree, '.tools'));
const before = snapshot(tree);
process.stdout.write(`ok   copy of the tree: ${before.size} files in ${tree}\n`);

// 2. The protocol, from its template.
run('new-protocol', path.join(tree, 'scripts', 'new-protocol'), [name, '--credit', opts.credit]);

// 3. The registry finds it, with the credit scheme of its user_configs.vh.
const list = run('registry lists it', node, ['scripts/registry.mjs', '--list']);
const row = list.split('\n').find((l) => l.startsWith(`${name}\t`));
if (!row || row.split('\t')[1] !== opts.credit) {
  process.stdout.write(`FAIL registry: no row "${name}\t${opts.credit}" in\n${list}`);
  process.exit(1);
}

// 4. Configure (only this protocol; the soak block, tonic-run and
// tonic-netsim), build, soak.
const build = path.join(tree, 'build', 'p');
const launcher = process.env.CMAKE_CXX_COMPILER_LAUNCHER ? [`-DCMAKE_CXX_COMPILER_LAUNCHER=${process.env.CMAKE_CXX_COMPILER_LAUNCHER}`] : [];
run('configure', 'cmake', ['-S', tree, '-B', build, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
  '-DTONIC_BLOCKS=soak;run;netsim', `-DTONIC_ONLY_PROTOCOLS=${name}`, ...launcher]);
run('build tonic-soak', 'cmake', ['--build', build, '-j', '2', '--target', 'tonic-soak']);
const soak = run('soak', path.join(build, 'tb', 'unit', 'soak', 'tonic-soak'),
  ['--protocol', name, '--cycles', String(opts.cycles), '--seed', '1']);
if (!/violations 0, assertion failures 0/.test(soak) || !soak.includes(`soak ${name}`)) {
  process.stdout.write(`FAIL soak output:\n${soak}`);
  process.exit(1);
}
process.stdout.write(`     ${soak.trim()}\n`);

// 5. make run PROTOCOL=<name>: the main job's two runs of the protocol
// (line rate; a bottleneck queue its congestion control must react to),
// every check passed, both rows in summary.json.
const runOut = path.join(work, 'run');
const runText = run('make run PROTOCOL', 'make', ['--no-print-directory', '-C', tree, 'run', `BUILD=${build}`,
  `PROTOCOL=${name}`, `ARGS=--cycles 30000 --quiet --out ${runOut}`]);
const summary = JSON.parse(fs.readFileSync(path.join(runOut, 'summary.json'), 'utf8'));
const rows = summary.runs.filter((r) => r.protocol === name);
if (rows.length !== 2 || rows.some((r) => r.check_errors !== 0 || !(r.segments_per_cycle > 0))) {
  process.stdout.write(`FAIL make run: want 2 passing runs of ${name} with traffic in summary.json\n${runText}`);
  process.exit(1);
}
process.stdout.write(runText.split('\n').filter((l) => l.startsWith(name)).map((l) => `     ${l}\n`).join(''));

// 6. tonic-netsim: a scenario written outside the tree (two senders into
// one switch port), with the protocol's own constants where the simulator
// checks them against the build: the TCP section of a window protocol
// (InitWnd, Window, RtoInit at the clock), the line rate of a rate one
// (RateInit).
run('build tonic-netsim', 'cmake', ['--build', build, '-j', '2', '--target', 'tonic-netsim']);
const { readProtocol } = await import(path.join(tree, 'scripts', 'registry.mjs'));
const proto = readProtocol(path.join(tree, 'protocols', name));
const clockNs = 10;
const scenario = {
  name: `folder_${name}`, protocol: name, clock_ns: clockNs,
  topology: { kind: 'incast', senders: 2 }, flows_per_sender: 1,
  link: { gbps: 100, delay_ns: 1000 }, segment_bytes: 1000, header_bytes: 58, ctl_bytes: 58,
  message_bytes: 300000, max_time_us: 20000, switch: { buffer_bytes: 200000, ecn: null },
  doc: 'a new protocol folder in a network: two senders into one switch port',
};
if (proto.credit === 'window') {
  scenario.tcp = { min_rto_us: Number(proto.consts.RtoInit) * clockNs / 1000, init_cwnd: Number(proto.consts.InitWnd),
    max_window_segments: 128 };
}
if (proto.credit === 'rate') scenario.link.gbps = Number(proto.consts.RateInit) / 1048576 * 8 / clockNs;
const scenarioFile = path.join(work, 'netsim.json');
fs.writeFileSync(scenarioFile, JSON.stringify(scenario, null, 2));
const netsim = run('tonic-netsim scenario', path.join(build, 'sim', 'netsim', 'tonic-netsim'),
  ['--config', scenarioFile, '--out', path.join(work, 'netsim'), '--quiet']);
if (!/complete flows 2\/2/.test(netsim)) {
  process.stdout.write(`FAIL tonic-netsim: both flows must complete\n${netsim}`);
  process.exit(1);
}
process.stdout.write(netsim.trim().split('\n').slice(0, 2).map((l) => `     ${l.trim()}\n`).join(''));

// 7. The checker, lint of its builds, the synthesis estimate of its incoming module.
run('check-protocol', path.join(tree, 'scripts', 'check-protocol'), [`protocols/${name}`, '--strict', '--quiet']);
const lint = run('lint of its builds', 'bash', ['scripts/lint.sh', '--block', `protocol_${name}`]);
if (!/lint: [1-9]\d* configurations clean/.test(lint)) {
  process.stdout.write(`FAIL lint linted nothing:\n${lint}`);
  process.exit(1);
}
const synth = run('synthesis estimate', node, ['scripts/synth-estimate.mjs', '--config', `${name}_incoming`, '--jobs', '1', '--no-reports']);
process.stdout.write(`     ${synth.trim().split('\n').at(-1)}\n`);

// 8. Nothing outside protocols/<name>/ changed.
const after = snapshot(tree);
const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
if (changed.length) {
  process.stdout.write(`FAIL files outside protocols/${name}/ changed: ${changed.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write(`ok   no file outside protocols/${name}/ touched (${after.size} files compared)\n`);
if (!opts.keep && !opts.work) fs.rmSync(work, { recursive: true, force: true });
process.stdout.write(`protocol folder ${name}: every step passed\n`);
