// SPDX-License-Identifier: Apache-2.0
// Tests of scripts/check-protocol and scripts/new-protocol (ctest -L checker).
//
// usage: node test_checker.mjs <case>
//   scaffold-<window|rate|tokens>  new-protocol writes a folder that passes
//                                  every step of the checker
//   new-protocol-usage             bad names, schemes and overwrites are refused (exit 2)
//   reject-<mutation>              a broken copy of the window template fails
//                                  exactly the expected steps (exit 1)
//   usage                          bad checker arguments exit 2
//   bands                          the verdict bands at their edges
// Each case works in its own temporary folder.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const { verdict } = await import(path.join(ROOT, 'scripts', 'check-protocol.mjs'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tonic-test-checker-'));
process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

function node(script, args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), ...args], { encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
function check(dir, extra = []) {
  const json = path.join(tmp, `${path.basename(dir)}.json`);
  const r = node('check-protocol.mjs', [dir, '--json', json, '--quiet', ...extra]);
  return { ...r, res: fs.existsSync(json) ? JSON.parse(fs.readFileSync(json, 'utf8')) : null };
}
function scaffold(name, scheme) {
  const dir = path.join(tmp, name);
  const r = node('new-protocol.mjs', [name, '--credit', scheme, '--dir', dir]);
  assert.equal(r.code, 0, r.out);
  return dir;
}
/// Edits a file of dir: replaces `from` (must occur) by `to`.
function edit(dir, file, from, to) {
  const f = path.join(dir, file);
  const text = fs.readFileSync(f, 'utf8');
  assert.ok(text.includes(from), `${file} lacks ${from}`);
  fs.writeFileSync(f, text.replace(from, () => to));
}
const failing = (res) => Object.entries(res.steps).filter(([, v]) => v !== 'ok').map(([k]) => k).sort();

// Broken copies of the window template: the edit, and the steps that must fail.
const MUTATIONS = {
  'missing-file': [(d) => fs.rmSync(path.join(d, 'periodic_updates.v')), ['files']],
  'extra-port': [(d) => edit(d, 'incoming.v', '(`TONIC_PROTO_INCOMING_PORTS)',
    '(`TONIC_PROTO_INCOMING_PORTS, input wire logic extra_i)'), ['interface', 'read_slang']],
  'wrong-name': [(d) => edit(d, 'periodic_updates.v', 'module tonic_proto_periodic ', 'module tonic_proto_timer '),
    ['interface', 'read_slang']],
  undriven: [(d) => edit(d, 'incoming.v', '  assign mark_we_o       = nack;\n', ''), ['driven', 'interface']],
  latch: [(d) => edit(d, 'incoming.v', '  assign wnd_n = nack ?', '  always_comb if (nack) wnd_n = 32\'(wnd_i);\n' +
    '  logic [31:0] unused_w;\n  assign unused_w = nack ?'), ['driven', 'interface']],
  'x-output': [(d) => edit(d, 'incoming.v', '  assign mark_we_o       = nack;', "  assign mark_we_o       = 1'bx;"), ['driven']],
  'user-state': [(d) => {
    edit(d, 'user_configs.vh', '  logic       backoff;', '  logic [3599:0] big;  // 450 B: over the 448 B limit\n  logic       backoff;');
    edit(d, 'user_configs.vh', "'{backoff: 1'b0}", "'{big: '0, backoff: 1'b0}");
    for (const f of ['incoming.v', 'periodic_updates.v']) edit(d, f, 'TONIC_PROTO_PARAMS(1)', 'TONIC_PROTO_PARAMS(3601)');
  }, ['user_state']],
  // A credit opt-in of another scheme (TONIC_TOKEN_SET in a window
  // protocol) is refused before any build.
  'credit-option': [(d) => fs.appendFileSync(path.join(d, 'user_configs.vh'), '`define TONIC_TOKEN_SET\n'),
    ['credit_options']],
  // 6 dependent compare-and-add steps on 32 bits: 42.5 levels on their own
  // (measured), so the whole path (plus the fixed levels) fails by far.
  deep: [(d) => edit(d, 'incoming.v', '  assign wnd_n = nack ?', [
    `  logic [31:0] ${Array.from({ length: 7 }, (_, k) => `c${k}`).join(', ')};`,
    '  assign c0 = cum_ack_i;',
    ...Array.from({ length: 6 }, (_, k) => `  assign c${k + 1} = (c${k} < now_i) ? c${k} + rto_i : c${k} - next_new_i;`),
    '  logic [31:0] wnd_a;',
    '  assign wnd_n = c6 ^ wnd_a;',
    '  assign wnd_a = nack ?'].join('\n')), ['levels']],
};

const name = process.argv[2];
if (name === 'bands') {
  assert.equal(verdict(32), 'pass');
  assert.equal(verdict(32.5), 'marginal');
  assert.equal(verdict(42), 'marginal');
  assert.equal(verdict(42.5), 'fail');
} else if (name?.startsWith('scaffold-')) {
  const scheme = name.slice('scaffold-'.length);
  const dir = scaffold(`t_${scheme}`, scheme);
  const { code, out, res } = check(dir);
  assert.equal(code, 0, out);
  assert.deepEqual(failing(res), [], out);
  assert.equal(res.verdict, 'pass');
  assert.equal(res.scheme, scheme === 'tokens' ? 'token' : scheme);
  for (const k of ['files', 'scheme', 'user_state', 'interface', 'top_lint', 'read_slang', 'driven', 'levels']) {
    assert.equal(res.steps[k], 'ok', `step ${k}`);
  }
  assert.ok(res.incoming.levels > 0 && res.periodic.levels > 0);
} else if (name === 'new-protocol-usage') {
  scaffold('t_once', 'window');
  assert.equal(node('new-protocol.mjs', ['t_once', '--credit', 'window', '--dir', path.join(tmp, 't_once')]).code, 2);
  assert.equal(node('new-protocol.mjs', ['Bad-Name', '--credit', 'window', '--dir', path.join(tmp, 'x')]).code, 2);
  assert.equal(node('new-protocol.mjs', ['ok', '--credit', 'credit', '--dir', path.join(tmp, 'y')]).code, 2);
  assert.equal(node('new-protocol.mjs', ['ok']).code, 2);
  assert.ok(!fs.existsSync(path.join(tmp, 'x')) && !fs.existsSync(path.join(tmp, 'y')));
} else if (name === 'usage') {
  assert.equal(node('check-protocol.mjs', [path.join(tmp, 'none')]).code, 2);
  // A real protocol folder (the registry's first) with a bad option.
  const { loadProtocols, PROTOCOLS_DIR } = await import(path.join(ROOT, 'scripts', 'registry.mjs'));
  const real = path.join(PROTOCOLS_DIR, loadProtocols()[0].name);
  assert.equal(node('check-protocol.mjs', [real, '--window', '100']).code, 2);
  assert.equal(node('check-protocol.mjs', []).code, 2);
  assert.equal(node('check-protocol.mjs', [real, '--bogus']).code, 2);
} else if (name?.startsWith('reject-') && MUTATIONS[name.slice(7)]) {
  const [mutate, expect] = MUTATIONS[name.slice(7)];
  const dir = scaffold(`t_${name.slice(7).replaceAll('-', '_')}`, 'window');
  mutate(dir);
  const { code, out, res } = check(dir, ['--skip-top']);
  assert.equal(code, 1, out);
  assert.deepEqual(failing(res), expect, out);
  if (name === 'reject-deep') assert.equal(res.verdict, 'fail', out);
} else {
  console.error(`test_checker: unknown case ${name}`);
  process.exit(2);
}
console.log(`test_checker: ${name}: OK`);
