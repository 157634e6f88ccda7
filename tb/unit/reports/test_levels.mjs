// SPDX-License-Identifier: Apache-2.0
// Checks scripts/levels.mjs on a hand-written netlist with a known answer:
// ff0 -> LUT2 -> LUT6 -> MUXF7 -> CARRY4 -> CARRY4 -> ff1 is
// 1 + 1 + 1 + 1/2 + 1/2 = 4 levels; the LUTRAM read path ff1 -> RAM64X1D ->
// ff2 is 1 level; the RAMB36E2 output starts a new path. Then the same
// netlist with two cells marked as split modules (tonic_split attribute).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const { analyze } = await import(path.join(here, '..', '..', '..', 'scripts', 'levels.mjs'));
const netlist = JSON.parse(fs.readFileSync(path.join(here, 'levels_fixture.json'), 'utf8'));
const r = analyze(netlist);
assert.equal(r.levels, 4);
assert.equal(r.lut, 3 + 2);          // 3 logic LUTs + RAM64X1D (2 LUTs)
assert.equal(r.lutram, 2);
assert.equal(r.ff, 3);
assert.equal(r.carry, 2);
assert.equal(r.muxf, 1);
assert.equal(r.bram36, 1);
assert.equal(r.comb_loop, false);
assert.deepEqual(r.path.map((c) => c.split(' ')[0]), ['lut0', 'lut1', 'mux7', 'c0', 'c1']);

// Delay estimate by hand (DELAY of levels.mjs): bit 3 is an undriven net
// (a module input: clock-to-out 0.1) with fan-out 35, route 0.13 + 0.035 *
// log2(35); lut0 0.41 + 0.09 = 0.50; lut1 + route(1) 0.13 + 0.09 = 0.72;
// mux7 (dedicated input) + 0.08 = 0.80; c0 + route(1) + 0.06 = 0.99; c1
// (carry chain, no route) + 0.06 = 1.05; ff1: + route(1) 0.13 + setup 0.05
// + uncertainty 0.45 = 1.68 ns.
const route35 = 0.13 + 0.035 * Math.log2(35);
assert.ok(Math.abs(r.delay_ns - (0.1 + route35 + 0.09 + 0.13 + 0.09 + 0.08 + 0.13 + 0.06 + 0.06 + 0.13 + 0.05 + 0.45)) < 0.002,
  `delay_ns ${r.delay_ns}`);
assert.deepEqual(r.delay_path.map((c) => c.split(' ')[0]), ['lut0', 'lut1', 'mux7', 'c0', 'c1']);

// A combinational loop is reported, not hung on.
const looped = structuredClone(netlist);
looped.modules.fixture.cells.lut0.connections.I1 = [8];
assert.equal(analyze(looped).comb_loop, true);
assert.equal(r.split, undefined);

// Split: lut1 in module A, mux7 in module B (attribute tonic_split = 1, 2).
// levels_fixed counts lut0 (or lut2) + c0 + c1 = 2; the split cells add 2 on
// the critical path, 1 each per module.
const marked = structuredClone(netlist);
marked.modules.fixture.cells.lut1.attributes = { tonic_split: '00000000000000000000000000000001' };
marked.modules.fixture.cells.mux7.attributes = { tonic_split: '00000000000000000000000000000010' };
const s = analyze(marked, null, { split: ['A', 'B'] });
assert.equal(s.levels, 4);
assert.equal(s.lut, 5);
assert.equal(s.split.levels_fixed, 2);
assert.equal(s.split.levels_split, 2);
assert.equal(s.split.path_split_levels, 2);
assert.equal(s.split.modules.A.lut, 1);
assert.equal(s.split.modules.A.levels, 1);
assert.equal(s.split.modules.B.muxf, 1);
assert.equal(s.split.modules.B.lut, 0);
assert.equal(s.split.modules.B.levels, 1);
// Through the split cells: lut0 before, c0 + c1 after = 2 fixed levels.
assert.equal(s.split.levels_through, 2);
assert.equal(s.split.levels_via, 4);

// Only lut2 split: the fixed part's worst path (lut0 lut1 mux7 c0 c1) is 4,
// but the paths through lut2 carry 2 fixed levels (mux7 c0 c1).
const side = structuredClone(netlist);
side.modules.fixture.cells.lut2.attributes = { tonic_split: '1' };
const q = analyze(side, null, { split: ['A'] });
assert.equal(q.split.levels_fixed, 4);
assert.equal(q.split.levels_through, 2);
assert.equal(q.split.levels_via, 3);  // lut2 + mux7 + c0 + c1
assert.equal(q.split.modules.A.levels_through, 2);

// Per module: lut2 in A, lut1 in B. Through B: lut0 before, mux7 + c0 + c1
// after = 3 fixed levels; through A still 2; through either, 3.
const two = structuredClone(side);
two.modules.fixture.cells.lut1.attributes = { tonic_split: '10' };
const t = analyze(two, null, { split: ['A', 'B'] });
assert.equal(t.split.modules.A.levels_through, 2);
assert.equal(t.split.modules.B.levels_through, 3);
assert.equal(t.split.levels_through, 3);
console.log('levels.mjs: fixture OK (4 levels; split 2 fixed + 2 split)');
