// SPDX-License-Identifier: Apache-2.0
// check-blocks.mjs — proves that every test block builds on its own: for
// each block (a tb/unit/<block>/ folder with a CMakeLists.txt, "fuzz"
// for tb/fuzz, and demo / run / netsim / ns3 for tb/demo and sim/) it configures a build tree with -DTONIC_BLOCKS=<block>
// (root CMakeLists.txt: only that block's tests and the models they link)
// in build/blocks/<block>/ and builds all of it. A block that leans on a
// target another block declares fails here. `make regress` runs it (not
// `make test`: a configure per block Verilates every model's C++ again).
//
// Writes build/reports/blocks.json (per block: configure and build status
// and seconds, the log) and prints one line per block; exit 1 if some block
// failed. With ccache (the default when it is installed) CCACHE_BASEDIR is
// the project root, so the trees share compiled objects.
//
//   node scripts/check-blocks.mjs [--blocks a,b] [--jobs N] [--build-jobs N] [--root DIR] [--no-ccache]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { ROOT } from './manifest.mjs';
import { writeReport } from './report.mjs';

/// Every block: the tb/unit folders with a CMakeLists.txt, the labels of the
/// protocol-owned test executables (tonic_protocol_test(<exe> LABEL <label>
/// in protocols/*/tests/ and tb/unit/*/) that are not a folder, then fuzz,
/// then the demo and the products as the root CMakeLists.txt names them for
/// TONIC_BLOCKS ("<dir>:<block>" entries).
function allBlocks() {
  const unit = path.join(ROOT, 'tb', 'unit');
  const blocks = fs.readdirSync(unit, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(unit, e.name, 'CMakeLists.txt')))
    .map((e) => e.name).sort();
  const labels = new Set();
  const protocols = path.join(ROOT, 'protocols');
  const lists = [
    ...fs.readdirSync(protocols).map((p) => path.join(protocols, p, 'tests', 'CMakeLists.txt')),
    ...blocks.map((b) => path.join(unit, b, 'CMakeLists.txt')),
  ].filter((f) => fs.existsSync(f));
  for (const f of lists) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/tonic_protocol_test\(\s*\w+\s+LABEL\s+(\w+)/g)) labels.add(m[1]);
  }
  blocks.push(...[...labels].filter((l) => !blocks.includes(l)).sort());
  const root = fs.readFileSync(path.join(ROOT, 'CMakeLists.txt'), 'utf8');
  const products = [...root.matchAll(/"(?:tb|sim)\/[\w/]+:(\w+)"/g)].map((m) => m[1]);
  if (!products.length) throw new Error('CMakeLists.txt: no "<dir>:<block>" entries of the demo and the products');
  return [...blocks, 'fuzz', ...products];
}

const BLOCKS = allBlocks();
const { values: opts } = cli({
  name: 'check-blocks',
  description: 'Configures and builds each test block alone (-DTONIC_BLOCKS=<block>) in its own build tree;\n' +
    'writes build/reports/blocks.json. Exit 1 when a block does not build alone.',
  options: {
    blocks: { type: 'string', default: '', shown: 'all', arg: 'B,B...', help: `the blocks (known: ${BLOCKS.join(', ')})` },
    jobs: { type: 'number', default: 1, integer: true, min: 1, help: 'blocks at once' },
    'build-jobs': { type: 'number', default: 2, integer: true, min: 1, help: 'ninja -j of each build' },
    root: { type: 'string', default: 'build/blocks', arg: 'DIR', help: 'the build trees go to DIR/<block>' },
    'no-ccache': { type: 'boolean', help: 'do not use ccache even when installed' },
  },
});

const blocks = opts.blocks ? opts.blocks.split(/[\s,]+/).filter(Boolean) : BLOCKS;
const unknown = blocks.filter((b) => !BLOCKS.includes(b));
if (unknown.length) {
  console.error(`check-blocks: unknown block ${unknown.join(', ')} (known: ${BLOCKS.join(', ')})`);
  process.exit(2);
}
const root = path.resolve(ROOT, opts.root);
const ccache = !opts['no-ccache'] && spawnSync('ccache', ['--version']).status === 0;
const env = { ...process.env, ...(ccache ? { CCACHE_BASEDIR: ROOT } : {}) };

/// Runs a command with its output appended to `log`; resolves to its exit code and seconds.
function run(cmd, args, log) {
  return new Promise((resolve) => {
    const started = Date.now();
    fs.appendFileSync(log, `$ ${cmd} ${args.join(' ')}\n`);
    const out = fs.openSync(log, 'a');
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', out, out] });
    child.on('close', (code) => {
      fs.closeSync(out);
      resolve({ code: code ?? 1, seconds: (Date.now() - started) / 1000 });
    });
  });
}

/// Configures and builds one block alone.
async function checkBlock(block) {
  const dir = path.join(root, block);
  const log = path.join(root, `${block}.log`);
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(log, '');
  const row = { block, log: path.relative(ROOT, log), configure: 'not run', build: 'not run' };
  const conf = await run('cmake', ['-S', '.', '-B', dir, '-G', 'Ninja', '-DCMAKE_BUILD_TYPE=Release',
    `-DTONIC_BLOCKS=${block}`, ...(ccache ? ['-DCMAKE_CXX_COMPILER_LAUNCHER=ccache'] : [])], log);
  row.configure = conf.code === 0 ? 'ok' : 'FAIL';
  row.configure_s = conf.seconds;
  if (conf.code === 0) {
    // all and benches: a block's benchmark is out of the default build.
    const build = await run('cmake', ['--build', dir, '--target', 'all', 'benches', '-j', String(opts['build-jobs'])], log);
    row.build = build.code === 0 ? 'ok' : 'FAIL';
    row.build_s = build.seconds;
  }
  row.ok = row.configure === 'ok' && row.build === 'ok';
  console.log(`check-blocks: ${block}: configure ${row.configure} (${row.configure_s.toFixed(0)} s), build ${row.build}` +
    `${row.build_s !== undefined ? ` (${row.build_s.toFixed(0)} s)` : ''}${row.ok ? '' : `; log ${row.log}`}`);
  return row;
}

const rows = await runPool(blocks, opts.jobs, checkBlock);
writeReport('blocks.json', rows, 'block', new Set(BLOCKS));
const bad = rows.filter((r) => !r.ok);
console.log(`check-blocks: ${rows.length - bad.length} of ${rows.length} blocks build alone` +
  (bad.length ? `; not: ${bad.map((r) => r.block).join(', ')}` : ''));
process.exit(bad.length ? 1 : 0);
