// SPDX-License-Identifier: Apache-2.0
// cli.mjs — the one command-line parser of scripts/*.mjs: each script
// declares its options once, this file parses them (node:util parseArgs,
// strict), checks numbers and positionals, and writes --help from the same
// declaration.
//
// A declaration (spec):
//   name         the script's name, the prefix of every message ("soak")
//   usage        the synopsis after "usage: " (default: node scripts/<name>.mjs [options])
//   description  text printed by --help under the synopsis (optional)
//   options      { name: option }, name without the leading "--"; an option:
//     type       'boolean' | 'string' | 'number'
//     default    the value when the flag is absent (undefined when none)
//     shown      the default as --help writes it (default: the default)
//     help       one line for --help
//     arg        the value's name in --help (default N for numbers, VALUE)
//     short      a one-letter alias
//     multiple   true: the flag may repeat, the value is a list
//     integer    numbers: must be an integer
//     min, max   numbers: the allowed range (inclusive)
//     dashValue  strings: the value may start with "-" (`--pattern --drops=5`)
//   positionals  { names: 'DIR [DIR...]', min, max } (default: none allowed)
//   rest         true: arguments after the first "--" are passed through
//                unparsed (returned as `rest`, null when there is no "--")
// Numbers are written as JavaScript reads them: 2, 1e6, 2.5e7, 0x10.
//
// parseCli(spec, argv) returns { values, positionals, rest, help } or throws a
// CliError; cli(spec, argv) does the same but prints --help and exits 0, or
// prints the error (naming the flag) with the synopsis and exits 2.
import { parseArgs } from 'node:util';

/// A command-line mistake: the message names the flag; exit status 2.
export class CliError extends Error {
  constructor(message) {
    super(message);
    this.name = 'CliError';
    this.exitCode = 2;
  }
}

const HELP = { type: 'boolean', short: 'h', help: 'print this help and exit' };

/// The options of a spec with --help added.
function optionsOf(spec) {
  return { ...(spec.options ?? {}), help: HELP };
}

/// Edit distance of two short strings, a swap of neighbours counting as one
/// edit (for "did you mean").
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/// The declared flag closest to an unknown one, or null when none is close.
function closest(flag, options) {
  const want = flag.replace(/^-+/, '').split('=')[0];
  let best = null;
  for (const name of Object.keys(options)) {
    const d = distance(want, name);
    const near = d <= Math.max(1, Math.floor(name.length / 3)) || (want.length >= 3 && name.startsWith(want));
    if (near && (best === null || d < best.d)) best = { name, d };
  }
  return best ? `--${best.name}` : null;
}

/// The usage line of a spec.
export function usageLine(spec) {
  return `usage: ${spec.usage ?? `node scripts/${spec.name}.mjs [options]`}`;
}

/// The text of --help, from the declaration.
export function helpText(spec) {
  const options = optionsOf(spec);
  const lines = [usageLine(spec)];
  if (spec.description) lines.push('', ...spec.description.trimEnd().split('\n'));
  const rows = Object.entries(options).map(([name, o]) => {
    const arg = o.type === 'boolean' ? '' : ` ${o.arg ?? (o.type === 'number' ? 'N' : 'VALUE')}`;
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${arg}`;
    let text = o.help ?? '';
    if (o.multiple) text += `${text ? ' ' : ''}(repeatable)`;
    const hasDefault = o.default !== undefined && o.default !== '' && o.type !== 'boolean' &&
      !(Array.isArray(o.default) && o.default.length === 0);
    if (o.shown !== undefined || hasDefault) {
      const shown = o.shown ?? (Array.isArray(o.default) ? o.default.join(' ') : o.default);
      text += `${text ? ' ' : ''}(default ${shown})`;
    }
    return [flag, text];
  });
  const width = Math.min(32, Math.max(...rows.map(([f]) => f.length)) + 2);
  lines.push('', 'options:');
  for (const [flag, text] of rows) {
    lines.push(flag.length >= width ? `  ${flag}\n  ${' '.repeat(width)}${text}` : `  ${flag.padEnd(width)}${text}`);
  }
  return lines.join('\n') + '\n';
}

/// A number option's value from its text, or a CliError naming the flag.
function toNumber(name, o, text) {
  const s = String(text).trim();
  const n = s === '' ? NaN : Number(s);
  const flag = `--${name}`;
  if (!Number.isFinite(n)) throw new CliError(`${flag} ${JSON.stringify(text)}: not a number`);
  if (o.integer && !Number.isInteger(n)) throw new CliError(`${flag} ${text}: must be an integer`);
  if (o.min !== undefined && n < o.min) throw new CliError(`${flag} ${text}: must be >= ${o.min}`);
  if (o.max !== undefined && n > o.max) throw new CliError(`${flag} ${text}: must be <= ${o.max}`);
  return n;
}

/// `--flag value` as `--flag=value` where the value starts with a dash and
/// may: any value of a dashValue option, a negative number of a number
/// option (strict parseArgs would take such a value for a flag). Long
/// flags only.
function joinDashValues(argv, options) {
  const takes = new Map();
  for (const [name, o] of Object.entries(options)) {
    if (o.type === 'boolean') continue;
    takes.set(`--${name}`, o.dashValue ? () => true : o.type === 'number' ? (v) => /^-[\d.]/.test(v) : () => false);
  }
  const out = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { out.push(...argv.slice(i)); break; }
    const ok = takes.get(a);
    if (ok && i + 1 < argv.length && argv[i + 1].startsWith('-') && ok(argv[i + 1])) {
      out.push(`${a}=${argv[i + 1]}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/// Parses argv (default: this process's arguments) against a spec. Returns
/// { values, positionals, rest, help }; throws CliError on a mistake.
export function parseCli(spec, argv = process.argv.slice(2)) {
  const options = optionsOf(spec);
  let head = argv;
  let rest = null;
  if (spec.rest) {
    const sep = argv.indexOf('--');
    if (sep >= 0) {
      head = argv.slice(0, sep);
      rest = argv.slice(sep + 1);
    }
  }
  const config = {};
  for (const [name, o] of Object.entries(options)) {
    if (!['boolean', 'string', 'number'].includes(o.type)) throw new Error(`cli: --${name}: bad type ${o.type}`);
    config[name] = { type: o.type === 'boolean' ? 'boolean' : 'string' };
    if (o.short) config[name].short = o.short;
    if (o.multiple) config[name].multiple = true;
  }
  const pos = spec.positionals ?? null;
  let parsed;
  try {
    parsed = parseArgs({ args: joinDashValues(head, options), options: config, strict: true,
      allowPositionals: true });
  } catch (e) {
    if (!String(e.code).startsWith('ERR_PARSE_ARGS')) throw e;
    const unknown = /^Unknown option '([^']+)'/.exec(e.message);
    if (unknown) {
      const near = closest(unknown[1], options);
      throw new CliError(`Unknown option '${unknown[1]}'${near ? ` (did you mean ${near}?)` : ''}`);
    }
    const flag = /^Option '(-[^' ]*)/.exec(e.message)?.[1] ?? '';
    const long = flag.startsWith('--') ? flag : `--${Object.keys(options).find((k) => options[k].short === flag.slice(1)) ?? flag}`;
    if (/argument missing/.test(e.message)) throw new CliError(`${long} needs a value`);
    if (/ambiguous/.test(e.message)) throw new CliError(`${long}: the value starts with "-" (write ${long}=VALUE)`);
    if (/does not take an argument/.test(e.message)) throw new CliError(`${long} takes no value`);
    throw new CliError(e.message.split('\n')[0]);
  }
  if (parsed.values.help) return { values: { help: true }, positionals: [], rest, help: true };
  const values = {};
  for (const [name, o] of Object.entries(options)) {
    if (name === 'help') continue;
    let v = parsed.values[name];
    if (v === undefined) {
      values[name] = o.default ?? (o.type === 'boolean' ? false : o.multiple ? [] : undefined);
      continue;
    }
    if (o.type === 'number') v = o.multiple ? v.map((x) => toNumber(name, o, x)) : toNumber(name, o, v);
    values[name] = v;
  }
  const positionals = parsed.positionals;
  const min = pos?.min ?? 0;
  const max = pos ? (pos.max ?? Infinity) : 0;
  if (positionals.length > max) {
    const extra = positionals[max];
    throw new CliError(extra.startsWith('-') ? `Unknown option '${extra}'` : `unexpected argument '${extra}'`);
  }
  if (positionals.length < min) throw new CliError(`missing ${pos.names ?? 'arguments'}`);
  return { values, positionals, rest, help: false };
}

/// parseCli for a script's entry point: --help prints the help and exits 0;
/// a mistake prints "<name>: <error>", the synopsis and a pointer to --help
/// on stderr and exits 2.
export function cli(spec, argv = process.argv.slice(2)) {
  try {
    const r = parseCli(spec, argv);
    if (r.help) {
      process.stdout.write(helpText(spec));
      process.exit(0);
    }
    return r;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    process.stderr.write(`${spec.name}: ${e.message}\n${usageLine(spec)}\n(--help lists the options)\n`);
    process.exit(2);
  }
}
