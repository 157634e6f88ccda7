// SPDX-License-Identifier: Apache-2.0
// compare-suite.mjs — `make compare`: one scenario of a protocol that an
// ns-3 TCP models (protocol.json "ns3") under several drop patterns, each
// run by tonic-netsim (our SystemC simulation of the RTL, sim/netsim) and by
// tonic-ns3 (that ns-3 TCP, sim/ns3), compared by scripts/compare.mjs
// (completion time, fast-retransmit episodes, timeouts, retransmissions,
// mean |cwnd difference|, verdict).
//
// usage: node scripts/compare-suite.mjs --netsim PATH --ns3 PATH
//          [--config FILE] [--out DIR] [--pattern 'OPTIONS']...
//   --netsim   the tonic-netsim executable
//   --ns3      the tonic-ns3 executable
//   --config   the scenario, given to both (default: the reference protocol's
//              single-flow scenario, scripts/registry.mjs --scenario single)
//   --out      where the runs go (default build/compare): DIR/<slug>/{tonic,ns3}
//   --pattern  a drop pattern, the simulators' drop options in one string
//              (e.g. '--drops=5,37,38' or '--loss=0.0005 --seed=7');
//              repeatable; default PATTERNS below
//   --all      `make compare`: first the drop patterns of the reference
//              protocol's single.json as above (when the tree has one, or
//              of --config), then every scenario of every protocol whose
//              protocol.json names an ns-3 TCP ("ns3"): its
//              protocols/<p>/netsim/*.json, a single.json under the drop
//              patterns, any other once without drop options (an incast's
//              losses are the switch's). A scenario tonic-ns3 does not
//              model (exit 2, e.g. switch.reorder) is listed as skipped with
//              its reason. The network figures of both (summary.json
//              "network", sim/common/net_stats.hpp) go side by side.
// Each simulator runs as: PATH --config FILE --out DIR/<slug>/<sim> --quiet OPTIONS...
// (the drop options of sim/common/drop_rule.hpp, the same for both).
//
// Writes:
//   build/reports/compare.json   one row per pattern (compare.mjs's row + pattern, config);
//                                TONIC_REPORTS_DIR overrides the directory (scripts/report.mjs)
//   docs/results.md              the table between <!-- compare:begin --> and <!-- compare:end -->
//   DIR/<slug>/compare_<slug>.png  the overlay of each pattern (gnuplot): cwnd of both against
//                                time, and segments sent by both with retransmissions marked;
//                                the first pattern's is copied to docs/img/compare_<slug>.png
// With --all also:
//   build/reports/compare_scenarios.json  one row per protocol, scenario and drop pattern: the
//                                traced flow's figures (compare.mjs) and the network figures of both
//   docs/results.md              the table between <!-- compare_scenarios:begin --> and ...:end -->
//   DIR/<protocol>/<scenario>[/<slug>]/network.png  every flow's cwnd, Tonic and ns-3 side by side,
//                                and the bottleneck queue of both with K (scenarios with "samples");
//                                copied to docs/img/compare_<protocol>_<scenario>.png
// Exit status: 0 whatever the verdicts; 1 when a simulator is missing or a
// run fails (the message names the command line) or its output is
// malformed; 2 on bad usage.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { compareDirs, COMPLETION_TOLERANCE_PCT, fmtPct, InputError, readSummary } from './compare.mjs';
import { gnuplotAvailable, networkScript, overlayScript, render } from './gnuplot.mjs';
import { cli, usageLine } from './lib/cli.mjs';
import { ROOT } from './manifest.mjs';
import { loadProtocols, referenceProtocol, referenceScenario } from './registry.mjs';
import { markdownTable, updateResults, writeReport } from './report.mjs';

/// The default drop patterns (drop options of sim/common/drop_rule.hpp,
/// applied to the traced flow's segment indices, first arrival only except
/// --loss):
///   --drops=5,37,38        an early loss in slow start, then two in one window (a partial ack)
///   --drops=100            a single loss: one fast retransmit
///   --drop-every=200       periodic losses: repeated fast recovery in congestion avoidance
///   --drops=20,21,22,23    four consecutive losses: recovery over several partial acks, or a timeout
///   --loss=0.0005 --seed=7 random loss (hash of seed, flow, index, arrival), retransmissions can be lost too
///   --drops=1000           a single loss later, at a larger window
///   --drops=1500,1501      two losses in one window late in the transfer
///   --drop-every=500       a few losses far apart
///   --loss=0.002 --seed=1  a denser random loss
/// The first one's overlay is the plot committed to docs/img/.
export const PATTERNS = [
  '--drops=5,37,38',
  '--drops=100',
  '--drop-every=200',
  '--drops=20,21,22,23',
  '--loss=0.0005 --seed=7',
  '--drops=1000',
  '--drops=1500,1501',
  '--drop-every=500',
  '--loss=0.002 --seed=1',
];

/// A directory/file name for a pattern: '--loss=0.0005 --seed=7' -> 'loss_0.0005_seed_7'.
export function slug(pattern) {
  return pattern.replace(/[^A-Za-z0-9.]+/g, '_').replace(/^_+|_+$/g, '');
}

class Fail extends Error {}

/// The command line of compare-suite.mjs.
const CLI = {
  name: 'compare-suite',
  usage: "node scripts/compare-suite.mjs --netsim PATH --ns3 PATH [--config FILE] [--out DIR] [--pattern 'OPTIONS']... [--all]",
  description: 'One scenario under several drop patterns, each run by tonic-netsim and by tonic-ns3 (the ns-3 TCP\n' +
    'of the protocol\'s protocol.json "ns3") and\n' +
    'compared (scripts/compare.mjs): build/reports/compare.json, the compare table of docs/results.md and\n' +
    'an overlay plot per pattern. Exit 1 when a run fails, 2 on bad usage.',
  options: {
    netsim: { type: 'string', arg: 'PATH', help: 'the tonic-netsim executable (required)' },
    ns3: { type: 'string', arg: 'PATH', help: 'the tonic-ns3 executable (required)' },
    config: { type: 'string', arg: 'FILE', shown: "the reference protocol's netsim/single.json", help: 'the scenario, given to both' },
    out: { type: 'string', arg: 'DIR', default: path.join(ROOT, 'build', 'compare'), shown: 'build/compare',
      help: 'where the runs go: DIR/<slug>/{tonic,ns3}' },
    pattern: { type: 'string', multiple: true, dashValue: true, arg: "'OPTIONS'",
      help: "a drop pattern, the simulators' drop options in one string, e.g. '--loss=0.0005 --seed=7' " +
        '(default: the nine PATTERNS of this file)' },
    all: { type: 'boolean', help: 'then every scenario of every protocol with an ns-3 TCP (protocols/<p>/netsim/*.json): ' +
      'compare_scenarios.json, its table in results.md, network plots' },
  },
};

/// The options of a command line (cli.mjs), the patterns defaulted.
function options(argv) {
  const { values } = cli(CLI, argv);
  const o = { ...values, patterns: values.pattern.map((p) => p.trim()) };
  if (!o.netsim || !o.ns3) throw new InputError(usageLine(CLI));
  if (!o.patterns.length) o.patterns = PATTERNS;
  if (o.all && !o.config) {
    o.protocols = registry();
    const s = referenceScenario(o.protocols, 'single');
    o.config = s instanceof Error ? null : path.join(ROOT, s);  // no patterns table without one
  } else if (o.config) {
    // The registry only names the ns-3 TCP in the labels here.
    try {
      o.protocols = loadProtocols();
    } catch {
      o.protocols = [];
    }
  } else {
    o.protocols = registry();
    const s = referenceScenario(o.protocols, 'single');
    if (s instanceof Error) throw new InputError(`${s.message}: give --config FILE`);
    o.config = path.join(ROOT, s);
  }
  return o;
}

/// The protocols of the registry (an error in a protocol folder: bad usage).
function registry() {
  try {
    return loadProtocols();
  } catch (e) {
    throw new InputError(`registry: ${e.message}`);
  }
}

/// The scenario's protocol of the registry and its ns-3 TCP (protocol.json
/// "ns3"): {protocol, tcp}, each null when unknown.
function scenarioProtocol(protocols, config) {
  let name;
  try {
    name = JSON.parse(fs.readFileSync(config, 'utf8')).protocol;
  } catch {
    name = null;  // the simulators say what is wrong with the file
  }
  const p = protocols.find((x) => x.name === name);
  return { protocol: p?.name ?? null, tcp: p?.ns3 ?? null };
}

// A command line as one could paste it into a shell.
const shellLine = (argv) => argv.map((a) => (/^[A-Za-z0-9_./=,:+-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)).join(' ');

function runSimulator(what, exe, argv) {
  const line = shellLine([exe, ...argv]);
  const r = spawnSync(exe, argv, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw new Fail(`${what} could not run (${r.error.code ?? r.error.message}): ${line}`);
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-10).join('\n');
    throw new Fail(`${what} failed (${r.signal ? `signal ${r.signal}` : `exit ${r.status}`}): ${line}${tail ? `\n${tail}` : ''}`);
  }
}

// Rows of tx.csv by kind, for the overlay's legend (only kinds present).
function txCounts(file) {
  if (!fs.existsSync(file)) return null;
  const lines = fs.readFileSync(file, 'utf8').split('\n').slice(1).filter((l) => l.trim());
  const rtx = lines.filter((l) => l.trim().endsWith(',1')).length;
  return { fresh: lines.length - rtx, rtx };
}

function overlay(dir, name, row, ns3Name) {
  const runs = ['tonic', 'ns3'].map((sim) => {
    const counts = txCounts(path.join(dir, sim, 'tx.csv'));
    return { name: sim === 'tonic' ? 'Tonic (tonic-netsim)' : ns3Name, cwnd: `${sim}/cwnd.csv`, tx: counts ? `${sim}/tx.csv` : null, counts };
  });
  const title = `${row.scenario}, ${row.pattern}: ${row.verdict}` +
    ` (completion ${fmtPct(row.completion_diff_pct)}, mean |cwnd diff| ${row.cwnd_mean_abs_diff?.toFixed(2) ?? '-'} segments)`;
  return render(dir, name, overlayScript({ png: name, title, runs, xmax: Math.max(row.end_us.tonic, row.end_us.ns3) }));
}

function main(argv) {
  const o = options(argv);
  for (const [what, exe] of [['tonic-netsim', o.netsim], ['tonic-ns3', o.ns3]]) {
    const st = fs.statSync(exe, { throwIfNoEntry: false });
    if (!st || !st.isFile()) throw new Fail(`${what} not found: ${exe} (build it first)`);
  }
  if (o.config) runPatterns(o);
  if (o.all) runScenarios(o);
  return 0;
}

/// The drop patterns on one single-flow scenario (o.config): compare.json
/// and the compare section of results.md.
function runPatterns(o) {
  const config = path.resolve(o.config);
  const out = path.resolve(o.out);
  if (!fs.existsSync(config)) throw new Fail(`config not found: ${o.config}`);
  const { protocol, tcp } = scenarioProtocol(o.protocols, config);
  const ns3Name = tcp ? `ns-3 ${tcp}` : 'ns-3';
  const plots = gnuplotAvailable();
  if (!plots) process.stderr.write('compare-suite: warning: gnuplot not found: no overlay plots (install gnuplot-nox)\n');

  const rows = [];
  for (const pattern of o.patterns) {
    const s = slug(pattern);
    const dir = path.join(out, s);
    const dirs = { tonic: path.join(dir, 'tonic'), ns3: path.join(dir, 'ns3') };
    const opts = pattern.split(/\s+/).filter(Boolean);
    for (const [sim, exe, what] of [['tonic', o.netsim, 'tonic-netsim'], ['ns3', o.ns3, 'tonic-ns3']]) {
      fs.rmSync(dirs[sim], { recursive: true, force: true });  // no stale files from an older run
      fs.mkdirSync(dirs[sim], { recursive: true });
      runSimulator(what, path.resolve(exe), ['--config', config, '--out', dirs[sim], '--quiet', ...opts]);
    }
    let row;
    try {
      row = compareDirs(dirs.tonic, dirs.ns3, s);
    } catch (e) {
      if (e instanceof InputError) throw new Fail(`pattern ${pattern}: ${e.message}`);
      throw e;
    }
    row = { ...row, pattern, config: path.relative(ROOT, config), tonic_dir: path.relative(ROOT, dirs.tonic), ns3_dir: path.relative(ROOT, dirs.ns3) };
    if (plots) {
      const png = `compare_${s}.png`;
      const failed = overlay(dir, png, row, ns3Name);
      if (failed) process.stderr.write(`compare-suite: warning: ${pattern}: ${failed}\n`);
      else row.plot = path.relative(ROOT, path.join(dir, png));
      if (!failed && rows.length === 0) {
        const doc = path.join(ROOT, 'docs', 'img', png);
        fs.mkdirSync(path.dirname(doc), { recursive: true });
        fs.copyFileSync(path.join(dir, png), doc);
        row.plot = path.relative(ROOT, doc);
      }
    }
    rows.push(row);
    process.stdout.write(`compare-suite: ${pattern}: ${row.verdict}${row.failed.length ? ` (${row.failed.join('; ')})` : ''}\n`);
  }

  writeReport('compare.json', rows, 'label', new Set(rows.map((r) => r.label)));
  const pair = (k) => (r) => `${r[k].tonic} / ${r[k].ns3}`;
  const us = (t) => (t < 0 ? 'incomplete' : t.toFixed(1));
  const table = markdownTable(rows, [
    ['drop pattern', (r) => `\`${r.pattern}\``],
    ['completion Tonic / ns-3 (us)', (r) => `${us(r.completion_time_us.tonic)} / ${us(r.completion_time_us.ns3)}`],
    ['diff', (r) => fmtPct(r.completion_diff_pct)],
    ['fast retransmits', pair('fast_retransmit_episodes')],
    ['timeouts', pair('timeouts')],
    ['retransmitted segments', pair('retransmitted_segments')],
    ['mean abs cwnd diff (segments)', (r) => (r.cwnd_mean_abs_diff === null ? '-' : r.cwnd_mean_abs_diff.toFixed(2))],
    ['verdict', (r) => (r.failed.length ? `differs: ${r.failed.join('; ')}` : 'match')],
  ]);
  const first = rows[0];
  const note = `\nScenario \`${first.config}\` (${first.scenario}); Tonic = tonic-netsim (the RTL in SystemC), ns-3 = ${tcp ?? 'tonic-ns3'}, ` +
    `the same drops in both (sim/common/drop_rule.hpp). Diff = (Tonic - ns-3) / ns-3. "match": the same fast-retransmit ` +
    `episodes and timeouts and completion within ${COMPLETION_TOLERANCE_PCT} %. Mean abs cwnd diff: the time average of ` +
    `|cwnd(Tonic) - cwnd(ns-3)| up to the earlier run's end (scripts/compare.mjs).` +
    (first.plot?.startsWith('docs/') ? ` Plot of \`${first.pattern}\`: [${first.plot.replace(/^docs\//, '')}](${first.plot.replace(/^docs\//, '')}); the others in build/compare/.` : '') + '\n';
  updateResults('compare', `${protocol ?? first.scenario}: Tonic vs ns-3 (scripts/compare-suite.mjs)`, table + note);
  const matched = rows.filter((r) => r.verdict === 'match').length;
  process.stdout.write(`compare-suite: ${matched} of ${rows.length} patterns match; wrote compare.json, docs/results.md` +
    `${first.plot?.startsWith('docs/') ? `, ${first.plot}` : ''}\n`);
}

// ---------------------------------------------------------------------------
// --all: every scenario of every protocol with an ns-3 TCP.

/// The network figures of one run's summary.json ("network", written the
/// same way by both simulators: sim/common/net_stats.hpp).
export function networkFigures(dir) {
  const s = readSummary(path.join(dir, 'summary.json'));
  const n = s.network;
  if (!n || typeof n !== 'object') throw new InputError(`${path.join(dir, 'summary.json')}: no "network" block`);
  const pct = n.arrivals?.data_arrivals ? (100 * n.arrivals.marked) / n.arrivals.data_arrivals : 0;
  return {
    flows: s.flows,
    complete: n.completion_us.complete,
    completion_mean_us: n.completion_us.mean ?? null,
    completion_max_us: n.completion_us.max ?? null,
    fast_retransmit_episodes: n.fast_retransmit_episodes,
    timeouts: n.timeouts,
    retransmitted_segments: n.retransmitted_segments,
    queue_mean_packets: n.queue?.packets.mean ?? null,
    queue_p99_packets: n.queue?.packets.p99 ?? null,
    queue_mean_bytes: n.queue?.bytes.mean ?? null,
    marked_pct: pct,
    queue_drops: n.queue_drops,
    jain_index: n.jain_index,
    goodput_gbps: s.goodput_gbps,
    marking: n.marking,
    sampled: Boolean(n.queue),
  };
}

/// Runs tonic-ns3 then tonic-netsim on one scenario and pattern. Returns
/// {skipped: reason} when tonic-ns3 refuses the scenario (exit 2: not
/// modelled), else {dirs}.
function runPair(o, config, dir, pattern) {
  const opts = pattern.split(/\s+/).filter(Boolean);
  const dirs = { tonic: path.join(dir, 'tonic'), ns3: path.join(dir, 'ns3') };
  for (const d of Object.values(dirs)) {
    fs.rmSync(d, { recursive: true, force: true });
    fs.mkdirSync(d, { recursive: true });
  }
  const argv = (sim) => ['--config', config, '--out', dirs[sim], '--quiet', ...opts];
  const r = spawnSync(path.resolve(o.ns3), argv('ns3'), { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status === 2) {
    const why = (r.stderr ?? '').trim().split('\n').pop().replace(/^tonic-ns3: error: \S+: /, '');
    return { skipped: why || 'tonic-ns3 refused the scenario' };
  }
  if (r.status !== 0 || r.error) runSimulator('tonic-ns3', path.resolve(o.ns3), argv('ns3'));  // throws with the command line
  runSimulator('tonic-netsim', path.resolve(o.netsim), argv('tonic'));
  return { dirs };
}

/// The network plot of a sampled run (null when it is not sampled or gnuplot fails).
function networkPlot(dir, row, ns3Name) {
  const flows = row.network.tonic.flows;
  const k = row.network.tonic.marking?.k_packets ?? null;
  const end = (sim) => {
    const lines = fs.readFileSync(path.join(dir, sim, 'queue.csv'), 'utf8').trim().split('\n');
    return Number(lines[lines.length - 1].split(',')[0]);
  };
  const runs = [
    { name: 'Tonic (tonic-netsim)', cwndFlows: 'tonic/cwnd_flows.csv', queue: 'tonic/queue.csv', flows },
    { name: ns3Name, cwndFlows: 'ns3/cwnd_flows.csv', queue: 'ns3/queue.csv', flows },
  ];
  const title = `${row.scenario}${row.pattern ? `, ${row.pattern}` : ''}: Tonic vs ${ns3Name}`;
  return render(dir, 'network.png', networkScript({ png: 'network.png', title, runs, k, xmax: Math.max(end('tonic'), end('ns3')) }));
}

function runScenarios(o) {
  const out = path.resolve(o.out);
  const plots = gnuplotAvailable();
  const ref = referenceProtocol(o.protocols);
  const modelled = o.protocols.filter((p) => p.ns3).sort((a, b) => (b === ref) - (a === ref) || a.name.localeCompare(b.name));
  if (!modelled.length) throw new InputError('--all: no protocol.json names an ns-3 TCP ("ns3")');
  const rows = [];
  for (const p of modelled) {
    const ns3Name = `ns-3 ${p.ns3}`;
    for (const [scenario, file] of Object.entries(p.scenarios)) {
      const config = path.join(ROOT, file);
      // The reference protocol's single.json under the patterns is the compare table already.
      if (scenario === 'single' && p === ref && o.config && path.resolve(o.config) === config) continue;
      const patterns = scenario === 'single' ? o.patterns : [''];
      for (const pattern of patterns) {
        const s = pattern ? slug(pattern) : '';
        const label = [p.name, scenario, s].filter(Boolean).join('/');
        const dir = path.join(out, label);
        const base = { label, protocol: p.name, tcp: p.ns3, scenario, pattern, config: file };
        const run = runPair(o, config, dir, pattern);
        if (run.skipped) {
          rows.push({ ...base, skipped: run.skipped });
          process.stdout.write(`compare-suite: ${label}: skipped (${run.skipped})\n`);
          continue;
        }
        let row;
        try {
          const traced = compareDirs(run.dirs.tonic, run.dirs.ns3, label);
          row = {
            ...base, tonic_dir: path.relative(ROOT, run.dirs.tonic), ns3_dir: path.relative(ROOT, run.dirs.ns3),
            traced: { completion_time_us: traced.completion_time_us, completion_diff_pct: traced.completion_diff_pct,
              fast_retransmit_episodes: traced.fast_retransmit_episodes, timeouts: traced.timeouts, verdict: traced.verdict, failed: traced.failed },
            network: { tonic: networkFigures(run.dirs.tonic), ns3: networkFigures(run.dirs.ns3) },
          };
          if (plots) {
            const failed = row.network.tonic.sampled && row.network.ns3.sampled ? networkPlot(dir, row, ns3Name)
              : overlay(dir, 'network.png', { ...traced, pattern: pattern || 'no drops' }, ns3Name);
            if (failed) {
              process.stderr.write(`compare-suite: warning: ${label}: ${failed}\n`);
            } else {
              row.plot = path.relative(ROOT, path.join(dir, 'network.png'));
              if (!pattern || pattern === o.patterns[0]) {
                const doc = path.join(ROOT, 'docs', 'img', `compare_${p.name}_${scenario}.png`);
                fs.mkdirSync(path.dirname(doc), { recursive: true });
                fs.copyFileSync(path.join(dir, 'network.png'), doc);
                row.plot = path.relative(ROOT, doc);
              }
            }
          }
        } catch (e) {
          if (e instanceof InputError) throw new Fail(`${label}: ${e.message}`);
          throw e;
        }
        rows.push(row);
        process.stdout.write(`compare-suite: ${label}: Jain ${row.network.tonic.jain_index.toFixed(4)} / ${row.network.ns3.jain_index.toFixed(4)}\n`);
      }
    }
  }
  writeReport('compare_scenarios.json', rows, 'label', new Set(rows.map((r) => r.label)));
  const both = (f, k) => (r) => (r.skipped ? '-' : `${f(r.network.tonic[k])} / ${f(r.network.ns3[k])}`);
  const num = (d) => (v) => (v === null || v === undefined ? '-' : v.toFixed(d));
  const int = (v) => String(v);
  const table = markdownTable(rows, [
    ['protocol (ns-3 TCP)', (r) => `${r.protocol} (${r.tcp})`],
    ['scenario', (r) => `\`${r.scenario}\`${r.pattern ? ` \`${r.pattern}\`` : ''}`],
    ['flows complete', (r) => (r.skipped ? `skipped: ${r.skipped.replaceAll('|', '/')}` : `${r.network.tonic.complete} / ${r.network.ns3.complete} of ${r.network.tonic.flows}`)],
    ['completion mean (us)', both(num(1), 'completion_mean_us')],
    ['completion max (us)', both(num(1), 'completion_max_us')],
    ['fast retransmits', both(int, 'fast_retransmit_episodes')],
    ['RTOs', both(int, 'timeouts')],
    ['queue mean / p99 (packets)', (r) => (r.skipped ? '-' : ['tonic', 'ns3'].map((k) => `${num(1)(r.network[k].queue_mean_packets)}, ${num(0)(r.network[k].queue_p99_packets)}`).join(' / '))],
    ['marked (%)', both(num(1), 'marked_pct')],
    ['switch drops', both(int, 'queue_drops')],
    ['Jain', both(num(4), 'jain_index')],
    ['plot', (r) => (r.plot?.startsWith('docs/') ? `[png](${r.plot.replace(/^docs\//, '')})` : '-')],
  ]);
  const note = '\nEach cell: Tonic (tonic-netsim: the RTL in SystemC) / ns-3 (tonic-ns3 with the protocol.json "ns3" TCP). ' +
    'Every scenario of every protocol with an ns-3 TCP (protocols/<p>/netsim/*.json); a single.json runs under the drop ' +
    'patterns of the table above, another scenario once (its losses are the switch\'s). Figures over every flow ' +
    '(summary.json "network", sim/common/net_stats.hpp): completion from a flow\'s first data segment to its last ack; ' +
    'fast retransmits = entries into recovery; RTOs; the bottleneck port\'s queue sampled every samples.us (mean, p99; ' +
    '- without samples); data packets marked CE at the bottleneck; drops at the switch; Jain\'s index of per-flow ' +
    'throughput (flows.csv). Differences are explained in docs/netsim.md ("Network scenarios: why Tonic and ns-3 differ"). ' +
    'Rows in build/reports/compare_scenarios.json, runs and every plot in build/compare/.\n';
  updateResults('compare_scenarios', 'Every scenario of the protocols with an ns-3 TCP: Tonic vs ns-3 (scripts/compare-suite.mjs --all)', table + note);
  process.stdout.write(`compare-suite: ${rows.length} scenario runs (${rows.filter((r) => r.skipped).length} skipped); wrote compare_scenarios.json, docs/results.md\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exit(main(process.argv.slice(2)));
  } catch (e) {
    if (!(e instanceof InputError) && !(e instanceof Fail)) throw e;
    process.stderr.write(`compare-suite: ${e.message}\n`);
    process.exit(e instanceof InputError ? 2 : 1);
  }
}
