// SPDX-License-Identifier: Apache-2.0
// Checks scripts/lib/cli.mjs (the one option parser of scripts/*.mjs) and
// scripts/lib/pool.mjs (the one worker pool): unknown and misspelt flags
// exit 2 naming the flag (`soak.mjs --cycle 1e6` among them, which used to
// run 1e9 cycles), missing values, numbers, positionals, the text after
// "--"; every script's --help exits 0 and lists each of its flags; the pool
// runs N jobs at a time, keeps the input order and reports a failure.
//
// usage: node test_cli.mjs   (ctest -L reports; node:test, nothing written)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..', '..', '..');
const { CliError, helpText, parseCli } = await import(path.join(ROOT, 'scripts', 'lib', 'cli.mjs'));
const { runPool } = await import(path.join(ROOT, 'scripts', 'lib', 'pool.mjs'));

/// Runs scripts/<script> with args; {code, out, err}. A fake TONIC_YOSYS_BUNDLE
/// is not needed: every case here stops at the option check.
function script(name, args) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', name), ...args],
    { cwd: ROOT, encoding: 'utf8', timeout: 60000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const SPEC = {
  name: 'demo',
  options: {
    cycles: { type: 'number', default: 1e9, help: 'cycles in all' },
    jobs: { type: 'number', integer: true, min: 1, default: 2, help: 'processes at once' },
    out: { type: 'string', arg: 'DIR', help: 'where to write' },
    quiet: { type: 'boolean', help: 'less output' },
    pattern: { type: 'string', multiple: true, dashValue: true, help: 'a pattern' },
  },
};
const parse = (argv, spec = SPEC) => parseCli(spec, argv);
/// The CliError message of a command line that must fail.
function error(argv, spec = SPEC) {
  try {
    parse(argv, spec);
  } catch (e) {
    assert.ok(e instanceof CliError, `not a CliError: ${e}`);
    assert.equal(e.exitCode, 2);
    return e.message;
  }
  assert.fail(`accepted: ${argv.join(' ')}`);
}

test('defaults, booleans and strings', () => {
  const { values, positionals } = parse([]);
  assert.deepEqual(values, { cycles: 1e9, jobs: 2, out: undefined, quiet: false, pattern: [] });
  assert.deepEqual(positionals, []);
  assert.equal(parse(['--out', 'x', '--quiet']).values.out, 'x');
  assert.equal(parse(['--out=y']).values.quiet, false);
  assert.equal(parse(['--out=y']).values.out, 'y');
});

test('numbers: 1e6, 2.5e7 and 0x10 accepted as numbers; abc, empty, 1.5 for an integer and out of range rejected', () => {
  assert.equal(parse(['--cycles', '1e6']).values.cycles, 1000000);
  assert.equal(parse(['--cycles=2.5e7']).values.cycles, 25000000);
  assert.equal(parse(['--cycles', '0x10']).values.cycles, 16);
  assert.equal(parse(['--cycles', '-3']).values.cycles, -3);
  assert.match(error(['--cycles', 'abc']), /--cycles "abc": not a number/);
  assert.match(error(['--cycles', '']), /--cycles "": not a number/);
  assert.match(error(['--jobs', '1.5']), /--jobs 1\.5: must be an integer/);
  assert.match(error(['--jobs', '0']), /--jobs 0: must be >= 1/);
});

test('unknown and misspelt flags are errors naming the flag, with the closest one suggested', () => {
  assert.match(error(['--cycle', '1e6']), /Unknown option '--cycle' \(did you mean --cycles\?\)/);
  assert.match(error(['--qiuet']), /Unknown option '--qiuet' \(did you mean --quiet\?\)/);
  assert.equal(error(['--frobnicate']), "Unknown option '--frobnicate'");
  assert.match(error(['-x']), /Unknown option '-x'/);
});

test('a missing value, a value given to a boolean, a value that looks like a flag', () => {
  assert.equal(error(['--cycles']), '--cycles needs a value');
  assert.equal(error(['--quiet=yes']), '--quiet takes no value');
  assert.match(error(['--out', '--quiet']), /--out: the value starts with "-"/);
  // Declared dashValue: taken as it is (compare-suite's --pattern --drops=5).
  assert.deepEqual(parse(['--pattern', '--drops=5', '--pattern', '--loss=0.1 --seed=7']).values.pattern,
    ['--drops=5', '--loss=0.1 --seed=7']);
});

test('positionals: none unless declared; min and max', () => {
  assert.equal(error(['stray']), "unexpected argument 'stray'");
  const spec = { name: 'p', options: { json: { type: 'string' } }, positionals: { names: 'A B', min: 2, max: 2 } };
  assert.deepEqual(parse(['a', '--json', 'f', 'b'], spec).positionals, ['a', 'b']);
  assert.equal(error(['a'], spec), 'missing A B');
  assert.equal(error(['a', 'b', 'c'], spec), "unexpected argument 'c'");
  const many = { name: 'p', positionals: { names: 'DIR [DIR...]', min: 1 } };
  assert.deepEqual(parse(['a', 'b', 'c'], many).positionals, ['a', 'b', 'c']);
});

test('rest: the arguments after -- passed through unparsed', () => {
  const spec = { name: 'y', options: { mount: { type: 'string', multiple: true } }, rest: true };
  const r = parse(['--mount', 'rtl', '--mount', 'tb', '--', '-q', '-p', 'synth; stat', '--bogus'], spec);
  assert.deepEqual(r.values.mount, ['rtl', 'tb']);
  assert.deepEqual(r.rest, ['-q', '-p', 'synth; stat', '--bogus']);
  assert.equal(parse(['--mount', 'rtl'], spec).rest, null);
  assert.match(error(['--mout', 'rtl', '--', '-q'], spec), /Unknown option '--mout' \(did you mean --mount\?\)/);
});

test('--help: every declared option with its value name, help and default', () => {
  assert.equal(parse(['--help']).help, true);
  assert.equal(parse(['-h']).help, true);
  const text = helpText({ ...SPEC, description: 'What demo does.' });
  assert.match(text, /^usage: node scripts\/demo\.mjs \[options\]\n\nWhat demo does\.\n/);
  for (const name of Object.keys(SPEC.options)) assert.match(text, new RegExp(`--${name}\\b`), name);
  assert.match(text, /--cycles N +cycles in all \(default 1000000000\)/);
  assert.match(text, /--out DIR +where to write\n/);
  assert.match(text, /--pattern VALUE +a pattern \(repeatable\)/);
  assert.match(text, /-h, --help/);
});

// Every script that takes options, and its flags (the names they had before
// cli.mjs: Makefile, CMake and docs call them so).
const SCRIPTS = {
  'bench.mjs': ['--cycles', '--filter', '--no-build-times', '--build'],
  'check-protocol.mjs': ['--window', '--json', '--strict', '--skip-top', '--keep', '--quiet'],
  'compare-suite.mjs': ['--netsim', '--ns3', '--config', '--out', '--pattern', '--all'],
  'compare.mjs': ['--json', '--label'],
  'experiments.mjs': [],
  'fuzz.mjs': ['--seconds', '--targets', '--jobs', '--build', '--keep-corpus', '--libfuzzer'],
  'levels.mjs': ['--top', '--path', '--split', '--endpoints'],
  'line-rate.mjs': ['--exe', '--cycles', '--rtt'],
  'check-blocks.mjs': ['--blocks', '--jobs', '--build-jobs', '--root', '--no-ccache'],
  'build-profile.mjs': ['--build', '--junit', '--label', '--wall', '--top', '--docs'],
  'manifest.mjs': ['--synth', '--lint', '--block', '--config', '--cmake'],
  'netlist.mjs': ['--config', '--out', '--no-report', '--verilate', '--prefix', '--jobs', '--verilator'],
  'netsim-experiments.mjs': ['--short', '--long', '--no-docs', '--only', '--netsim', '--ns3', '--out', '--jobs', '--list'],
  'new-protocol.mjs': ['--credit', '--dir', '--force'],
  'plots.mjs': [],
  'protocols.mjs': ['--check'],
  'prove.mjs': ['--quick', '--only', '--no-mutants'],
  'random-programs.mjs': ['--count', '--seed', '--jobs', '--max-chain', '--smoke', '--from-results'],
  'soak.mjs': ['--exe', '--cycles', '--jobs', '--seed', '--chunk', '--protocols', '--aggregate-only'],
  'registry.mjs': ['--list', '--cpp', '--check', '--reference', '--scenario'],
  'check-names.mjs': ['--quiet', '--root'],
  'rtl-types.mjs': ['--cpp'],
  'synth-estimate.mjs': ['--block', '--config', '--jobs', '--flat', '--from-results', '--reanalyze', '--no-reports', '--user-state', '--fixed-levels'],
  'vivado-parse.mjs': ['--name', '--print'],
  'vivado.mjs': ['--protocol', '--flows', '--window', '--clock', '--dry-run', '--out'],
  'yosys.mjs': ['--mount', '--out'],
};

for (const [name, flags] of Object.entries(SCRIPTS)) {
  test(`${name} --help lists its options; an unknown flag exits 2 naming it`, () => {
    const h = script(name, ['--help']);
    assert.equal(h.code, 0, h.err);
    assert.match(h.out, /^usage: /);
    const listed = [...h.out.matchAll(/^\s+(?:-h, )?(--[a-z0-9-]+)/gm)].map((m) => m[1]);
    assert.deepEqual(listed.filter((f) => f !== '--help').sort(), [...flags].sort(), h.out);
    const bad = script(name, ['--no-such-flag']);
    assert.equal(bad.code, 2, bad.out + bad.err);
    assert.match(bad.err, /Unknown option '--no-such-flag'/);
    assert.equal(bad.out, '');
  });
}

test('soak.mjs --cycle 1e6 is rejected before anything runs (it used to mean 1e9 cycles)', () => {
  const r = script('soak.mjs', ['--cycle', '1e6', '--exe', '/nonexistent/tonic-soak']);
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  assert.match(r.err, /^soak: Unknown option '--cycle' \(did you mean --cycles\?\)\nusage: /);
});

test('a bad number and a missing value exit 2 naming the flag', () => {
  let r = script('soak.mjs', ['--cycles', 'abc']);
  assert.equal(r.code, 2);
  assert.match(r.err, /^soak: --cycles "abc": not a number/);
  r = script('random-programs.mjs', ['--jobs']);
  assert.equal(r.code, 2);
  assert.match(r.err, /^random-programs: --jobs needs a value/);
});

/// A job of `ms` milliseconds that records how many run at once.
function tracker() {
  const t = { running: 0, peak: 0, started: [] };
  t.job = (ms, fail = false) => async (item) => {
    t.started.push(item);
    t.running++;
    t.peak = Math.max(t.peak, t.running);
    await new Promise((r) => setTimeout(r, ms(item)));
    t.running--;
    if (fail && fail(item)) throw new Error(`job ${item} failed`);
    return item * 10;
  };
  return t;
}

test('runPool: N at a time, started in order, results in input order', async () => {
  for (const n of [1, 2, 3]) {
    const t = tracker();
    // Later items finish first: the results must still follow the input.
    const items = [0, 1, 2, 3, 4, 5, 6];
    const res = await runPool(items, n, t.job((i) => 5 + 3 * (items.length - i)));
    assert.deepEqual(res, items.map((i) => i * 10));
    assert.equal(t.peak, n, `n=${n}`);
    assert.deepEqual(t.started, items);
  }
  const t = tracker();
  assert.deepEqual(await runPool([1, 2], 8, t.job(() => 1)), [10, 20]);
  assert.equal(t.peak, 2);
  assert.deepEqual(await runPool([], 2, t.job(() => 1)), []);
  assert.deepEqual(await runPool([4], 0, t.job(() => 1)), [40]);  // n < 1 runs one at a time
});

test('runPool: a failing job rejects the pool with its error and no job starts after it', async () => {
  const t = tracker();
  await assert.rejects(runPool([0, 1, 2, 3, 4, 5], 2, t.job((i) => (i === 1 ? 5 : 20), (i) => i === 1)),
    /job 1 failed/);
  // 0 and 1 start at once; 1 fails at 5 ms while 0 still runs (to 20 ms):
  // 2.. never start, also once 0 is done.
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(t.started, [0, 1]);
  assert.equal(t.running, 0);
});

test('runPool: child processes, two at a time; a failed process is a result, not a pool failure', async () => {
  let running = 0;
  let peak = 0;
  const codes = await runPool([0, 3, 0, 0, 1], 2, (code) => new Promise((resolve) => {
    running++;
    peak = Math.max(peak, running);
    const p = spawn(process.execPath, ['-e', `setTimeout(() => process.exit(${code}), 150)`], { stdio: 'ignore' });
    p.on('close', (status) => {
      running--;
      resolve(status);
    });
  }));
  assert.deepEqual(codes, [0, 3, 0, 0, 1]);
  assert.equal(peak, 2);
});
