// SPDX-License-Identifier: Apache-2.0
// levels.mjs — resource counts and logic levels of a Yosys netlist mapped by
// `synth_xilinx -family xcup` (read from `write_json`).
//
// usage: node levels.mjs <netlist.json> [--top NAME] [--path] [--split M1,M2...] [--endpoints N]
//   --endpoints N: also list the N deepest endpoints (sequential cells and
//   output ports, each with its deepest input; the fixed part's levels when
//   split) as `endpoints`, to see how many paths are near the worst.
// prints one JSON object: {lut, lutram, ff, bram36, uram, dsp, carry, muxf,
//                          levels, comb_loop, path, split}
//
// Timing model (docs/timing-model.md): a path starts at a module input or at
// the output of a sequential cell (flip-flop, block RAM, URAM, DSP, SRL) and
// ends at a module output or at an input of a sequential cell. Each LUT, each
// MUXF7/F8/F9 and each LUTRAM read (from the output's own read address)
// adds 1 level; each CARRY4 adds 1/2 (an
// UltraScale+ CARRY8 spans 8 bits, i.e. two CARRY4s: it adds 1). `levels` is
// the largest sum along any path.
//
// Split (the protocol part of the Tonic top, docs/timing-model.md): cells
// carrying the attribute `tonic_split` = i (1-based; set by synth-estimate.mjs
// on the cells of the i-th module of --split before it flattens the netlist)
// belong to module i; all other cells are the fixed part. With a split the
// result has `split`: {modules: {M: {counts..., levels}}, levels_fixed,
// levels_split, path_split_levels}, where
//   levels_fixed       the largest sum along any path counting only fixed
//                      cells (split cells add 0): what the fixed part adds
//                      to any path, including around a split module;
//   levels_split       the same counting only split cells;
//   modules[M].levels  the same counting only the cells of M (its depth
//                      inside the design);
//   path_split_levels  the split cells' share of `levels` on the critical path;
//   levels_through     the largest sum of fixed cells along a path that
//                      passes through at least one split cell: the fixed
//                      logic before and after the split modules on their
//                      own paths (0 when no path crosses them);
//   modules[M].levels_through  levels_through over the paths through
//                      the cells of M only (the fixed logic around M);
//   levels_via         the largest sum of all cells along a path through at
//                      least one split cell: the worst path the split
//                      modules are on.
//
// Delay estimate (docs/timing-model.md, "Netlist delay estimate"): besides
// the level count, `delay_ns` is the largest estimated delay of any path,
// summing per-cell delays, a route delay per net that grows with the net's
// fan-out (none on the dedicated LUT->MUXF and carry-chain connections),
// the start point's clock-to-out and the end point's setup plus the clock
// uncertainty. DELAY holds the figures; `delay_path` the cells of that path.
import fs from 'node:fs';

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './lib/cli.mjs';

/// The cell attribute that marks the cells of split module i (value i >= 1).
export const SPLIT_ATTR = 'tonic_split';

/// The netlist delay model (ns), calibrated in docs/timing-model.md so that
/// a path of 32 levels at fan-out <= 4 stays under 10 ns and one of 43 levels
/// at fan-out 1 does not: per LUT level 0.09 + route(fan-out).
export const DELAY = {
  lut: 0.09,          // LUT1..LUT6, INV
  muxf: 0.08,         // MUXF7/F8/F9
  carry4: 0.06,       // a CARRY4 (half a CARRY8)
  carry8: 0.12,
  lutram: 0.35,       // asynchronous LUTRAM read from its address
  routeBase: 0.13,    // route of a net with fan-out 1
  routePerLog2: 0.035, // + per doubling of the fan-out
  // Clock-to-out of the start points.
  tcoFF: 0.1, tcoBram: 0.9, tcoUram: 1.0, tcoDsp: 0.45, tcoSrl: 0.6,
  // Setup at the end points, plus the clock uncertainty (skew, jitter) every path pays.
  setupFF: 0.05, setupBram: 0.45, setupUram: 0.5, setupDsp: 0.3, uncertainty: 0.45,
};

/// The route delay of a net with `fanout` sinks.
export function routeDelay(fanout) {
  return DELAY.routeBase + DELAY.routePerLog2 * Math.log2(Math.max(1, fanout));
}

/// Finds the top module: the one marked top, else the first non-blackbox.
function findTop(netlist, topArg) {
  const mods = netlist.modules;
  const name = topArg
    ?? Object.keys(mods).find((m) => mods[m].attributes && Number.parseInt(mods[m].attributes.top, 2) === 1)
    ?? Object.keys(mods).find((m) => !(mods[m].attributes && mods[m].attributes.blackbox));
  if (!mods[name]) throw new Error(`top module ${name} not found`);
  return mods[name];
}

/// A Yosys JSON attribute value (binary string, or a string) as a number.
function attrNumber(v) {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  return /^[01]+$/.test(v) ? Number.parseInt(v, 2) : Number(v) || 0;
}

/// Resource counts, levels and the critical path of a flattened netlist;
/// opts.split: names of the split modules (attribute tonic_split = 1, 2, ...).
export function analyze(netlist, topArg = null, opts = {}) {
  const top = findTop(netlist, topArg);
  const splitNames = opts.split ?? [];
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
  // The read-address pins of one LUTRAM output: DO<X> of RAM32M/RAM64M/
  // RAM32M16/RAM64M8 reads at ADDR<X> (ADDRD / ADDRH, the write address,
  // only for its own port); SPO and O at A*, DPO at DPRA*. null: unknown
  // output, read at every read-address pin.
  const lutramOutPins = (out) => {
    let m = /^DO([A-H])$/.exec(out);
    if (m) return (p) => p === `ADDR${m[1]}`;
    if (out === 'SPO' || out === 'O') return (p) => /^A_?\d*$/.test(p);
    if (out === 'DPO') return (p) => /^DPRA\d*$/.test(p);
    return null;
  };

  const newCounts = () => ({ lut: 0, lutram: 0, ff: 0, bram36: 0, uram: 0, dsp: 0, carry: 0, muxf: 0, other: {} });
  const counts = newCounts();
  const partCounts = splitNames.map(() => newCounts());  // per split module
  const driver = new Map();   // bit -> {cell, type, delay, part, inputs:[bits]}
  const start = new Map();    // bit driven by a sequential cell -> its clock-to-out (ns)
  const setup = new Map();    // endpoint bit -> its setup (ns)
  const fanout = new Map();   // bit -> number of sink pins (cell inputs, output ports)
  const seqTiming = (t) => (isBram(t) ? [DELAY.tcoBram, DELAY.setupBram] : isUram(t) ? [DELAY.tcoUram, DELAY.setupUram]
    : isDsp(t) ? [DELAY.tcoDsp, DELAY.setupDsp] : isSrl(t) ? [DELAY.tcoSrl, DELAY.setupFF] : [DELAY.tcoFF, DELAY.setupFF]);
  const endpoints = [];       // bits that end a path
  const owner = new Map();    // endpoint bit -> the cell (or port) it enters

  for (const [name, cell] of Object.entries(top.cells)) {
    const t = cell.type;
    const dirs = cell.port_directions || {};
    const conns = cell.connections || {};
    let part = attrNumber(cell.attributes?.[SPLIT_ATTR]);  // 0: fixed part
    if (part > splitNames.length) part = 0;
    const ins = [], outs = [], readIns = [];
    for (const [port, bits] of Object.entries(conns)) {
      const d = dirs[port] ?? 'input';
      for (const b of bits) {
        if (typeof b !== 'number') continue;  // constant "0"/"1"/"x"
        if (d === 'output') outs.push(b);
        else {
          ins.push(b);
          fanout.set(b, (fanout.get(b) ?? 0) + 1);
          if (isLutram(t) && lutramReadPin(port)) readIns.push(b);
        }
      }
    }
    let delay = null;  // null: sequential (start/end point)
    for (const c of part ? [counts, partCounts[part - 1]] : [counts]) {
      if (isLut(t)) { c.lut++; delay = 1; }
      else if (isMuxf(t)) { c.muxf++; delay = 1; }
      else if (t === 'CARRY4') { c.carry++; delay = 0.5; }
      else if (t === 'CARRY8') { c.carry += 2; delay = 1; }
      else if (isFF(t)) c.ff++;
      else if (isBram(t)) c.bram36 += t.startsWith('RAMB18') || t.startsWith('FIFO18') ? 0.5 : 1;
      else if (isUram(t)) c.uram++;
      else if (isDsp(t)) c.dsp++;
      else if (isSrl(t)) { c.lut++; c.lutram++; }
      else if (isLutram(t)) { c.lut += LUTRAM_LUTS[t]; c.lutram += LUTRAM_LUTS[t]; }
      else if (isBuffer(t)) { delay = 0; }
      else if (isConst(t)) { delay = 0; }
      else c.other[t] = (c.other[t] ?? 0) + 1;
    }

    if (isLutram(t)) {
      // Write side ends paths; each read output is one level after its own
      // read address.
      endpoints.push(...ins);
      for (const b of ins) owner.set(b, `${name} (${t})`);
      for (const [port, bits] of Object.entries(conns)) {
        if (dirs[port] !== 'output') continue;
        const pins = lutramOutPins(port);
        const inputs = pins === null ? readIns
          : Object.entries(conns).filter(([p]) => dirs[p] !== 'output' && pins(p)).flatMap(([, bs]) => bs)
            .filter((b) => typeof b === 'number');
        for (const b of bits) {
          if (typeof b === 'number') driver.set(b, { cell: `${name} (${t})`, type: t, delay: 1, part, inputs });
        }
      }
    } else if (delay === null) {
      endpoints.push(...ins);
      for (const b of ins) owner.set(b, `${name} (${t})`);
      const [tco, su] = seqTiming(t);
      for (const b of outs) start.set(b, tco);
      for (const b of ins) setup.set(b, Math.max(setup.get(b) ?? 0, su));
    } else {
      for (const b of outs) driver.set(b, { cell: `${name} (${t})`, type: t, delay, part, inputs: isConst(t) ? [] : ins });
    }
  }
  for (const [pname, port] of Object.entries(top.ports)) {
    if (port.direction === 'output') {
      for (const b of port.bits) {
        if (typeof b !== 'number') continue;
        endpoints.push(b);
        owner.set(b, `port ${pname}`);
        fanout.set(b, (fanout.get(b) ?? 0) + 1);
      }
    }
  }

  // Longest path where each driver adds weight(drv) (iterative DFS;
  // combinational loops are reported). Returns {levels, worst, via, loop}.
  function longest(weight) {
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
        arrival.set(bit, best + weight(drv));
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
    return { levels, worst, via, loop, arrival };
  }

  // The combinational bits in an order where every driver's inputs come
  // first (iterative post-order DFS from the endpoints; a bit on a loop is
  // visited once, its loop edge ignored — `comb_loop` reports loops).
  function topoOrder() {
    const order = [];
    const state = new Map();  // 1: on stack, 2: done
    for (const b0 of endpoints) {
      if (state.has(b0)) continue;
      const stack = [[b0, 0]];
      state.set(b0, 1);
      while (stack.length) {
        const frame = stack[stack.length - 1];
        const drv = driver.get(frame[0]);
        if (drv && frame[1] < drv.inputs.length) {
          const inb = drv.inputs[frame[1]++];
          if (!state.has(inb)) { state.set(inb, 1); stack.push([inb, 0]); }
          continue;
        }
        state.set(frame[0], 2);
        order.push(frame[0]);
        stack.pop();
      }
    }
    return order;
  }
  const order = topoOrder();

  // Estimated delay (ns) of the slowest path: each driver adds its cell
  // delay plus, per input, the route of that input's net (0 on dedicated
  // connections into a MUXF or from a CARRY4 into a CARRY4).
  const cellDelay = (d) => (isLut(d.type) ? DELAY.lut : isMuxf(d.type) ? DELAY.muxf : d.type === 'CARRY4' ? DELAY.carry4
    : d.type === 'CARRY8' ? DELAY.carry8 : isLutram(d.type) ? DELAY.lutram : 0);
  const dedicated = (from, to) => isMuxf(to.type)
    || (/^CARRY[48]$/.test(to.type) && from !== undefined && /^CARRY[48]$/.test(from.type));
  const darr = new Map();
  const dvia = new Map();
  for (const b of order) {
    const d = driver.get(b);
    if (!d) { darr.set(b, start.get(b) ?? DELAY.tcoFF); continue; }  // module inputs count as flip-flops
    let best = d.inputs.length ? -Infinity : 0, from = null;
    for (const inb of d.inputs) {
      const a = (darr.get(inb) ?? 0) + (dedicated(driver.get(inb), d) ? 0 : routeDelay(fanout.get(inb) ?? 1));
      if (a > best) { best = a; from = inb; }
    }
    darr.set(b, best + cellDelay(d));
    dvia.set(b, from);
  }
  let delayNs = 0, delayEnd = null;
  for (const b of endpoints) {
    const a = (darr.get(b) ?? 0) + routeDelay(fanout.get(b) ?? 1) + (setup.get(b) ?? DELAY.setupFF) + DELAY.uncertainty;
    if (a > delayNs) { delayNs = a; delayEnd = b; }
  }

  const all = longest((d) => d.delay);
  const result = { ...counts, levels: all.levels, delay_ns: Math.round(delayNs * 1000) / 1000, comb_loop: all.loop };
  if (Object.keys(counts.other).length === 0) delete result.other;
  // The cells of a longest path (start first) and the split cells' share.
  function trace(run) {
    const cells = [];
    let share = 0;
    for (let b = run.worst; b !== null && b !== undefined && driver.has(b); b = run.via.get(b)) {
      const d = driver.get(b);
      cells.push(d.part ? `${d.cell} [${splitNames[d.part - 1]}]` : d.cell);
      if (d.part) share += d.delay;
    }
    return { cells: cells.reverse(), share };
  }
  {
    const cells = [];
    for (let b = delayEnd; b !== null && b !== undefined && driver.has(b); b = dvia.get(b)) cells.push(driver.get(b).cell);
    result.delay_path = cells.reverse();
  }
  let pathSplit = 0;
  if (all.worst !== null) {
    const t = trace(all);
    result.path = t.cells;
    pathSplit = t.share;
  }
  if (splitNames.length) {
    const modules = {};
    splitNames.forEach((m, i) => {
      const c = partCounts[i];
      if (Object.keys(c.other).length === 0) delete c.other;
      modules[m] = { ...c, levels: longest((d) => (d.part === i + 1 ? d.delay : 0)).levels };
    });
    const fixed = longest((d) => (d.part ? 0 : d.delay));
    if (fixed.worst !== null) result.path_fixed = trace(fixed).cells;
    // Fixed levels on paths through split cells: per bit, the fixed-only
    // arrival of paths that already passed a split cell (-1: none did).
    // With weight(d) per cell: the longest path that passes at least one
    // split cell, from arrivals `arr` of the same weight.
    // With part = i, only paths through the cells of split module i count.
    const via = (weight, arr, part = 0) => {
      const thr = new Map();
      for (const b of order) {
        const d = driver.get(b);
        if (!d) { thr.set(b, -1); continue; }
        let best = -1;
        const enters = part ? d.part === part : d.part;
        for (const inb of d.inputs) {
          const a = enters ? Math.max(arr.get(inb) ?? 0, thr.get(inb) ?? -1) : (thr.get(inb) ?? -1);
          if (a > best) best = a;
        }
        thr.set(b, best < 0 ? -1 : best + weight(d));
      }
      let m = 0;
      for (const b of endpoints) m = Math.max(m, thr.get(b) ?? -1);
      return m;
    };
    const through = via((d) => (d.part ? 0 : d.delay), fixed.arrival);
    splitNames.forEach((m, i) => { modules[m].levels_through = via((d) => (d.part ? 0 : d.delay), fixed.arrival, i + 1); });
    const viaAll = via((d) => d.delay, all.arrival);
    result.split = {
      modules,
      levels_fixed: fixed.levels,
      levels_through: through,
      levels_via: viaAll,
      levels_split: longest((d) => (d.part ? d.delay : 0)).levels,
      path_split_levels: pathSplit,
    };
  }
  // The deepest endpoints (one entry per cell or port, its deepest bit):
  // opts.endpoints of them, of the fixed part if split, else of all cells.
  if (opts.endpoints) {
    const run = splitNames.length ? longest((d) => (d.part ? 0 : d.delay)) : all;
    const best = new Map();
    for (const b of endpoints) {
      const a = run.arrival.get(b) ?? 0;
      const o = owner.get(b);
      if (!best.has(o) || best.get(o) < a) best.set(o, a);
    }
    result.endpoints = [...best.entries()].sort((x, y) => y[1] - x[1]).slice(0, opts.endpoints)
      .map(([cell, levels]) => ({ cell, levels }));
  }
  return result;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts, positionals } = cli({
    name: 'levels',
    usage: 'node scripts/levels.mjs <netlist.json> [--top NAME] [--path] [--split M1,M2...] [--endpoints N]',
    description: 'Logic levels and resource counts of a synth_xilinx netlist (JSON on stdout).',
    options: {
      top: { type: 'string', arg: 'NAME', help: 'the top module (default: the netlist\'s top)' },
      path: { type: 'boolean', help: 'keep the critical path(s) in the output' },
      split: { type: 'string', arg: 'M1,M2...', help: 'count the cells of these modules apart (the protocol split)' },
      endpoints: { type: 'number', default: 0, help: 'list the N deepest endpoints' },
    },
    positionals: { names: '<netlist.json>', min: 1, max: 1 },
  });
  const netlist = JSON.parse(fs.readFileSync(positionals[0], 'utf8'));
  const split = opts.split ? opts.split.split(',') : [];
  const r = analyze(netlist, opts.top ?? null, { split, endpoints: opts.endpoints });
  if (!opts.path) { delete r.path; delete r.path_fixed; delete r.delay_path; }
  process.stdout.write(JSON.stringify(r) + '\n');
}
