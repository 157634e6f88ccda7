// SPDX-License-Identifier: Apache-2.0
// registry.mjs — the protocol registry: the one reader of protocol folders.
//
// A protocol is its folder, protocols/<name>/ (docs/protocol-api.md):
//   incoming.v, periodic_updates.v, user_configs.vh   the RTL (the paper's three files)
//   protocol.json                                     the descriptor (below)
//   README.md, optional C++ twin and tests            documentation
//   netsim/<scenario>.json   optional network scenarios of tonic-netsim
//                            (docs/netsim.md) that run this protocol: the
//                            file's "protocol" is the folder's name. The
//                            tools pick them by scenario name, never by
//                            protocol: `make netsim` and `make compare` take
//                            the reference protocol's single.json, and
//                            scripts/netsim-experiments.mjs every protocol
//                            that provides an experiment's scenarios
//                            (single, incast, dcqcn_*, livelock, reorder)
//   fuzz/corpus/, fuzz/crashes/   the seed corpus and the crash regressions
//                            of the protocol's fuzz target (checks.fuzz)
// Every tool learns about protocols here: scripts/manifest.mjs adds the
// builds of every protocol to the manifest configs (so CMake, `make lint`,
// `make synth-estimate`, bench, netlist and Vivado pick them up), and
// `--cpp` writes the generated C++ registry (protocol names, credit scheme,
// receiver mode, the constants of user_configs.vh, user-state fields) that
// the simulators and test rigs include instead of restating any of it.
//
// protocol.json (every key optional except "receiver"):
//   receiver       the receiver mode the protocol pairs with, one of RECEIVERS:
//                  tcp (cumulative acks), tcp_sack (acks + SACK blocks),
//                  roce (go-back-N NACKs + CNPs), irn (NACKs with SACK),
//                  ndp (acks, NACKs of trimmed segments, pulls)
//   host_restart   "message": after a NACK or a timeout the host driver
//                  re-posts the whole message (go-back-0); default "none"
//   probes         {role: user_t field}: the user-state fields (in the
//                  low 128 bits of user_t, which the trace port shows) that traces
//                  and plots show, by role (ssthresh, in_recovery, dup_acks,
//                  rate; partial_ack: "a partial ack already restarted the
//                  timer" of an RFC 6582 impatient NewReno, which the
//                  back-pressure rig's timer check reads)
//   small          {"flows": F, "window": W}: the size of the small builds
//                  (tests, soak, fuzz); default 16 x 16 with window credit,
//                  16 x 128 otherwise
//   module_windows extra window sizes of the stand-alone protocol-module
//                  builds (<name>_incoming_w<W>, <name>_periodic_w<W>)
//   builds         extra tonic_top builds: [{flows, window, suffix?,
//                  synth?, model?, defines?, model_params?, lint?}]
//   twin           the class of the protocol's C++ twin, twin.hpp in the
//                  folder (namespace tonic::ref; docs/protocol-api.md): with
//                  it the tests and tools check the protocol's state event by
//                  event. A twin.hpp without this key, or the key without the
//                  file or the class, is an error.
//   traced         true: tonic-run-trace carries an FST-traced model of the
//                  protocol's 1024 x 128 build (`make run ARGS=--trace=F`);
//                  needs a twin and a tcp / tcp_sack receiver
//   reference      true on exactly one protocol of the tree: the window
//                  protocol the core's own system tests (robustness, the
//                  sizes of the sender top), `make vivado`, `make netsim`
//                  and `make compare` use when no protocol is given. A tree
//                  without it (TONIC_ONLY_PROTOCOLS) has those defaults
//                  unset; `--reference` prints it (or nothing)
//   ns3            the ns-3 3.37 TCP congestion control that models the
//                  protocol (e.g. "TcpNewReno"): tonic-ns3 (which reads it
//                  from the generated tonic/ns3_models.hpp) and the ns-3
//                  comparisons run only protocols that name one
//   timing         {"marginal": "<why>"}: the protocol's whole path (fixed +
//                  protocol levels) is in check-protocol's marginal band
//                  and the folder says why; make test then checks it
//                  without --strict (a fail still fails). Without the key
//                  the check is --strict
//   checks         {check: true | {"defines": {MACRO: value}}}: the generic
//                  rigs that run this protocol (opt-in: each costs test
//                  time), the scenario chosen by its credit scheme; CHECKS:
//                  backpressure  tb/unit/backpressure (make test): window
//                                credit on tonic_<name>_1024x128 (receiver
//                                tcp), rate (roce) and tokens (ndp) on the
//                                small build (>= 16 flows); no "defines"
//                  fuzz          tb/fuzz target <name>_<small>: the small
//                                build, or with "defines" its variant
//                                tonic_fuzz_<name>_<small> (e.g. a short
//                                RTO); replay in make test, make fuzz; its
//                                seeds in fuzz/corpus/ of the folder (none:
//                                the generated ones), its crash regressions
//                                in fuzz/crashes/
//                  netlist       make netlist: config netlist_<name>_<small>
//                                (the small size, structural memories,
//                                "defines" as model_defines), its Yosys
//                                netlist against its RTL; receiver tcp or
//                                tcp_sack (window), roce (rate), ndp (tokens)
//                  The registry emits each list: CMake TONIC_<CHECK>_*
//                  (scripts/manifest.mjs --cmake), C++ dispatch headers
//                  (backpressure_models.hpp, fuzz_models.hpp) and
//                  `--check NAME` (the Makefile's defaults).
// Every protocol gets, without listing them: tonic_<name>_1024x128 (model,
// lint, synthesis; the build the simulators run), tonic_<name>_<small> (the
// tests', soak's and fuzz replay's model: the structural memories and the
// RTL assertions), tonic_<name>_<small>_noassert (without the assertions),
// <name>_incoming
// (lint, synthesis) and <name>_periodic (lint).
//
// The constants come from user_configs.vh itself: its `localparam`s are
// evaluated (integer arithmetic, `ifdef/`else on the build's defines,
// `include of another folder's file) and user_t's fields are laid out, first
// field most significant. A construct the reader does not understand is an
// error naming the file, never a silent default.
//
// CLI: node scripts/registry.mjs [--list] [--cpp DIR] [--check NAME] [--reference] [--scenario NAME]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cli } from './lib/cli.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PROTOCOLS_DIR = path.join(ROOT, 'protocols');
export const RECEIVERS = ['tcp', 'tcp_sack', 'roce', 'irn', 'ndp'];
export const CREDITS = { CreditWindow: 'window', CreditRate: 'rate', CreditToken: 'tokens' };
/// Constants every user_configs.vh defines (docs/protocol-api.md).
export const REQUIRED_CONSTS = ['InitWnd', 'RtoInit', 'RtoMin', 'RtoMax', 'RateInit', 'BurstBytes', 'TokensInit'];
/// The tonic_top file set: the sources a tonic_top build compiles, with
/// the protocol's two modules where PROTOCOL_FILES stands.
export const PROTOCOL_FILES = '$protocol';

const rel = (f) => path.relative(ROOT, f);

// ---------------------------------------------------------------------------
// user_configs.vh: preprocessing, statements, integer expressions.

/// The text of a .vh file after `ifdef/`ifndef/`else/`endif (against
/// `defines`) and `include (relative to the including file), comments removed.
function preprocess(file, defines, depth = 0) {
  if (depth > 8) throw new Error(`${rel(file)}: \`include nested too deep`);
  const text = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ' ');
  const out = [];
  const stack = [];  // {active, taken}
  const active = () => stack.every((s) => s.active);
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\/\/.*$/, '');
    const d = line.match(/^\s*`(ifdef|ifndef|else|endif|include|define|undef)\b\s*(.*)$/);
    if (!d) {
      if (active()) out.push(line);
      return;
    }
    const [, dir, arg] = d;
    const where = `${rel(file)}:${i + 1}`;
    if (dir === 'ifdef' || dir === 'ifndef') {
      const name = arg.trim();
      const on = (name in defines) === (dir === 'ifdef');
      stack.push({ active: on, taken: on });
    } else if (dir === 'else') {
      const top = stack.at(-1);
      if (!top) throw new Error(`${where}: \`else without \`ifdef`);
      top.active = !top.taken;
      top.taken = true;
    } else if (dir === 'endif') {
      if (!stack.pop()) throw new Error(`${where}: \`endif without \`ifdef`);
    } else if (dir === 'include') {
      if (!active()) return;
      const m = arg.match(/^"([^"]+)"/);
      if (!m) throw new Error(`${where}: \`include needs a "file"`);
      const inc = path.resolve(path.dirname(file), m[1]);
      if (!fs.existsSync(inc)) throw new Error(`${where}: \`include "${m[1]}": no such file`);
      out.push(preprocess(inc, defines, depth + 1));
    } else if (active()) {
      // `define / `undef inside user_configs.vh: not part of the interface.
      throw new Error(`${where}: \`${dir} is not allowed in user_configs.vh (use localparam)`);
    }
  });
  if (stack.length) throw new Error(`${rel(file)}: \`ifdef without \`endif`);
  return out.join('\n');
}

/// Evaluates an integer expression of a localparam (BigInt): numbers
/// (plain, sized 8'd3, 'h1f, with _), names of earlier constants, `MACROs
/// of `defines`, casts N'(e) and type'(e), unary - ~ !, * / % + - << >>
/// & ^ | and parentheses.
export function evalExpr(src, env, defines, where) {
  const toks = [];
  const re = /\s*(?:(\d*'[sS]?[dDhHbBoO][0-9a-fA-F_xXzZ]+)|(\d[\d_]*)|(`?[A-Za-z_][\w$]*(?:::[A-Za-z_]\w*)?)|(<<|>>|[-+*/%()~!&|^']))/y;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    re.lastIndex = pos;
    const m = re.exec(src);
    if (!m) throw new Error(`${where}: cannot read "${src.slice(pos).trim()}"`);
    pos = re.lastIndex;
    if (m[1]) {
      const [, , base, digits] = m[1].match(/^(\d*)'[sS]?([dDhHbBoO])(.+)$/);
      const radix = { d: 10, h: 16, b: 2, o: 8 }[base.toLowerCase()];
      const clean = digits.replace(/_/g, '');
      if (/[xXzZ]/.test(clean)) throw new Error(`${where}: x/z digits are not a number`);
      toks.push({ num: radix === 10 ? BigInt(clean) : BigInt(`0${'xbo'[[16, 2, 8].indexOf(radix)]}${clean}`) });
    } else if (m[2]) toks.push({ num: BigInt(m[2].replace(/_/g, '')) });
    else if (m[3]) toks.push({ id: m[3] });
    else toks.push({ op: m[4] });
  }
  let i = 0;
  const peek = () => toks[i];
  const take = (op) => (toks[i]?.op === op ? (i++, true) : false);
  const prec = [['|'], ['^'], ['&'], ['<<', '>>'], ['+', '-'], ['*', '/', '%']];
  const apply = (op, a, b) => {
    switch (op) {
      case '|': return a | b;
      case '^': return a ^ b;
      case '&': return a & b;
      case '<<': return a << b;
      case '>>': return a >> b;
      case '+': return a + b;
      case '-': return a - b;
      case '*': return a * b;
      case '/': if (b === 0n) throw new Error(`${where}: division by 0`); return a / b;
      default: if (b === 0n) throw new Error(`${where}: modulo by 0`); return a % b;
    }
  };
  const binary = (level) => {
    if (level === prec.length) return unary();
    let v = binary(level + 1);
    for (;;) {
      const t = peek();
      if (!t || !t.op || !prec[level].includes(t.op)) return v;
      i++;
      v = apply(t.op, v, binary(level + 1));
    }
  };
  const unary = () => {
    if (take('-')) return -unary();
    if (take('~')) return ~unary();
    if (take('!')) return unary() === 0n ? 1n : 0n;
    return primary();
  };
  const primary = () => {
    const t = toks[i++];
    if (!t) throw new Error(`${where}: expression ends early`);
    let v;
    let width = null;
    if (t.op === '(') {
      v = binary(0);
      if (!take(')')) throw new Error(`${where}: missing )`);
    } else if (t.num !== undefined) {
      v = t.num;
      if (toks[i]?.op === "'") width = Number(v);
    } else if (t.id) {
      if (t.id.startsWith('`')) {
        const name = t.id.slice(1);
        if (!(name in defines)) throw new Error(`${where}: macro ${t.id} is not defined`);
        v = BigInt(defines[name]);
      } else if (t.id in env) {
        v = env[t.id];
      } else if (toks[i]?.op === "'") {
        v = 0n;  // a type name before a cast: int'(e), user_t'(e)
      } else {
        throw new Error(`${where}: unknown name ${t.id}`);
      }
    } else {
      throw new Error(`${where}: unexpected "${t.op}"`);
    }
    if (take("'")) {  // a cast: N'(e) truncates to N bits, type'(e) keeps e
      if (!take('(')) throw new Error(`${where}: a cast needs (`);
      v = binary(0);
      if (!take(')')) throw new Error(`${where}: missing )`);
      if (width !== null) v &= (1n << BigInt(width)) - 1n;
    }
    return v;
  };
  const v = binary(0);
  if (i !== toks.length) throw new Error(`${where}: unexpected "${toks[i].op ?? toks[i].id ?? toks[i].num}"`);
  return v;
}

/// The constants, credit scheme and user_t layout of a user_configs.vh.
export function readUserConfigs(file, defines = {}) {
  const text = preprocess(file, defines);
  const where = rel(file);
  const env = {};
  let credit = null;
  let fields = null;
  // Statements end at ';' (a struct body is one statement with its own ';').
  const structRe = /typedef\s+struct\s+packed\s*\{([\s\S]*?)\}\s*(\w+)\s*;/g;
  // The transmit state tx_t (a protocol with a transmit.v) comes first when
  // user_t holds one: its width is user_t's field width.
  let txBits = 0;
  const structs = [...text.matchAll(structRe)];
  const fieldsOf = (m, known) => {
    const out = [];
    for (const decl of m[1].split(';').map((s) => s.trim()).filter(Boolean)) {
      const d = decl.match(/^(?:(logic|bit)|(\w+))\s*((?:\[[^\]]+\]\s*)*)([\w\s,]+)$/);
      if (!d || (d[2] && !(d[2] in known))) {
        throw new Error(`${where}: ${m[2]} field "${decl}": only logic [hi:lo]... name fields (or a tx_t) are read`);
      }
      let width = d[2] ? known[d[2]] : 1;
      for (const dim of d[3].matchAll(/\[([^\]:]+):([^\]]+)\]/g)) {
        const hi = evalExpr(dim[1], env, defines, where);
        const lo = evalExpr(dim[2], env, defines, where);
        width *= Number(hi > lo ? hi - lo : lo - hi) + 1;
      }
      for (const name of d[4].split(',').map((s) => s.trim()).filter(Boolean)) out.push({ name, width });
    }
    return out;
  };
  for (const m of structs.filter((x) => x[2] === 'tx_t')) txBits = fieldsOf(m, {}).reduce((a, f) => a + f.width, 0);
  for (const m of structs.filter((x) => x[2] === 'user_t')) fields = fieldsOf(m, txBits ? { tx_t: txBits } : {});
  const rest = text.replace(structRe, ';');
  let userInit = null;
  for (const st of rest.split(';').map((s) => s.replace(/\s+/g, ' ').trim()).filter(Boolean)) {
    const lp = st.match(/^localparam\s+(.*?)\s*(\w+)\s*=\s*([\s\S]+)$/);
    if (!lp) continue;
    const [, type, name, expr] = lp;
    if (name === 'CreditScheme') {
      const c = expr.match(/^tonic_dd_pkg::(\w+)$/);
      if (!c || !(c[1] in CREDITS)) throw new Error(`${where}: CreditScheme must be one of tonic_dd_pkg::${Object.keys(CREDITS).join(', ')}`);
      credit = CREDITS[c[1]];
      continue;
    }
    if (name === 'UserInit') {
      userInit = expr;
      continue;
    }
    if (/user_t|tx_t/.test(type) || expr.startsWith("'{") || /\$bits/.test(expr)) continue;  // UserW, TxInit
    env[name] = evalExpr(expr, env, defines, `${where}: ${name}`);
  }
  if (!credit) throw new Error(`${where}: no CreditScheme`);
  if (!fields) throw new Error(`${where}: no typedef struct packed {...} user_t`);
  for (const k of REQUIRED_CONSTS) if (!(k in env)) throw new Error(`${where}: no localparam ${k}`);
  // First field most significant.
  let lsb = fields.reduce((s, f) => s + f.width, 0);
  const userBits = lsb;
  const laid = fields.map((f) => ((lsb -= f.width), { ...f, lsb }));
  if (userInit === null) throw new Error(`${where}: no localparam user_t UserInit`);
  return { credit, consts: env, user_bits: userBits, tx_bits: txBits, user_fields: laid, user_init: readUserInit(userInit, laid, env, defines, where) };
}

/// UserInit's value per user_t field (BigInt, cut to the field's width):
/// a named assignment pattern '{field: expr, ...} with every field once;
/// '0 and '1 fill a field, 'default: v' the fields not named.
function readUserInit(expr, fields, env, defines, where) {
  const w = `${where}: UserInit`;
  const body = expr.match(/^'\{([\s\S]*)\}$/);
  if (!body) throw new Error(`${w}: only a named assignment pattern '{field: value, ...} is read`);
  const parts = [];
  let depth = 0;
  let cur = '';
  for (const ch of body[1]) {
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
      continue;
    }
    if (ch === '(' || ch === '{') depth += 1;
    if (ch === ')' || ch === '}') depth -= 1;
    cur += ch;
  }
  parts.push(cur);
  const given = {};
  let dflt = null;
  for (const part of parts.map((x) => x.trim()).filter(Boolean)) {
    const m = part.match(/^(\w+)\s*:\s*([\s\S]+)$/);
    if (!m) throw new Error(`${w}: "${part}" is not field: value`);
    if (m[1] !== 'default' && !fields.some((f) => f.name === m[1])) throw new Error(`${w}: user_t has no field ${m[1]}`);
    if (m[1] in given || (m[1] === 'default' && dflt !== null)) throw new Error(`${w}: ${m[1]} given twice`);
    if (m[1] === 'default') dflt = m[2].trim();
    else given[m[1]] = m[2].trim();
  }
  const out = {};
  for (const f of fields) {
    const e = given[f.name] ?? dflt;
    if (e === undefined || e === null) throw new Error(`${w}: no value for field ${f.name}`);
    const mask = (1n << BigInt(f.width)) - 1n;
    out[f.name] = e === "'0" ? 0n : e === "'1" ? mask : evalExpr(e, env, defines, `${w}.${f.name}`) & mask;
  }
  return out;
}

// ---------------------------------------------------------------------------
// Checks: the generic rigs a protocol opts into (protocol.json "checks").

/// The receiver modes each check's scenario of a credit scheme answers with.
const CHECK_RECEIVERS = {
  backpressure: { window: ['tcp'], rate: ['roce'], tokens: ['ndp'] },
  fuzz: null,  // the harness checks the engine alone: any receiver
  netlist: { window: ['tcp', 'tcp_sack'], rate: ['roce'], tokens: ['ndp'] },
};
export const CHECKS = Object.keys(CHECK_RECEIVERS);

/// protocol.json "checks", validated: {check: {defines?}} of the checks opted into.
function readChecks(raw, { receiver, credit, small }, dw) {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error(`${dw}: "checks" must be an object`);
  const out = {};
  for (const [k, v] of Object.entries(raw)) {
    const w = `${dw}: checks.${k}`;
    if (!CHECKS.includes(k)) throw new Error(`${w}: unknown check (known: ${CHECKS.join(', ')})`);
    if (v === false) continue;
    if (v !== true && (typeof v !== 'object' || v === null || Array.isArray(v))) throw new Error(`${w}: true or {"defines": {...}}`);
    const o = v === true ? {} : v;
    for (const key of Object.keys(o)) if (key !== 'defines') throw new Error(`${w}: unknown key "${key}" (known: defines)`);
    if (o.defines !== undefined && (typeof o.defines !== 'object' || o.defines === null || Array.isArray(o.defines))) {
      throw new Error(`${w}: "defines" must be an object`);
    }
    if (k === 'backpressure' && o.defines) throw new Error(`${w}: takes no "defines" (it runs the protocol's own builds)`);
    if (k === 'backpressure' && credit !== 'window' && small.flows < 16) throw new Error(`${w}: the ${credit} scenario needs a small build of >= 16 flows`);
    const rx = CHECK_RECEIVERS[k]?.[credit];
    if (rx && !rx.includes(receiver)) {
      throw new Error(`${w}: the ${credit}-credit scenario answers as receiver ${rx.join(' or ')}, not ${receiver}`);
    }
    out[k] = o.defines ? { defines: o.defines } : {};
  }
  return out;
}

const sizeName = (s) => `${s.flows}x${s.window}`;

/// The build the back-pressure rig runs a protocol on: window credit
/// tonic_<name>_1024x128 (its scenarios keep 128 flows busy), rate and
/// tokens the small build (16 flows); null if not opted in.
export function backpressureRun(p) {
  if (!p.checks.backpressure) return null;
  return p.credit === 'window'
    ? { protocol: p, model: `tonic_${p.name}_1024x128`, flows: 1024, window: 128 }
    : { protocol: p, model: `tonic_${p.name}_${sizeName(p.small)}`, flows: p.small.flows, window: p.small.window };
}

/// The fuzz target of a protocol ({target, model, base, defines, corpus,
/// crashes}): target <name>_<small> on the small build, or with "defines"
/// on its variant tonic_fuzz_<name>_<small> (base: the config it varies);
/// its seed corpus and crash regressions in the protocol folder
/// (<dir>/fuzz/corpus, <dir>/fuzz/crashes, relative to the root; either may
/// not exist); null if not opted in.
export function fuzzTarget(p) {
  const c = p.checks.fuzz;
  if (!c) return null;
  const target = `${p.name}_${sizeName(p.small)}`;
  const small = `tonic_${target}`;
  const dirs = { corpus: `${p.dir}/fuzz/corpus`, crashes: `${p.dir}/fuzz/crashes` };
  return c.defines
    ? { protocol: p, target, model: `tonic_fuzz_${target}`, base: small, defines: c.defines, ...dirs, ...p.small }
    : { protocol: p, target, model: small, base: '', defines: {}, ...dirs, ...p.small };
}

/// The netlist config of a protocol (a manifest config, block "netlist",
/// no model of its own: tb/unit/netlist declares both sides); null if not
/// opted in.
export function netlistConfig(p) {
  const c = p.checks.netlist;
  if (!c) return null;
  return {
    name: `netlist_${p.name}_${sizeName(p.small)}`, block: 'netlist', fileset: 'tonic_top', protocol_dir: p.dir,
    protocol: p.name, model: false, lint: false,
    params: { FlowCount: p.small.flows, Window: p.small.window },  // SimRam 0 (the default): what synthesis reads
    ...(c.defines ? { model_defines: c.defines } : {}),
  };
}

/// The names of one check's runs, for the Makefile and scripts: fuzz
/// targets, netlist configs, back-pressure protocols.
export function checkNames(protocols, check) {
  if (check === 'backpressure') return protocols.filter(backpressureRun).map((p) => p.name);
  if (check === 'fuzz') return protocols.map(fuzzTarget).filter(Boolean).map((t) => t.target);
  if (check === 'netlist') return protocols.map(netlistConfig).filter(Boolean).map((c) => c.name);
  throw new Error(`no check ${check} (known: ${CHECKS.join(', ')})`);
}

// ---------------------------------------------------------------------------
// Protocol folders.

const FILES = ['incoming.v', 'periodic_updates.v', 'user_configs.vh'];
/// The widest user state a C++ twin holds (lib/tonic/proto_io.hpp,
/// kProtoMaxUserW, read from there), or null in a partial copy of the tree
/// without lib/ (the scripts' own tests).
function twinMaxUserBits() {
  const f = path.join(ROOT, 'lib', 'tonic', 'proto_io.hpp');
  if (!fs.existsSync(f)) return null;
  const m = fs.readFileSync(f, 'utf8').match(/constexpr unsigned kProtoMaxUserW = (\d+);/);
  if (!m) throw new Error('lib/tonic/proto_io.hpp: no constexpr unsigned kProtoMaxUserW = <n>;');
  return Number(m[1]);
}
const DESCRIPTOR_KEYS = ['doc', 'receiver', 'host_restart', 'probes', 'small', 'module_windows', 'builds', 'twin', 'traced',
  'reference', 'ns3', 'checks', 'timing'];
/// The ns-3 3.37 TcpCongestionOps a protocol may name in "ns3".
export const NS3_TCPS = ['TcpNewReno', 'TcpDctcp', 'TcpCubic', 'TcpLinuxReno', 'TcpVegas', 'TcpBic', 'TcpHighSpeed',
  'TcpHtcp', 'TcpHybla', 'TcpIllinois', 'TcpLedbat', 'TcpLp', 'TcpScalable', 'TcpVeno', 'TcpWestwood', 'TcpYeah', 'TcpBbr'];
/// The file of a protocol's C++ twin, in its folder.
export const TWIN_FILE = 'twin.hpp';
const BUILD_KEYS = ['flows', 'window', 'suffix', 'synth', 'model', 'lint', 'defines', 'model_params', 'synth_note'];
export const PROBE_ROLES = ['ssthresh', 'in_recovery', 'dup_acks', 'rate', 'partial_ack'];

const isPow2 = (n) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;

/// One protocol folder: its descriptor checked against its RTL. Throws with
/// the file and the key on anything malformed.
export function readProtocol(dir) {
  const name = path.basename(dir);
  const where = rel(dir) || dir;
  const missing = FILES.filter((f) => !fs.existsSync(path.join(dir, f)));
  if (missing.length) throw new Error(`${where}: missing ${missing.join(', ')}`);
  if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`${where}: a protocol name is lower_snake_case ([a-z][a-z0-9_]*)`);
  const dfile = path.join(dir, 'protocol.json');
  if (!fs.existsSync(dfile)) throw new Error(`${where}: no protocol.json (the descriptor; scripts/new-protocol writes one, docs/protocol-api.md)`);
  let d;
  try {
    d = JSON.parse(fs.readFileSync(dfile, 'utf8'));
  } catch (e) {
    throw new Error(`${rel(dfile)}: ${e.message}`);
  }
  const dw = rel(dfile);
  if (d === null || typeof d !== 'object' || Array.isArray(d)) throw new Error(`${dw}: must be an object`);
  for (const k of Object.keys(d)) if (!DESCRIPTOR_KEYS.includes(k)) throw new Error(`${dw}: unknown key "${k}" (known: ${DESCRIPTOR_KEYS.join(', ')})`);
  if (!RECEIVERS.includes(d.receiver)) throw new Error(`${dw}: "receiver" must be one of ${RECEIVERS.join(', ')}`);
  const hostRestart = d.host_restart ?? 'none';
  if (!['none', 'message'].includes(hostRestart)) throw new Error(`${dw}: "host_restart" must be "none" or "message"`);
  const cfg = readUserConfigs(path.join(dir, 'user_configs.vh'));
  const probes = {};
  for (const [role, field] of Object.entries(d.probes ?? {})) {
    if (!PROBE_ROLES.includes(role)) throw new Error(`${dw}: probes: unknown role "${role}" (known: ${PROBE_ROLES.join(', ')})`);
    const f = cfg.user_fields.find((x) => x.name === field);
    if (!f) throw new Error(`${dw}: probes.${role}: user_t has no field "${field}"`);
    // The trace port shows the low 128 bits of the user state (dd_trace_t.user).
    if (f.lsb + f.width > 128) throw new Error(`${dw}: probes.${role}: field "${field}" is not in the low 128 bits of user_t (the trace shows those; put it last)`);
    probes[role] = f;
  }
  const small = d.small ?? { flows: 16, window: cfg.credit === 'window' ? 16 : 128 };
  const checkSize = (s, w) => {
    if (!Number.isInteger(s.flows) || s.flows < 2 || s.flows > 65536) throw new Error(`${w}: "flows" must be an integer in 2..65536`);
    if (!isPow2(s.window) || s.window < 8 || s.window > 256) throw new Error(`${w}: "window" must be a power of two in 8..256`);
  };
  checkSize(small, `${dw}: small`);
  const moduleWindows = d.module_windows ?? [];
  if (!Array.isArray(moduleWindows) || moduleWindows.some((w) => !isPow2(w) || w < 8 || w > 256 || w === 128)) {
    throw new Error(`${dw}: "module_windows" must list powers of two in 8..256 other than 128`);
  }
  const builds = d.builds ?? [];
  if (!Array.isArray(builds)) throw new Error(`${dw}: "builds" must be an array`);
  builds.forEach((b, i) => {
    const bw = `${dw}: builds[${i}]`;
    for (const k of Object.keys(b)) if (!BUILD_KEYS.includes(k)) throw new Error(`${bw}: unknown key "${k}" (known: ${BUILD_KEYS.join(', ')})`);
    checkSize(b, bw);
    if (b.suffix !== undefined && !/^[a-z0-9_]+$/.test(b.suffix)) throw new Error(`${bw}: "suffix" is [a-z0-9_]+`);
    for (const k of ['defines', 'model_params']) {
      if (b[k] !== undefined && (typeof b[k] !== 'object' || b[k] === null || Array.isArray(b[k]))) throw new Error(`${bw}: "${k}" must be an object`);
    }
    // A build's defines must still give a readable user_configs.vh.
    if (b.defines) readUserConfigs(path.join(dir, 'user_configs.vh'), b.defines);
  });
  // The C++ twin: the descriptor names the class of twin.hpp.
  const twinFile = path.join(dir, TWIN_FILE);
  const hasTwinFile = fs.existsSync(twinFile);
  if (d.twin !== undefined) {
    if (typeof d.twin !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(d.twin)) throw new Error(`${dw}: "twin" must be a C++ class name`);
    // lib/tonic/proto_io.hpp: kProtoMaxUserW (the engine takes more).
    const maxBits = twinMaxUserBits();
    if (maxBits !== null && cfg.user_bits > maxBits) throw new Error(`${dw}: "twin": ${cfg.user_bits} bits of user state; a C++ twin holds at most ${maxBits} (lib/tonic/proto_io.hpp kProtoMaxUserW)`);
    if (!hasTwinFile) throw new Error(`${dw}: "twin" names ${d.twin} but ${where}/${TWIN_FILE} does not exist`);
    if (!new RegExp(`\\b(struct|class)\\s+${d.twin}\\b`).test(fs.readFileSync(twinFile, 'utf8'))) {
      throw new Error(`${where}/${TWIN_FILE}: no struct or class ${d.twin} ("twin" of ${dw})`);
    }
  } else if (hasTwinFile) {
    throw new Error(`${dw}: ${where}/${TWIN_FILE} exists: name its class in "twin"`);
  }
  const traced = d.traced ?? false;
  if (typeof traced !== 'boolean') throw new Error(`${dw}: "traced" must be true or false`);
  if (traced && (!d.twin || !['tcp', 'tcp_sack'].includes(d.receiver) || cfg.credit !== 'window')) {
    throw new Error(`${dw}: "traced" needs a twin, window credit and a tcp or tcp_sack receiver (the detailed run of tonic-run)`);
  }
  const reference = d.reference ?? false;
  if (typeof reference !== 'boolean') throw new Error(`${dw}: "reference" must be true or false`);
  if (reference && (cfg.credit !== 'window' || !['tcp', 'tcp_sack'].includes(d.receiver))) {
    throw new Error(`${dw}: "reference" needs window credit and a tcp or tcp_sack receiver`);
  }
  const ns3 = d.ns3 ?? null;
  if (ns3 !== null && (!NS3_TCPS.includes(ns3) || !['tcp', 'tcp_sack'].includes(d.receiver))) {
    throw new Error(`${dw}: "ns3" must be one of ${NS3_TCPS.join(', ')} on a tcp or tcp_sack protocol`);
  }
  const timing = d.timing ?? {};
  if (typeof timing !== 'object' || Array.isArray(timing) || Object.keys(timing).some((k) => k !== 'marginal') ||
      (timing.marginal !== undefined && (typeof timing.marginal !== 'string' || !timing.marginal.trim()))) {
    throw new Error(`${dw}: "timing" must be {"marginal": "<why the whole path is in the marginal band>"}`);
  }
  const checks = readChecks(d.checks ?? {}, { receiver: d.receiver, credit: cfg.credit, small }, dw);
  for (const c of Object.values(checks)) if (c.defines) readUserConfigs(path.join(dir, 'user_configs.vh'), c.defines);
  return {
    name, dir: rel(dir), receiver: d.receiver, host_restart: hostRestart, small, module_windows: moduleWindows,
    builds, probes, twin: d.twin ?? null, traced, reference, ns3, checks, marginal: timing.marginal ?? null,
    scenarios: readScenarios(dir, name), ...cfg,
  };
}

/// The network scenarios of a protocol folder, <dir>/netsim/<scenario>.json:
/// {scenario: file relative to the root}. Each must be a JSON object whose
/// "protocol" is the folder's name (tonic-netsim checks the rest).
function readScenarios(dir, name) {
  const sdir = path.join(dir, 'netsim');
  if (!fs.existsSync(sdir)) return {};
  const out = {};
  for (const f of fs.readdirSync(sdir).filter((x) => x.endsWith('.json')).sort()) {
    const file = path.join(sdir, f);
    let j;
    try {
      j = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (e) {
      throw new Error(`${rel(file)}: ${e.message}`);
    }
    if (j === null || typeof j !== 'object' || Array.isArray(j)) throw new Error(`${rel(file)}: must be an object`);
    if (j.protocol !== name) {
      throw new Error(`${rel(file)}: "protocol" is ${JSON.stringify(j.protocol)}: a scenario in ${rel(dir)}/netsim/ runs "${name}"`);
    }
    out[f.slice(0, -'.json'.length)] = rel(file);
  }
  return out;
}

/// The protocols that provide scenario `name` (<dir>/netsim/<name>.json).
export const scenarioProviders = (protocols, name) => protocols.filter((p) => name in p.scenarios);

/// The reference protocol's scenario `name` (a file relative to the root),
/// or an Error saying what is missing: no reference protocol, or no such
/// scenario in its folder.
export function referenceScenario(protocols, name) {
  const ref = referenceProtocol(protocols);
  if (!ref) return new Error('no reference protocol (no protocol.json has "reference": true)');
  if (!(name in ref.scenarios)) return new Error(`the reference protocol ${ref.name} has no ${ref.dir}/netsim/${name}.json`);
  return ref.scenarios[name];
}

/// The protocol folders of a protocols/ directory (those with an incoming.v), sorted.
export function protocolNames(dir = PROTOCOLS_DIR) {
  return fs.readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && fs.existsSync(path.join(dir, e.name, 'incoming.v')))
    .map((e) => e.name).sort();
}

/// Every protocols/<name>/ with the three RTL files, sorted by name; with
/// TONIC_ONLY_PROTOCOLS (comma-separated names) in the environment, only
/// those (a build tree for one protocol: cmake -DTONIC_ONLY_PROTOCOLS=...).
export function loadProtocols() {
  let names = protocolNames();
  const only = (process.env.TONIC_ONLY_PROTOCOLS ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (only.length) {
    const unknown = only.filter((n) => !names.includes(n));
    if (unknown.length) throw new Error(`TONIC_ONLY_PROTOCOLS: no protocol folder ${unknown.join(', ')} (protocols: ${names.join(', ')})`);
    names = names.filter((n) => only.includes(n));
  }
  const protocols = names.map((n) => readProtocol(path.join(PROTOCOLS_DIR, n)));
  const refs = protocols.filter((p) => p.reference).map((p) => p.name);
  if (refs.length > 1) throw new Error(`"reference" is true in more than one protocol.json: ${refs.join(', ')}`);
  return protocols;
}

/// The reference protocol (descriptor "reference"), or null in a tree without it.
export const referenceProtocol = (protocols) => protocols.find((p) => p.reference) ?? null;

/// The manifest configs of one protocol (scripts/manifest.mjs merges them
/// with rtl/manifest/*.json; the tonic_top ones use the "tonic_top" file set).
export function protocolConfigs(p) {
  const block = `protocol_${p.name}`;
  const top = (b, name) => ({
    name, block, fileset: 'tonic_top', protocol_dir: p.dir, protocol: p.name,
    size: { flows: b.flows, window: b.window }, network: b.network === true,
    params: { FlowCount: b.flows, Window: b.window }, model_params: { SimRam: 1, ...(b.model_params ?? {}) },
    ...(b.defines ? { model_defines: b.defines } : {}),
    ...(b.synth ? { synth: true, levels_target: 20, proto_modules: ['tonic_proto_incoming', 'tonic_proto_periodic'] } : {}),
    ...(b.model === false ? { model: false } : {}),
    ...(b.lint === false ? { lint: false } : {}),
    ...(b.synth_note ? { synth_note: b.synth_note } : {}),
  });
  const size = (b) => `${b.flows}x${b.window}`;
  // The small build of the tests, the soak and the fuzz replay: the
  // structural memories (SimRam 0, what synthesis sees) with the RTL
  // assertions (TONIC_ASSERT); once more without them, for their cost.
  const small = { ...p.small, model_params: { SimRam: 0 }, lint: false };
  const out = [
    top({ flows: 1024, window: 128, synth: true, network: true }, `tonic_${p.name}_1024x128`),
    top({ ...small, defines: { TONIC_ASSERT: 1 } }, `tonic_${p.name}_${size(p.small)}`),
    top(small, `tonic_${p.name}_${size(p.small)}_noassert`),
  ];
  // A build with its own defines is a variant of the constants for network
  // scenarios (e.g. a 200 ms RTO at a 100 ns cycle): a network build too.
  for (const b of p.builds) {
    out.push(top({ ...b, network: b.defines !== undefined && b.model !== false },
      `tonic_${p.name}_${size(b)}${b.suffix ? `_${b.suffix}` : ''}`));
  }
  for (const w of [128, ...p.module_windows]) {
    const sfx = w === 128 ? '' : `_w${w}`;
    for (const [kind, file] of [['incoming', 'incoming.v'], ['periodic', 'periodic_updates.v']]) {
      out.push({
        name: `${p.name}_${kind}${sfx}`, block, protocol: p.name, top: `tonic_proto_${kind}`,
        fileset: 'tonic_proto', protocol_sources: [`${p.dir}/${file}`], protocol_dir: p.dir,
        // A protocol with a transmit event: its tx_t width (TONIC_PROTO_PARAMS' TxW).
        params: { W: w, ...(p.tx_bits ? { TxW: p.tx_bits } : {}) },
        ...(kind === 'incoming' && w === 128 ? { synth: true, levels_target: 12 } : {}),
      });
    }
  }
  // A config name is also a C++ class name (V<name>): one per protocol build.
  const seen = new Set();
  for (const c of out) {
    if (seen.has(c.name)) throw new Error(`${p.dir}/protocol.json: build ${c.name} is listed twice`);
    seen.add(c.name);
  }
  return out;
}

// ---------------------------------------------------------------------------
// The generated C++ registry.

const cppEnum = (n) => `k${n.split('_').map((s) => s[0].toUpperCase() + s.slice(1)).join('')}`;

/// The C++ header: one table of every protocol (generated; never edited).
export function registryCpp(protocols) {
  const u64 = (v) => `${BigInt.asUintN(64, v)}ull`;
  const lines = [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs from protocols/*/ (protocol.json and',
    '// user_configs.vh) at configure time. Do not edit: change the protocol folder.',
    '#pragma once',
    '',
    '#include <cstdint>',
    '#include <string_view>',
    '',
    '#include "tonic/protocol_types.hpp"',
    '',
    'namespace tonic::registry {',
    '',
    '/// Every protocol of protocols/, in name order.',
    'enum class ProtocolId : uint8_t {',
    ...protocols.map((p, i) => `  ${cppEnum(p.name)} = ${i},`),
    '};',
    '',
    '/// A tonic_top build (a manifest config derived from a protocol folder).',
    'struct Build {',
    '  const char* config;  // the config and Verilated class name (V<config>)',
    '  ProtocolId protocol;',
    '  uint32_t flows, window;',
    '  bool model;    // has a Verilated model',
    '  bool network;  // one of the builds the simulators run (tonic/net_models.hpp)',
    '  uint64_t init_wnd, rto_init, rto_min, rto_max, rate_init;',
    '};',
    `inline constexpr int kProtocolCount = ${protocols.length};`,
    '',
  ];
  for (const p of protocols) {
    lines.push(`inline constexpr UserField k${cppEnum(p.name).slice(1)}Fields[] = {`);
    for (const f of p.user_fields) lines.push(`    {"${f.name}", ${f.lsb}, ${f.width}},`);
    lines.push('};');
  }
  lines.push('', '/// The protocols, indexed by ProtocolId.', 'inline constexpr Protocol kProtocols[] = {');
  for (const p of protocols) {
    const c = p.consts;
    const probe = (role) => (p.probes[role] ? `{${p.probes[role].lsb}, ${p.probes[role].width}}` : '{-1, 0}');
    lines.push(
      `    {"${p.name}", Credit::${cppEnum(p.credit)}, Receiver::${cppEnum(p.receiver)}, ` +
      `${p.host_restart === 'message' ? 'true' : 'false'},`,
      `     /*init_wnd*/ ${u64(c.InitWnd)}, /*rto_init*/ ${u64(c.RtoInit)}, /*rto_min*/ ${u64(c.RtoMin)}, ` +
      `/*rto_max*/ ${u64(c.RtoMax)},`,
      `     /*rate_init*/ ${u64(c.RateInit)}, /*burst_bytes*/ ${u64(c.BurstBytes)}, /*tokens_init*/ ${u64(c.TokensInit)},`,
      `     /*small*/ ${p.small.flows}, ${p.small.window}, /*user_bits*/ ${p.user_bits}, ` +
      `k${cppEnum(p.name).slice(1)}Fields, ${p.user_fields.length},`,
      `     /*probes: ${PROBE_ROLES.join(', ')}*/ ${PROBE_ROLES.map(probe).join(', ')}},`,
    );
  }
  lines.push('};', '',
    '/// Every tonic_top build of every protocol, with the constants its defines give.',
    'inline constexpr Build kBuilds[] = {');
  for (const p of protocols) {
    for (const c of protocolConfigs(p).filter((x) => x.fileset === 'tonic_top')) {
      const k = readUserConfigs(path.join(ROOT, p.dir, 'user_configs.vh'), c.model_defines ?? {}).consts;
      lines.push(`    {"${c.name}", ProtocolId::${cppEnum(p.name)}, ${c.size.flows}, ${c.size.window}, ` +
        `${c.model === false ? 'false' : 'true'}, ${c.network ? 'true' : 'false'}, ` +
        `${u64(k.InitWnd)}, ${u64(k.RtoInit)}, ${u64(k.RtoMin)}, ${u64(k.RtoMax)}, ${u64(k.RateInit)}},`);
    }
  }
  lines.push('};', '',
    '/// The protocol of a name, or nullptr.',
    'inline const Protocol* find(std::string_view name) {',
    '  for (const Protocol& p : kProtocols)',
    '    if (name == p.name) return &p;',
    '  return nullptr;',
    '}',
    '',
    'inline const Protocol& get(ProtocolId id) { return kProtocols[static_cast<int>(id)]; }',
    '',
    '/// Every protocol name, comma-separated ("a, b, ..."), for messages.',
    'inline constexpr const char* kNames =',
    `    "${protocols.map((p) => p.name).join(', ')}";`,
    '',
    '}  // namespace tonic::registry', '');
  return lines.join('\n');
}

/// tonic/protocol_consts.hpp: per protocol, a struct of the constants of
/// its user_configs.vh (every integer localparam as k<Name>, the credit
/// scheme's code, $bits(user_t) as kUserW, the name as kName), evaluated
/// without build defines; a C++ twin inherits it instead of restating them.
export function constsCpp(protocols) {
  const code = Object.keys(CREDITS);
  const lines = [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs from protocols/*/user_configs.vh at configure',
    '// time. Do not edit: change the protocol folder.',
    '#pragma once',
    '',
    '#include <cstdint>',
    '',
    'namespace tonic::registry::consts {',
  ];
  for (const p of protocols) {
    const creditName = code.find((k) => CREDITS[k] === p.credit);
    lines.push('', `/// ${p.dir}/user_configs.vh`, `struct ${cppEnum(p.name).slice(1)} {`,
      `  static constexpr const char* kName = "${p.name}";`,
      `  static constexpr unsigned kUserW = ${p.user_bits};  // $bits(user_t)`,
      `  static constexpr unsigned kCreditScheme = ${code.indexOf(creditName)};  // tonic_dd_pkg::${creditName}`);
    for (const [k, v] of Object.entries(p.consts)) {
      const t = BigInt(v) >= 0n && BigInt(v) < 2n ** 32n ? 'uint32_t' : 'uint64_t';
      lines.push(`  static constexpr ${t} k${k} = ${BigInt.asUintN(64, BigInt(v))}${t === 'uint64_t' ? 'ull' : 'u'};`);
    }
    const init = p.user_fields.filter((f) => f.width <= 64);
    lines.push('  /// UserInit, per user_t field of at most 64 bits.', '  struct UserInit {',
      ...init.map((f) => `    static constexpr ${f.width <= 32 ? 'uint32_t' : 'uint64_t'} ${cppEnum(f.name)} = ` +
        `${p.user_init[f.name]}${f.width <= 32 ? "u" : "ull"};  // ${f.width} bit${f.width === 1 ? "" : "s"}`),
      '  };');
    lines.push('};');
  }
  lines.push('', '}  // namespace tonic::registry::consts', '');
  return lines.join('\n');
}

/// Dispatch over the models of one build kind: a header that includes
/// V<config>.h of every protocol and calls f(ModelTag<V..., F, W>{}) for the
/// protocol asked for. kind: the config-name pattern with {p}.
export function dispatchCpp(protocols, fn, pattern, size) {
  const models = protocols.map((p) => {
    const s = size(p);
    return { p, s, model: `V${pattern.replace('{p}', p.name).replace('{size}', `${s.flows}x${s.window}`)}` };
  });
  return dispatchHeader({
    fn, about: [`// Generated by scripts/registry.mjs: ${fn}() over the ${pattern} builds of`, '// every protocol. Do not edit.'],
    std: ['stdexcept', 'string'], models: models.map((m) => m.model),
    doc: `/// Calls f(ModelTag<Model, Flows, Window>{}) with the ${pattern} model of protocol id.`,
    param: 'ProtocolId id',
    body: ['  switch (id) {',
      ...models.map((m) => `    case ProtocolId::${cppEnum(m.p.name)}: return f(ModelTag<${m.model}, ${m.s.flows}, ${m.s.window}>{});`),
      '  }', `  throw std::out_of_range("${fn}: protocol id " + std::to_string(static_cast<int>(id)));`],
  });
}

/// The cases of a dispatch by config name: f(ModelTag<V<config><suffix>, F, W>{}).
const configCases = (builds, suffix = '') =>
  builds.map((c) => `  if (config == "${c.name}") return f(ModelTag<V${c.name}${suffix}, ${c.size.flows}, ${c.size.window}>{});`);

/// Dispatch by config name over a list of builds: `fn(std::string_view
/// config, f)` calls f(ModelTag<V<config>, F, W>{}) (headers of every build
/// included; the caller links them: CMake's list of the same builds).
export function configDispatchCpp(builds, fn, what) {
  return dispatchHeader({
    fn, about: [`// Generated by scripts/registry.mjs: ${fn}() over ${what}. Do not edit.`],
    std: ['stdexcept', 'string', 'string_view'], models: builds.map((c) => `V${c.name}`),
    doc: `/// Calls f(ModelTag<V<config>, Flows, Window>{}) for one of ${what}.`,
    param: 'std::string_view config',
    body: [...configCases(builds), `  throw std::out_of_range("${fn}: no build " + std::string(config));`],
  });
}

/// The same dispatch with its result type R given by the caller
/// (`fn<R>(config, f)`), so that it compiles with no builds at all: the
/// lines of the function, for a header that holds more.
function configDispatchFn(builds, fn, what, suffix) {
  return [
    `/// Returns f(ModelTag<V<config>${suffix}, Flows, Window>{}) as an R, for ${what}.`,
    'template <class R, class F>',
    `R ${fn}(std::string_view config, [[maybe_unused]] F&& f) {`,
    ...configCases(builds, suffix),
    `  throw std::out_of_range("${fn}: no ${suffix ? 'traced ' : ''}build " + std::string(config));`,
    '}',
  ];
}

/// The one layout of a generated dispatch header: `fn(param, f)` in
/// tonic::registry over the Verilated classes `models` (their headers
/// included), its cases in `body`.
function dispatchHeader({ fn, about, std, models, doc, param, body, pre = [] }) {
  return [
    '// SPDX-License-Identifier: Apache-2.0',
    ...about,
    '#pragma once',
    '',
    ...std.map((h) => `#include <${h}>`),
    '',
    '#include "tonic/protocol_registry.hpp"',
    ...models.map((m) => `#include "${m}.h"`),
    '',
    'namespace tonic::registry {',
    '',
    ...pre,
    ...(fn ? [doc, 'template <class F>', `decltype(auto) ${fn}(${param}, F&& f) {`, ...body, '}', ''] : []),
    '}  // namespace tonic::registry',
    '',
  ].join('\n');
}

/// tonic/backpressure_models.hpp: the protocols that opted into the
/// back-pressure rig (kBackpressureRuns) and with_backpressure_model(id,
/// f), which calls f(ModelTag<...>) with the build the rig runs (backpressureRun).
export function backpressureCpp(protocols) {
  const runs = protocols.map(backpressureRun).filter(Boolean);
  const text = dispatchHeader({
    fn: 'with_backpressure_model',
    about: ['// Generated by scripts/registry.mjs: the protocols whose protocol.json opts into', '// "checks": {"backpressure"} and the build the rig runs each on. Do not edit.'],
    std: ['array', 'cstdint', 'stdexcept', 'string'], models: runs.map((r) => `V${r.model}`),
    doc: '/// Calls f(ModelTag<Model, Flows, Window>{}) with the back-pressure build of protocol id.',
    param: 'ProtocolId id',
    body: ['  switch (id) {',
      ...runs.map((r) => `    case ProtocolId::${cppEnum(r.protocol.name)}: return f(ModelTag<V${r.model}, ${r.flows}, ${r.window}>{});`),
      '    default: break;',
      '  }', '  throw std::out_of_range("with_backpressure_model: protocol " + std::string(get(id).name) + " has no back-pressure check");'],
    pre: ['/// A protocol of the back-pressure rig and the build it runs on.',
      'struct BackpressureRun {', '  ProtocolId protocol;', '  const char* config;  // the build (V<config>)',
      '  uint32_t flows, window;', '};',
      '/// The protocols of the back-pressure rig, in name order.',
      `inline constexpr std::array<BackpressureRun, ${runs.length}> kBackpressureRuns{{`,
      ...runs.map((r) => `    {ProtocolId::${cppEnum(r.protocol.name)}, "${r.model}", ${r.flows}, ${r.window}},`), '}};', ''],
  });
  return text;
}

/// tonic/fuzz_models.hpp: the fuzz targets (kFuzzTargets: name, protocol,
/// sizes) and with_fuzz_model(target, f) over their models (fuzzTarget).
export function fuzzCpp(protocols) {
  const ts = protocols.map(fuzzTarget).filter(Boolean);
  return dispatchHeader({
    fn: 'with_fuzz_model',
    about: ['// Generated by scripts/registry.mjs: the fuzz targets of the protocols whose', '// protocol.json opts into "checks": {"fuzz"}. Do not edit.'],
    std: ['array', 'cstdint', 'stdexcept', 'string', 'string_view'], models: ts.map((t) => `V${t.model}`),
    doc: '/// Calls f(ModelTag<Model, Flows, Window>{}) with the model of fuzz target `target`.',
    param: 'std::string_view target',
    body: [...ts.map((t) => `  if (target == "${t.target}") return f(ModelTag<V${t.model}, ${t.flows}, ${t.window}>{});`),
      '  throw std::out_of_range("with_fuzz_model: no fuzz target " + std::string(target));'],
    pre: fuzzTargetsCpp(ts),
  });
}

/// The kFuzzTargets table alone (also tonic/fuzz_targets.hpp, for the
/// libFuzzer executables, which link one model and include no other).
function fuzzTargetsCpp(ts) {
  return ['/// A fuzz target: its name (the corpus folder), protocol and sizes.',
    'struct FuzzTarget {', '  const char* name;', '  ProtocolId protocol;', '  uint32_t flows, window;', '};',
    '/// Every fuzz target, in protocol order.',
    `inline constexpr std::array<FuzzTarget, ${ts.length}> kFuzzTargets{{`,
    ...ts.map((t) => `    {"${t.target}", ProtocolId::${cppEnum(t.protocol.name)}, ${t.flows}, ${t.window}},`), '}};', ''];
}

/// tonic/fuzz_targets.hpp: kFuzzTargets without any model header.
export function fuzzTargetsHeader(protocols) {
  return dispatchHeader({
    about: ['// Generated by scripts/registry.mjs: the fuzz targets (protocol.json "checks":', '// {"fuzz"}). Do not edit.'],
    std: ['array', 'cstdint'], models: [], pre: fuzzTargetsCpp(protocols.map(fuzzTarget).filter(Boolean)),
  });
}

/// The network builds of every protocol (the models the simulators link).
export function networkBuilds(protocols) {
  return protocols.flatMap((p) => protocolConfigs(p).filter((c) => c.network));
}

/// The builds of the detailed run (TonicTb: TCP receivers on a link, the
/// protocol's twin checked after every event): every protocol with a twin,
/// window credit and a tcp / tcp_sack receiver, its builds with a model,
/// the behavioural memories, no defines and no suffix; smallest first.
export function twinBuilds(protocols) {
  return protocols
    .filter((p) => p.twin && p.credit === 'window' && ['tcp', 'tcp_sack'].includes(p.receiver))
    .flatMap((p) => protocolConfigs(p)
      .filter((c) => c.fileset === 'tonic_top' && c.model !== false && !c.model_defines && c.model_params.SimRam === 1 &&
        c.name === `tonic_${p.name}_${c.size.flows}x${c.size.window}`)
      .map((c) => ({ ...c, twin: p.twin })))
    .sort((a, b) => a.size.flows - b.size.flows || a.size.window - b.size.window);
}

/// The builds tonic-run-trace carries FST-traced (V<config>_trace): the
/// 1024 x 128 build of every protocol with "traced": true.
/// The structural-memory forms (SimRam 0, suffix "structural", what
/// synthesis reads) of the twin builds that have one: [{...config, of}],
/// `of` the twin build's name.
export function structuralBuilds(protocols) {
  const all = protocols.flatMap((p) => protocolConfigs(p));
  return twinBuilds(protocols).map((c) => {
    const s = all.find((x) => x.name === `${c.name}_structural` && x.model !== false);
    return s ? { ...s, of: c.name } : null;
  }).filter(Boolean);
}

/// tonic/structural_models.hpp: TonicParams of each structural build (those
/// of its behavioural build) and for_each_structural(f).
function structuralModelsCpp(builds) {
  return [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs: the structural-memory forms of the detailed',
    '// run\'s builds (a build with the suffix "structural"). Do not edit.',
    '#pragma once',
    '',
    '#include "tonic/twin_models.hpp"',
    ...builds.map((c) => `#include "V${c.name}.h"`),
    '',
    'namespace tonic {',
    '',
    ...builds.map((c) => `template <> struct TonicParams<V${c.name}> : TonicParams<V${c.of}> {};`),
    '',
    '/// Calls f(registry::ModelTag<V<config>, Flows, Window>{}, config) for each structural build.',
    'template <class F>',
    'void for_each_structural([[maybe_unused]] F&& f) {',
    ...builds.map((c) => `  f(registry::ModelTag<V${c.name}, ${c.size.flows}, ${c.size.window}>{}, "${c.name}");`),
    '}',
    '',
    '}  // namespace tonic',
    '',
  ].join('\n');
}

export function tracedBuilds(protocols) {
  const traced = new Set(protocols.filter((p) => p.traced).map((p) => p.name));
  return twinBuilds(protocols).filter((c) => traced.has(c.protocol) && c.size.flows === 1024 && c.size.window === 128);
}

/// tonic/twin_models.hpp: the TonicParams of each build of the detailed
/// run (its size and its protocol's twin), the table of those builds
/// (traced: also in tonic-run-trace) and a dispatch by config name.
function twinModelsCpp(builds, traced) {
  const tracedNames = new Set(traced.map((c) => c.name));
  const twins = [...new Set(builds.map((c) => `${c.protocol_dir}/${TWIN_FILE}`))];
  return [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs: the builds of the detailed run (protocols with a',
    '// twin, window credit and a TCP receiver): their TonicParams, their table and',
    '// with_twin_model(). Do not edit.',
    '#pragma once',
    '',
    '#include <array>',
    '#include <cstdint>',
    '#include <stdexcept>',
    '#include <string>',
    '#include <string_view>',
    '',
    '#include "tonic/protocol_registry.hpp"',
    '#include "tonic/tonic_tb.hpp"',
    ...twins.map((t) => `#include "${t}"`),
    ...builds.map((c) => `#include "V${c.name}.h"`),
    '',
    'namespace tonic {',
    '',
    ...builds.map((c) => [`template <> struct TonicParams<V${c.name}> {`,
      `  static constexpr uint32_t kFlows = ${c.size.flows}, kWindow = ${c.size.window}, ` +
        `kRing = ${c.params?.RingN ?? 'layout::top::kRingN'};  // RingN`,
      `  static constexpr const char* kProto = "${c.protocol}";`,
      `  using Twin = ref::${c.twin};`,
      '};'].join('\n')),
    '',
    '}  // namespace tonic',
    '',
    'namespace tonic::registry {',
    '',
    '/// A build of the detailed run.',
    'struct TwinBuild {',
    '  const char* config;',
    '  const char* protocol;',
    '  uint32_t flows, window;',
    '  bool traced;  // tonic-run-trace has it FST-traced (V<config>_trace, tonic/traced_models.hpp)',
    '};',
    '',
    '/// The builds, smallest first (the first that fits is the pick).',
    `inline constexpr std::array<TwinBuild, ${builds.length}> kTwinBuilds{{`,
    ...builds.map((c) => `    {"${c.name}", "${c.protocol}", ${c.size.flows}, ${c.size.window}, ${tracedNames.has(c.name)}},`),
    '}};',
    '',
    ...configDispatchFn(builds, 'with_twin_model', 'one build of kTwinBuilds', ''),
    '',
    '}  // namespace tonic::registry',
    '',
  ].join('\n');
}

/// tonic/traced_models.hpp: the traced builds V<config>_trace (tonic-run-trace
/// only), with the TonicParams of V<config>, and their dispatch.
function tracedModelsCpp(traced) {
  return [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs: the FST-traced builds of tonic-run-trace',
    '// ("traced" in protocol.json) and with_traced_model(). Do not edit.',
    '#pragma once',
    '',
    '#include <stdexcept>',
    '#include <string>',
    '#include <string_view>',
    '',
    '#include "tonic/twin_models.hpp"',
    ...traced.map((c) => `#include "V${c.name}_trace.h"`),
    '',
    'namespace tonic {',
    '',
    ...traced.map((c) => `template <> struct TonicParams<V${c.name}_trace> : TonicParams<V${c.name}> {};`),
    '',
    '}  // namespace tonic',
    '',
    'namespace tonic::registry {',
    '',
    ...configDispatchFn(traced, 'with_traced_model', 'a traced build of kTwinBuilds', '_trace'),
    '',
    '}  // namespace tonic::registry',
    '',
  ].join('\n');
}

/// tonic/ns3_models.hpp: every protocol and the ns-3 TCP that models it
/// (protocol.json "ns3", "" for none), for tonic-ns3; standalone (it
/// includes nothing generated: tonic-ns3 links no model).
export function ns3Cpp(protocols) {
  const withTcp = protocols.filter((p) => p.ns3).map((p) => p.name);
  return [
    '// SPDX-License-Identifier: Apache-2.0',
    '// Generated by scripts/registry.mjs: the ns-3 3.37 TCP congestion control of each',
    '// protocol (protocol.json "ns3"), for tonic-ns3. Do not edit.',
    '#pragma once',
    '',
    '#include <array>',
    '#include <string_view>',
    '',
    'namespace tonic::registry {',
    '',
    '/// A protocol and the ns-3 TcpCongestionOps (class name without "ns3::") that models it.',
    'struct Ns3Model {',
    '  const char* protocol;',
    '  const char* tcp;  // "" when no ns-3 TCP models the protocol',
    '};',
    '',
    '/// Every protocol of the registry, in name order.',
    `inline constexpr std::array<Ns3Model, ${protocols.length}> kNs3Models{{`,
    ...protocols.map((p) => `    {"${p.name}", "${p.ns3 ?? ''}"},`),
    '}};',
    '',
    '/// The protocols that ns-3 models, comma-separated ("" if none), for messages.',
    `inline constexpr const char* kNs3Protocols = "${withTcp.join(', ')}";`,
    '',
    '/// The entry of a protocol, or nullptr when the registry has no such protocol.',
    'inline const Ns3Model* find_ns3(std::string_view protocol) {',
    '  for (const Ns3Model& m : kNs3Models)',
    '    if (protocol == m.protocol) return &m;',
    '  return nullptr;',
    '}',
    '',
    '}  // namespace tonic::registry',
    '',
  ].join('\n');
}

/// Writes a generated file only when its text changes (no needless rebuilds).
export function writeIfChanged(file, text) {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts } = cli({
    name: 'registry',
    description: 'Reads every protocol folder (protocols/<name>/: protocol.json, user_configs.vh) and prints\n' +
      'or generates what the tools need. Exit 2 on a malformed folder, naming the file.',
    options: {
      list: { type: 'boolean', help: 'one line per protocol: name, credit, receiver, user bits, builds' },
      cpp: { type: 'string', arg: 'DIR', help: 'write the C++ registry headers to DIR/tonic/ (the configure step)' },
      check: { type: 'string', arg: 'NAME', help: `print the runs of one check, space-separated (${CHECKS.join(', ')})` },
      reference: { type: 'boolean', help: 'print the reference protocol (protocol.json "reference"), or nothing' },
      scenario: { type: 'string', arg: 'NAME', help: "print the reference protocol's scenario NAME (<folder>/netsim/NAME.json); exit 2 without one" },
    },
  });
  try {
    const protocols = loadProtocols();
    if (opts.list) {
      for (const p of protocols) {
        process.stdout.write(`${p.name}\t${p.credit}\t${p.receiver}\t${p.user_bits} bits\t` +
          `${protocolConfigs(p).map((c) => c.name).join(' ')}\n`);
      }
    }
    if (opts.cpp) {
      writeIfChanged(path.join(opts.cpp, 'tonic', 'protocol_registry.hpp'), registryCpp(protocols));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'small_models.hpp'),
        dispatchCpp(protocols, 'with_small_model', 'tonic_{p}_{size}', (p) => p.small));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'small_noassert_models.hpp'),
        dispatchCpp(protocols, 'with_small_noassert_model', 'tonic_{p}_{size}_noassert', (p) => p.small));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'net_models.hpp'),
        configDispatchCpp(networkBuilds(protocols), 'with_net_model', 'the network builds of every protocol'));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'protocol_consts.hpp'), constsCpp(protocols));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'twin_models.hpp'),
        twinModelsCpp(twinBuilds(protocols), tracedBuilds(protocols)));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'traced_models.hpp'), tracedModelsCpp(tracedBuilds(protocols)));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'structural_models.hpp'), structuralModelsCpp(structuralBuilds(protocols)));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'backpressure_models.hpp'), backpressureCpp(protocols));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'fuzz_models.hpp'), fuzzCpp(protocols));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'fuzz_targets.hpp'), fuzzTargetsHeader(protocols));
      writeIfChanged(path.join(opts.cpp, 'tonic', 'ns3_models.hpp'), ns3Cpp(protocols));
    }
    if (opts.check) process.stdout.write(`${checkNames(protocols, opts.check).join(' ')}\n`);
    if (opts.reference) process.stdout.write(`${referenceProtocol(protocols)?.name ?? ''}\n`);
    if (opts.scenario) {
      const s = referenceScenario(protocols, opts.scenario);
      if (s instanceof Error) throw s;
      process.stdout.write(`${s}\n`);
    }
  } catch (e) {
    process.stderr.write(`registry: ${e.message}\n`);
    process.exit(2);
  }
}
