// SPDX-License-Identifier: Apache-2.0
// synth-estimate.mjs — `make synth-estimate`: open-source synthesis estimate
// of every manifest config marked "synth": true.
//
// For each config: Yosys 0.69 `read_slang` + `synth_xilinx -family xcup
// -flatten -noiopad` (out of context), then levels.mjs on the netlist.
// Writes build/reports/synth.json (one object per config: block, name, top,
// params, lut, lutram, ff, bram36, uram, dsp, carry, muxf, levels, % of
// XCKU15P, synth_s), build/reports/synth.md, and the tables in
// docs/results.md. A run with --block / --config merges its rows into the
// existing report (rows of other configs are kept).
//
// Fixed function vs protocol (the Tonic top, "proto_modules" in the
// manifest, docs/timing-model.md): the modules named there (the protocol's
// tonic_proto_incoming and tonic_proto_periodic) are synthesized as their own
// hierarchy — read_slang --keep-hierarchy, keep_hierarchy on those modules,
// so synth_xilinx -flatten flattens everything else — in the same run and
// with the parameters the top gives them. After mapping, their cells are
// marked (attribute tonic_split) and flattened into the top for levels.mjs.
// So the protocol's LUT/FF counts are exactly its own cells, fixed = total
// - protocol, at the price of no optimization across the protocol boundary
// (a little more logic than a fully flat build, e.g. registers that only
// feed protocol inputs a protocol ignores stay). Levels: `levels` is the
// whole top; `levels_fixed` counts only fixed cells on every path (protocol
// cells add 0) — the "fixed-function levels" the levels target applies to
// for such configs; `levels_proto` counts only protocol cells; each
// protocol module's depth inside the top is in proto_modules;
// `path_proto_levels` is the protocol's share of the critical path.
//
// The boundary costs a little (a 64 x 16 window top: 7197 LUT and 28.5 levels
// with the protocol kept apart, 7049 LUT and 25 levels flat); --flat also
// runs the ordinary flat synthesis of such configs (build/synth/C.flat/) and
// adds its figures to the row as `flat` (twice the time).
//
// usage: node synth-estimate.mjs [--block B] [--config C] [--jobs N] [--flat] [--from-results | --reanalyze] [--no-reports] [--user-state] [--fixed-levels]
//   --from-results: no synthesis; rebuild the reports from the result.json
//   files an earlier run left in build/synth/<config>/. [--flat]
//   --reanalyze: no synthesis; levels.mjs again on the netlists an earlier
//   run left (build/synth/<config>/net.json), e.g. after a change of the
//   timing model.
//   --no-reports: print the figures and keep build/synth/<config>/ only; a
//   run with --config or --block otherwise merges its rows into
//   build/reports/synth.json and rewrites the docs/results.md tables from
//   it (on a fresh clone, with no synth.json yet, from its rows alone).
//   --config C also runs a config without "synth": true (a quick check);
//   its result goes to build/synth/C/ only, not into the reports.
//   --user-state: no synthesis; the "User-state cost" table of
//   docs/results.md from the result.json of the builds named *_user<N>
//   (the user-state cost builds, one protocol per credit scheme,
//   protocol.json: user_t padded to N bytes by TONIC_CFG_USER_BYTES), by
//   protocol and size, with the BRAM36 per extra 16 B within one protocol
//   and flow count. Every run that writes the reports writes it too.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { engineUserBits, USER_LIMIT_BYTES } from './check-protocol.mjs';
import { analyze, SPLIT_ATTR } from './levels.mjs';
import { describe } from './protocols.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { loadConfigs, ROOT } from './manifest.mjs';
import { markdownTable, REPORTS, updateResults, writeReport, XCKU15P } from './report.mjs';

const { values: opts } = cli({
  name: 'synth-estimate',
  usage: 'node scripts/synth-estimate.mjs [--block B] [--config C] [--jobs N] [--flat] [--from-results | --reanalyze] [--no-reports] [--user-state] [--fixed-levels]',
  description: 'Yosys synth_xilinx of every manifest config marked "synth": true, then levels.mjs; writes\n' +
    'build/reports/synth.json, build/reports/synth.md and the tables in docs/results.md.',
  options: {
    block: { type: 'string', arg: 'B', help: 'only the configs of this block (merged into the reports)' },
    config: { type: 'string', arg: 'C', help: 'only this config, also one without "synth": true (then not in the reports)' },
    jobs: { type: 'number', default: 2, help: 'Yosys processes at once' },
    flat: { type: 'boolean', help: 'also the flat synthesis of configs with "proto_modules" (twice the time)' },
    'from-results': { type: 'boolean', help: "no synthesis: the reports from an earlier run's build/synth/<config>/result.json" },
    reanalyze: { type: 'boolean', help: "no synthesis: levels.mjs again on an earlier run's build/synth/<config>/net.json" },
    'fixed-levels': { type: 'boolean', help: 'no synthesis: only synth/fixed-levels.json, from the result.json of\n' +
      'the tops at 1024 x 128 that earlier runs (e.g. --config C --no-reports) left in build/synth/' },
    'user-state': { type: 'boolean', help: 'no synthesis: only the user-state cost table of docs/results.md, from the\n' +
      'build/synth/<config>/result.json of the *_user<N> builds (also written by every run with reports)' },
    'no-reports': { type: 'boolean', help: 'print the figures, write only build/synth/<config>/ (not the reports or docs/results.md)' },
  },
});
const jobs = opts.jobs;

function yosysScript(c) {
  // A build variant's defines (model_defines, e.g. the user-state cost
  // builds, protocol.json *_user<N>) reach read_slang as -D.
  const params = Object.entries(c.params).map(([k, v]) => ` -G ${k}=${v}`).join('')
    + Object.entries(c.model_defines ?? {}).map(([k, v]) => ` -D ${k}=${v}`).join('');
  const incs = c.include_dirs.map((d) => ` -I ${d}`).join('');
  const proto = c.proto_modules;
  // A module as read_slang names it: as is, or with --keep-hierarchy
  // "<module>$<instance path>" (one module per instance).
  const mods = (m) => `${m} ${m}$*`;
  const split = proto.length === 0 ? [] : [
    // Mark the protocol cells, then flatten them into the top.
    ...proto.map((m, i) => `setattr -set ${SPLIT_ATTR} ${i + 1} ${m}/c:* ${m}$*/c:*`),
    `setattr -mod -unset keep_hierarchy ${proto.map(mods).join(' ')}`,
    'flatten -noscopeinfo',
  ];
  return [
    `read_slang -j 1${proto.length ? ' --keep-hierarchy' : ''}${incs} ${c.sources.join(' ')} --top ${c.top}${params}`,
    ...(proto.length ? [`setattr -mod -set keep_hierarchy 1 ${proto.map(mods).join(' ')}`] : []),
    `synth_xilinx -family xcup -top ${c.top} -flatten -noiopad`,
    'tee -q -o out/stat.txt stat',
    ...split,
    // The netlist for scripts/levels.mjs: cells and connections only, without
    // the unused Xilinx cell library (17 MB of JSON on its own), unused
    // internal wires and src/hdlname attributes. It goes to stdout: YoWASP's
    // in-memory file system writes large files very slowly (a 23k-LUT
    // netlist did not finish in 20 minutes); stdout streams to the host.
    'opt_clean -purge',
    'setattr -unset src -unset hdlname',
    `hierarchy -top ${c.top} -purge_lib`,
    'write_json',
  ].join('; ');
}

function run(c, dir = c.name) {
  const outDir = path.join(ROOT, 'build', 'synth', dir);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  // Yosys' log goes to out/yosys.log (-q -l), the netlist to stdout.
  const raw = fs.openSync(path.join(outDir, 'stdout.txt'), 'w');
  const err = fs.openSync(path.join(outDir, 'stderr.txt'), 'w');
  const t0 = Date.now();
  return new Promise((resolve) => {
    // Mount rtl/ plus the top-level folders of other sources and include dirs.
    const mounts = [...new Set(['rtl', ...[...c.sources, ...c.include_dirs].map((f) => f.split('/')[0])])];
    const p = spawn(path.join(ROOT, 'scripts', 'yosys'),
      [...mounts.flatMap((m) => ['--mount', m]), '--out', outDir, '--', '-q', '-l', 'out/yosys.log', '-p', yosysScript(c)],
      { cwd: ROOT, stdio: ['ignore', raw, err] });
    p.on('close', (code) => {
      fs.closeSync(raw);
      fs.closeSync(err);
      const synthS = (Date.now() - t0) / 1000;
      if (code !== 0) {
        resolve({ error: `yosys exit ${code}, see build/synth/${dir}/yosys.log and stderr.txt` });
        return;
      }
      // stdout: warnings (with -q), then the JSON document from a line "{".
      const text = fs.readFileSync(path.join(outDir, 'stdout.txt'), 'utf8');
      const m = /^(?:\x1b\[[0-9;]*m)*\{$/m.exec(text);  // a line "{", maybe after colour codes
      const start = m ? m.index + m[0].length - 1 : -1;
      if (start < 0) {
        resolve({ error: `no netlist on Yosys' stdout, see build/synth/${dir}/stdout.txt` });
        return;
      }
      fs.writeFileSync(path.join(outDir, 'net.json'), text.slice(start));
      fs.rmSync(path.join(outDir, 'stdout.txt'));
      const r = analyzeNet(c, dir);
      resolve(r.error ? r : { ...r, synth_s: Math.round(synthS * 10) / 10 });
    });
  });
}

/// levels.mjs on build/synth/<dir>/net.json (writes levels.json there).
function analyzeNet(c, dir) {
  const outDir = path.join(ROOT, 'build', 'synth', dir);
  let netlist;
  try {
    netlist = JSON.parse(fs.readFileSync(path.join(outDir, 'net.json'), 'utf8'));
  } catch (e) {
    // Seen once on a 160 MB netlist: a chunk of Yosys' stdout lost on the way.
    return { error: `the netlist in build/synth/${dir}/net.json does not parse (${e.message.slice(0, 120)})` };
  }
  const r = analyze(netlist, c.top, { split: c.proto_modules });
  fs.writeFileSync(path.join(outDir, 'levels.json'), JSON.stringify(r, null, 2) + '\n');
  delete r.path;
  delete r.path_fixed;
  delete r.delay_path;
  if (r.split && Object.values(r.split.modules).every((s) => s.lut + s.ff + s.carry + s.muxf === 0)) {
    return { error: `no cells of ${c.proto_modules.join(', ')} found (module names?), see build/synth/${dir}/yosys.log` };
  }
  return r;
}

const round2 = (x) => Math.round(x * 100) / 100;

/// The report row of a config from levels.mjs' result.
function makeRow(c, r) {
  const { split, ...rest } = r;
  const pct = {};
  for (const k of Object.keys(XCKU15P)) pct[k] = round2((r[k] / XCKU15P[k]) * 100);
  const row = { block: c.block, name: c.name, top: c.top, params: c.params, ...rest, pct_xcku15p: pct };
  if (split) {
    const mods = Object.values(split.modules);
    const sum = (k) => mods.reduce((a, s) => a + s[k], 0);
    Object.assign(row, {
      proto_lut: sum('lut'),
      fixed_lut: r.lut - sum('lut'),
      proto_share_pct: r.lut ? round2((sum('lut') / r.lut) * 100) : 0,
      proto_ff: sum('ff'),
      fixed_ff: r.ff - sum('ff'),
      levels_fixed: split.levels_fixed,
      levels_around_proto: split.levels_through,
      // The fixed levels around each protocol module's own paths.
      ...Object.fromEntries(Object.entries(split.modules)
        .filter(([, m]) => m.levels_through !== undefined)
        .map(([n, m]) => [`levels_around_${n.replace(/^tonic_proto_/, '')}`, m.levels_through])),
      levels_via_proto: split.levels_via,
      levels_proto: split.levels_split,
      path_proto_levels: split.path_split_levels,
      proto_modules: split.modules,
    });
  }
  return withTarget(row, c.levels_target ?? null);
}

/// Sets levels_target and meets_target: for a top with a protocol split the
/// target applies to the fixed-function levels, else to levels.
function withTarget(row, target) {
  const on = row.levels_fixed != null ? 'levels_fixed' : 'levels';
  return { ...row, levels_target: target, target_on: target == null ? null : on,
    meets_target: target == null ? null : row[on] <= target };
}

const all = loadConfigs();
/// The protocol folder of a report row's config (null for a block).
const protoOf = (r) => all.find((c) => c.name === r.name)?.include_dirs.find((d) => d.startsWith('protocols/'))?.slice(10);

/// The user-state cost table (docs/results.md, section synth-user): the
/// builds named <top>_user<N> (N bytes of user state per flow; one protocol
/// per credit scheme), by protocol, flow count and N, from their
/// build/synth/<config>/result.json; within one protocol and size, the
/// BRAM36 an extra 16 B costs between consecutive sizes.
function writeUserStateTable() {
  const schemeOrder = Object.keys(USER_LIMIT_BYTES);  // window, rate, token
  const rows = [];
  for (const c of all.filter((x) => /_user\d+$/.test(x.name))) {
    const f = path.join(ROOT, 'build', 'synth', c.name, 'result.json');
    if (!fs.existsSync(f)) continue;
    const r = JSON.parse(fs.readFileSync(f, 'utf8'));
    const protocol = protoOf(r);
    rows.push({ ...r, protocol, scheme: describe(protocol)?.scheme ?? '', user_bytes: Number(c.name.match(/_user(\d+)$/)[1]) });
  }
  if (rows.length === 0) return;
  const rank = (r) => (schemeOrder.includes(r.scheme) ? schemeOrder.indexOf(r.scheme) : schemeOrder.length);
  rows.sort((a, b) => rank(a) - rank(b) || a.protocol.localeCompare(b.protocol) ||
    a.params.FlowCount - b.params.FlowCount || a.params.Window - b.params.Window || a.user_bytes - b.user_bytes);
  const group = (r) => `${r.protocol} ${r.params.FlowCount} ${r.params.Window}`;
  rows.forEach((r, i) => {
    const p = rows[i - 1];
    if (p && group(p) === group(r)) r.bram36_per_16b = round2(((r.bram36 - p.bram36) * 16) / (r.user_bytes - p.user_bytes));
  });
  const max = (r) => USER_LIMIT_BYTES[r.scheme] === r.user_bytes;
  const table = markdownTable(rows, [
    ['protocol / credit', (r) => `${r.protocol} / ${r.scheme}`], ['config', (r) => r.name],
    ['flows x window', (r) => `${r.params.FlowCount} x ${r.params.Window}`],
    ['user state (B / flow)', (r) => `${r.user_bytes}${max(r) ? ' (max)' : ''}`], ['BRAM36', (r) => r.bram36],
    ['BRAM36 per extra 16 B', (r) => r.bram36_per_16b ?? ''],
    // 16 B of every flow: FlowCount x 128 bits; a BRAM36 holds 36 Kb.
    ['x raw', (r) => (r.bram36_per_16b == null ? '' : round2(r.bram36_per_16b / ((r.params.FlowCount * 128) / 36864)))],
    ['LUT', (r) => r.lut], ['(LUTRAM)', (r) => r.lutram],
    ['FF', (r) => r.ff], ['levels', (r) => r.levels], ['fixed levels', (r) => r.levels_fixed ?? ''],
  ]);
  // The protocols in the table, each with its credit scheme.
  const protos = [...new Map(rows.map((r) => [r.protocol, r])).values()].map((r) => `${r.protocol} (${r.scheme} credit)`);
  // User-state builds without a row: not synthesized (the build's synth_note
  // says why) or not run yet.
  const userBuilds = all.filter((c) => /_user\d+$/.test(c.name));
  const notes = userBuilds.filter((c) => c.synth_note).map((c) => ` Not synthesized: ${c.name} (${c.synth_note}).`);
  const missing = userBuilds.filter((c) => c.synth && !rows.some((r) => r.name === c.name)).map((c) => c.name);
  const list = protos.length < 2 ? protos.join('') : `${protos.slice(0, -1).join(', ')} and ${protos.at(-1)}`;
  const note = `The user-state cost builds of ${list}: the protocol's \`user_t\` padded to N bytes ` +
    'per flow (protocol.json builds `*_user<N>`, define TONIC_CFG_USER_BYTES; the padding rotates by one bit on ' +
    'every write, so it is live state); Yosys as above. The maxima, marked (max), are the Tonic paper\'s per ' +
    `scheme (${Object.entries(USER_LIMIT_BYTES).map(([k, v]) => `${k} ${v} B`).join(', ')}; scripts/check-protocol ` +
    `enforces them); the engine takes up to ${engineUserBits() / 8} B (\`tonic_dd_pkg::UserWMax\`). ` +
    'Per extra 16 B: the BRAM36 difference to the next smaller size of the same protocol, flow count and window, ' +
    'per 16 B; x raw: that over the raw bits of 16 B at that flow count, in 36 Kb BRAM36. The user state is ' +
    'part of the cold word, a memory with two writers (incoming stage 2, periodic) and two readers, built as ' +
    '2 x 2 banks: about four times the raw bits.' +
    notes.join('') + (missing.length ? ` Not run yet: ${missing.join(', ')}.` : '') + '\n\n';
  updateResults('synth-user', 'User-state cost (synthesis estimate)', note + table);
  process.stdout.write(`synth-estimate: user-state cost table of docs/results.md (${rows.length} builds)\n`);
}
/// synth/fixed-levels.json (committed; read by scripts/check-protocol): per
/// credit scheme, the fixed-function levels of the tops at 1024 x 128 — the
/// worst path anywhere and the worst fixed part of a path through the
/// protocol modules, and through each of them — to add to a protocol's own
/// levels. It records how many tops each maximum is taken over ("tops"),
/// not which: those are the 1024 x 128 builds of the registry's protocols of
/// that scheme (scripts/registry.mjs --list). `rows`: their report rows.
function writeFixedLevels(rows) {
  const schemes = {};
  const table = [];
  // Only the registry's plain builds: not a variant with defines (e.g. the
  // user-state cost builds, which have a table of their own).
  const variant = new Set(all.filter((c) => Object.keys(c.model_defines ?? {}).length).map((c) => c.name));
  for (const r of rows.filter((x) => x.params.FlowCount === 1024 && x.params.Window === 128 && !variant.has(x.name))) {
    const p = protoOf(r);
    const d = p && describe(p);
    if (!d || r.levels_around_proto == null) continue;
    table.push({ ...r, protocol: p, scheme: d.scheme });
    const s = (schemes[d.scheme] ??= { levels_fixed: 0, levels_around_proto: 0, tops: 0 });
    s.levels_fixed = Math.max(s.levels_fixed, r.levels_fixed);
    s.levels_around_proto = Math.max(s.levels_around_proto, r.levels_around_proto);
    for (const m of ['incoming', 'periodic']) {
      // A row from before the per-module figures counts with its worst.
      const k = `levels_around_${m}`;
      s[k] = Math.max(s[k] ?? 0, r[k] ?? r.levels_around_proto);
    }
    // The transmit processor's, only from a top that has one.
    if (r.levels_around_transmit != null) {
      s.levels_around_transmit = Math.max(s.levels_around_transmit ?? 0, r.levels_around_transmit);
    }
    s.tops += 1;
  }
  if (Object.keys(schemes).length === 0) return;
  fs.writeFileSync(path.join(ROOT, 'synth', 'fixed-levels.json'), JSON.stringify({
    doc: 'Written by make synth-estimate (scripts/synth-estimate.mjs) from the rows of the tonic_top configs at ' +
      'FlowCount 1024 x Window 128; read by scripts/check-protocol. Per credit scheme: levels_fixed, the fixed ' +
      'function\'s longest path; levels_around_proto, the longest fixed part of a path through the protocol ' +
      'modules (docs/timing-model.md); levels_around_incoming / levels_around_periodic / levels_around_transmit ' +
      '(only where a top has a transmit module), the same on the paths through the one module (check-protocol ' +
      'adds each to its module\'s levels); tops, how many 1024 x 128 ' +
      'builds (those of the registry\'s protocols of the scheme) the maxima are taken over.',
    schemes,
  }, null, 2) + '\n');
  // The rows it was taken from: build/reports/fixed_levels.json and a table.
  table.sort((a, b) => a.scheme.localeCompare(b.scheme) || a.protocol.localeCompare(b.protocol));
  const cols = ['levels', 'levels_fixed', 'levels_around_incoming', 'levels_around_periodic', 'levels_via_proto',
    'lut', 'bram36', 'delay_ns'];
  fs.mkdirSync(REPORTS, { recursive: true });
  fs.writeFileSync(path.join(REPORTS, 'fixed_levels.json'), JSON.stringify({ schemes, tops: table.map((r) =>
    ({ name: r.name, protocol: r.protocol, scheme: r.scheme, ...Object.fromEntries(cols.map((k) => [k, r[k] ?? null])),
      target: r.levels_target ?? null, meets_target: r.meets_target ?? null })) }, null, 2) + '\n');
  updateResults('fixed-levels', 'Fixed-function levels at 1024 x 128 (synth/fixed-levels.json)',
    'Each protocol\'s `tonic_<name>_1024x128` top from its last `make synth-estimate` run (Yosys as above): ' +
    'all levels, the fixed function\'s longest path (target <= 20), the fixed levels on the paths through each ' +
    'protocol module (what scripts/check-protocol adds to that module\'s own levels, per credit scheme the ' +
    'maximum), and the worst whole path through a protocol module.\n\n' +
    markdownTable(table, [
      ['top', (r) => r.name], ['scheme', (r) => r.scheme], ['levels', (r) => r.levels],
      ['fixed levels', (r) => r.levels_fixed], ['fixed around incoming', (r) => r.levels_around_incoming ?? ''],
      ['fixed around periodic', (r) => r.levels_around_periodic ?? ''], ['via protocol', (r) => r.levels_via_proto],
      ['LUT', (r) => r.lut], ['BRAM36', (r) => r.bram36], ['fixed <= 20', (r) => (r.levels_fixed <= 20 ? 'met' : 'MISSED')],
    ]));
  process.stdout.write(`synth-estimate: synth/fixed-levels.json (${Object.entries(schemes)
    .map(([k, v]) => `${k}: ${v.tops} tops`).join(', ')})\n`);
}
if (opts['fixed-levels']) {
  // The registry's plain 1024 x 128 tops from their last run's result.json.
  const rows = [];
  for (const c of all.filter((x) => x.synth || x.top === 'tonic_top')) {
    const f = path.join(ROOT, 'build', 'synth', c.name, 'result.json');
    if (fs.existsSync(f)) rows.push(JSON.parse(fs.readFileSync(f, 'utf8')));
  }
  writeFixedLevels(rows);
  process.exit(0);
}
if (opts['user-state']) {
  writeUserStateTable();
  process.exit(0);
}

let todo = all.filter((c) => c.synth);
if (opts.block) todo = todo.filter((c) => c.block === opts.block);
// --config names any config, also one without "synth": true.
if (opts.config) todo = all.filter((c) => c.name === opts.config);
if (todo.length === 0) {
  process.stderr.write('synth-estimate: no matching config\n');
  process.exit(2);
}

const rows = [];
let failed = 0;
// One config per job (a Yosys process), --jobs at a time.
await runPool(todo, jobs, async (c) => {
  if (opts.reanalyze) {
    // levels.mjs again on an earlier run's netlist (build/synth/<name>/net.json).
    const f = path.join(ROOT, 'build', 'synth', c.name, 'result.json');
    if (!fs.existsSync(f) || !fs.existsSync(path.join(ROOT, 'build', 'synth', c.name, 'net.json'))) {
      failed++;
      process.stdout.write(`synth-estimate: ${c.name}: no earlier run in build/synth/${c.name}/\n`);
      return;
    }
    const old = JSON.parse(fs.readFileSync(f, 'utf8'));
    const r = analyzeNet(c, c.name);
    if (r.error) { failed++; process.stdout.write(`synth-estimate: ${c.name}: FAILED (${r.error})\n`); return; }
    const row = { ...makeRow(c, { ...r, synth_s: old.synth_s }), ...(old.flat ? { flat: old.flat } : {}) };
    fs.writeFileSync(f, JSON.stringify(row, null, 2) + '\n');
    if (c.synth) rows.push(row);
    process.stdout.write(`synth-estimate: ${c.name}: re-analyzed build/synth/${c.name}/net.json\n`);
    return;
  }
  if (opts['from-results']) {
    // Rebuild the reports from an earlier run's build/synth/<name>/result.json.
    const f = path.join(ROOT, 'build', 'synth', c.name, 'result.json');
    if (!fs.existsSync(f)) {
      failed++;
      process.stdout.write(`synth-estimate: ${c.name}: no ${path.relative(ROOT, f)} (run it first)\n`);
    } else if (c.synth) {
      rows.push(JSON.parse(fs.readFileSync(f, 'utf8')));
      process.stdout.write(`synth-estimate: ${c.name}: from ${path.relative(ROOT, f)}\n`);
    }
    return;
  }
  process.stdout.write(`synth-estimate: ${c.name} ...\n`);
  const r = await run(c);
  if (r.error) {
    failed++;
    process.stdout.write(`synth-estimate: ${c.name}: FAILED (${r.error})\n`);
    return;
  }
  const row = makeRow(c, r);
  if (c.proto_modules.length && opts.flat) {
    process.stdout.write(`synth-estimate: ${c.name} (flat) ...\n`);
    const f = await run({ ...c, proto_modules: [] }, `${c.name}.flat`);
    if (f.error) {
      failed++;
      process.stdout.write(`synth-estimate: ${c.name} (flat): FAILED (${f.error})\n`);
    } else {
      row.flat = Object.fromEntries(['lut', 'lutram', 'ff', 'bram36', 'uram', 'dsp', 'carry', 'muxf', 'levels',
        'comb_loop', 'synth_s'].map((k) => [k, f[k]]));
    }
  }
  fs.writeFileSync(path.join(ROOT, 'build', 'synth', c.name, 'result.json'), JSON.stringify(row, null, 2) + '\n');
  if (c.synth) rows.push(row);
  const p = row.pct_xcku15p;
  let line = `synth-estimate: ${c.name}: ${r.lut} LUT (${p.lut}%), ${r.ff} FF (${p.ff}%), ` +
    `${r.bram36} BRAM36 (${p.bram36}%), ${r.uram} URAM (${p.uram}%), ${r.levels} levels`;
  if (row.proto_lut != null) {
    line += `; protocol ${row.proto_lut} LUT (${row.proto_share_pct}%), fixed ${row.fixed_lut} LUT, ` +
      `fixed levels ${row.levels_fixed}, protocol levels ${row.levels_proto} ` +
      `(${Object.entries(row.proto_modules).map(([m, s]) => `${m} ${s.lut} LUT ${s.levels} levels`).join(', ')})`;
  }
  if (row.flat) line += `; flat build ${row.flat.lut} LUT, ${row.flat.ff} FF, ${row.flat.levels} levels`;
  if (row.levels_target != null) line += `; target ${row.target_on} <= ${row.levels_target} ${row.meets_target ? 'met' : 'MISSED'}`;
  process.stdout.write(`${line} (${r.synth_s} s)${c.synth ? '' : ' [not "synth": true: not in the reports]'}\n`);
});
if (rows.length === 0 || opts['no-reports']) process.exit(failed ? 1 : 0);

const valid = new Set(all.filter((c) => c.synth).map((c) => c.name));
// Targets come from the manifest, also for rows kept from earlier runs.
const target = new Map(all.map((c) => [c.name, c.levels_target ?? null]));
const merged = writeReport('synth.json', rows, 'name', valid).map((r) => withTarget(r, target.get(r.name) ?? null));
fs.writeFileSync(path.join(REPORTS, 'synth.json'), JSON.stringify(merged, null, 2) + '\n');
const params = (r) => Object.entries(r.params).map(([k, v]) => `${k}=${v}`).join(' ');
const targetCell = (r) => (r.levels_target == null ? ''
  : `${r.target_on === 'levels_fixed' ? 'fixed ' : ''}<= ${r.levels_target} ${r.meets_target ? 'met' : 'MISSED'}`);
const pctCell = (k) => (r) => r.pct_xcku15p?.[k] ?? '';
const table = markdownTable(merged, [
  ['block', (r) => r.block], ['config', (r) => r.name], ['params', params],
  ['LUT', (r) => r.lut], ['(LUTRAM)', (r) => r.lutram], ['FF', (r) => r.ff], ['BRAM36', (r) => r.bram36],
  ['URAM', (r) => r.uram], ['DSP', (r) => r.dsp], ['CARRY4', (r) => r.carry],
  ['LUT %', pctCell('lut')], ['FF %', pctCell('ff')], ['BRAM36 %', pctCell('bram36')], ['URAM %', pctCell('uram')],
  ['levels', (r) => r.levels], ['est. delay (ns)', (r) => r.delay_ns ?? ''], ['target', targetCell],
]);
const note = 'Yosys 0.69 `synth_xilinx -family xcup -flatten -noiopad`, out of context; ' +
  '`levels` per docs/timing-model.md (LUT, MUXF = 1, CARRY4 = 1/2); % of the XCKU15P ' +
  `(${XCKU15P.lut} LUTs, ${XCKU15P.ff} FFs, ${XCKU15P.bram36} BRAM36, ${XCKU15P.uram} URAM).` +
  all.filter((c) => c.synth_note).map((c) => ` Not synthesized: ${c.name} (${c.synth_note}).`).join('') + '\n\n';
const tops = merged.filter((r) => r.proto_lut != null);
const modCell = (k, sep) => (r) => Object.values(r.proto_modules ?? {}).map((s) => s[k]).join(sep);
const topTable = tops.length === 0 ? '' : '\nFixed function vs protocol (configs with "proto_modules"): the protocol ' +
  'modules (tonic_proto_incoming + tonic_proto_periodic) are synthesized in the same run as their own ' +
  'hierarchy, then flattened for the level count; fixed = total - protocol. `fixed levels`: the ' +
  'longest path counting only fixed-function cells (protocol cells count 0), the figure the target ' +
  'applies to; `protocol levels`: only protocol cells (incoming + periodic depth inside the top); ' +
  '`on critical path`: the protocol\'s levels on the worst path of the top. The boundary costs a ' +
  'little logic and depth against a flat build (`--flat` measures it; docs/timing-model.md).\n\n' +
  markdownTable(tops, [
    ['config', (r) => r.name], ['params', params], ['LUT', (r) => r.lut],
    ['protocol LUT (in + per)', (r) => `${r.proto_lut} (${modCell('lut', ' + ')(r)})`], ['fixed LUT', (r) => r.fixed_lut],
    ['protocol share %', (r) => r.proto_share_pct],
    ['protocol % of device LUTs', (r) => round2((r.proto_lut / XCKU15P.lut) * 100)],
    ['fixed / protocol LUT', (r) => (r.proto_lut ? Math.round(r.fixed_lut / r.proto_lut) : '')], ['FF', (r) => r.ff], ['BRAM36', (r) => r.bram36], ['URAM', (r) => r.uram],
    ['levels', (r) => r.levels], ['fixed levels', (r) => r.levels_fixed],
    ['fixed levels around the protocol', (r) => r.levels_around_proto ?? ''],
    ['worst path through the protocol', (r) => r.levels_via_proto ?? ''],
    ['protocol levels (in, per)', (r) => `${r.levels_proto} (${modCell('levels', ', ')(r)})`],
    ['on critical path', (r) => r.path_proto_levels], ['target', targetCell],
    ...(tops.some((r) => r.flat) ? [['flat build LUT / levels', (r) => (r.flat ? `${r.flat.lut} / ${r.flat.levels}` : '')]] : []),
  ]);
// Scaling: the tops of one protocol at several FlowCount x Window sizes.
const scaled = [...new Set(tops.map(protoOf))].filter((p) => tops.filter((r) => protoOf(r) === p).length > 1).sort();
const scaleRows = scaled.flatMap((p) => tops.filter((r) => protoOf(r) === p)
  .sort((a, b) => a.params.FlowCount - b.params.FlowCount || a.params.Window - b.params.Window));
const scaleTable = scaleRows.length === 0 ? '' : '\nScaling (FlowCount x Window) of the protocols synthesized at ' +
  'several sizes; % of the XCKU15P in brackets.\n\n' + markdownTable(scaleRows, [
  ['protocol', protoOf], ['flows', (r) => r.params.FlowCount], ['window', (r) => r.params.Window],
  ['LUT', (r) => `${r.lut} (${r.pct_xcku15p.lut} %)`], ['FF', (r) => `${r.ff} (${r.pct_xcku15p.ff} %)`],
  ['BRAM36', (r) => `${r.bram36} (${r.pct_xcku15p.bram36} %)`], ['URAM', (r) => r.uram], ['DSP', (r) => r.dsp],
  ['protocol LUT', (r) => r.proto_lut], ['fixed levels', (r) => r.levels_fixed], ['levels', (r) => r.levels],
  ['est. delay (ns)', (r) => r.delay_ns ?? ''], ['target', targetCell],
]);
fs.writeFileSync(path.join(REPORTS, 'synth.md'), note + table + topTable + scaleTable);
updateResults('synth', 'Synthesis estimate (XCKU15P)', note + table + topTable + scaleTable);

writeUserStateTable();
writeFixedLevels(tops);
process.exit(failed ? 1 : 0);
