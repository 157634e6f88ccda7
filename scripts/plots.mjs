// SPDX-License-Identifier: Apache-2.0
// plots.mjs — `make plots`: PNGs of network simulation run directories
// (tonic-netsim or tonic-ns3; the format of sim/common/run_output.hpp),
// written into each directory with gnuplot (scripts/gnuplot.mjs):
//   cwnd.png       cwnd.csv: cwnd and ssthresh against time (ssthresh -1, not set, left out)
//   seq.png        tx.csv: segment index against time, retransmissions marked
//   flows_cdf.png  flows.csv: CDF of per-flow throughput (only with >= 2 flows)
//   thr.png        thr.csv: per-flow throughput against time, one line per (sender, flow)
// A file that is absent (or has no rows) is skipped with a note. Without
// gnuplot: a warning and no PNG, exit 0 (as tonic-run). A malformed file:
// a line naming it, its plot skipped, exit 2 at the end.
//
// usage: node scripts/plots.mjs DIR [DIR...]
// (from another script: plotRunDir(dir, {quiet}) below)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { COLUMNS, InputError, readCsv } from './compare.mjs';
import { cdfScript, cwndScript, gnuplotAvailable, render, seqScript, thrScript } from './gnuplot.mjs';
import { cli } from './lib/cli.mjs';

// Name a run for the titles: "<simulator> <scenario>" from summary.json
// when readable, else the directory.
function runName(dir) {
  try {
    const s = JSON.parse(fs.readFileSync(path.join(dir, 'summary.json'), 'utf8'));
    if (s && typeof s.simulator === 'string') return `${s.simulator}${s.scenario ? ` ${s.scenario}` : ''}`;
  } catch {
    // no summary: the directory name will do
  }
  return dir;
}

/// The plots one directory can have: [{png, csv, columns, make(rows) ->
/// script or a reason to skip (string starting with "skip: ")}].
function plotsFor(name) {
  return [
    {
      png: 'cwnd.png', csv: 'cwnd.csv', columns: COLUMNS.cwnd,
      make: (rows) => cwndScript({ png: 'cwnd.png', file: 'cwnd.csv', title: `${name}: congestion window of the traced flow`,
        ssthresh: rows.some((r) => r.ssthresh_segments >= 0) }),
    },
    {
      png: 'seq.png', csv: 'tx.csv', columns: COLUMNS.tx,
      make: (rows) => {
        const rtx = rows.filter((r) => r.retransmit === 1).length;
        return seqScript({ png: 'seq.png', file: 'tx.csv', counts: { fresh: rows.length - rtx, rtx },
          title: `${name}: segments sent by the traced flow (${rows.length}, ${rtx} retransmissions)` });
      },
    },
    {
      png: 'flows_cdf.png', csv: 'flows.csv', columns: COLUMNS.flows,
      make: (rows) => {
        if (rows.length < 2) return `skip: flows.csv has ${rows.length} flow, no CDF`;
        const v = rows.map((r) => r.throughput_mbps);
        const mean = v.reduce((a, b) => a + b, 0) / v.length;
        const jain = (v.reduce((a, b) => a + b, 0) ** 2) / (v.length * v.reduce((a, b) => a + b * b, 0) || 1);
        return cdfScript({ png: 'flows_cdf.png', values: v,
          title: `${name}: per-flow throughput, ${v.length} flows (mean ${mean.toFixed(1)} Mb/s, ` +
            `min ${Math.min(...v).toFixed(1)}, max ${Math.max(...v).toFixed(1)}, Jain index ${jain.toFixed(4)})` });
      },
    },
    {
      png: 'thr.png', csv: 'thr.csv', columns: COLUMNS.thr,
      make: (rows) => {
        const series = new Map();
        for (const r of rows) {
          const key = `sender ${r.sender} flow ${r.flow}`;
          if (!series.has(key)) series.set(key, []);
          series.get(key).push([r.time_us, r.throughput_mbps]);
        }
        return thrScript({ png: 'thr.png', title: `${name}: throughput at the receiver`,
          series: [...series].map(([key, points]) => ({ name: key, points: points.sort((a, b) => a[0] - b[0]) })) });
      },
    },
  ];
}

/// Makes the PNGs of one run directory. Returns {wrote, skipped, errors}.
export function plotDir(dir) {
  const res = { wrote: [], skipped: [], errors: [] };
  for (const p of plotsFor(runName(dir))) {
    const file = path.join(dir, p.csv);
    if (!fs.existsSync(file)) {
      res.skipped.push(`${p.png} (no ${p.csv})`);
      continue;
    }
    let rows;
    try {
      rows = readCsv(file, p.columns);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      res.errors.push(e.message);
      continue;
    }
    if (!rows.length) {
      res.skipped.push(`${p.png} (${p.csv} has no rows)`);
      continue;
    }
    const script = p.make(rows);
    if (script.startsWith('skip: ')) {
      res.skipped.push(`${p.png} (${script.slice(6)})`);
      continue;
    }
    const failed = render(dir, p.png, script);
    if (failed) res.errors.push(`${path.join(dir, p.png)}: ${failed}`);
    else res.wrote.push(p.png);
  }
  return res;
}

let warnedNoGnuplot = false;

/// plotDir for other scripts (scripts/netsim-experiments.mjs) and the CLI:
/// prints the directory's summary line unless `quiet`, the errors always;
/// without gnuplot, one warning per process and nothing made. Returns
/// plotDir's result, or null without gnuplot.
export function plotRunDir(dir, { quiet = false } = {}) {
  if (!gnuplotAvailable()) {
    if (!warnedNoGnuplot) process.stderr.write('plots: warning: gnuplot not found: no PNGs (install gnuplot-nox)\n');
    warnedNoGnuplot = true;
    return null;
  }
  const r = plotDir(dir);
  const parts = [];
  if (r.wrote.length) parts.push(`wrote ${r.wrote.join(', ')}`);
  if (r.skipped.length) parts.push(`skipped ${r.skipped.join(', ')}`);
  if (!quiet) process.stdout.write(`plots: ${dir}: ${parts.join('; ') || 'nothing to plot'}\n`);
  for (const e of r.errors) process.stderr.write(`plots: ${e}\n`);
  return r;
}

function main(argv) {
  const { positionals: dirs } = cli({
    name: 'plots',
    usage: 'node scripts/plots.mjs DIR [DIR...]',
    description: "The PNGs of network-simulation run directories (cwnd, seq, thr, flows_cdf; scripts/gnuplot.mjs).\n" +
      'Without gnuplot: a warning and no PNG, exit 0. A malformed file: exit 2.',
    positionals: { names: 'DIR [DIR...]', min: 1 },
  }, argv);
  let status = 0;
  const good = dirs.filter((dir) => {
    if (fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return true;
    process.stderr.write(`plots: ${dir}: not a directory\n`);
    status = 2;
    return false;
  });
  for (const dir of good) {
    const r = plotRunDir(dir);
    if (!r) break;  // no gnuplot: warned, exit status unchanged
    if (r.errors.length) status = 2;
  }
  return status;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(main(process.argv.slice(2)));
}
