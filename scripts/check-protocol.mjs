// SPDX-License-Identifier: Apache-2.0
// check-protocol.mjs — `scripts/check-protocol <dir>`: does a protocol
// folder fit Tonic, and does its logic fit the 10 ns cycle?
// (docs/protocol-api.md, "Checking a protocol"; docs/timing-model.md.)
//
// usage: scripts/check-protocol <dir> [--window W] [--json FILE] [--strict]
//                               [--skip-top] [--quiet]
//   <dir>      a protocol folder (protocols/<name>, or any other path)
//   --window   W, the window ring size to check at (default 128)
//   --json     also write the result as JSON to FILE
//   --strict   a "marginal" levels verdict fails too
//   --skip-top skip the lint of tonic_top with the protocol (step 5)
//   --quiet    print only the summary line (and failures)
//
// Steps (each printed as ok or FAIL with the reason):
//   1. files      incoming.v, periodic_updates.v, user_configs.vh exist
//   2. scheme     CreditScheme and the user-state width UserW
//                 (TONIC_PROTO_PARAMS(n)) are found (scripts/protocols.mjs)
//   2b. options  the credit opt-ins of user_configs.vh fit the scheme
//                 (TONIC_RATE_CUT_VOIDS: rate; TONIC_TOKEN_SET: token) and
//                 a module that drives tokens_set_o has TONIC_TOKEN_SET
//   3. user state UserW within the scheme's limit, the paper's figures:
//                 window 448 B, rate 340 B, tokens 256 B, and above the
//                 engine's (tonic_dd_pkg::UserWMax bits)
//   4. interface  verilator --lint-only -Wall of rtl/dd/tonic_proto_harness.sv,
//                 which connects both modules port by port as the DD engine
//                 does: a missing, extra or mis-sized port, a wrong module
//                 name, an undriven output or a latch (always_comb not
//                 assigning on every path) is an error or a warning, and
//                 any warning fails
//   5. top lint   verilator -Wall of tonic_top (FlowCount 64) with the
//                 protocol: it compiles into the engine
//   6. read_slang the harness through Yosys' strict SystemVerilog front
//                 end; after `proc`, `check -assert` (no undriven or
//                 multiply driven signal, no loop) and no latch cell
//   7. levels     each module synthesized alone (synth_xilinx -family xcup,
//                 as make synth-estimate) and measured by levels.mjs; no
//                 output may be driven by a constant X. The protocol's
//                 levels = max(incoming, periodic); the whole path = the
//                 fixed-function levels around the protocol on its paths
//                 (synth/fixed-levels.json, written by make synth-estimate)
//                 + the protocol's. Verdict on the whole path: <= 32 pass,
//                 33-42 marginal, > 42 fail (the paper's thresholds, which
//                 are for whole paths: <= 32 always met 10 ns on the
//                 XCKU15P, > 43 never); without the fixed figure, on the
//                 protocol alone, said so in the output.
// Exit 0: every step ok and the verdict pass (or marginal without
// --strict); 1: a step failed or the verdict is fail; 2: bad usage.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze } from './levels.mjs';
import { cli } from './lib/cli.mjs';
import { loadConfigs, ROOT, TRANSMIT_FILE } from './manifest.mjs';
import { describe } from './protocols.mjs';

/// User-state limits per credit scheme, bytes (the Tonic paper).
export const USER_LIMIT_BYTES = { window: 448, rate: 340, token: 256 };

/// The engine's user-state limit in bits (tonic_dd_pkg::UserWMax): a
/// protocol above it does not elaborate, whatever the paper allows.
export function engineUserBits() {
  const pkg = path.join(ROOT, 'rtl', 'dd', 'tonic_dd_pkg.sv');
  const m = fs.readFileSync(pkg, 'utf8').match(/localparam\s+int\s+unsigned\s+UserWMax\s*=\s*(\d+)\s*;/);
  if (!m) throw new Error('rtl/dd/tonic_dd_pkg.sv: no localparam int unsigned UserWMax = <n>;');
  return Number(m[1]);
}
/// The verdict bands on a protocol's logic levels (the Tonic paper).
export const BANDS = { pass: 32, marginal: 42 };
/// The linear calibration of docs/timing-model.md: ns ~= base + per * levels
/// (per: the per-level figure at a typical fan-out of 4).
export const LINEAR = { base: 0.6, per: 0.29 };

export function verdict(levels) {
  if (levels <= BANDS.pass) return 'pass';
  if (levels <= BANDS.marginal) return 'marginal';
  return 'fail';
}

const TOOLS = process.env.TONIC_TOOLS_DIR ?? path.join(ROOT, '.tools');
const YOSYS_BUNDLE = path.join(TOOLS, 'node_modules', '@yowasp', 'yosys', 'gen', 'bundle.js');
const PKGS = ['rtl/common/tonic_wire_pkg.sv', 'rtl/dd/tonic_dd_pkg.sv', 'rtl/dd/tonic_proto_pkg.sv']
  .map((f) => path.join(ROOT, f));
const HARNESS = path.join(ROOT, 'rtl', 'dd', 'tonic_proto_harness.sv');
const COMMON = path.join(ROOT, 'rtl', 'common');

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) return { code: 127, out: `${cmd}: ${r.error.message}` };
  return { code: r.status ?? 1, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/// A per-run Verilator waiver file: the API fixes the file names
/// incoming.v / periodic_updates.v / transmit.v, which differ from the
/// module names.
function waivers(dir, work) {
  const f = path.join(work, 'waivers.vlt');
  fs.writeFileSync(f, ['`verilator_config',
    `lint_off -rule DECLFILENAME -file "${path.join(dir, 'incoming.v')}"`,
    `lint_off -rule DECLFILENAME -file "${path.join(dir, 'periodic_updates.v')}"`,
    `lint_off -rule DECLFILENAME -file "${path.join(dir, TRANSMIT_FILE)}"`,
    // tonic_top and the DD engine read only their own parameters of user_configs.vh.
    `lint_off -rule UNUSEDPARAM -file "${path.join(ROOT, 'rtl', 'dd', 'tonic_dd_engine.sv')}"`,
    `lint_off -rule UNUSEDPARAM -file "${path.join(ROOT, 'rtl', 'tonic_top.sv')}"`, ''].join('\n'));
  return f;
}

/// The sources of tonic_top with this protocol: a config of the "tonic_top"
/// file set (rtl/manifest/tonic.json, the one list of files), its protocol
/// files swapped for dir's.
function topSources(dir) {
  const base = loadConfigs().find((c) => c.fileset === 'tonic_top');
  if (!base) throw new Error('no config of the tonic_top file set (rtl/manifest/tonic.json)');
  const srcs = base.sources.filter((s) => !s.endsWith(`/${TRANSMIT_FILE}`))
    .map((s) => (s.endsWith('/incoming.v') ? path.join(dir, 'incoming.v')
      : s.endsWith('/periodic_updates.v') ? path.join(dir, 'periodic_updates.v') : path.join(ROOT, s)));
  // The optional transmit.v right after the other two.
  if (fs.existsSync(path.join(dir, TRANSMIT_FILE))) {
    srcs.splice(srcs.indexOf(path.join(dir, 'periodic_updates.v')) + 1, 0, path.join(dir, TRANSMIT_FILE));
  }
  return srcs;
}

/// The Yosys script: harness through read_slang + structural checks, then
/// each module synthesized alone into out/<module>.json. Paths are
/// relative to "/" (Yosys runs with cwd "/" so that any folder mounts).
function yosysScript(dir, w, userW, txW) {
  const rel = (p) => path.relative('/', p);
  // The cells of rtl/common (its package, tonic_wire_pkg, is one of PKGS).
  const commons = fs.readdirSync(COMMON).filter((f) => f.endsWith('.sv') && !PKGS.includes(path.join(COMMON, f)))
    .map((f) => rel(path.join(COMMON, f)));
  // A protocol with a transmit event: its module, the define and TxW.
  const tx = txW > 0 ? rel(path.join(dir, TRANSMIT_FILE)) : null;
  const incs = ` -I ${rel(path.join(ROOT, 'rtl', 'dd'))} -I ${rel(dir)}${tx ? ' -D TONIC_PROTO_TRANSMIT=1' : ''}`;
  const txG = tx ? ` -G TxW=${txW}` : '';
  const files = (extra) => [...PKGS.map(rel), ...commons, ...extra].join(' ');
  const inc = rel(path.join(dir, 'incoming.v'));
  const per = rel(path.join(dir, 'periodic_updates.v'));
  const synth = (file, top, out) => [
    `log -- tonic-step synth ${top}`,
    `read_slang -j 1${incs} ${files([file])} --top ${top}${top === 'tonic_proto_transmit' ? '' : ` -G W=${w}`}${txG}`,
    `synth_xilinx -family xcup -top ${top} -flatten -noiopad`,
    'opt_clean -purge', 'setattr -unset src -unset hdlname', `hierarchy -top ${top} -purge_lib`,
    `write_json out/${out}.json`, 'design -reset',
  ];
  return [
    'log -- tonic-step read_slang',
    `read_slang -j 1${incs} ${files([inc, per, ...(tx ? [tx] : []), rel(HARNESS)])} --top tonic_proto_harness -G W=${w} -G UserW=${userW}${txG}`,
    'hierarchy -check -top tonic_proto_harness',
    'log -- tonic-step check',
    'proc', 'flatten', 'opt_clean', 'check -assert',
    // Unreachable branches of proc's decision trees carry X inputs; drop
    // them (opt -mux_undef) so that an X left is a real undefined value.
    'opt -mux_undef', 'opt_clean', 'write_json out/harness.json',
    'log -- tonic-step latch',
    'select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr t:$aldff',
    'design -reset',
    ...synth(inc, 'tonic_proto_incoming', 'incoming'),
    ...synth(per, 'tonic_proto_periodic', 'periodic'),
    ...(tx ? synth(tx, 'tonic_proto_transmit', 'transmit') : []),
  ].join('; ');
}

/// Where a netlist uses a constant X (an undefined value: an output not
/// assigned, an 'x literal, a case without default feeding logic), as
/// "cell.port" / "port" names of the top module.
function xUses(netlist) {
  const top = Object.values(netlist.modules).find((m) => m.attributes && Number.parseInt(m.attributes.top, 2) === 1)
    ?? Object.values(netlist.modules)[0];
  const bad = [];
  for (const [name, c] of Object.entries(top.cells)) {
    for (const [port, bits] of Object.entries(c.connections ?? {})) {
      if (bits.includes('x')) bad.push(`${name.replace(/^\$[^$]*\$/, '')}.${port}`);
    }
  }
  for (const [name, p] of Object.entries(top.ports)) if (p.bits.includes('x')) bad.push(`port ${name}`);
  for (const [name, n] of Object.entries(top.netnames ?? {})) {
    if (!name.startsWith('$') && n.bits.includes('x')) bad.push(`signal ${name}`);
  }
  return bad;
}

/// Output ports of a netlist's top driven by a constant X, as "port[bit]".
function xOutputs(netlist) {
  const top = Object.values(netlist.modules).find((m) => m.attributes && Number.parseInt(m.attributes.top, 2) === 1)
    ?? Object.values(netlist.modules)[0];
  const bad = [];
  for (const [name, p] of Object.entries(top.ports)) {
    if (p.direction !== 'output') continue;
    p.bits.forEach((b, i) => { if (b === 'x') bad.push(`${name}[${i}]`); });
  }
  return bad;
}

/// The fixed-function levels around the protocol for a credit scheme
/// (synth/fixed-levels.json, written by make synth-estimate), or null.
export function fixedLevels(scheme) {
  const f = path.join(ROOT, 'synth', 'fixed-levels.json');
  if (!fs.existsSync(f)) return null;
  const doc = JSON.parse(fs.readFileSync(f, 'utf8'));
  return doc.schemes?.[scheme] ?? null;
}

/// Runs every step on a protocol folder; returns the result object.
export function checkProtocol(dirArg, opts = {}) {
  const dir = path.resolve(dirArg);
  const w = opts.window ?? 128;
  const name = path.basename(dir);
  const res = { name, dir: path.relative(ROOT, dir).startsWith('..') ? dir : path.relative(ROOT, dir), window: w,
    steps: {}, ok: true };
  const say = opts.say ?? (() => {});
  const step = (key, ok, msg) => {
    res.steps[key] = ok ? 'ok' : msg;
    if (!ok) res.ok = false;
    say(key, ok, msg);
    return ok;
  };

  // 1. files
  const missing = ['incoming.v', 'periodic_updates.v', 'user_configs.vh'].filter((f) => !fs.existsSync(path.join(dir, f)));
  if (!step('files', missing.length === 0, `missing ${missing.join(', ')} in ${dir}`)) return res;

  // 2. scheme and user-state width
  let d;
  try {
    d = describe(name, dir);
  } catch (e) {
    step('scheme', false, e.message);
    return res;
  }
  Object.assign(res, { scheme: d.scheme, user_bits: d.user_bits, user_bytes: Math.ceil(d.user_bits / 8),
    lines: d.lines, code_lines: d.code_lines, transmit: d.transmit, tx_bits: d.tx_bits });
  if (d.transmit && d.tx_bits === 0) {
    step('scheme', false, `${TRANSMIT_FILE} needs a typedef struct packed {...} tx_t and a TxInit in user_configs.vh`);
    return res;
  }
  step('scheme', true);

  // 2b. credit opt-ins: each belongs to one scheme, and a token set needs
  // its opt-in (without it the engine would treat the set as an add).
  const optBad = [
    d.cut_voids && d.scheme !== 'rate' && 'TONIC_RATE_CUT_VOIDS is for the rate scheme',
    d.token_set && d.scheme !== 'token' && 'TONIC_TOKEN_SET is for the token scheme',
    d.drives_set && !d.token_set &&
      'the modules drive tokens_set_o but user_configs.vh does not define TONIC_TOKEN_SET (a set would be an add)',
  ].filter(Boolean);
  Object.assign(res, { cut_voids: d.cut_voids, token_set: d.token_set });
  if (!step('credit_options', optBad.length === 0, optBad.join('; '))) return res;

  // 3. user state
  // The smaller of the paper's limit for the scheme and the engine's.
  const paper = USER_LIMIT_BYTES[d.scheme];
  const engineBits = engineUserBits();
  const limitBits = Math.min(paper * 8, engineBits);
  res.user_limit_bytes = Math.floor(limitBits / 8);
  res.user_limit_bits = limitBits;
  // A protocol the engine cannot take is not built further (the later
  // steps would only repeat the refusal).
  if (!step('user_state', d.user_bits <= limitBits,
    `${d.user_bits} bits of user state (${res.user_bytes} B) exceed ` +
    (limitBits < paper * 8 ? `the engine's ${engineBits} bits (tonic_dd_pkg::UserWMax)` : `the ${d.scheme} scheme's ${paper} B`))) {
    return res;
  }

  const work = fs.mkdtempSync(path.join(os.tmpdir(), `tonic-check-${name}-`));
  try {
    const vlt = waivers(dir, work);
    const vargs = ['--lint-only', '-Wall', `-I${COMMON}`, `-I${path.join(ROOT, 'rtl', 'dd')}`, `-I${dir}`,
      '+systemverilogext+v', vlt];
    // 4. interface + lint (Verilator)
    const txArgs = d.transmit ? ['+define+TONIC_PROTO_TRANSMIT=1'] : [];
    const h = run('verilator', [...vargs, ...txArgs, ...PKGS, path.join(dir, 'incoming.v'),
      path.join(dir, 'periodic_updates.v'), ...(d.transmit ? [path.join(dir, TRANSMIT_FILE)] : []),
      HARNESS, '--top-module', 'tonic_proto_harness', `-GW=${w}`, `-GUserW=${d.user_bits}`,
      ...(d.transmit ? [`-GTxW=${d.tx_bits}`] : [])]);
    step('interface', h.code === 0 && h.out.trim() === '', `verilator -Wall on the harness:\n${h.out.trim()}`);

    // 5. tonic_top with the protocol
    if (!opts.skipTop) {
      const t = run('verilator', [...vargs, ...txArgs, ...topSources(dir), '--top-module', 'tonic_top', '-GFlowCount=64',
        `-GWindow=${w}`]);
      step('top_lint', t.code === 0 && t.out.trim() === '', `verilator -Wall on tonic_top with the protocol:\n${t.out.trim()}`);
    }

    // 6 + 7. Yosys: read_slang + checks, then synthesis of each module.
    const outDir = path.join(work, 'out');
    const mounts = [path.join(ROOT, 'rtl'), ...d.files.map((f) => path.resolve(ROOT, f)),
      path.join(dir, 'user_configs.vh')];
    for (const inc of fs.readFileSync(path.join(dir, 'user_configs.vh'), 'utf8').matchAll(/^\s*`include\s+"([^"]+)"/gm)) {
      const f = path.resolve(dir, inc[1]);
      if (fs.existsSync(f)) mounts.push(f);
    }
    if (!fs.existsSync(YOSYS_BUNDLE)) throw new Error(`Yosys not found at ${YOSYS_BUNDLE}: run scripts/setup.sh`);
    const y = run(process.execPath, [path.join(ROOT, 'scripts', 'yosys.mjs'),
      ...[...new Set(mounts)].flatMap((m) => ['--mount', m]), '--out', outDir, '--',
      '-p', yosysScript(dir, w, d.user_bits, d.tx_bits)], { cwd: '/', env: { ...process.env, TONIC_YOSYS_BUNDLE: YOSYS_BUNDLE } });
    fs.writeFileSync(path.join(work, 'yosys.log'), y.out);
    // Warnings and errors, without colour codes; synth_xilinx's own notice
    // that its ABC9 netlist writer is experimental is not about the protocol.
    // eslint-disable-next-line no-control-regex
    const plain = y.out.replace(/\x1b\[[0-9;]*m/g, '');
    const warn = plain.split('\n').filter((l) => /^Warning: |^ERROR: |: warning: |: error: /.test(l)
      && !/Feature 'write_xaiger2' is experimental/.test(l));
    const failedAt = (y.out.match(/tonic-step (\S+)(?: (\S+))?/g) ?? []).at(-1) ?? 'tonic-step read_slang';
    if (y.code !== 0) {
      const where = failedAt.split(' ').slice(1).join(' ');
      const key = where.startsWith('synth') ? 'levels' : where === 'check' ? 'driven' : where === 'latch' ? 'driven' : 'read_slang';
      const why = where === 'latch' ? 'a latch was inferred (an output or variable not assigned on every path of an always_comb)'
        : where === 'check' ? 'Yosys check found undriven / multiply driven signals or a loop' : `Yosys failed at ${where}`;
      // The diagnostics: error lines with the source lines read_slang quotes after them.
      const lines = plain.split('\n');
      const pick = (re) => lines.flatMap((l, i) => (!l.startsWith('-- Running command') && re.test(l) ? lines.slice(i, i + 3) : []));
      let diag = pick(/^Warning: |^ERROR: |: error: /);
      if (diag.length === 0) diag = pick(/error|problem|latch|undriven|driver/i);
      step(key, false, `${why}:\n${[...new Set(diag)].slice(0, 20).join('\n')}`);
      return res;
    }
    step('read_slang', warn.length === 0, `Yosys read_slang / synthesis warnings:\n${warn.join('\n')}`);
    const xu = xUses(JSON.parse(fs.readFileSync(path.join(outDir, 'harness.json'), 'utf8')));
    step('driven', xu.length === 0, `constant X (undefined value) in the protocol logic, e.g. an output not assigned on ` +
      `every path: ${[...new Set(xu)].slice(0, 8).join(', ')}`);

    // 7. levels
    let worst = 0;
    let worstDelay = 0;
    const xs = [];
    const mods = ['incoming', 'periodic', ...(d.transmit ? ['transmit'] : [])];
    for (const m of mods) {
      const net = JSON.parse(fs.readFileSync(path.join(outDir, `${m}.json`), 'utf8'));
      const r = analyze(net, `tonic_proto_${m}`);
      res[m] = { lut: r.lut, ff: r.ff, carry: r.carry, muxf: r.muxf, dsp: r.dsp, levels: r.levels, delay_ns: r.delay_ns,
        path: r.path };
      xs.push(...xOutputs(net).map((b) => `tonic_proto_${m}.${b}`));
      worst = Math.max(worst, r.levels);
      worstDelay = Math.max(worstDelay, r.delay_ns);
      if (r.comb_loop) step('levels', false, `combinational loop in tonic_proto_${m}`);
    }
    step('outputs_defined', xs.length === 0, `outputs driven by a constant X: ${xs.slice(0, 8).join(', ')}`);
    res.levels = worst;
    res.delay_ns = worstDelay;
    // The paper's bands are for the whole path: the fixed-function levels
    // around the protocol plus the protocol's. Without the fixed figure
    // (no synth/fixed-levels.json) the protocol alone is judged, and says so.
    // Each module with the fixed levels around its own processor when the
    // file has them (levels_around_incoming / _periodic), else with the
    // worst around either.
    const fx = fixedLevels(d.scheme);
    if (fx) {
      res.fixed = fx;
      // Until synth/fixed-levels.json holds a measured figure for the
      // transmit processor (written once a top with a transmit module has
      // been synthesized), it is charged the larger of the other two
      // (conservative; its own fixed part is a block-RAM read mux in front
      // and a write behind).
      const around = (m) => fx[`levels_around_${m}`] ?? (m === 'transmit'
        ? Math.max(around('incoming'), around('periodic')) : fx.levels_around_proto);
      const paths = mods.map((m) => ({ m, fixed: around(m), proto: res[m].levels,
        total: around(m) + res[m].levels }));
      const p = paths.reduce((a, b) => (b.total > a.total ? b : a));
      res.path_levels = p.total;
      res.path_fixed_levels = p.fixed;
      res.path_module = p.m;
      res.path_delay_ns = Math.round((LINEAR.base + LINEAR.per * res.path_levels) * 100) / 100;
    }
    res.verdict_on = fx ? 'path' : 'protocol';
    res.verdict = verdict(fx ? res.path_levels : worst);
    const bad = res.verdict === 'fail' || (opts.strict && res.verdict === 'marginal');
    const judged = fx ? `whole path ${res.path_fixed_levels} fixed + ${res.path_levels - res.path_fixed_levels} ` +
      `protocol (${res.path_module}) = ${res.path_levels} levels`
      : `${worst} levels of the protocol alone (fixed-function levels unknown)`;
    step('levels', !bad, `${judged}: ${res.verdict} (pass <= ${BANDS.pass}, marginal <= ${BANDS.marginal})`);
    return res;
  } finally {
    if (!opts.keep) fs.rmSync(work, { recursive: true, force: true });
    else res.work = work;
  }
}

/// The command line of scripts/check-protocol.
const CLI = {
  name: 'check-protocol',
  usage: 'scripts/check-protocol <dir> [--window W] [--json FILE] [--strict] [--skip-top] [--quiet]',
  description: 'Checks a protocol folder against the protocol API and the 10 ns budget. Exit 0: every step ok and\n' +
    'the verdict pass (or marginal without --strict); 1: a step failed or the verdict is fail; 2: bad usage.',
  options: {
    window: { type: 'number', default: 128, arg: 'W', help: 'the window ring size to check at (a power of two in 8..256)' },
    json: { type: 'string', arg: 'FILE', help: 'also write the result as JSON to FILE' },
    strict: { type: 'boolean', help: 'a "marginal" levels verdict fails too' },
    'skip-top': { type: 'boolean', help: 'skip the lint of tonic_top with the protocol (step 5)' },
    keep: { type: 'boolean', help: 'keep the temporary work folder' },
    quiet: { type: 'boolean', help: 'print only the summary line (and failures)' },
  },
  positionals: { names: '<dir>', min: 1, max: 1 },
};

function main(argv) {
  const { values: o, positionals } = cli(CLI, argv);
  const dir = positionals[0];
  const json = o.json ?? null;
  const quiet = o.quiet;
  const opts = { window: o.window };
  if (o.strict) opts.strict = true;
  if (o['skip-top']) opts.skipTop = true;
  if (o.keep) opts.keep = true;
  const w = opts.window;
  if (!Number.isInteger(w) || w < 8 || w > 256 || (w & (w - 1)) !== 0) {
    console.error(`check-protocol: --window must be a power of two in 8..256, not ${w}`);
    return 2;
  }
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(`check-protocol: ${dir}: no such folder`);
    return 2;
  }
  const name = path.basename(path.resolve(dir));
  opts.say = (key, ok, msg) => {
    if (!ok) console.log(`check-protocol: ${name}: ${key}: FAIL: ${msg}`);
    else if (!quiet) console.log(`check-protocol: ${name}: ${key}: ok`);
  };
  const r = checkProtocol(dir, opts);
  if (json) {
    fs.mkdirSync(path.dirname(path.resolve(json)), { recursive: true });
    fs.writeFileSync(json, JSON.stringify(r, null, 2) + '\n');
  }
  if (r.levels !== undefined) {
    const mod = (m) => `${m} ${r[m].levels} levels / ${r[m].lut} LUT / ${r[m].delay_ns} ns`;
    let line = `check-protocol: ${name}: ${r.scheme}, user state ${r.user_bits} bits (${r.user_bytes} of ${r.user_limit_bytes} B); ` +
      `${mod('incoming')}, ${mod('periodic')}${r.transmit ? `, ${mod('transmit')} (tx state ${r.tx_bits} bits)` : ''}; ` +
      `protocol ${r.levels} levels`;
    if (r.fixed) {
      line += `; whole path ${r.path_fixed_levels} fixed + ${r.path_levels - r.path_fixed_levels} (${r.path_module}) = ` +
        `${r.path_levels} levels ` +
        `(<= ~${r.path_delay_ns} ns at ${LINEAR.per} ns/level; an upper bound, docs/timing-model.md): ${r.verdict.toUpperCase()}`;
    } else {
      line += `: ${r.verdict.toUpperCase()} on the protocol alone (fixed-function levels unknown: no ` +
        'synth/fixed-levels.json, make synth-estimate)';
    }
    console.log(line);
  }
  console.log(`check-protocol: ${name}: ${r.ok ? 'OK' : 'FAILED'}`);
  return r.ok ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (e) {
    console.error(`check-protocol: ${e.message}`);
    process.exit(2);
  }
}
