// SPDX-License-Identifier: Apache-2.0
// levels.mjs — resource counts and logic levels of a Yosys netlist mapped by
// `synth_xilinx -family xcup` (read from `write_json`).
//
// usage: node levels.mjs <netlist.json> [--top NAME] [--path]
// prints one JSON object: {lut, lutram, ff, bram36, uram, dsp, carry, muxf,
//                          levels, path}
//
// Timing model (docs/timing-model.md): a path starts at a module input or at
// the output of a sequential cell (flip-flop, block RAM, URAM, DSP, SRL) and
// ends at a module output or at an input of a sequential cell. Each LUT, each
// MUXF7/F8/F9 and each LUTRAM read adds 1 level; each CARRY4 adds 1/2 (an
// UltraScale+ CARRY8 spans 8 bits, i.e. two CARRY4s: it adds 1). `levels` is
// the largest sum along any path.
import fs from 'node:fs';

import path from 'node:path';
import { fileURLToPath } from 'node:url';

/// Finds the top module: the one marked top, else the first non-blackbox.
function findTop(netlist, topArg) {
  const mods = netlist.modules;
  const name = topArg
    ?? Object.keys(mods).find((m) => mods[m].attributes && Number.parseInt(mods[m].attributes.top, 2) === 1)
    ?? Object.keys(mods).find((m) => !(mods[m].attributes && mods[m].attributes.blackbox));
  if (!mods[name]) throw new Error(`top module ${name} not found`);
  return mods[name];
}

/// Resource counts, levels and the critical path of a flattened netlist.
export function analyze(netlist, topArg = null) {
  const top = findTop(netlist, topArg);
  // Cell classes.
  const LUTRAM_LUTS = { RAM16X1S: 1, RAM32X1S: 1, RAM64X1S: 1, RAM128X1S: 2, RAM256X1S: 4, RAM512X1S: 8,
    RAM16X1D: 2, RAM32X1D: 2, RAM64X1D: 2, RAM128X1D: 4, RAM256X1D: 8, RAM32M: 4, RAM64M: 4, RAM32M16: 8,
    RAM64M8: 8, RAM512X1S_: 8 };
  const isFF = (t) => /^FD[CPRS]E?(_1)?$/.test(t) || /^FD[CPRS]$/.test(t) || t === 'FDRE' || t === 'FDSE' || t === 'FDCE' || t === 'FDPE' || /^LD[CP]E?$/.test(t);
  const isLut = (t) => /^LUT[1-6]$/.test(t) || t === 'INV';
  const isMuxf = (t) => /^MUXF[789]$/.test(t);
  const isSrl = (t) => /^SRL/.test(t);
  const isBram = (t) => /^RAMB(18|36)E[12]$/.test(t) || /^FIFO(18|36)E[12]$/.test(t);
  const isUram = (t) => /^URAM288/.test(t);
  const isDsp = (t) => /^DSP48E[12]$/.test(t);
  const isLutram = (t) => t in LUTRAM_LUTS;
  const isBuffer = (t) => /^(BUFG|IBUF|OBUF|IOBUF|OBUFT|BUFGCE)$/.test(t);
  const isConst = (t) => t === 'GND' || t === 'VCC';
  // LUTRAM read-address pins: the read side is combinational from these.
  const lutramReadPin = (p) => /^(A\d*|ADDR[A-H]\d*|DPRA\d*|ADDR[A-H])$/.test(p) || /^A_?\d+$/.test(p) || /^DPRA/.test(p);

  const counts = { lut: 0, lutram: 0, ff: 0, bram36: 0, uram: 0, dsp: 0, carry: 0, muxf: 0, other: {} };
  const driver = new Map();   // bit -> {cell, delay, inputs:[bits]}
  const endpoints = [];       // bits that end a path
  const seqOutputs = new Set();

  for (const [name, cell] of Object.entries(top.cells)) {
    const t = cell.type;
    const dirs = cell.port_directions || {};
    const conns = cell.connections || {};
    const ins = [], outs = [], readIns = [];
    for (const [port, bits] of Object.entries(conns)) {
      const d = dirs[port] ?? 'input';
      for (const b of bits) {
        if (typeof b !== 'number') continue;  // constant "0"/"1"/"x"
        if (d === 'output') outs.push(b);
        else {
          ins.push(b);
          if (isLutram(t) && lutramReadPin(port)) readIns.push(b);
        }
      }
    }
    let delay = null;  // null: sequential (start/end point)
    if (isLut(t)) { counts.lut++; delay = 1; }
    else if (isMuxf(t)) { counts.muxf++; delay = 1; }
    else if (t === 'CARRY4') { counts.carry++; delay = 0.5; }
    else if (t === 'CARRY8') { counts.carry += 2; delay = 1; }
    else if (isFF(t)) counts.ff++;
    else if (isBram(t)) counts.bram36 += t.startsWith('RAMB18') || t.startsWith('FIFO18') ? 0.5 : 1;
    else if (isUram(t)) counts.uram++;
    else if (isDsp(t)) counts.dsp++;
    else if (isSrl(t)) { counts.lut++; counts.lutram++; }
    else if (isLutram(t)) { counts.lut += LUTRAM_LUTS[t]; counts.lutram += LUTRAM_LUTS[t]; }
    else if (isBuffer(t)) { delay = 0; }
    else if (isConst(t)) { delay = 0; }
    else counts.other[t] = (counts.other[t] ?? 0) + 1;

    if (isLutram(t)) {
      // Write side ends paths; read side is one level after the read address.
      endpoints.push(...ins);
      for (const b of outs) driver.set(b, { cell: `${name} (${t})`, delay: 1, inputs: readIns });
    } else if (delay === null) {
      endpoints.push(...ins);
      for (const b of outs) seqOutputs.add(b);
    } else {
      for (const b of outs) driver.set(b, { cell: `${name} (${t})`, delay, inputs: isConst(t) ? [] : ins });
    }
}
for (const [, port] of Object.entries(top.ports)) {
  if (port.direction === 'output') for (const b of port.bits) if (typeof b === 'number') endpoints.push(b);
}

// Longest arrival per bit (iterative DFS; combinational loops are reported).
const arrival = new Map();
const via = new Map();
const ONSTACK = -1;
let loop = false;
function arrive(bit0) {
  if (arrival.has(bit0) && arrival.get(bit0) !== ONSTACK) return arrival.get(bit0);
  const stack = [[bit0, 0]];
  while (stack.length) {
    const frame = stack[stack.length - 1];
    const [bit, i] = frame;
    const drv = driver.get(bit);
    if (!drv) { arrival.set(bit, 0); stack.pop(); continue; }
    if (i === 0) {
      if (arrival.get(bit) === ONSTACK) { loop = true; arrival.set(bit, 0); stack.pop(); continue; }
      arrival.set(bit, ONSTACK);
    }
    if (i < drv.inputs.length) {
      frame[1] = i + 1;
      const inb = drv.inputs[i];
      const a = arrival.get(inb);
      if (a === undefined) stack.push([inb, 0]);
      else if (a === ONSTACK) loop = true;
      continue;
    }
    let best = 0, from = null;
    for (const inb of drv.inputs) {
      const a = arrival.get(inb);
      if (a !== undefined && a !== ONSTACK && a >= best) { best = a; from = inb; }
    }
    arrival.set(bit, best + drv.delay);
    via.set(bit, from);
    stack.pop();
  }
  return arrival.get(bit0);
}

let levels = 0, worst = null;
for (const b of endpoints) {
  const a = arrive(b);
  if (a > levels) { levels = a; worst = b; }
}

const result = { ...counts, levels, comb_loop: loop };
if (Object.keys(counts.other).length === 0) delete result.other;
if (worst !== null) {
  const path = [];
  for (let b = worst; b !== null && b !== undefined && driver.has(b); b = via.get(b)) path.push(driver.get(b).cell);
  result.path = path.reverse();
}
return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length < 1 || args[0].startsWith('--')) {
    process.stderr.write('usage: node levels.mjs <netlist.json> [--top NAME] [--path]\n');
    process.exit(2);
  }
  const netlist = JSON.parse(fs.readFileSync(args[0], 'utf8'));
  const topArg = args.includes('--top') ? args[args.indexOf('--top') + 1] : null;
  const r = analyze(netlist, topArg);
  if (!args.includes('--path')) delete r.path;
  process.stdout.write(JSON.stringify(r) + '\n');
}
