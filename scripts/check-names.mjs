// SPDX-License-Identifier: Apache-2.0
// check-names.mjs — a protocol is its folder: outside protocols/<name>/ no
// tracked file names a protocol (docs/protocol-api.md). Run by `make lint`.
//
// Exempt: the protocol folders themselves, docs/ and *.md (results and
// documentation may name protocols), and files the build generates (they
// are not tracked). Everything else (build files, tools, manifests, shared
// C++ and JS, test data) must reach protocols through the registry
// (scripts/registry.mjs, its generated headers and CMake variables).
//
// What counts as naming protocol P (case-sensitive):
//   - a build of it: P_<F>x<W> (a fuzz target), tonic_P_<F>x<W>,
//     Vtonic_P_..., tonic_fuzz_P_..., P_incoming, P_periodic, netlist_P_;
//   - its folder: protocols/P;
//   - the word P (alone or starting an identifier: P_single.json), unless
//     P is also a receiver mode or a word of the wire format (irn, ndp:
//     receiver modes; sack: SACK blocks), where only the forms above are
//     distinctive.
// Exit 1 listing file:line: text for each hit, 2 on a bad option.
// usage: node scripts/check-names.mjs [--quiet] [--root DIR]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { cli } from './lib/cli.mjs';
import { protocolNames, RECEIVERS, ROOT } from './registry.mjs';

const { values: opts } = cli({
  name: 'check-names',
  usage: 'node scripts/check-names.mjs [--quiet] [--root DIR]',
  description: 'Fails when a tracked file outside protocols/, docs/ and *.md names a protocol\n' +
    '(a protocol is its folder). Exit 1 with the hits, 2 on a bad option.',
  options: {
    quiet: { type: 'boolean', help: 'print only the hits (no summary line)' },
    root: { type: 'string', arg: 'DIR', shown: 'the project', help: 'the git checkout to check' },
  },
});
const TREE = path.resolve(opts.root ?? ROOT);

/// Words that are both a protocol name and a name of something else.
const SHARED_WORDS = new Set([...RECEIVERS, 'sack']);

const protocols = protocolNames(path.join(TREE, 'protocols'));

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const patterns = protocols.map((p) => {
  const n = esc(p);
  const forms = [`(?<![A-Za-z0-9])(?:V?tonic_(?:fuzz_)?)?${n}_\\d+x\\d+`, `\\b${n}_(?:incoming|periodic)\\b`, `\\bnetlist_${n}_`,
    `\\bprotocols/${n}\\b`];
  if (!SHARED_WORDS.has(p)) forms.push(`(?<![A-Za-z0-9_])${n}(?![A-Za-z0-9])`);
  return { p, re: new RegExp(forms.join('|')) };
});

const files = execFileSync('git', ['ls-files', '-z'], { cwd: TREE, encoding: 'utf8' }).split('\0').filter(Boolean)
  .filter((f) => !f.startsWith('protocols/') && !f.startsWith('docs/') && !f.endsWith('.md'));

let hits = 0;
for (const f of files) {
  const named = patterns.find(({ re }) => re.test(f));
  if (named) {
    hits += 1;
    process.stdout.write(`${f}: the path names ${named.p}\n`);
  }
  const abs = path.join(TREE, f);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) continue;
  const buf = fs.readFileSync(abs);
  if (buf.includes(0)) continue;  // binary
  buf.toString('utf8').split('\n').forEach((line, i) => {
    for (const { p, re } of patterns) {
      if (re.test(line)) {
        hits += 1;
        process.stdout.write(`${f}:${i + 1}: names ${p}: ${line.trim().slice(0, 160)}\n`);
        break;
      }
    }
  });
}
if (!opts.quiet) {
  process.stdout.write(hits ? `check-names: ${hits} lines outside protocols/ name a protocol\n`
    : `check-names: ${files.length} files, no protocol named outside protocols/\n`);
}
process.exit(hits ? 1 : 0);
