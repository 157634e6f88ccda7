// SPDX-License-Identifier: Apache-2.0
// gnuplot.mjs — the one place in scripts/ that writes gnuplot scripts: for
// the network simulations' run directories (sim/common/run_output.hpp) the
// per-run plots of scripts/plots.mjs and scripts/netsim-experiments.mjs and
// the Tonic-vs-ns-3 overlay of scripts/compare-suite.mjs; the levels
// against estimated delay plot of scripts/random-programs.mjs. (tonic-run,
// sim/run/tonic_run.cpp, writes its own plot.gp in C++.)
//
// Each *Script function returns a gnuplot script as text; CSV files are
// named relative to the directory gnuplot runs in (render's `dir`), tables
// computed here (the throughput CDF, per-flow series) are inline data
// blocks. render() feeds a script to gnuplot on stdin; on failure it keeps
// the script as <png name>.gp next to the PNG for a look.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const BLUE = '#1f77b4';
const ORANGE = '#ff7f0e';
const GREEN = '#2ca02c';
const RED = '#d62728';
const PURPLE = '#9467bd';
const PALETTE = [BLUE, ORANGE, GREEN, RED, PURPLE, '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

/// True when `gnuplot` runs (on PATH).
export function gnuplotAvailable() {
  const r = spawnSync('gnuplot', ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/// A gnuplot string literal (single quotes; a quote is doubled).
export function gpStr(s) {
  return `'${String(s).replaceAll("'", "''")}'`;
}

// pngcairo when present (anti-aliased), else the libgd png terminal.
function preamble(png, width, height) {
  return [
    'if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) {',
    `  set terminal pngcairo size ${width},${height} noenhanced font ",11"`,
    '} else {',
    `  set terminal png size ${width},${height} noenhanced`,
    '}',
    `set output ${gpStr(png)}`,
    'set datafile separator ","',
    'set grid',
    'set key below horizontal',
  ];
}

// An inline data block named $name from rows of numbers.
function dataBlock(name, rows) {
  return [`$${name} << EOD`, ...rows.map((r) => r.join(',')), 'EOD'];
}

function plotLine(series) {
  return `plot ${series.join(', \\\n     ')}`;
}

// Series of one run's tx.csv: new segments as dots, retransmissions as
// larger open marks (only the kinds present).
function txSeries(file, name, { fresh, rtx }, colours) {
  const out = [];
  if (fresh) {
    out.push(`${gpStr(file)} skip 1 using 1:($3 == 0 ? $2 : 1/0) with points pt ${colours.pt} ps ${colours.ps} ` +
      `lc rgb '${colours.fresh}' title ${gpStr(`${name}new segment`)}`);
  }
  if (rtx) {
    out.push(`${gpStr(file)} skip 1 using 1:($3 == 1 ? $2 : 1/0) with points pt ${colours.rtxPt} ps 1.6 lw 2 ` +
      `lc rgb '${colours.rtx}' title ${gpStr(`${name}retransmission`)}`);
  }
  return out;
}

/// cwnd.png: cwnd and ssthresh (rows with ssthresh < 0, not set, left out)
/// against time. `file`: the cwnd.csv path.
export function cwndScript({ png, file, title, ssthresh = true }) {
  const series = [`${gpStr(file)} skip 1 using 1:2 with steps lw 2 lc rgb '${BLUE}' title 'cwnd'`];
  if (ssthresh) series.push(`${gpStr(file)} skip 1 using 1:($3 < 0 ? 1/0 : $3) with steps lw 1.5 dt 2 lc rgb '${GREEN}' title 'ssthresh'`);
  return [
    ...preamble(png, 1200, 600),
    `set title ${gpStr(title)}`,
    "set xlabel 'time (us)'",
    "set ylabel 'segments'",
    'set yrange [0:*]',
    plotLine(series),
  ].join('\n') + '\n';
}

/// seq.png: segment index against time, retransmissions marked. `counts`:
/// {fresh, rtx}, how many rows of each kind (a kind with none is left out).
export function seqScript({ png, file, title, counts }) {
  return [
    ...preamble(png, 1200, 600),
    `set title ${gpStr(title)}`,
    "set xlabel 'time (us)'",
    "set ylabel 'segment index'",
    'set autoscale fix',
    'set offsets graph 0.02, graph 0.02, graph 0.05, graph 0.05',
    plotLine(txSeries(file, '', counts, { fresh: BLUE, rtx: RED, pt: 7, ps: 0.5, rtxPt: 6 })),
  ].join('\n') + '\n';
}

/// flows_cdf.png: the empirical CDF of per-flow throughput (Mb/s), of one
/// list (`values`) or of several (`series`: [{name, values}], overlaid).
export function cdfScript({ png, title, values, series }) {
  const all = series ?? [{ name: 'CDF', values }];
  const blocks = all.flatMap((sr, k) => {
    const v = [...sr.values].sort((x, y) => x - y);
    return dataBlock(`cdf${k}`, [[v[0], 0], ...v.map((x, i) => [x, (i + 1) / v.length])]);
  });
  const plots = all.map((sr, k) => `$cdf${k} using 1:2 with steps lw 2 lc rgb '${PALETTE[k % PALETTE.length]}' title ${gpStr(sr.name)}`);
  return [
    ...preamble(png, 1000, 600),
    ...blocks,
    `set title ${gpStr(title)}`,
    "set xlabel 'throughput (Mb/s)'",
    "set ylabel 'fraction of flows'",
    'set yrange [0:1.02]',
    'set offsets graph 0.02, graph 0.02, 0, 0',
    `plot ${plots.join(', ')}`,
  ].join('\n') + '\n';
}

/// thr.png: throughput against time, one line per series
/// ({name, points: [[time_us, mbps], ...]}).
export function thrScript({ png, title, series }) {
  const lines = [...preamble(png, 1200, 600)];
  series.forEach((s, i) => lines.push(...dataBlock(`s${i}`, s.points)));
  lines.push(`set title ${gpStr(title)}`, "set xlabel 'time (us)'", "set ylabel 'throughput (Mb/s)'", 'set yrange [0:*]',
    'set key outside right top');
  lines.push(plotLine(series.map((s, i) =>
    `$s${i} using 1:2 with linespoints pt 7 ps 0.4 lw 1.5 lc rgb '${PALETTE[i % PALETTE.length]}' title ${gpStr(s.name)}`)));
  return lines.join('\n') + '\n';
}

/// The Tonic-vs-ns-3 overlay: cwnd of both against time (top), segment
/// index of both against time with retransmissions marked (bottom).
/// runs: [{name, cwnd: file, tx: file or null, counts: {fresh, rtx}}], Tonic
/// first; xmax: the end of the common time axis (us).
export function overlayScript({ png, title, runs, xmax }) {
  const style = [
    { line: BLUE, dt: 1, fresh: BLUE, rtx: RED, pt: 7, ps: 0.5, rtxPt: 6 },
    { line: ORANGE, dt: 2, fresh: ORANGE, rtx: PURPLE, pt: 1, ps: 1, rtxPt: 8 },
  ];
  const seq = runs.flatMap((r, i) => (r.tx ? txSeries(r.tx, `${r.name}: `, r.counts, style[i]) : []));
  return [
    ...preamble(png, 1400, 1000),
    `set multiplot layout 2,1 title ${gpStr(title)}`,
    `set xrange [0:${xmax > 0 ? xmax : 1}]`,
    "set title 'congestion window'",
    "set xlabel 'time (us)'",
    "set ylabel 'cwnd (segments)'",
    'set yrange [0:*]',
    plotLine(runs.map((r, i) => `${gpStr(r.cwnd)} skip 1 using 1:2 with steps lw 2 dt ${style[i].dt} lc rgb '${style[i].line}' title ${gpStr(r.name)}`)),
    "set title 'segments sent'",
    "set ylabel 'segment index'",
    'set yrange [*:*]',
    'set autoscale yfix',
    'set offsets 0, 0, graph 0.05, graph 0.05',
    seq.length ? plotLine(seq) : "set label 1 'no tx.csv' at graph 0.5, graph 0.5 center\nplot [0:1][0:1] NaN notitle",
    'unset multiplot',
  ].join('\n') + '\n';
}

/// The network view of one scenario in both simulators: every flow's cwnd
/// against time, one panel per simulator side by side (top), and the
/// bottleneck queue of both against time with the marking threshold K
/// when there is one (bottom). runs: [{name, cwndFlows: cwnd_flows.csv,
/// flows: number of flow columns, queue: queue.csv}], Tonic first; k: K in
/// packets or null; xmax: the end of the time axis (us).
export function networkScript({ png, title, runs, k = null, xmax }) {
  const colours = [BLUE, ORANGE];
  const x = `set xrange [0:${xmax > 0 ? xmax : 1}]`;
  const panel = (r) => [
    `set title ${gpStr(`${r.name}: cwnd of every flow`)}`,
    "set xlabel 'time (us)'",
    "set ylabel 'cwnd (segments)'",
    'set yrange [0:*]',
    'unset key',
    `plot for [i=2:${r.flows + 1}] ${gpStr(r.cwndFlows)} skip 1 using 1:(column(i) >= 0 ? column(i) : 1/0) with steps lw 1 notitle`,
  ];
  return [
    ...preamble(png, 1400, 1000),
    `set multiplot title ${gpStr(title)}`,
    x,
    'set size 0.5,0.5',
    'set origin 0,0.47',
    ...panel(runs[0]),
    'set origin 0.5,0.47',
    ...panel(runs[1]),
    'set size 1,0.47',
    'set origin 0,0',
    "set title 'bottleneck queue (switch -> receiver)'",
    "set ylabel 'queue (packets)'",
    'set key below horizontal',
    k ? `set arrow 1 from graph 0, first ${k} to graph 1, first ${k} nohead dt 3 lw 1.5 lc rgb 'gray40'` : 'unset arrow 1',
    plotLine([
      ...runs.map((r, i) => `${gpStr(r.queue)} skip 1 using 1:3 with steps lw 1.5 lc rgb '${colours[i]}' title ${gpStr(r.name)}`),
      ...(k ? [`NaN with lines dt 3 lw 1.5 lc rgb 'gray40' title ${gpStr(`K = ${k} packets`)}`] : []),
    ]),
    'unset multiplot',
  ].join('\n') + '\n';
}

/// random_programs.png: logic levels against estimated delay of checked
/// programs (`points`: [{levels, delay_ns, verdict}], verdict pass,
/// marginal or fail), the verdict bands' limits (`bands`: {pass,
/// marginal}, levels) and 10 ns marked, and the linear calibration
/// delay = `calibration.a` + `calibration.b` * levels dashed.
export function levelsScript({ png, title, points, bands, calibration = { a: 0.6, b: 0.29 } }) {
  const maxLevels = Math.max(0, ...points.map((p) => p.levels));
  const xmax = Math.max(50, Math.ceil(maxLevels / 10) * 10 + 5);
  const kinds = [['pass', GREEN], ['marginal', ORANGE], ['fail', RED]]
    .map(([v, colour]) => ({ v, colour, rows: points.filter((p) => p.verdict === v).map((p) => [p.levels, p.delay_ns]) }))
    .filter((k) => k.rows.length > 0);
  const series = kinds.map((k) => `$${k.v} using 1:2 with points pt 7 lc rgb '${k.colour}' title ${gpStr(k.v)}`);
  series.push(`${calibration.a} + ${calibration.b} * x with lines dt 2 lw 1.5 lc rgb 'gray40' ` +
    `title ${gpStr(`linear calibration ${calibration.a} + ${calibration.b} L`)}`);
  return [
    ...preamble(png, 900, 600),
    ...kinds.flatMap((k) => dataBlock(k.v, k.rows)),
    `set title ${gpStr(title)}`,
    "set xlabel 'logic levels (levels.mjs)'",
    "set ylabel 'estimated delay (ns, levels.mjs DELAY)'",
    `set xrange [0:${xmax}]`,
    'set yrange [0:*]',
    'set key inside bottom right vertical box opaque',
    `set arrow from ${bands.pass},graph 0 to ${bands.pass},graph 1 nohead dt 2 lc rgb '${GREEN}'`,
    `set arrow from ${bands.marginal},graph 0 to ${bands.marginal},graph 1 nohead dt 2 lc rgb '${RED}'`,
    `set arrow from 0,10 to ${xmax},10 nohead lc rgb 'black'`,
    `set label ${gpStr(`pass <= ${bands.pass}`)} at 2,graph 0.95`,
    `set label ${gpStr(`fail > ${bands.marginal}`)} at ${bands.marginal + 1},graph 0.95`,
    "set label '10 ns' at 1,10.4",
    plotLine(series),
  ].join('\n') + '\n';
}

/// Runs `script` with gnuplot in `dir`; `png` is the file the script
/// writes (relative to dir). Returns null on success, else the reason
/// (and the script is left as <png>.gp in dir).
export function render(dir, png, script) {
  const out = path.join(dir, png);
  fs.rmSync(out, { force: true });
  const r = spawnSync('gnuplot', [], { cwd: dir, input: script, encoding: 'utf8' });
  if (r.status === 0 && fs.existsSync(out)) return null;
  const gp = out.replace(/\.png$/, '') + '.gp';
  fs.writeFileSync(gp, script);
  const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n').slice(-3).join(' / ') || `status ${r.status}`;
  return `gnuplot failed (${why}); script kept in ${gp}`;
}
