// SPDX-License-Identifier: Apache-2.0
// netsim-experiments.mjs — the paper's end-to-end experiments (section 6.2;
// docs/netsim.md) through tonic-netsim, each with its figures, its checks
// and its plots:
//   e1  NewReno, one flow, 10 Gb/s, 10 us RTT, drops at the receiver NIC:
//       cwnd and sequence traces; every listed drop recovered by fast
//       retransmit, no timeout (paper fig. 3a/3b)
//   e2  NewReno, 2 senders x 100 flows, 1 s (5 s with --long): per-flow
//       throughput CDF (fig. 3c)
//   e3  RoCEv2 + DCQCN at 40 Gb/s, 4 us RTT: two flows from two hosts
//       converging (fig. 4); 2 x 100 flows sharing the bottleneck; one
//       100 Gb/s flow of back-to-back 128 B segments saturating the link
//   e4  go-back-0 vs go-back-N vs IRN, 4 MiB messages at 1/256 loss: goodput
//   e5  the window against reordering: NewReno and SACK (duplicate acks)
//       and IRN (NACKs) through a switch that reorders like adaptive routing
//   e6  the window mode (RTL, window mode) against reordering
//       distance and loss, with the window-mode sender model
//
// usage: node scripts/netsim-experiments.mjs [--short] [--only e1,e3] [--long]
//          [--netsim PATH] [--out DIR] [--jobs N] [--no-docs]
//   --short   the versions `make test` runs (shorter durations); checks only,
//             nothing written to docs/
//   default   the full experiments (`make experiments`): build/reports/netsim.json,
//             PNGs in docs/img/, the tables in docs/results.md
// Exit 1 when a check fails (each failed check is printed), 2 on a bad option.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

import { ROOT } from './manifest.mjs';
import { COLUMNS, readCsv } from './compare.mjs';
import { cdfScript, render } from './gnuplot.mjs';
import { cli } from './lib/cli.mjs';
import { runPool } from './lib/pool.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

const run = promisify(execFile);

// --- options ---
const { values: opts } = cli({
  name: 'netsim-experiments',
  usage: 'node scripts/netsim-experiments.mjs [--short] [--only e1,e3] [--long] [--netsim PATH] [--out DIR] [--jobs N] [--no-docs]',
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
const CONFIGS = path.join(ROOT, 'sim', 'netsim', 'configs');
if (!fs.existsSync(NETSIM)) {
  console.error(`netsim-experiments: ${NETSIM} does not exist (build it: cmake --build build/dev --target tonic-netsim)`);
  process.exit(2);
}

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

// --- the experiments: runs (config + options) and what they check ---
const E = [];

// e1: drop patterns (segment indices of the 2000-segment message).
const E1_PATTERNS = [
  { slug: 'drops_5_37_38', args: ['--drops=5,37,38'], episodes: 2, drops: 3 },
  { slug: 'drops_300_900_1500', args: ['--drops=300,900,1500'], episodes: 3, drops: 3 },
  { slug: 'drops_500_501_502', args: ['--drops=500,501,502'], episodes: 1, drops: 3 },
  { slug: 'loss_0.002_seed_1', args: ['--loss=0.002', '--seed=1'], episodes: null, drops: null },
];
E.push({
  id: 'e1',
  title: 'NewReno, one flow at 10 Gb/s, drops at the receiver NIC (paper fig. 3a/3b)',
  runs: E1_PATTERNS.map((p) => ({ name: `e1_${p.slug}`, config: 'newreno_single.json', args: p.args, pattern: p })),
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

E.push({
  id: 'e2',
  title: 'NewReno, 2 senders x 100 flows to one receiver (paper fig. 3c)',
  short: false,  // not part of make test (1 s of simulated time)
  runs: [{ name: 'e2_incast', config: 'newreno_incast.json', args: LONG ? ['--duration-us=5000000'] : [] },
    ...(fs.existsSync(NS3) ? [{ name: 'e2_incast_ns3', config: 'newreno_incast.json', exe: NS3, args: LONG ? ['--duration-us=5000000'] : [] }] : [])],
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
      const why = render(path.join(ROOT, 'docs', 'img'), png, cdfScript({ png, title: 'NewReno, 2 x 100 flows, 10 Gb/s: per-flow throughput',
        series: rows.map((x) => ({ name: x.r.exe ? 'ns-3 TcpNewReno' : 'Tonic (tonic-netsim)', values: x.thr })) }));
      if (why) console.log(`netsim-experiments: ${why}`);
    }
    return markdownTable(rows, [
      ['simulator', (x) => (x.r.exe ? 'ns-3 TcpNewReno' : 'Tonic (tonic-netsim)')],
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

E.push({
  id: 'e3',
  title: 'RoCEv2 + DCQCN at 40 Gb/s and 100 Gb/s (paper fig. 4)',
  runs: [
    { name: 'e3_pair', config: 'dcqcn_pair.json', args: [] },
    ...(SHORT ? [] : [{ name: 'e3_converge', config: 'dcqcn_converge.json', args: [] }]),
    { name: 'e3_200', config: 'dcqcn_200.json', args: SHORT ? ['--duration-us=12000', '--warmup-us=6000'] : [] },
    { name: 'e3_100g', config: 'dcqcn_100g.json', args: [] },
  ],
  check(res, ck) {
    const get = (n) => res.find((r) => r.name === n);
    // Two flows: their receiver-side throughput over the last part of the run.
    const pair = (r, from, to, util) => {
      const m = [...thrMeans(r.dir, from, to).values()];
      const spread = Math.abs(m[0] - m[1]) / Math.max(m[0], m[1]);
      r.extra = { window_us: [from, to], mbps: m, spread };
      ck(`${r.name}: the two flows within 5 % of each other over [${from / 1000}, ${to / 1000}) ms`, m.length === 2 && spread <= 0.05,
        m.map((v) => fx(v, 0)).join(' vs ') + ` Mb/s (${fx(100 * spread, 2)} %)`);
      // After the first deep cuts DCQCN climbs back by R_AI = 40 Mb/s per
      // 55 us: the port is full again only after some 15 ms.
      if (util) ck(`${r.name}: together >= 85 % of the link's payload capacity`, m[0] + m[1] >= 0.85 * 40000 * 1000 / 1058, fx(m[0] + m[1], 0) + ' Mb/s');
    };
    const p = get('e3_pair');
    pair(p, p.summary.sim_time_us / 2, p.summary.sim_time_us, false);
    const cv = get('e3_converge');
    if (cv) pair(cv, cv.summary.sim_time_us - 10000, cv.summary.sim_time_us, true);
    const many = get('e3_200');
    const t = readCsv(path.join(many.dir, 'flows.csv'), COLUMNS.flows).map((r) => r.throughput_mbps);
    const mu = mean(t);
    const sd = Math.sqrt(mean(t.map((v) => (v - mu) ** 2)));
    many.extra = { mean_mbps: mu, sd_mbps: sd, min: Math.min(...t), max: Math.max(...t), jain: jain(t) };
    // DCQCN's rates saw-tooth per flow: the spread of the per-flow means
    // shrinks with the averaging window (12 ms short run: ~12 %; 175 ms
    // full run: ~2.6 %).
    const [sdMax, jainMin] = SHORT ? [0.15, 0.98] : [0.05, 0.99];
    ck(`e3 200 flows: standard deviation <= ${100 * sdMax} % of the mean`, sd <= sdMax * mu, `${fx(mu, 1)} +- ${fx(sd, 2)} Mb/s (${fx(100 * sd / mu, 2)} %)`);
    ck(`e3 200 flows: Jain's index >= ${jainMin}`, jain(t) >= jainMin, fx(jain(t), 5));
    const fast = get('e3_100g');
    const bins = [...thrMeans(fast.dir, 20).values()];
    fast.extra = { steady_gbps: bins[0] / 1000 };
    ck('e3 100G: one flow of 128 B segments saturates the link (>= 99 %)', bins[0] >= 0.99 * 100000, fx(bins[0] / 1000, 3) + ' Gb/s');
  },
  table(res) {
    const rows = [];
    for (const r of res) {
      const e = r.extra;
      if (r.name === 'e3_pair' || r.name === 'e3_converge') {
        rows.push({ what: r.name === 'e3_pair' ? 'two flows, two hosts, start together, one 40 Gb/s port' : 'two flows, the second joins at 10 ms',
          v: `${e.mbps.map((x) => fx(x / 1000, 2)).join(' and ')} Gb/s over [${e.window_us.map((x) => fx(x / 1000, 0)).join(', ')}) ms (spread ${fx(100 * e.spread, 2)} %)`, s: r.summary });
      } else if (r.name === 'e3_200') {
        rows.push({ what: '2 x 100 flows, one 40 Gb/s port', v: `${fx(e.mean_mbps, 1)} +- ${fx(e.sd_mbps, 2)} Mb/s per flow (min ${fx(e.min, 1)}, max ${fx(e.max, 1)}; Jain ${fx(e.jain, 5)}) from ${fx(r.summary.sim_time_us > 25000 ? 25 : 0, 0)} ms on; paper: 203 +- 0.2 Mb/s`, s: r.summary });
      } else {
        rows.push({ what: 'one flow, 128 B segments, 100 Gb/s link', v: `${fx(e.steady_gbps, 3)} Gb/s after 20 us`, s: r.summary });
      }
    }
    return markdownTable(rows, [
      ['scenario', (r) => r.what],
      ['simulated (ms)', (r) => fx(r.s.sim_time_us / 1000, 1)],
      ['result', (r) => r.v],
      ['ECN marks', (r) => r.s.switch.ecn_marked],
      ['PFC pauses', (r) => r.s.switch.pfc_pauses],
      ['switch drops', (r) => r.s.switch.dropped],
      ['max queue (KB)', (r) => fx(r.s.switch.max_queue_bytes / 1000, 1)],
    ]);
  },
  images: [['e3_converge', 'thr.png'], ['e3_pair', 'thr.png'], ['e3_200', 'flows_cdf.png']],
});

E.push({
  id: 'e4',
  title: 'Go-back-0 vs go-back-N vs IRN, 4 MiB messages at 1/256 loss, 100 Gb/s',
  runs: ['gb0', 'gbn', 'irn'].map((k) => ({
    name: `e4_${k}`, config: `livelock_${k}.json`, kind: k,
    args: ['--loss=0.00390625', '--seed=1', ...(SHORT ? ['--duration-us=2000'] : ['--duration-us=20000'])],
  })),
  check(res, ck) {
    const g = Object.fromEntries(res.map((r) => [r.kind, r.summary.delivered_gbps / 100]));
    for (const r of res) r.extra = { share: r.summary.delivered_gbps / 100 };
    ck('e4: go-back-0 goodput < 5 % of line rate', g.gb0 < 0.05, fx(100 * g.gb0, 2) + ' %');
    ck('e4: go-back-N goodput > 50 % of line rate', g.gbn > 0.5, fx(100 * g.gbn, 2) + ' %');
    ck('e4: IRN goodput > go-back-N goodput', g.irn > g.gbn, `${fx(100 * g.irn, 2)} % vs ${fx(100 * g.gbn, 2)} %`);
  },
  table(res) {
    return markdownTable(res, [
      ['recovery', (r) => ({ gb0: 'go-back-0 (rocev2_gb0)', gbn: 'go-back-N (rocev2_dcqcn)', irn: 'IRN (irn)' })[r.kind]],
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

E.push({
  id: 'e5',
  title: 'The window against reordering and loss: adaptive-routing-like detours in the switch',
  // Each data packet takes a longer path with probability q (extra delay
  // uniform in 1..max_ns: 20 us = 2 RTTs at 10 Gb/s, 6 us at 100 Gb/s).
  runs: [['newreno', 0], ['newreno', 0.01], ['newreno', 0.05], ['sack', 0], ['sack', 0.01], ['sack', 0.05],
    ['irn', 0], ['irn', 0.01], ['irn', 0.05], ['newreno', 0.01, 0.002], ['irn', 0.01, 0.002]].map(([p, q, loss]) => ({
    name: `e5_${p}_reorder_${q}${loss ? `_loss_${loss}` : ''}`, config: `reorder_${p}.json`, proto: p, reorder: q, loss: loss ?? 0,
    args: [`--reorder=${q}`, ...(loss ? [`--loss=${loss}`, '--seed=3'] : [])],
  })),
  check(res, ck) {
    const by = (p, q, l = 0) => res.find((r) => r.proto === p && r.reorder === q && r.loss === l).summary;
    for (const r of res) ck(`${r.name}: complete, no timeout`, r.summary.completion_time_us > 0 && r.summary.timeouts_all_flows === 0,
      `${fx(r.summary.completion_time_us, 1)} us, ${r.summary.timeouts_all_flows} timeouts`);
    ck('e5: without reordering or loss nothing is retransmitted', ['newreno', 'sack', 'irn'].every((p) => by(p, 0).retransmitted_segments === 0), '0');
    ck('e5: reordering makes NewReno retransmit spuriously (duplicate acks)', by('newreno', 0.05).retransmitted_segments > 0, by('newreno', 0.05).retransmitted_segments);
    const ratio = by('irn', 0.05).goodput_gbps / by('irn', 0).goodput_gbps;
    ck('e5: IRN keeps >= 90 % of its goodput at 5 % reordering', ratio >= 0.9, fx(100 * ratio, 1) + ' %');
  },
  table(res) {
    return markdownTable(res, [
      ['protocol', (r) => r.proto],
      ['link', (r) => (r.proto === 'irn' ? '100 Gb/s, 4 MiB' : '10 Gb/s, 2 MB')],
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
  images: [['e5_newreno_reorder_0.05', 'seq.png']],
});

// e6: the window mode (W = 128 of rx_1024x128) against the
// reordering distance: a detour of up to D ns at 100 Gb/s and 1 KiB packets
// lets a packet be overtaken by up to D / 82 ns packets; beyond W the
// receiver drops (beyond-window) and asks for it again (RESEND).
const E6 = [[0, 0, 0], [0.05, 2000, 0], [0.05, 10000, 0], [0.05, 20000, 0], [0.05, 40000, 0], [0, 0, 0.001], [0.05, 10000, 0.001], [0.05, 20000, 0.001]];
E.push({
  id: 'e6',
  title: "Window mode against reordering distance and loss (window-mode RTL, the window-mode sender model)",
  runs: E6.map(([q, d, loss]) => ({
    name: `e6_reorder_${q}_${d}ns${loss ? `_loss_${loss}` : ''}`, config: 'reorder_window_mode.json', reorder: q, maxns: d, loss,
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
const chosen = E.filter((e) => (!ONLY || ONLY.has(e.id)) && (!SHORT || e.short !== false));
const jobs = chosen.flatMap((e) => e.runs.map((r) => ({ ...r, dir: path.join(OUT, r.name) })));
async function runOne(j) {
  const exe = j.exe ?? NETSIM;
  const args = ['--config', path.join(CONFIGS, j.config), '--out', j.dir, '--quiet', ...j.args];
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
for (const e of chosen) {
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
  for (const e of chosen) {
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
