// SPDX-License-Identifier: Apache-2.0
// netsim-experiments.mjs — the paper's end-to-end experiments (section 6.2;
// docs/netsim.md) through tonic-netsim, each with its figures, its checks
// and its plots. The protocols come from the registry (scripts/registry.mjs)
// and the scenarios from their folders (protocols/<name>/netsim/<scenario>.json),
// chosen by descriptor properties, never by name:
//   e1  the reference protocol's `single` scenario (one flow, 10 Gb/s,
//       10 us RTT), drops at the receiver NIC: cwnd and sequence traces;
//       every listed drop recovered by fast retransmit, no timeout (paper
//       fig. 3a/3b)
//   e2  the reference protocol's `incast` scenario (2 senders x 100 flows,
//       1 s; 5 s with --long): per-flow throughput CDF (fig. 3c); also in
//       ns-3 when tonic-ns3 is built and the protocol names an ns-3 TCP
//   e3  every protocol with the `dcqcn_*` scenarios (RoCEv2 + DCQCN at
//       40 Gb/s, 4 us RTT): two flows from two hosts converging (fig. 4);
//       2 x 100 flows sharing the bottleneck; one 100 Gb/s flow of
//       back-to-back 128 B segments saturating the link
//   e4  go-back-0 vs go-back-N vs IRN, 4 MiB messages at 1/256 loss:
//       goodput of the `livelock` scenario of the protocols whose host
//       re-posts whole messages (host_restart "message"), of receiver roce
//       and of receiver irn
//   e5  the window against reordering: every protocol with a `reorder`
//       scenario, through a switch that reorders like adaptive routing; the
//       expectations are stated by receiver kind (E5_RECEIVERS)
//   e6  the window mode (RTL, window mode) against reordering
//       distance and loss, with the window-mode sender model (its scenario,
//       which runs no protocol, is sim/netsim/configs/reorder_window_mode.json)
// An experiment without participants in this tree (e.g. no reference
// protocol) is skipped with the reason, or is an error when --only names it.
//
// usage: node scripts/netsim-experiments.mjs [--short] [--only e1,e3] [--long]
//          [--netsim PATH] [--out DIR] [--jobs N] [--no-docs] [--list]
//   --short   the versions `make test` runs (shorter durations); checks only,
//             nothing written to docs/
//   --list    one line per experiment: id, TAB, its protocols, or "-" TAB
//             why it cannot run here (sim/netsim/CMakeLists.txt registers
//             the tests of the runnable ones); runs nothing
//   default   the full experiments (`make experiments`): build/reports/netsim.json,
//             PNGs in docs/img/, the tables in docs/results.md
// Exit 1 when a check fails (each failed check is printed), 2 on a bad option
// or an experiment of --only that cannot run.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from './manifest.mjs';
import { COLUMNS, readCsv } from './compare.mjs';
import { cdfScript, render } from './gnuplot.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { loadProtocols, referenceProtocol, scenarioProviders } from './registry.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

const run = promisify(execFile);

// --- options ---
const { values: opts } = cli({
  name: 'netsim-experiments',
  usage: 'node scripts/netsim-experiments.mjs [--short] [--only e1,e3] [--long] [--netsim PATH] [--out DIR] [--jobs N] [--no-docs] [--list]',
  description: "The paper's end-to-end experiments e1..e6 through tonic-netsim (docs/netsim.md), with their\n" +
    'checks and plots. Exit 1 when a check fails, 2 on a bad option.',
  options: {
    short: { type: 'boolean', help: 'the versions make test runs (shorter); checks only, nothing written to docs/' },
    long: { type: 'boolean', help: 'e2 for 5 s of simulated time instead of 1 s' },
    'no-docs': { type: 'boolean', help: 'leave docs/results.md alone' },
    only: { type: 'string', arg: 'e1,e3', help: 'only these experiments' },
    netsim: { type: 'string', arg: 'PATH', shown: 'build/dev/sim/netsim/tonic-netsim', help: 'the tonic-netsim executable' },
    ns3: { type: 'string', arg: 'PATH', shown: '../ns3/tonic-ns3 beside --netsim', help: 'tonic-ns3, for e2 when it exists' },
    out: { type: 'string', arg: 'DIR', shown: 'build/netsim/short or build/netsim/full', help: 'where the run directories go' },
    jobs: { type: 'number', default: 2, help: 'simulator processes at once' },
    list: { type: 'boolean', help: 'print each experiment and its protocols (or why it cannot run here), run nothing' },
  },
});
const SHORT = opts.short;
const LONG = opts.long;
const NETSIM = path.resolve(opts.netsim ?? path.join(ROOT, 'build', 'dev', 'sim', 'netsim', 'tonic-netsim'));
// The ns-3 side (sim/ns3): e2 runs the same scenario in ns-3 too when it is built.
const NS3 = path.resolve(opts.ns3 ?? path.join(path.dirname(path.dirname(NETSIM)), 'ns3', 'tonic-ns3'));
const OUT = path.resolve(opts.out ?? path.join(ROOT, 'build', 'netsim', SHORT ? 'short' : 'full'));
const JOBS = opts.jobs;
const ONLY = opts.only ? new Set(opts.only.split(',')) : null;
// The scenarios that run no protocol of the registry (the window-mode sender model).
const CONFIGS = path.join(ROOT, 'sim', 'netsim', 'configs');
let PROTOCOLS;
try {
  PROTOCOLS = loadProtocols();
} catch (e) {
  console.error(`netsim-experiments: ${e.message}`);
  process.exit(2);
}
const REF = referenceProtocol(PROTOCOLS);

// --- helpers ---
const summary = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
const fx = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '-' : Number(x).toFixed(d));
const mean = (a) => a.reduce((s, v) => s + v, 0) / Math.max(1, a.length);

/// Mean throughput (Mb/s) of each (sender, flow) of thr.csv over [from, to) us.
function thrMeans(dir, from, to = Infinity) {
  const acc = new Map();
  for (const r of readCsv(path.join(dir, 'thr.csv'), COLUMNS.thr)) {
    if (r.time_us < from || r.time_us >= to) continue;
    const k = `${r.sender}/${r.flow}`;
    if (!acc.has(k)) acc.set(k, []);
    acc.get(k).push(r.throughput_mbps);
  }
  return new Map([...acc].map(([k, v]) => [k, mean(v)]));
}

/// Jain's fairness index of a list of throughputs.
const jain = (xs) => (xs.reduce((s, v) => s + v, 0) ** 2) / (xs.length * xs.reduce((s, v) => s + v * v, 0));

// --- the participants: protocols and their scenarios ---

/// Why an experiment cannot run in this tree (no participant).
class Unavailable extends Error {}

/// The absolute file of protocol p's scenario `name`.
const scenario = (p, name) => path.join(ROOT, p.scenarios[name]);
const readScenario = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/// The reference protocol, which must provide the scenarios `names`.
function reference(...names) {
  if (!REF) throw new Unavailable('no reference protocol (no protocol.json has "reference": true)');
  const missing = names.filter((n) => !(n in REF.scenarios));
  if (missing.length) throw new Unavailable(`the reference protocol ${REF.name} has no ${missing.map((n) => `${REF.dir}/netsim/${n}.json`).join(', ')}`);
  return REF;
}

/// "4 MiB", "2 MB": a message size for the tables.
const bytesText = (b) => (b % 2 ** 20 === 0 ? `${b / 2 ** 20} MiB` : b % 1e6 === 0 ? `${b / 1e6} MB` : `${b} B`);

// --- the experiments: runs (config + options) and what they check ---
const E = [];
/// Adds an experiment; def.plan() returns its runs or throws Unavailable.
function experiment(def) {
  try {
    def.runs = def.plan();
  } catch (e) {
    if (!(e instanceof Unavailable)) throw e;
    def.runs = null;
    def.why = e.message;
  }
  E.push(def);
}

// e1: drop patterns (segment indices of the 2000-segment message).
const E1_PATTERNS = [
  { slug: 'drops_5_37_38', args: ['--drops=5,37,38'], episodes: 2, drops: 3 },
  { slug: 'drops_300_900_1500', args: ['--drops=300,900,1500'], episodes: 3, drops: 3 },
  { slug: 'drops_500_501_502', args: ['--drops=500,501,502'], episodes: 1, drops: 3 },
  { slug: 'loss_0.002_seed_1', args: ['--loss=0.002', '--seed=1'], episodes: null, drops: null },
];
experiment({
  id: 'e1',
  title: `${REF?.name ?? 'The reference protocol'}, one flow at 10 Gb/s, drops at the receiver NIC (paper fig. 3a/3b)`,
  plan() {
    const p = reference('single');
    return E1_PATTERNS.map((x) => ({ name: `e1_${x.slug}`, config: scenario(p, 'single'), proto: p.name, args: x.args, pattern: x }));
  },
  check(res, ck) {
    for (const r of res) {
      const s = r.summary;
      ck(`${r.name}: complete`, s.completion_time_us > 0, s.completion_time_us);
      ck(`${r.name}: no timeout`, s.timeouts === 0, s.timeouts);
      if (r.pattern.episodes !== null) {
        ck(`${r.name}: fast-retransmit episodes = ${r.pattern.episodes}`, s.fast_retransmit_episodes === r.pattern.episodes, s.fast_retransmit_episodes);
        ck(`${r.name}: exactly the dropped segments retransmitted`, s.retransmitted_segments === r.pattern.drops && s.drops === r.pattern.drops,
          `${s.retransmitted_segments} rtx, ${s.drops} drops`);
      } else {
        ck(`${r.name}: every drop retransmitted`, s.retransmitted_segments >= s.drops, `${s.retransmitted_segments} rtx, ${s.drops} drops`);
      }
    }
  },
  table(res) {
    return markdownTable(res, [
      ['drops', (r) => r.pattern.args.join(' ')],
      ['completion (us)', (r) => fx(r.summary.completion_time_us, 1)],
      ['goodput (Gb/s)', (r) => fx(r.summary.goodput_gbps, 3)],
      ['dropped', (r) => r.summary.drops],
      ['retransmitted', (r) => r.summary.retransmitted_segments],
      ['fast-retransmit episodes', (r) => r.summary.fast_retransmit_episodes],
      ['timeouts', (r) => r.summary.timeouts],
    ]);
  },
  images: [['e1_drops_5_37_38', 'cwnd.png'], ['e1_drops_5_37_38', 'seq.png'], ['e1_drops_500_501_502', 'cwnd.png']],
});

experiment({
  id: 'e2',
  title: `${REF?.name ?? 'The reference protocol'}, 2 senders x 100 flows to one receiver (paper fig. 3c)`,
  short: false,  // not part of make test (1 s of simulated time)
  plan() {
    const p = reference('incast');
    const args = LONG ? ['--duration-us=5000000'] : [];
    // The same scenario in ns-3, when tonic-ns3 is built and an ns-3 TCP models the protocol.
    return [{ name: 'e2_incast', config: scenario(p, 'incast'), proto: p.name, args },
      ...(fs.existsSync(NS3) && p.ns3 ? [{ name: 'e2_incast_ns3', config: scenario(p, 'incast'), proto: p.name, exe: NS3, ns3: p.ns3, args }] : [])];
  },
  check(res, ck) {
    const s = res[0].summary;  // Tonic's run
    const capacity = 10 * 1000 / 1042;  // payload share of the 10 Gb/s link
    ck('e2: every flow made progress', s.throughput_mbps.min > 0, s.throughput_mbps.min);
    ck('e2: the bottleneck is used (>= 90 % of its payload capacity)', s.goodput_gbps >= 0.9 * capacity, s.goodput_gbps);
  },
  table(res) {
    const rows = res.map((r) => {
      const thr = readCsv(path.join(r.dir, 'flows.csv'), COLUMNS.flows).map((x) => x.throughput_mbps).sort((a, b) => a - b);
      return { r, thr, q: (p) => thr[Math.min(thr.length - 1, Math.floor(p * thr.length))] };
    });
    if (rows.length > 1) {
      // The two CDFs in one plot.
      const png = 'netsim_e2_cdf_tonic_ns3.png';
      const why = render(path.join(ROOT, 'docs', 'img'), png, cdfScript({ png, title: `${rows[0].r.proto}, 2 x 100 flows, 10 Gb/s: per-flow throughput`,
        series: rows.map((x) => ({ name: x.r.exe ? `ns-3 ${x.r.ns3}` : 'Tonic (tonic-netsim)', values: x.thr })) }));
      if (why) console.log(`netsim-experiments: ${why}`);
    }
    return markdownTable(rows, [
      ['simulator', (x) => (x.r.exe ? `ns-3 ${x.r.ns3}` : 'Tonic (tonic-netsim)')],
      ['simulated', (x) => `${fx(x.r.summary.sim_time_us / 1e6, 2)} s`],
      ['flows', (x) => x.r.summary.flows],
      ['goodput (Gb/s)', (x) => fx(x.r.summary.goodput_gbps, 3)],
      ['per-flow Mb/s: min / p10 / median / p90 / max', (x) => [x.thr[0], x.q(0.1), x.q(0.5), x.q(0.9), x.thr[x.thr.length - 1]].map((v) => fx(v, 1)).join(' / ')],
      ["Jain's index", (x) => fx(jain(x.thr), 4)],
      ['retransmitted', (x) => x.r.summary.retransmitted_segments],
      ['switch drops', (x) => x.r.summary.switch?.dropped ?? x.r.summary.queue_drops],
    ]) + (rows.length > 1 ? '\n![per-flow throughput CDF, Tonic and ns-3](img/netsim_e2_cdf_tonic_ns3.png)\n' : '');
  },
  images: [['e2_incast', 'flows_cdf.png']],
});

// e3: the DCQCN scenarios, for every protocol that provides them (run names
// carry the protocol when more than one does).
const E3_SCENARIOS = ['dcqcn_pair', 'dcqcn_converge', 'dcqcn_200', 'dcqcn_100g'];
experiment({
  id: 'e3',
  title: 'RoCEv2 + DCQCN at 40 Gb/s and 100 Gb/s (paper fig. 4)',
  plan() {
    const ps = PROTOCOLS.filter((p) => E3_SCENARIOS.every((s) => s in p.scenarios));
    if (!ps.length) throw new Unavailable(`no protocol provides the scenarios ${E3_SCENARIOS.map((s) => `netsim/${s}.json`).join(', ')}`);
    const tag = (p) => (ps.length > 1 ? `${p.name}_` : '');
    return ps.flatMap((p) => [
      { name: `e3_${tag(p)}pair`, kind: 'pair', config: scenario(p, 'dcqcn_pair'), proto: p.name, args: [] },
      ...(SHORT ? [] : [{ name: `e3_${tag(p)}converge`, kind: 'converge', config: scenario(p, 'dcqcn_converge'), proto: p.name, args: [] }]),
      { name: `e3_${tag(p)}200`, kind: '200', config: scenario(p, 'dcqcn_200'), proto: p.name,
        args: SHORT ? ['--duration-us=12000', '--warmup-us=6000'] : [] },
      { name: `e3_${tag(p)}100g`, kind: '100g', config: scenario(p, 'dcqcn_100g'), proto: p.name, args: [] },
    ]);
  },
  check(res, ck) {
    const protos = [...new Set(res.map((r) => r.proto))];
    for (const proto of protos) {
      const get = (k) => res.find((r) => r.proto === proto && r.kind === k);
      const who = protos.length > 1 ? ` (${proto})` : '';
      // Two flows: their receiver-side throughput over the last part of the
      // run. The spread is reported; each flow must have at least a quarter
      // of the port.
      const cap = 40000 * 1000 / 1058;  // the port's payload capacity (Mb/s)
      const pair = (r, from, to, util) => {
        const m = [...thrMeans(r.dir, from, to).values()];
        const spread = Math.abs(m[0] - m[1]) / Math.max(m[0], m[1]);
        r.extra = { window_us: [from, to], mbps: m, spread };
        const shown = m.map((v) => fx(v, 0)).join(' vs ') + ` Mb/s (${fx(100 * spread, 2)} %)`;
        ck(`${r.name}: each flow at least 25 % of the port over [${from / 1000}, ${to / 1000}) ms`, m.length === 2 && Math.min(...m) >= 0.25 * cap, shown);
        // After the first deep cuts DCQCN climbs back by R_AI = 40 Mb/s per
        // 55 us: the port is full again only after some 15 ms.
        if (util) ck(`${r.name}: together >= 85 % of the link's payload capacity`, m[0] + m[1] >= 0.85 * cap, fx(m[0] + m[1], 0) + ' Mb/s');
      };
      // Two flows that start together: within the first 8 ms their shares
      // are set by the first CNPs. Each cut halves a rate (alpha starts at
      // 1), marking is random (1 % at most), and no CNP comes once the two
      // rates add up to less than the port, so whether both flows are cut
      // alike is chance, not fairness: over 6 ECN seeds, 40-ms runs gave a
      // [4, 8) ms spread of 0.0-0.3 % on five and 18.3 % on one, and 0.6-22 %
      // over [16, 40) ms whichever the start (docs/netsim.md). The spread is
      // reported; the check is that neither flow starves.
      const p = get('pair');
      pair(p, p.summary.sim_time_us / 2, p.summary.sim_time_us, false);
      const cv = get('converge');
      // The same for the flow that joins at 10 ms: it must take a share
      // (>= 25 % of the port) and the two fill the port; their spread over
      // the last 40 ms is reported (each flow's throughput there equals the
      // mean of its DCQCN rate Rc: the spread is DCQCN's, docs/netsim.md).
      if (cv) pair(cv, cv.summary.sim_time_us - 40000, cv.summary.sim_time_us, true, false);
      const many = get('200');
      const t = readCsv(path.join(many.dir, 'flows.csv'), COLUMNS.flows).map((r) => r.throughput_mbps);
      const mu = mean(t);
      const sd = Math.sqrt(mean(t.map((v) => (v - mu) ** 2)));
      many.extra = { mean_mbps: mu, sd_mbps: sd, min: Math.min(...t), max: Math.max(...t), jain: jain(t) };
      // DCQCN's rates saw-tooth per flow: the spread of the per-flow means
      // shrinks with the averaging window (12 ms short run: ~12 %; 175 ms
      // full run: ~2.6 %).
      const [sdMax, jainMin] = SHORT ? [0.15, 0.98] : [0.05, 0.99];
      ck(`e3 200 flows${who}: standard deviation <= ${100 * sdMax} % of the mean`, sd <= sdMax * mu, `${fx(mu, 1)} +- ${fx(sd, 2)} Mb/s (${fx(100 * sd / mu, 2)} %)`);
      ck(`e3 200 flows${who}: Jain's index >= ${jainMin}`, jain(t) >= jainMin, fx(jain(t), 5));
      const fast = get('100g');
      const bins = [...thrMeans(fast.dir, 20).values()];
      fast.extra = { steady_gbps: bins[0] / 1000 };
      ck(`e3 100G${who}: one flow of 128 B segments saturates the link (>= 99 %)`, bins[0] >= 0.99 * 100000, fx(bins[0] / 1000, 3) + ' Gb/s');
    }
  },
  table(res) {
    const many = new Set(res.map((r) => r.proto)).size > 1;
    const rows = [];
    for (const r of res) {
      const e = r.extra;
      if (r.kind === 'pair' || r.kind === 'converge') {
        rows.push({ r, what: r.kind === 'pair' ? 'two flows, two hosts, start together, one 40 Gb/s port' : 'two flows, the second joins at 10 ms',
          v: `${e.mbps.map((x) => fx(x / 1000, 2)).join(' and ')} Gb/s over [${e.window_us.map((x) => fx(x / 1000, 0)).join(', ')}) ms (spread ${fx(100 * e.spread, 2)} %)`, s: r.summary });
      } else if (r.kind === '200') {
        rows.push({ r, what: '2 x 100 flows, one 40 Gb/s port', v: `${fx(e.mean_mbps, 1)} +- ${fx(e.sd_mbps, 2)} Mb/s per flow (min ${fx(e.min, 1)}, max ${fx(e.max, 1)}; Jain ${fx(e.jain, 5)}) from ${fx(r.summary.sim_time_us > 25000 ? 25 : 0, 0)} ms on; paper: 203 +- 0.2 Mb/s`, s: r.summary });
      } else {
        rows.push({ r, what: 'one flow, 128 B segments, 100 Gb/s link', v: `${fx(e.steady_gbps, 3)} Gb/s after 20 us`, s: r.summary });
      }
    }
    return markdownTable(rows, [
      ...(many ? [['protocol', (x) => x.r.proto]] : []),
      ['scenario', (x) => x.what],
      ['simulated (ms)', (x) => fx(x.s.sim_time_us / 1000, 1)],
      ['result', (x) => x.v],
      ['ECN marks', (x) => x.s.switch.ecn_marked],
      ['PFC pauses', (x) => x.s.switch.pfc_pauses],
      ['switch drops', (x) => x.s.switch.dropped],
      ['max queue (KB)', (x) => fx(x.s.switch.max_queue_bytes / 1000, 1)],
    ]);
  },
  get images() {
    const first = this.runs?.[0]?.proto;
    const name = (k) => this.runs.find((r) => r.proto === first && r.kind === k)?.name;
    return first ? [[name('converge'), 'thr.png'], [name('pair'), 'thr.png'], [name('200'), 'flows_cdf.png']].filter(([n]) => n) : [];
  },
});

// e4: the recovery kinds, from the descriptors: a host that re-posts the
// whole message (go-back-0), a roce receiver's go-back-N, an irn receiver.
// A protocol is of the first kind that fits.
const E4_KINDS = [
  { kind: 'gb0', label: 'go-back-0', what: 'host_restart "message"', fits: (p) => p.host_restart === 'message' },
  { kind: 'gbn', label: 'go-back-N', what: 'receiver roce', fits: (p) => p.receiver === 'roce' },
  { kind: 'irn', label: 'IRN', what: 'receiver irn', fits: (p) => p.receiver === 'irn' },
];
const e4Kind = (p) => E4_KINDS.find((k) => k.fits(p)) ?? null;
experiment({
  id: 'e4',
  title: 'Go-back-0 vs go-back-N vs IRN, 4 MiB messages at 1/256 loss, 100 Gb/s',
  plan() {
    const ps = scenarioProviders(PROTOCOLS, 'livelock').filter(e4Kind);
    const missing = E4_KINDS.filter((k) => !ps.some((p) => e4Kind(p) === k));
    if (missing.length) {
      throw new Unavailable(`no protocol with netsim/livelock.json of ${missing.map((k) => `${k.label} (${k.what})`).join(', ')}`);
    }
    return E4_KINDS.flatMap((k) => {
      const of = ps.filter((p) => e4Kind(p) === k);
      return of.map((p) => ({
        name: of.length > 1 ? `e4_${k.kind}_${p.name}` : `e4_${k.kind}`, config: scenario(p, 'livelock'), proto: p.name, kind: k.kind,
        label: k.label, args: ['--loss=0.00390625', '--seed=1', ...(SHORT ? ['--duration-us=2000'] : ['--duration-us=20000'])],
      }));
    });
  },
  check(res, ck) {
    for (const r of res) r.extra = { share: r.summary.delivered_gbps / 100 };
    const of = (k) => res.filter((r) => r.kind === k);
    const who = (r, k) => (of(k).length > 1 ? ` (${r.proto})` : '');
    for (const r of of('gb0')) ck(`e4: go-back-0${who(r, 'gb0')} goodput < 5 % of line rate`, r.extra.share < 0.05, fx(100 * r.extra.share, 2) + ' %');
    for (const r of of('gbn')) ck(`e4: go-back-N${who(r, 'gbn')} goodput > 50 % of line rate`, r.extra.share > 0.5, fx(100 * r.extra.share, 2) + ' %');
    const gbn = Math.max(...of('gbn').map((r) => r.extra.share));
    for (const r of of('irn')) {
      ck(`e4: IRN${who(r, 'irn')} goodput > go-back-N goodput`, r.extra.share > gbn, `${fx(100 * r.extra.share, 2)} % vs ${fx(100 * gbn, 2)} %`);
    }
  },
  table(res) {
    return markdownTable(res, [
      ['recovery', (r) => `${r.label} (${r.proto})`],
      ['simulated (ms)', (r) => fx(r.summary.sim_time_us / 1000, 1)],
      ['goodput (% of 100 Gb/s)', (r) => fx(100 * r.extra.share, 2)],
      ['messages completed', (r) => r.summary.messages_completed],
      ['segments sent', (r) => r.summary.segments_sent],
      ['dropped', (r) => r.summary.drops],
      ['retransmitted', (r) => r.summary.retransmitted_segments],
      ['restarts', (r) => r.summary.restarts],
      ['timeouts', (r) => r.summary.timeouts],
    ]);
  },
  images: [],
});

// e5: every protocol with a reorder scenario; what each receiver kind is
// expected to show (a kind not listed: only the checks of every protocol).
// The kinds with an expectation of their own also run reordering plus loss.
const E5_RECEIVERS = {
  // cumulative acks: a reordered segment looks lost after three duplicate acks
  tcp: { loss: true, check: (p, by, ck) => ck(`e5: reordering makes ${p} retransmit spuriously (duplicate acks)`,
    by(p, 0.05).retransmitted_segments > 0, by(p, 0.05).retransmitted_segments) },
  tcp_sack: { loss: false, check: null },
  // NACKs with SACK: reordering within the window costs little
  irn: { loss: true, check: (p, by, ck) => {
    const ratio = by(p, 0.05).goodput_gbps / by(p, 0).goodput_gbps;
    ck(`e5: ${p} (receiver irn) keeps >= 90 % of its goodput at 5 % reordering`, ratio >= 0.9, fx(100 * ratio, 1) + ' %');
  } },
};
const E5_ORDER = Object.keys(E5_RECEIVERS);
const e5Rank = (p) => (E5_ORDER.includes(p.receiver) ? E5_ORDER.indexOf(p.receiver) : E5_ORDER.length);
experiment({
  id: 'e5',
  title: 'The window against reordering and loss: adaptive-routing-like detours in the switch',
  // Each data packet takes a longer path with probability q (extra delay
  // uniform in 1..max_ns: 20 us = 2 RTTs at 10 Gb/s, 6 us at 100 Gb/s).
  plan() {
    const ps = scenarioProviders(PROTOCOLS, 'reorder').sort((a, b) => e5Rank(a) - e5Rank(b) || a.name.localeCompare(b.name));
    if (!ps.length) throw new Unavailable('no protocol provides netsim/reorder.json');
    const run = (p, q, loss = 0) => {
      const file = scenario(p, 'reorder');
      const s = readScenario(file);
      return {
        name: `e5_${p.name}_reorder_${q}${loss ? `_loss_${loss}` : ''}`, config: file, proto: p.name, receiver: p.receiver,
        link: `${s.link?.gbps} Gb/s, ${bytesText(s.message_bytes)}`, reorder: q, loss,
        args: [`--reorder=${q}`, ...(loss ? [`--loss=${loss}`, '--seed=3'] : [])],
      };
    };
    return [...ps.flatMap((p) => [0, 0.01, 0.05].map((q) => run(p, q))),
      ...ps.filter((p) => E5_RECEIVERS[p.receiver]?.loss).map((p) => run(p, 0.01, 0.002))];
  },
  check(res, ck) {
    const by = (p, q, l = 0) => res.find((r) => r.proto === p && r.reorder === q && r.loss === l).summary;
    for (const r of res) ck(`${r.name}: complete, no timeout`, r.summary.completion_time_us > 0 && r.summary.timeouts_all_flows === 0,
      `${fx(r.summary.completion_time_us, 1)} us, ${r.summary.timeouts_all_flows} timeouts`);
    const protos = [...new Set(res.map((r) => r.proto))];
    ck('e5: without reordering or loss nothing is retransmitted', protos.every((p) => by(p, 0).retransmitted_segments === 0), '0');
    for (const p of protos) E5_RECEIVERS[res.find((r) => r.proto === p).receiver]?.check?.(p, by, ck);
  },
  table(res) {
    return markdownTable(res, [
      ['protocol', (r) => r.proto],
      ['link', (r) => r.link],
      ['reordered', (r) => `${fx(100 * r.reorder, 0)} %`],
      ['loss', (r) => (r.loss ? `${fx(100 * r.loss, 1)} %` : '-')],
      ['completion (us)', (r) => fx(r.summary.completion_time_us, 1)],
      ['goodput (Gb/s)', (r) => fx(r.summary.goodput_gbps, 3)],
      ['dropped', (r) => r.summary.drops],
      ['retransmitted', (r) => r.summary.retransmitted_segments],
      ['recovery episodes', (r) => r.summary.fast_retransmit_episodes_all_flows],
      ['timeouts', (r) => r.summary.timeouts_all_flows],
    ]);
  },
  // The sequence trace of the first cumulative-ack protocol at 5 % reordering (else the first protocol's).
  get images() {
    const rs = (this.runs ?? []).filter((r) => r.reorder === 0.05 && !r.loss);
    const r = rs.find((x) => x.receiver === 'tcp') ?? rs[0];
    return r ? [[r.name, 'seq.png']] : [];
  },
});

// e6: the window mode (W = 128 of rx_1024x128) against the
// reordering distance: a detour of up to D ns at 100 Gb/s and 1 KiB packets
// lets a packet be overtaken by up to D / 82 ns packets; beyond W the
// receiver drops (beyond-window) and asks for it again (RESEND).
const E6 = [[0, 0, 0], [0.05, 2000, 0], [0.05, 10000, 0], [0.05, 20000, 0], [0.05, 40000, 0], [0, 0, 0.001], [0.05, 10000, 0.001], [0.05, 20000, 0.001]];
experiment({
  id: 'e6',
  title: "Window mode against reordering distance and loss (window-mode RTL, the window-mode sender model)",
  plan: () => E6.map(([q, d, loss]) => ({
    name: `e6_reorder_${q}_${d}ns${loss ? `_loss_${loss}` : ''}`, config: path.join(CONFIGS, 'reorder_window_mode.json'), reorder: q, maxns: d, loss,
    args: [`--reorder=${q}`, ...(d ? [`--reorder-max-ns=${d}`] : []), ...(loss ? [`--loss=${loss}`, '--seed=5'] : [])],
  })),
  check(res, ck) {
    for (const r of res) ck(`${r.name}: the message completes`, r.summary.completion_time_us > 0, fx(r.summary.completion_time_us, 1) + ' us');
    const within = res.filter((r) => !r.loss && r.maxns * 100 / (1024 * 8) < 128);
    ck('e6: reordering within the window (distance < W = 128 packets) costs no retransmission', within.every((r) => r.summary.retransmitted_segments === 0),
      within.map((r) => r.summary.retransmitted_segments).join(', '));
    const beyond = res.filter((r) => !r.loss && r.maxns * 100 / (1024 * 8) > 128);
    ck('e6: reordering beyond the window makes the receiver drop and ask again (RESEND)', beyond.every((r) => r.summary.receiver.beyond > 0 && r.summary.retransmitted_segments > 0),
      beyond.map((r) => `${r.summary.receiver.beyond} beyond-window drops`).join(', '));
    const lossy = res.filter((r) => r.loss);
    ck('e6: every dropped packet is sent again', lossy.every((r) => r.summary.retransmitted_segments >= r.summary.drops),
      lossy.map((r) => `${r.summary.retransmitted_segments} rtx / ${r.summary.drops} drops`).join(', '));
  },
  table(res) {
    return markdownTable(res, [
      ['reordered', (r) => (r.reorder ? `${fx(100 * r.reorder, 0)} %` : '-')],
      ['detour up to', (r) => (r.maxns ? `${r.maxns / 1000} us (${Math.round(r.maxns * 100 / (1024 * 8))} packets)` : '-')],
      ['loss', (r) => (r.loss ? `${fx(100 * r.loss, 1)} %` : '-')],
      ['completion (us)', (r) => fx(r.summary.completion_time_us, 1)],
      ['goodput (Gb/s)', (r) => fx(r.summary.goodput_gbps, 2)],
      ['beyond-window drops', (r) => r.summary.receiver.beyond],
      ['RESENDs (timer)', (r) => `${r.summary.fast_retransmit_episodes_all_flows} (${r.summary.timeouts_all_flows})`],
      ['retransmitted', (r) => r.summary.retransmitted_segments],
    ]);
  },
  images: [],
});

// --- run ---
if (opts.list) {
  for (const e of E) process.stdout.write(e.runs ? `${e.id}\t${[...new Set(e.runs.map((r) => r.proto ?? 'window_mode'))].join(',')}\n` : `${e.id}\t-\t${e.why}\n`);
  process.exit(0);
}
if (ONLY) {
  const unknown = [...ONLY].filter((id) => !E.some((e) => e.id === id));
  if (unknown.length) {
    console.error(`netsim-experiments: --only: no experiment ${unknown.join(', ')} (known: ${E.map((e) => e.id).join(', ')})`);
    process.exit(2);
  }
  const cannot = E.filter((e) => ONLY.has(e.id) && !e.runs);
  if (cannot.length) {
    for (const e of cannot) console.error(`netsim-experiments: ${e.id} cannot run here: ${e.why}`);
    process.exit(2);
  }
}
if (!fs.existsSync(NETSIM)) {
  console.error(`netsim-experiments: ${NETSIM} does not exist (build it: cmake --build build/dev --target tonic-netsim)`);
  process.exit(2);
}
const chosen = E.filter((e) => (!ONLY || ONLY.has(e.id)) && (!SHORT || e.short !== false));
for (const e of chosen.filter((x) => !x.runs)) console.log(`netsim-experiments: ${e.id} skipped: ${e.why}`);
const jobs = chosen.filter((e) => e.runs).flatMap((e) => e.runs.map((r) => ({ ...r, dir: path.join(OUT, r.name) })));
async function runOne(j) {
  const exe = j.exe ?? NETSIM;
  const args = ['--config', j.config, '--out', j.dir, '--quiet', ...j.args];
  const t0 = Date.now();
  try {
    await run(exe, args, { maxBuffer: 1 << 24 });
  } catch (e) {
    throw new Error(`${path.relative(ROOT, exe)} ${args.join(' ')} failed (exit ${e.code}):\n${e.stderr || e.stdout}`);
  }
  j.summary = summary(j.dir);
  console.log(`netsim-experiments: ${j.name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
await runPool(jobs, JOBS, runOne);

let failed = 0;
const checks = [];
const report = {};
for (const e of chosen.filter((x) => x.runs)) {
  const res = jobs.filter((j) => e.runs.some((r) => r.name === j.name));
  e.check(res, (what, ok, value) => {
    checks.push({ what, ok, value: String(value) });
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}: ${value}`);
    if (!ok) ++failed;
  });
  e.results = res;
  report[e.id] = { title: e.title, runs: res.map((r) => ({ name: r.name, args: r.args, summary: r.summary, extra: r.extra ?? null })) };
}

if (!SHORT) {
  fs.mkdirSync(REPORTS, { recursive: true });
  const file = path.join(REPORTS, 'netsim.json');
  const old = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  fs.writeFileSync(file, JSON.stringify({ ...old, ...report, checks }, null, 2) + '\n');
  const { plotRunDir } = await import('./plots.mjs');
  for (const e of chosen.filter((x) => x.runs)) {
    for (const j of e.results) await plotRunDir(j.dir, { quiet: true });
    const imgs = [];
    for (const [name, png] of e.images) {
      const src = path.join(OUT, name, png);
      if (!fs.existsSync(src)) continue;
      const dst = `netsim_${name}_${png}`;
      fs.mkdirSync(path.join(ROOT, 'docs', 'img'), { recursive: true });
      fs.copyFileSync(src, path.join(ROOT, 'docs', 'img', dst));
      imgs.push(`![${name} ${png}](img/${dst})`);
    }
    if (!opts['no-docs']) updateResults(`netsim_${e.id}`, `Network: ${e.title}`, e.table(e.results) + (imgs.length ? `\n${imgs.join('\n')}\n` : ''));
  }
}
if (!SHORT && !opts['no-docs']) {
  // Simulation speed of every run (Tonic cycles per wall-clock second, SystemC included).
  const speed = jobs.filter((j) => j.summary.cycles_per_s !== undefined);
  updateResults('netsim_speed', 'Network: simulation speed of tonic-netsim', markdownTable(speed, [
    ['run', (j) => j.name],
    ['protocol (build)', (j) => `${j.summary.protocol} (${j.summary.model})`],
    ['flows', (j) => j.summary.flows],
    ['simulated (ms)', (j) => fx(j.summary.sim_time_us / 1000, 2)],
    ['Tonic cycles', (j) => j.summary.tonic_cycles],
    ['wall (s)', (j) => fx(j.summary.wall_s, 1)],
    ['cycles/s', (j) => fx(j.summary.cycles_per_s / 1000, 0) + ' k'],
  ]));
}
console.log(`netsim-experiments: ${checks.length - failed}/${checks.length} checks passed`);
process.exit(failed ? 1 : 0);
