// SPDX-License-Identifier: Apache-2.0
// vivado-parse.mjs — turns the reports of one synth/vivado/tonic.tcl run
// into a row of build/reports/vivado.json (and build/reports/vivado.md).
//
// usage: node scripts/vivado-parse.mjs <run dir> [--name N] [--print]
//   --name   the row's name (default: the run directory's name, e.g.
//            <protocol>_1024x128_100mhz); rows are merged by name
//   --print  print the row only, write no report
// scripts/vivado.mjs runs it after Vivado. Exit 2, with the file and the
// field in the message, when a report is missing or does not parse.
//
// Read from the run directory (Vivado 2023.x/2024.x text reports of an
// UltraScale+ device):
//   run.json            written by scripts/vivado.mjs: block, config, top,
//                       params, clock_mhz, period_ns
//   utilization.rpt     report_utilization after routing: "CLB Logic"
//                       (CLB LUTs, LUT as Memory, CLB Registers, CARRY8, F7/
//                       F8/F9 Muxes), "BLOCKRAM" (Block RAM Tile,
//                       RAMB36/FIFO*, RAMB18, URAM), "ARITHMETIC" (DSPs)
//   timing_summary.rpt  report_timing_summary: the "Design Timing Summary"
//                       table (WNS, TNS, TNS failing endpoints, WHS) and the
//                       "Clock Summary" period
//   timing_paths.rpt    report_timing: the first (worst) path's Slack,
//                       "Data Path Delay:" (logic / route) and
//                       "Logic Levels:" (with its cell counts)
//
// The row has the shape of a build/reports/synth.json row (block, name,
// top, params, lut, lutram, ff, bram36, uram, dsp, carry, muxf, levels,
// pct_xcku15p) plus what only Vivado knows: wns_ns, tns_ns, whs_ns,
// failing_endpoints, period_ns, fmax_mhz = 1000 / (period - WNS), met
// (WNS >= 0), data_path_ns, logic_ns, route_ns, levels_cells, path_from,
// path_to, tool, source "vivado". Units differ from synth.json in two
// places (synth/vivado/README.md): carry counts CARRY8 here (Yosys' CARRY4
// there, two per CARRY8), and levels is Vivado's "Logic Levels" of the worst
// path (every LUT, MUXF, CARRY8 and the launching RAMB counts 1), not
// levels.mjs' deepest path.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './lib/cli.mjs';
import { markdownTable, readReport, REPORTS, writeReport, XCKU15P } from './report.mjs';

/// A report that is missing or does not parse; message: "<file>: <field>: ...".
export class ParseError extends Error {}

const NUM = /^-?[0-9]+(?:\.[0-9]+)?$/;
const round2 = (x) => Math.round(x * 100) / 100;

function number(file, field, text) {
  if (!NUM.test(text ?? '')) throw new ParseError(`${file}: ${field}: "${text ?? ''}" is not a number`);
  return Number(text);
}

/// The report header's "| Key : value" lines.
function header(text) {
  const h = {};
  for (const m of text.matchAll(/^\|\s*([A-Za-z][A-Za-z ]*?)\s*:\s*(.*?)\s*$/gm)) h[m[1]] ??= m[2];
  return h;
}

/// report_utilization: numbered sections ("3. BLOCKRAM" over a line of
/// dashes), each a map row label -> "Used" cell (first row of that label;
/// the label without the footnote "*").
function utilSections(text) {
  const lines = text.split(/\r?\n/);
  const out = new Map();
  let cur = null;
  for (let i = 0; i < lines.length; i++) {
    const h = /^\d+(?:\.\d+)*\.?\s+(\S.*?)\s*$/.exec(lines[i]);
    if (h && /^-{3,}\s*$/.test(lines[i + 1] ?? '')) {
      cur = new Map();
      if (!out.has(h[1])) out.set(h[1], cur);
      i++;
      continue;
    }
    const row = /^\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|/.exec(lines[i]);
    if (cur && row) {
      const label = row[1].replace(/\*+$/, '').trim();
      if (!cur.has(label)) cur.set(label, row[2]);
    }
  }
  return out;
}

export function parseUtilization(text, file = 'utilization.rpt') {
  const h = header(text);
  if (h.Device !== undefined && !/^xcku15p/i.test(h.Device)) {
    throw new ParseError(`${file}: Device: "${h.Device}" is not the XCKU15P`);
  }
  if (h['Design State'] !== undefined && !/routed/i.test(h['Design State'])) {
    throw new ParseError(`${file}: Design State: "${h['Design State']}", expected a routed design (did route_design finish?)`);
  }
  const secs = utilSections(text);
  const get = (section, label, optional = false) => {
    const s = secs.get(section);
    if (!s) throw new ParseError(`${file}: no section "${section}" (not a report_utilization of an UltraScale+ design, or cut short)`);
    if (!s.has(label)) {
      if (optional) return 0;
      throw new ParseError(`${file}: ${section}: no row "${label}"`);
    }
    return number(file, `${section}: ${label}`, s.get(label));
  };
  const r = {
    lut: get('CLB Logic', 'CLB LUTs'),
    lutram: get('CLB Logic', 'LUT as Memory'),
    ff: get('CLB Logic', 'CLB Registers'),
    carry: get('CLB Logic', 'CARRY8'),
    muxf: get('CLB Logic', 'F7 Muxes', true) + get('CLB Logic', 'F8 Muxes', true) + get('CLB Logic', 'F9 Muxes', true),
    bram_tile: get('BLOCKRAM', 'Block RAM Tile'),
    ramb36: get('BLOCKRAM', 'RAMB36/FIFO'),
    ramb18: get('BLOCKRAM', 'RAMB18'),
    uram: get('BLOCKRAM', 'URAM'),
    dsp: get('ARITHMETIC', 'DSPs'),
    tool: (/^(Vivado v\.?\S+)/.exec(h['Tool Version'] ?? '') ?? [])[1] ?? null,
  };
  if (Math.abs(r.bram_tile - (r.ramb36 + r.ramb18 / 2)) > 1e-9) {
    throw new ParseError(`${file}: BLOCKRAM: Block RAM Tile ${r.bram_tile} != RAMB36/FIFO ${r.ramb36} + RAMB18 ${r.ramb18} / 2`);
  }
  return r;
}

/// A table under a "| <title>" banner: header line (columns apart by two or
/// more spaces), a line of dashes, then rows.
function bannerTable(text, file, title, headStart) {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => new RegExp(`^\\|\\s*${title}\\s*$`).test(l));
  if (at < 0) throw new ParseError(`${file}: no "${title}" section`);
  let i = at + 1;
  while (i < lines.length && !lines[i].trim().startsWith(headStart)) {
    if (/^\|\s*\S/.test(lines[i]) && !/^\|\s*-+\s*$/.test(lines[i])) break;  // the next banner
    i++;
  }
  if (i >= lines.length || !lines[i].trim().startsWith(headStart)) {
    throw new ParseError(`${file}: ${title}: no table header "${headStart}..."`);
  }
  const head = lines[i].trim().split(/\s{2,}/);
  if (!/^[-\s]+$/.test(lines[i + 1] ?? '')) throw new ParseError(`${file}: ${title}: no line of dashes under the header`);
  const rows = [];
  for (let j = i + 2; j < lines.length && lines[j].trim() !== ''; j++) rows.push(lines[j].trim());
  if (rows.length === 0) throw new ParseError(`${file}: ${title}: the table has no rows`);
  return { head, rows };
}

export function parseTimingSummary(text, file = 'timing_summary.rpt') {
  const t = bannerTable(text, file, 'Design Timing Summary', 'WNS(ns)');
  const vals = t.rows[0].split(/\s+/);
  if (vals.length !== t.head.length) {
    throw new ParseError(`${file}: Design Timing Summary: ${vals.length} values for ${t.head.length} columns`);
  }
  const col = (name) => {
    const k = t.head.indexOf(name);
    if (k < 0) throw new ParseError(`${file}: Design Timing Summary: no column "${name}"`);
    return number(file, `Design Timing Summary: ${name}`, vals[k]);
  };
  const c = bannerTable(text, file, 'Clock Summary', 'Clock');
  const m = /^(\S+)\s+\{[^}]*\}\s+(\S+)/.exec(c.rows[0]);
  if (!m) throw new ParseError(`${file}: Clock Summary: cannot read "${c.rows[0]}"`);
  return {
    wns_ns: col('WNS(ns)'),
    tns_ns: col('TNS(ns)'),
    failing_endpoints: col('TNS Failing Endpoints'),
    whs_ns: col('WHS(ns)'),
    clock: m[1],
    period_ns: number(file, `Clock Summary: Period(ns) of ${m[1]}`, m[2]),
  };
}

export function parseTimingPaths(text, file = 'timing_paths.rpt') {
  const s = /^Slack(?: \((MET|VIOLATED)\))?\s*:\s*(\S+?)(?:ns)?(?:\s|$)/m.exec(text);
  if (!s) throw new ParseError(`${file}: Slack: no timing path in the report`);
  const slack = number(file, 'Slack', s[2]);
  const rest = text.slice(s.index + s[0].length);
  const next = rest.search(/^Slack/m);
  const path1 = next < 0 ? rest : rest.slice(0, next);
  const field = (name, re) => {
    const m = re.exec(path1);
    if (!m) throw new ParseError(`${file}: ${name}: not in the first path's header`);
    return m;
  };
  const d = field('Data Path Delay', /^\s*Data Path Delay:\s*(\S+?)ns\s+\(logic\s+(\S+?)ns\s+\([^)]*\)\s+route\s+(\S+?)ns/m);
  const l = field('Logic Levels', /^\s*Logic Levels:\s*(\S+)(?:\s+\(([^)]*)\))?/m);
  const cells = {};
  for (const kv of (l[2] ?? '').trim().split(/\s+/).filter(Boolean)) {
    const m = /^([A-Za-z0-9_]+)=([0-9]+)$/.exec(kv);
    if (!m) throw new ParseError(`${file}: Logic Levels: cannot read "${kv}"`);
    cells[m[1]] = Number(m[2]);
  }
  const levels = number(file, 'Logic Levels', l[1]);
  return {
    path_slack_ns: slack,
    data_path_ns: number(file, 'Data Path Delay', d[1]),
    logic_ns: number(file, 'Data Path Delay: logic', d[2]),
    route_ns: number(file, 'Data Path Delay: route', d[3]),
    levels,
    levels_cells: cells,
    path_from: (/^\s*Source:\s+(\S+)/m.exec(path1) ?? [])[1] ?? null,
    path_to: (/^\s*Destination:\s+(\S+)/m.exec(path1) ?? [])[1] ?? null,
  };
}

function readIn(dir, file) {
  const f = path.join(dir, file);
  if (!fs.existsSync(f)) throw new ParseError(`${f}: missing (did the Vivado run finish? see vivado.log there)`);
  return fs.readFileSync(f, 'utf8');
}

/// The vivado.json row of the run in `dir`.
export function parseRun(dir, name = path.basename(path.resolve(dir))) {
  const at = (f) => path.join(dir, f);
  let run;
  try {
    run = JSON.parse(readIn(dir, 'run.json'));
  } catch (e) {
    if (e instanceof ParseError) throw e;
    throw new ParseError(`${at('run.json')}: ${e.message}`);
  }
  for (const k of ['block', 'config', 'top', 'params', 'period_ns']) {
    if (run[k] === undefined) throw new ParseError(`${at('run.json')}: ${k}: missing`);
  }
  const u = parseUtilization(readIn(dir, 'utilization.rpt'), at('utilization.rpt'));
  const t = parseTimingSummary(readIn(dir, 'timing_summary.rpt'), at('timing_summary.rpt'));
  const p = parseTimingPaths(readIn(dir, 'timing_paths.rpt'), at('timing_paths.rpt'));
  if (Math.abs(t.period_ns - run.period_ns) > 0.001) {
    throw new ParseError(`${at('timing_summary.rpt')}: Clock Summary: period ${t.period_ns} ns, but the run asked for ` +
      `${run.period_ns} ns (run.json): wrong XDC?`);
  }
  if (Math.abs(p.path_slack_ns - t.wns_ns) > 0.001) {
    process.stderr.write(`vivado-parse: warning: the first path of timing_paths.rpt has slack ${p.path_slack_ns} ns, ` +
      `WNS is ${t.wns_ns} ns\n`);
  }
  const res = { lut: u.lut, lutram: u.lutram, ff: u.ff, bram36: u.bram_tile, uram: u.uram, dsp: u.dsp };
  const pct = {};
  for (const k of Object.keys(XCKU15P)) pct[k] = round2((res[k] / XCKU15P[k]) * 100);
  return {
    block: run.block, name, top: run.top, params: run.params,
    ...res, carry: u.carry, muxf: u.muxf, levels: p.levels,
    pct_xcku15p: pct,
    source: 'vivado', tool: u.tool, config: run.config, part: run.part ?? null, clock_mhz: run.clock_mhz ?? null,
    period_ns: t.period_ns, wns_ns: t.wns_ns, tns_ns: t.tns_ns, whs_ns: t.whs_ns,
    failing_endpoints: t.failing_endpoints,
    fmax_mhz: round2(1000 / (t.period_ns - t.wns_ns)), met: t.wns_ns >= 0,
    data_path_ns: p.data_path_ns, logic_ns: p.logic_ns, route_ns: p.route_ns,
    levels_cells: p.levels_cells, path_from: p.path_from, path_to: p.path_to,
    ramb36: u.ramb36, ramb18: u.ramb18,
  };
}

/// Merges a row into build/reports/vivado.json (rows of other runs are
/// kept) and rewrites build/reports/vivado.md; returns the merged rows.
export function mergeRow(row) {
  const old = new Set(readReport('vivado.json').map((r) => r.name));
  const rows = writeReport('vivado.json', [row], 'name', old.add(row.name));
  const params = (r) => Object.entries(r.params ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');
  fs.writeFileSync(path.join(REPORTS, 'vivado.md'), 'Vivado, out of context on the XCKU15P ' +
    '(synth/vivado/README.md); levels = "Logic Levels" of the worst setup path.\n\n' + markdownTable(rows, [
    ['run', (r) => r.name], ['config', (r) => r.config], ['params', params], ['MHz', (r) => r.clock_mhz],
    ['LUT', (r) => r.lut], ['(LUTRAM)', (r) => r.lutram], ['FF', (r) => r.ff], ['BRAM36', (r) => r.bram36],
    ['URAM', (r) => r.uram], ['DSP', (r) => r.dsp], ['CARRY8', (r) => r.carry],
    ['WNS ns', (r) => r.wns_ns], ['Fmax MHz', (r) => r.fmax_mhz], ['met', (r) => (r.met ? 'yes' : 'NO')],
    ['levels', (r) => r.levels], ['logic / route ns', (r) => `${r.logic_ns} / ${r.route_ns}`],
  ]));
  process.stdout.write(`vivado-parse: ${row.name}: ${row.lut} LUT (${row.pct_xcku15p.lut}%), ${row.ff} FF, ` +
    `${row.bram36} BRAM36, ${row.uram} URAM, ${row.dsp} DSP; WNS ${row.wns_ns} ns at ${row.period_ns} ns ` +
    `(${row.met ? 'met' : 'VIOLATED'}, Fmax ${row.fmax_mhz} MHz), worst path ${row.levels} levels ` +
    `(logic ${row.logic_ns} ns, route ${row.route_ns} ns) -> ${path.join(REPORTS, 'vivado.json')}\n`);
  return rows;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { values, positionals } = cli({
      name: 'vivado-parse',
      usage: 'node scripts/vivado-parse.mjs <run dir> [--name N] [--print]',
      description: "A Vivado run directory's reports (scripts/vivado.mjs) as one row, merged into\n" +
        'build/reports/vivado.json and the vivado table of docs/results.md. Exit 2 on a malformed report.',
      options: {
        name: { type: 'string', arg: 'N', help: "the row's name (default: the run directory's name)" },
        print: { type: 'boolean', help: 'print the row as JSON instead of merging it' },
      },
      positionals: { names: '<run dir>', min: 1, max: 1 },
    });
    const row = parseRun(positionals[0], values.name);
    if (values.print) process.stdout.write(JSON.stringify(row, null, 2) + '\n');
    else mergeRow(row);
  } catch (e) {
    if (!(e instanceof ParseError)) throw e;
    process.stderr.write(`vivado-parse: ${e.message}\n`);
    process.exit(2);
  }
}
