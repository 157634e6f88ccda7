// SPDX-License-Identifier: Apache-2.0
// experiments.mjs — the tables of the experiments the tests run, from the
// JSON they leave in build/reports/, into docs/results.md:
//   rate_accuracy.json  tb/unit/credit_rtl (ctest -L credit_rtl): the
//                       long-run rate of the RTL against the configured one
//   livelock.json       tb/unit/livelock (ctest -L livelock): go-back-0 vs
//                       go-back-N vs IRN at 1/256 loss
//   window_mode.json    tb/unit/window_mode (ctest -L window_mode): the window
//                       mode under reordering and loss (C++ model)
// A report that is missing is skipped with a note (run its test first).
// usage: node scripts/experiments.mjs   (make experiments: the tests, then this)
import fs from 'node:fs';
import path from 'node:path';

import { cli } from './lib/cli.mjs';
import { markdownTable, REPORTS, updateResults } from './report.mjs';

cli({
  name: 'experiments',
  description: 'The tables of the experiments the tests run (rate_accuracy.json, livelock.json, window003.json\n' +
    'in build/reports/) into docs/results.md; a missing report is skipped with a note.',
});

function load(name) {
  const file = path.join(REPORTS, name);
  if (!fs.existsSync(file)) {
    console.log(`experiments: ${name} missing (run its test first), skipped`);
    return null;
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

const pct = (x, digits = 4) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(digits)} %`;
const rate = (bps) => (bps >= 1e9 ? `${bps / 1e9} Gb/s` : `${bps / 1e6} Mb/s`);

const acc = load('rate_accuracy.json');
if (acc) {
  const sizes = [...new Set(acc.rows.map((r) => r.segment_bytes))].sort((a, b) => a - b);
  const rates = [...new Set(acc.rows.map((r) => r.rate_bps))].sort((a, b) => a - b);
  const worst = new Map(acc.worst_abs_error_per_decade.map((w) => [w.rate_bps, w.error]));
  const rows = rates.map((bps) => ({ bps, cells: sizes.map((s) => acc.rows.find((r) => r.rate_bps === bps && r.segment_bytes === s)) }));
  updateResults('rate_accuracy', 'Rate accuracy of the rate scheme (RTL; scripts/experiments.mjs)', markdownTable(rows, [
    ['rate', (r) => rate(r.bps)],
    ...sizes.map((s, i) => [`${s} B`, (r) => {
      const c = r.cells[i];
      if (!c) return '-';
      return c.output_limited ? `output-limited (${(c.measured_bytes_per_cycle / s).toFixed(4)} seg/cycle)` : pct(c.error);
    }]),
    ['worst abs', (r) => (worst.has(r.bps) ? `${(100 * worst.get(r.bps)).toFixed(4)} %` : '-')],
  ]) + `\nSource: ${acc.source}; the error is against the configured rate in RU.\n`);
}

const ll = load('livelock.json');
if (ll) {
  const c = ll.config;
  updateResults('livelock', 'Live-lock: go-back-0 vs go-back-N vs IRN (RTL; scripts/experiments.mjs)', markdownTable(ll.runs, [
    ['protocol', (r) => r.protocol],
    ['goodput (fraction of line rate)', (r) => r.goodput_fraction.toFixed(4)],
    ['messages completed', (r) => r.messages_completed],
    ['cycles', (r) => r.cycles],
    ['retransmissions', (r) => r.retransmissions],
    ['restarts', (r) => r.restarts],
  ]) + `\n${c.messages_target} messages of ${c.message_bytes} B, ${c.segment_bytes}-B segments, loss ${c.loss_rate}, ` +
    `${c.one_way_delay_cycles} cycles each way (docs/design/livelock.md).\n`);
}

const w = load('window_mode.json');
if (w) {
  const c = w.config;
  const reorder = markdownTable(w.reorder, [
    ['sender on a beyond-window RESEND', (r) => r.beyond_window_resend],
    ['W', (r) => r.window],
    ['throughput vs in order', (r) => r.throughput_fraction.toFixed(3)],
    ['retransmissions', (r) => r.retransmissions.toFixed(0)],
    ['beyond-window drops', (r) => r.beyond_window_drops.toFixed(0)],
    ['timeouts', (r) => r.timeouts.toFixed(1)],
  ]);
  const loss = markdownTable(w.loss, [
    ['packets', (r) => r.packets],
    ['loss %', (r) => (100 * r.loss_rate).toFixed(1)],
    ['partial / loss-free', (r) => r.partial_relative.toFixed(3)],
    ['whole message / loss-free', (r) => r.whole_relative.toFixed(2)],
    ['partial retransmissions', (r) => r.partial_retransmissions.toFixed(1)],
    ['whole restarts', (r) => r.whole_restarts.toFixed(1)],
  ]);
  updateResults('window_mode', 'Window mode: reordering and loss (C++ model; scripts/experiments.mjs)',
    `Reordering distance ${c.reorder.jitter_cycles}, ${c.reorder.packets} packets, mean of ${c.reorder.seeds} seeds:\n\n${reorder}` +
    `\nLoss, W ${c.loss.window}, jitter ${c.loss.jitter_cycles}, mean of ${c.loss.seeds} seeds; completion time relative to loss-free:\n\n${loss}` +
    `\nRTT ${c.rtt_cycles} cycles, one packet per cycle (${w.doc}).\n`);
}
