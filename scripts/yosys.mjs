// SPDX-License-Identifier: Apache-2.0
// Runs Yosys 0.69 (YoWASP, WebAssembly) like a command-line tool.
//
// usage: node yosys.mjs [--mount DIR]... [--out DIR] -- <yosys arguments>
//
// Every file below each --mount DIR is placed in Yosys' virtual file system
// at the same path relative to the current directory (so `read_slang
// rtl/common/x.sv` works unchanged). Files Yosys writes below `out/` are
// copied to the --out DIR on the host. Yosys' exit code is returned.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cli } from './lib/cli.mjs';

const CLI = {
  name: 'yosys.mjs',
  usage: 'node yosys.mjs [--mount DIR]... [--out DIR] -- <yosys args>',
  description: 'Yosys 0.69 (YoWASP) as a command-line tool: every file below each --mount DIR is placed in\n' +
    "Yosys' virtual file system at the same relative path; files Yosys writes below out/ are copied to\n" +
    "--out DIR. Exit: Yosys' exit code. Run it through scripts/yosys.",
  options: {
    mount: { type: 'string', multiple: true, arg: 'DIR', help: 'a folder (or file) to place in the virtual file system' },
    out: { type: 'string', arg: 'DIR', help: 'where the files Yosys writes below out/ go' },
  },
  rest: true,
};
const { values: opts, rest: yosysArgs } = cli(CLI);
if (yosysArgs === null) usage('missing -- before the Yosys arguments');

// The bundle's location is passed by scripts/yosys (npm install --prefix .tools).
const bundle = process.env.TONIC_YOSYS_BUNDLE;
if (!bundle) { process.stderr.write('yosys.mjs: TONIC_YOSYS_BUNDLE not set; use scripts/yosys\n'); process.exit(2); }
const { runYosys, Exit } = await import(pathToFileURL(bundle).href);

const SKIP = new Set(['.git', '.tools', 'build', 'node_modules']);

function usage(msg) {
  process.stderr.write(`yosys.mjs: ${msg}\nusage: node yosys.mjs [--mount DIR]... [--out DIR] -- <yosys args>\n`);
  process.exit(2);
}

function insert(tree, rel, data) {
  const parts = rel.split(path.sep).filter((p) => p !== '' && p !== '.');
  let node = tree;
  for (const p of parts.slice(0, -1)) node = node[p] ??= {};
  node[parts[parts.length - 1]] = data;
}

function mount(tree, dir) {
  const st = fs.statSync(dir, { throwIfNoEntry: false });
  if (!st) usage(`cannot mount ${dir}: no such file or directory`);
  if (st.isFile()) {
    insert(tree, path.relative(process.cwd(), dir), fs.readFileSync(dir));
    return;
  }
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(ent.name)) continue;
    const full = path.join(dir, ent.name);
    if (ent.isDirectory()) mount(tree, full);
    else if (ent.isFile()) insert(tree, path.relative(process.cwd(), full), fs.readFileSync(full));
  }
}

function writeOut(node, dir) {
  fs.mkdirSync(dir, { recursive: true });
  for (const [name, val] of Object.entries(node)) {
    const full = path.join(dir, name);
    if (typeof val === 'string' || val instanceof Uint8Array) fs.writeFileSync(full, val);
    else writeOut(val, full);
  }
}

const tree = {};
for (const dir of opts.mount) mount(tree, dir);
const outDir = opts.out ?? null;
tree.out = {};

let code = 0;
let result;
try {
  result = await runYosys(yosysArgs, tree, { fetchProgress: () => {} });
} catch (e) {
  if (e instanceof Exit) { code = e.code; result = e.files; } else throw e;
}
if (outDir && result && result.out) writeOut(result.out, outDir);
process.exit(code);
