// SPDX-License-Identifier: Apache-2.0
// scripts/check-names.mjs on a scratch git tree: which files and forms count
// as naming a protocol outside its folder, and which are exempt.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'check-names.mjs');

/// A git tree with protocols foo (a plain name) and roce (also a receiver mode).
function tree(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'check-names-'));
  const all = {
    'protocols/foo/incoming.v': 'module tonic_proto_incoming; endmodule // foo\n',
    'protocols/roce/incoming.v': '// roce\n',
    ...files,
  };
  for (const [f, text] of Object.entries(all)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), text);
  }
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  return dir;
}

const check = (dir) => {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', dir], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

test('a clean tree passes: names inside protocols/, docs/ and *.md, other words that contain a name', () => {
  const dir = tree({
    'docs/results.txt': 'foo 1.00 seg/cycle, tonic_foo_16x16\n',
    'README.md': 'protocols/foo is the example\n',
    'lib/a.cpp': 'int food = 1;  // foobar, afoo, roce receiver, "roce", roce_receiver.hpp\n',
  });
  const r = check(dir);
  assert.equal(r.code, 0, r.out + r.err);
  assert.match(r.out, /no protocol named outside protocols\//);
});

test('each form is a hit, with its file and line', () => {
  const dir = tree({
    'Makefile': 'all:\n\techo tonic_foo_1024x128\n',
    'lib/b.cpp': '// ok\n#include "Vtonic_roce_16x128.h"\n',
    'scripts/c.mjs': "const p = 'foo';\nconst c = 'foo_single.json';\n",
    'tb/d.cmake': 'set(M roce_incoming)\n',
    'tb/fuzz/corpus/roce_16x128/seed1': 'data\n',
  });
  const r = check(dir);
  assert.equal(r.code, 1, r.out);
  assert.match(r.out, /^Makefile:2: names foo: /m);
  assert.match(r.out, /^lib\/b\.cpp:2: names roce: /m);
  assert.match(r.out, /^scripts\/c\.mjs:1: names foo: /m);
  assert.match(r.out, /^scripts\/c\.mjs:2: names foo: /m);
  assert.match(r.out, /^tb\/d\.cmake:1: names roce: /m);
  assert.match(r.out, /^tb\/fuzz\/corpus\/roce_16x128\/seed1: the path names roce$/m);
  assert.match(r.out, /check-names: 6 lines outside protocols\/ name a protocol/);
});

test('an untracked file is not read (generated files are not tracked)', () => {
  const dir = tree({});
  fs.writeFileSync(path.join(dir, 'generated.hpp'), '#include "Vtonic_foo_16x16.h"\n');
  assert.equal(check(dir).code, 0);
});

test('an unknown flag exits 2', () => {
  const r = spawnSync(process.execPath, [SCRIPT, '--rot', '/'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
});
