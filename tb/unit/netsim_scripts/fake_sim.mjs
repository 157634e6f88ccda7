// SPDX-License-Identifier: Apache-2.0
// A stand-in for tonic-netsim / tonic-ns3 in the compare-suite test:
// usage: node fake_sim.mjs tonic|ns3 --config FILE --out DIR --quiet [drop options]
// Copies fixtures/<kind>/ into DIR and records its arguments in DIR/argv.json.
// FAKE_SIM_EXIT=N (environment): print to stderr and exit N instead;
// FAKE_SIM_BREAK=1: write a cwnd.csv with a short third line.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const [kind, ...argv] = process.argv.slice(2);
if (process.env.FAKE_SIM_EXIT) {
  process.stderr.write(`fake ${kind}: failing on purpose\n`);
  process.exit(Number(process.env.FAKE_SIM_EXIT));
}
const out = argv[argv.indexOf('--out') + 1];
fs.mkdirSync(out, { recursive: true });
for (const f of fs.readdirSync(path.join(here, 'fixtures', kind))) {
  fs.copyFileSync(path.join(here, 'fixtures', kind, f), path.join(out, f));
}
if (process.env.FAKE_SIM_BREAK) fs.writeFileSync(path.join(out, 'cwnd.csv'), 'time_us,cwnd_segments,ssthresh_segments\n0,10,-1\n5\n');
fs.writeFileSync(path.join(out, 'argv.json'), JSON.stringify(argv) + '\n');
