// SPDX-License-Identifier: Apache-2.0
// protocols.mjs — the size of each protocol under protocols/<name>/: its
// credit scheme, its user-state width and the lines of its two modules
// (the paper reports each protocol in under 200 lines).
//
// For every protocols/<name>/ with incoming.v and periodic_updates.v:
//   scheme      CreditScheme of user_configs.vh (window, rate, token)
//   user_bits   the UserW of `TONIC_PROTO_PARAMS(n)` in incoming.v
//   lines       lines of incoming.v + periodic_updates.v, counting the
//               protocol's own headers they include (`include "x.svh"` of a
//               file in the protocol's folder, or of another protocol's
//               folder through "../<other>/"), each file once
//   code_lines  the same without blank lines and // comment lines
// Writes build/reports/protocols.json and the "protocols" table of
// docs/results.md. Run by `make synth-estimate`; alone:
//   node scripts/protocols.mjs [--check]
// --check: print the rows only, write nothing (the `reports` ctest).
// Exits 1 (with a message) when a protocol's files do not parse.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cli } from './lib/cli.mjs';
import { ROOT, TRANSMIT_FILE } from './manifest.mjs';
import { readUserConfigs } from './registry.mjs';
import { markdownTable, updateResults, writeReport } from './report.mjs';

const PROTOS = path.join(ROOT, 'protocols');

/// The files a module file pulls in from protocol folders (recursively).
function moduleFiles(file, seen) {
  if (seen.has(file)) return;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*`include\s+"([^"]+)"/gm)) {
    const inc = path.resolve(path.dirname(file), m[1]);
    // Framework headers (rtl/dd) and user_configs.vh are not the module's code.
    if ((inc.startsWith(PROTOS + path.sep) || path.dirname(inc) === path.dirname(file))
        && path.basename(inc) !== 'user_configs.vh' && fs.existsSync(inc)) {
      moduleFiles(inc, seen);
    }
  }
}

function count(files) {
  let lines = 0;
  let code = 0;
  for (const f of files) {
    const all = fs.readFileSync(f, 'utf8').split('\n');
    if (all.at(-1) === '') all.pop();
    lines += all.length;
    code += all.filter((l) => l.trim() !== '' && !l.trim().startsWith('//')).length;
  }
  return { lines, code };
}

/// A protocol folder's scheme, user-state width, size and files; null if it
/// lacks one of the three files. `dir` defaults to protocols/<name>.
export function describe(name, dir = path.join(PROTOS, name)) {
  const inc = path.join(dir, 'incoming.v');
  const per = path.join(dir, 'periodic_updates.v');
  const cfg = path.join(dir, 'user_configs.vh');
  if (![inc, per, cfg].every((f) => fs.existsSync(f))) return null;
  const files = new Set();
  moduleFiles(inc, files);
  moduleFiles(per, files);
  const tx = path.join(dir, TRANSMIT_FILE);
  const transmit = fs.existsSync(tx);
  if (transmit) moduleFiles(tx, files);
  const allText = [...files].map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const w = allText.match(/`TONIC_PROTO_PARAMS\(\s*(\d+)\s*\)/);
  const cfgText = [cfg, ...[...fs.readFileSync(cfg, 'utf8').matchAll(/^\s*`include\s+"([^"]+)"/gm)]
    .map((m) => path.resolve(dir, m[1]))].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f, 'utf8')).join('\n');
  const s = cfgText.match(/CreditScheme\s*=\s*tonic_dd_pkg::Credit(\w+)/);
  if (!w || !s) throw new Error(`${path.relative(ROOT, dir) || dir}: no TONIC_PROTO_PARAMS(n) or CreditScheme found`);
  const { lines, code } = count(files);
  return {
    name,
    scheme: s[1].toLowerCase(),
    user_bits: Number(w[1]),
    // Credit opt-ins of user_configs.vh (docs/design/credit-schemes.md) and
    // whether the modules drive a token set.
    cut_voids: /^\s*`define\s+TONIC_RATE_CUT_VOIDS\b/m.test(cfgText),
    token_set: /^\s*`define\s+TONIC_TOKEN_SET\b/m.test(cfgText),
    drives_set: /`TONIC_PROTO_DRIVE_CREDIT_SET\b|\btokens_set_o\s*=\s*(?!1'b0\b|'0\b|0\s*;)/.test(allText),
    // The transmit event (docs/protocol-api.md): its module and $bits(tx_t).
    transmit,
    tx_bits: transmit ? readUserConfigs(cfg).tx_bits : 0,
    lines,
    code_lines: code,
    files: [...files].map((f) => path.relative(ROOT, f)).sort(),
  };
}

function main(check) {
  const rows = fs.readdirSync(PROTOS).sort().map((n) => describe(n)).filter(Boolean);
  if (rows.length === 0) throw new Error('no protocol found under protocols/');
  if (check) {
    for (const r of rows) console.log(`protocols: ${r.name}: ${r.scheme}, ${r.user_bits} bits, ${r.lines} lines`);
    process.exit(0);
  }
  writeReport('protocols.json', rows, 'name', new Set(rows.map((r) => r.name)));
  updateResults('protocols', 'Protocols: user state and size (scripts/protocols.mjs)', markdownTable(rows, [
    ['protocol', (r) => r.name],
    ['credit scheme', (r) => r.scheme],
    ['user state (bits)', (r) => r.user_bits],
    ['lines (its modules)', (r) => r.lines],
    ['code lines', (r) => r.code_lines],
    ['files', (r) => r.files.map((f) => `\`${f}\``).join(', ')],
  ]));
  for (const r of rows) console.log(`protocols: ${r.name}: ${r.scheme}, ${r.user_bits} bits of user state, ${r.lines} lines (${r.code_lines} code)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts } = cli({
    name: 'protocols',
    description: 'User state and size of every protocol under protocols/: build/reports/protocols.json and the\n' +
      'protocols table of docs/results.md.',
    options: { check: { type: 'boolean', help: 'only list them (the ctest): nothing written' } },
  });
  try {
    main(opts.check);
  } catch (e) {
    console.error(`protocols.mjs: ${e.message}`);
    process.exit(1);
  }
}
