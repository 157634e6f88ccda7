// SPDX-License-Identifier: Apache-2.0
// compare.mjs — `scripts/compare TONIC_DIR NS3_DIR`: one network scenario
// run by tonic-netsim (sim/netsim) and by tonic-ns3 (sim/ns3), side by side.
// Both write the run-directory format of sim/common/run_output.hpp:
//   cwnd.csv      time_us,cwnd_segments,ssthresh_segments  (traced flow, one row per change)
//   tx.csv        time_us,segment,retransmit               (traced flow, every data segment; optional here)
//   summary.json  simulator, scenario, completion_time_us, fast_retransmit_episodes,
//                 timeouts, retransmitted_segments, ... (RunSummary)
//
// usage: scripts/compare TONIC_DIR NS3_DIR [--json OUT.json] [--label NAME]
//   --json   also write the comparison row as JSON to OUT.json
//   --label  the row's name (default: the scenario of TONIC_DIR's summary)
// Exit status: 0 whatever the verdict; 2 on bad usage or a missing or
// malformed input file (one line naming the file and line).
//
// Figures of a row:
//   completion_time_us      each run's; completion_diff_pct = (tonic - ns3) / ns3 * 100
//                           (null when either did not complete, -1)
//   fast_retransmit_episodes, timeouts, retransmitted_segments: each run's
//   cwnd_mean_abs_diff      mean over [0, T] of |cwnd_tonic(t) - cwnd_ns3(t)|, in
//                           segments, where each cwnd.csv is a step function (a row's
//                           value holds until the next row; before its first row a run
//                           has its first row's value, the initial window).
//                           T = min(end_tonic, end_ns3) and a run's end is the later
//                           of its last cwnd row and its completion, start +
//                           completion_time_us, where start = the first tx.csv row
//                           (completion counts from the first data segment sent; 0
//                           without tx.csv). A run that did not complete ends at the
//                           later of its last cwnd row and sim_time_us. Taking the
//                           later of the two keeps a window change logged after the
//                           last ack (e.g. an RTO firing late) inside the interval.
//   verdict                 "match" when both runs have the same fast-retransmit
//                           episodes, the same timeouts and completion times within
//                           2 % of ns-3's (|diff| <= 2; a run that did not complete
//                           fails this); otherwise "differs", with `failed` listing
//                           each criterion that failed.
//   end_us                  each run's end as above (cwnd_interval_us = [0, T])
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './lib/cli.mjs';

/// Completion times within this many percent of ns-3's count as equal.
export const COMPLETION_TOLERANCE_PCT = 2;

/// A missing or malformed input file; the message names the file (and line).
export class InputError extends Error {}

export const COLUMNS = {
  cwnd: ['time_us', 'cwnd_segments', 'ssthresh_segments'],
  tx: ['time_us', 'segment', 'retransmit'],
  flows: ['sender', 'flow', 'throughput_mbps', 'retransmits'],
  thr: ['time_us', 'sender', 'flow', 'throughput_mbps'],
};
// Columns that must hold integers (the others: any finite number).
const INTEGER = new Set(['cwnd_segments', 'ssthresh_segments', 'segment', 'retransmit', 'sender', 'flow', 'retransmits']);
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/// Reads one CSV of a run directory: the header must be exactly `columns`,
/// every row as many numeric fields. Returns rows as objects.
export function readCsv(file, columns) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: ${e.code === 'ENOENT' ? 'missing' : e.message}`);
  }
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (!lines.length) throw new InputError(`${file}:1: empty file (expected the header ${columns.join(',')})`);
  if (lines[0] !== columns.join(',')) throw new InputError(`${file}:1: header '${lines[0]}', expected '${columns.join(',')}'`);
  const rows = [];
  for (let i = 1; i < lines.length; i++) {
    const where = `${file}:${i + 1}`;
    const fields = lines[i].split(',');
    if (fields.length !== columns.length) throw new InputError(`${where}: ${fields.length} fields, expected ${columns.length}`);
    const row = {};
    columns.forEach((c, k) => {
      const f = fields[k].trim();
      if (!NUMBER.test(f)) throw new InputError(`${where}: ${c} '${fields[k]}' is not a number`);
      const v = Number(f);
      if (INTEGER.has(c) && !Number.isInteger(v)) throw new InputError(`${where}: ${c} '${fields[k]}' is not an integer`);
      row[c] = v;
    });
    if ('time_us' in row && row.time_us < 0) throw new InputError(`${where}: negative time_us`);
    if ('retransmit' in row && row.retransmit !== 0 && row.retransmit !== 1) throw new InputError(`${where}: retransmit must be 0 or 1`);
    if (rows.length && (columns === COLUMNS.cwnd || columns === COLUMNS.tx) && row.time_us < rows[rows.length - 1].time_us) {
      throw new InputError(`${where}: time_us goes backwards`);
    }
    rows.push(row);
  }
  return rows;
}

/// The offset of the first JSON syntax error in `text` (null: none). V8's
/// message does not always give one, and the error line is what a reader
/// needs.
export function jsonErrorOffset(text) {
  let i = 0;
  const literal = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null/y;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = () => {
    throw i;
  };
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] < ' ') fail();
      i += text[i] === '\\' ? 2 : 1;
    }
    if (i >= text.length) fail();
    i++;
  };
  // Items of an object ({"k": v, ...}) or an array ([v, ...]) after the opening bracket.
  const items = (close, item) => {
    ws();
    if (text[i] === close) return i++;
    for (;;) {
      item();
      ws();
      if (text[i] === close) return i++;
      if (text[i] !== ',') fail();
      i++;
    }
  };
  const value = () => {
    ws();
    if (text[i] === '{') {
      i++;
      return items('}', () => {
        ws();
        if (text[i] !== '"') fail();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
      });
    }
    if (text[i] === '[') {
      i++;
      return items(']', value);
    }
    if (text[i] === '"') return string();
    literal.lastIndex = i;
    const m = literal.exec(text);
    if (!m) fail();
    i += m[0].length;
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return null;
  } catch (at) {
    if (typeof at !== 'number') throw at;
    return at;
  }
}

const SUMMARY_NUMBERS = ['completion_time_us', 'fast_retransmit_episodes', 'timeouts', 'retransmitted_segments', 'sim_time_us'];

/// Reads summary.json (the keys compare needs must be present).
export function readSummary(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: ${e.code === 'ENOENT' ? 'missing' : e.message}`);
  }
  let s;
  try {
    s = JSON.parse(text);
  } catch (e) {
    const at = jsonErrorOffset(text) ?? 0;
    const line = text.slice(0, at).split('\n').length;
    throw new InputError(`${file}:${line}: invalid JSON (${e.message.split('\n')[0]})`);
  }
  if (s === null || typeof s !== 'object' || Array.isArray(s)) throw new InputError(`${file}:1: not a JSON object`);
  for (const k of ['simulator', 'scenario']) {
    if (typeof s[k] !== 'string') throw new InputError(`${file}: "${k}" missing or not a string`);
  }
  for (const k of SUMMARY_NUMBERS) {
    if (typeof s[k] !== 'number' || !Number.isFinite(s[k])) throw new InputError(`${file}: "${k}" missing or not a number`);
  }
  return s;
}

/// A run directory: summary, cwnd rows (at least one) and tx rows (null
/// when tx.csv is absent).
export function readRun(dir) {
  const summary = readSummary(path.join(dir, 'summary.json'));
  const cwndFile = path.join(dir, 'cwnd.csv');
  const cwnd = readCsv(cwndFile, COLUMNS.cwnd);
  if (!cwnd.length) throw new InputError(`${cwndFile}:2: no rows (the traced flow's window was never logged)`);
  const txFile = path.join(dir, 'tx.csv');
  const tx = fs.existsSync(txFile) ? readCsv(txFile, COLUMNS.tx) : null;
  return { dir, summary, cwnd, tx };
}

/// The end of a run's cwnd trace for the comparison (see the header).
export function runEnd(run) {
  const last = run.cwnd[run.cwnd.length - 1].time_us;
  const c = run.summary.completion_time_us;
  if (c < 0) return Math.max(last, run.summary.sim_time_us);
  const start = run.tx && run.tx.length ? run.tx[0].time_us : 0;
  return Math.max(last, start + c);
}

/// Mean of |a(t) - b(t)| over [0, end], a and b step functions given as
/// rows sorted by time_us (value `cwnd_segments`; before the first row, the
/// first row's value). null when end <= 0.
export function cwndMeanAbsDiff(a, b, end) {
  if (!(end > 0)) return null;
  const times = [...new Set([0, ...a.map((r) => r.time_us), ...b.map((r) => r.time_us)])]
    .filter((t) => t < end).sort((x, y) => x - y);
  // Value at t: the last row with time_us <= t (rows are sorted).
  const cursor = (rows) => {
    let i = 0;
    return (t) => {
      while (i + 1 < rows.length && rows[i + 1].time_us <= t) i++;
      return rows[i].cwnd_segments;
    };
  };
  const at = cursor(a);
  const bt = cursor(b);
  let area = 0;
  for (let k = 0; k < times.length; k++) {
    const t1 = k + 1 < times.length ? times[k + 1] : end;
    area += Math.abs(at(times[k]) - bt(times[k])) * (t1 - times[k]);
  }
  return area / end;
}

const round = (x, digits = 6) => (x === null ? null : Math.round(x * 10 ** digits) / 10 ** digits);

/// The comparison row of two runs (readRun results).
export function compareRuns(tonic, ns3, label = null) {
  const pair = (k) => ({ tonic: tonic.summary[k], ns3: ns3.summary[k] });
  const completion = pair('completion_time_us');
  const complete = completion.tonic >= 0 && completion.ns3 >= 0;
  const diffPct = complete && completion.ns3 > 0 ? ((completion.tonic - completion.ns3) / completion.ns3) * 100 : null;
  const ends = { tonic: runEnd(tonic), ns3: runEnd(ns3) };
  const end = Math.min(ends.tonic, ends.ns3);
  const fr = pair('fast_retransmit_episodes');
  const to = pair('timeouts');
  const failed = [];
  if (fr.tonic !== fr.ns3) failed.push(`fast_retransmit_episodes (tonic ${fr.tonic}, ns3 ${fr.ns3})`);
  if (to.tonic !== to.ns3) failed.push(`timeouts (tonic ${to.tonic}, ns3 ${to.ns3})`);
  if (!complete) {
    const who = [completion.tonic < 0 && 'tonic', completion.ns3 < 0 && 'ns3'].filter(Boolean).join(' and ');
    failed.push(`completion (${who} did not complete)`);
  } else if (diffPct === null || Math.abs(diffPct) > COMPLETION_TOLERANCE_PCT + 1e-9) {
    failed.push(`completion (${diffPct === null ? 'ns3 took 0 us' : `${fmtPct(diffPct)} > ${COMPLETION_TOLERANCE_PCT} %`})`);
  }
  return {
    label: label ?? tonic.summary.scenario,
    scenario: tonic.summary.scenario,
    tonic_dir: tonic.dir,
    ns3_dir: ns3.dir,
    completion_time_us: completion,
    completion_diff_pct: round(diffPct),
    fast_retransmit_episodes: fr,
    timeouts: to,
    retransmitted_segments: pair('retransmitted_segments'),
    cwnd_mean_abs_diff: round(cwndMeanAbsDiff(tonic.cwnd, ns3.cwnd, end)),
    cwnd_interval_us: [0, round(end, 3)],
    end_us: { tonic: round(ends.tonic, 3), ns3: round(ends.ns3, 3) },
    verdict: failed.length ? 'differs' : 'match',
    failed,
  };
}

/// compareRuns on two run directories (throws InputError).
export function compareDirs(tonicDir, ns3Dir, label = null) {
  const tonic = readRun(tonicDir);
  const ns3 = readRun(ns3Dir);
  for (const [run, want] of [[tonic, 'tonic'], [ns3, 'ns3']]) {
    if (run.summary.simulator !== want) {
      process.stderr.write(`compare: warning: ${path.join(run.dir, 'summary.json')} says simulator "${run.summary.simulator}", expected "${want}"\n`);
    }
  }
  return compareRuns(tonic, ns3, label);
}

export function fmtPct(x) {
  return x === null ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(2)} %`;
}
const fmtTime = (t) => (t < 0 ? 'incomplete' : t.toFixed(3));

/// The human-readable block of a row.
export function formatComparison(r) {
  const line = (name, a, b, extra = '') => `  ${name.padEnd(22)}${String(a).padStart(12)}${String(b).padStart(12)}${extra ? `   ${extra}` : ''}`;
  return [
    `compare: ${r.label} (scenario ${r.scenario})`,
    line('', 'tonic', 'ns3', 'diff'),
    line('completion (us)', fmtTime(r.completion_time_us.tonic), fmtTime(r.completion_time_us.ns3), fmtPct(r.completion_diff_pct)),
    line('fast retransmits', r.fast_retransmit_episodes.tonic, r.fast_retransmit_episodes.ns3),
    line('timeouts', r.timeouts.tonic, r.timeouts.ns3),
    line('retransmitted segs', r.retransmitted_segments.tonic, r.retransmitted_segments.ns3),
    `  ${'mean |cwnd diff|'.padEnd(22)}${r.cwnd_mean_abs_diff === null ? '-' : r.cwnd_mean_abs_diff.toFixed(3)} segments over [0, ${r.cwnd_interval_us[1].toFixed(3)}] us`,
    `  ${'verdict'.padEnd(22)}${r.verdict}${r.failed.length ? `: ${r.failed.join('; ')}` : ''}`,
  ].join('\n') + '\n';
}

/// The command line of scripts/compare.
const CLI = {
  name: 'compare',
  usage: 'scripts/compare TONIC_DIR NS3_DIR [--json OUT.json] [--label NAME]',
  description: 'One scenario run by tonic-netsim and by tonic-ns3, side by side: the figures and the verdict.\n' +
    'Exit 2 on a usage error or a malformed run directory.',
  options: {
    json: { type: 'string', arg: 'OUT.json', help: 'also write the comparison as JSON' },
    label: { type: 'string', arg: 'NAME', help: "the row's name (default: the scenario of TONIC_DIR's summary)" },
  },
  positionals: { names: 'TONIC_DIR NS3_DIR', min: 2, max: 2 },
};

function main(argv) {
  const { values: o, positionals: dirs } = cli(CLI, argv);
  const json = o.json ?? null;
  const label = o.label ?? null;
  const row = compareDirs(dirs[0], dirs[1], label);
  process.stdout.write(formatComparison(row));
  if (json) {
    fs.mkdirSync(path.dirname(path.resolve(json)), { recursive: true });
    fs.writeFileSync(json, JSON.stringify(row, null, 2) + '\n');
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    process.stderr.write(`compare: ${e.message}\n`);
    process.exit(2);
  }
}
