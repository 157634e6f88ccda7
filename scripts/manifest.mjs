// SPDX-License-Identifier: Apache-2.0
// manifest.mjs — reads rtl/manifest/*.json, the one list of RTL tops,
// sources and parameter sets shared by CMake (models), `make lint` and
// `make synth-estimate`.
//
// A manifest: {"block": str, "doc": str, "configs": [config...]}; a config:
//   name     model / report name (Verilated class V<name>)
//   top      top module
//   sources  RTL files, relative to the project root, in compile order
//   params   {Name: value} top-level parameter overrides
//   model_params  optional {Name: value}: merged over params for the
//            Verilated model only (cmake/TonicModel.cmake); `make lint` and
//            `make synth-estimate` use params alone. E.g. {"SimRam": 1}:
//            the behavioural form of tonic_state_ram in the tonic_top
//            models (docs/cells/state_ram.md); default none
//   model_defines  optional {MACRO: value}: build-time constants of a
//            protocol's user_configs.vh (e.g. TONIC_CFG_RTO_CYCLES), given to
//            the Verilated model (+define+), to `make lint` (Verilator
//            +define+, read_slang -D), to `make netlist` and to `make
//            synth-estimate` (read_slang -D; e.g. the user-state cost
//            builds, protocol.json *_user<N>)
//   include_dirs  optional: directories searched by `include (Verilator -I,
//            read_slang -I), relative to the project root; default none
//   model    false: not built as a Verilated model (synthesis/lint only)
//   synth    true: part of `make synth-estimate`
//   synth_note  optional: why a config is not synthesized (make
//            synth-estimate prints it under its table; e.g. a size beyond
//            what the WebAssembly Yosys can map)
//   lint     false: skipped by `make lint` (default: linted)
//   levels_target  optional: the `make synth-estimate` target for `levels`
//            (for a config with proto_modules: for its fixed-function levels)
//   like     optional: the name of another config (any manifest) whose top,
//            sources, include_dirs, proto_modules and levels_target this one
//            takes (its own keys win; params are its own). Only for
//            "model": false configs (CMake reads the manifests itself and
//            does not follow "like"): e.g. the synthesis-only sizes of a top
//   fileset  optional: the name of a file set ("filesets" of any manifest:
//            {name: {top, sources, include_dirs, proto_modules}}) that gives
//            the config its top, sources, include dirs and proto_modules;
//            "$protocol" in the set's sources stands for the config's
//            "protocol_sources" (default: incoming.v and periodic_updates.v
//            of "protocol_dir"), and "protocol_dir" is added to the include
//            dirs. E.g. the "tonic_top" set: every tonic_top build names it
//            instead of pasting the ~20 sources
//   protocol_dir  with fileset: the protocol's folder
//   proto_modules  optional: modules whose logic `make synth-estimate`
//            reports separately as the protocol part (kept as their own
//            hierarchy, then flattened; scripts/synth-estimate.mjs), e.g.
//            ["tonic_proto_incoming", "tonic_proto_periodic"]; default none
//
// The builds of every protocol are not written here: scripts/registry.mjs
// derives them from protocols/<name>/ (protocolConfigs, and netlistConfig:
// the netlist_<name>_<small> config of block "netlist" for a protocol whose
// protocol.json opts into "checks": {"netlist"}) and loadConfigs() adds
// them, so a protocol folder needs no manifest edit.
//
// CLI: node manifest.mjs [--synth] [--lint] [--block B] [--config C] [--cmake FILE]
//   prints one line per config: name<TAB>top<TAB>sources<TAB>params<TAB>include_dirs<TAB>defines
//   (sources and include_dirs space-separated; params and model_defines as
//   space-separated Name=value; empty fields are empty strings).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { cli } from './lib/cli.mjs';
import {
  backpressureRun, fuzzTarget, loadProtocols, netlistConfig, networkBuilds, PROTOCOL_FILES, protocolConfigs,
  referenceProtocol, structuralBuilds, tracedBuilds, twinBuilds, writeIfChanged,
} from './registry.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/// A protocol's optional transmit-event module (tonic_proto_transmit).
export const TRANSMIT_FILE = 'transmit.v';

/// A config that names a file set, with the set's top, sources (the
/// protocol's files in place of "$protocol"), include dirs and proto_modules.
function withFileset(where, c, filesets) {
  if (c.fileset === undefined) return c;
  const set = filesets.get(c.fileset);
  if (!set) throw new Error(`${where}: config ${c.name}: no file set ${c.fileset}`);
  if (typeof c.protocol_dir !== 'string') throw new Error(`${where}: config ${c.name}: "fileset" needs "protocol_dir"`);
  // A protocol folder with a transmit.v has a transmit event: the sender
  // file set compiles it and every build defines TONIC_PROTO_TRANSMIT
  // (rtl/dd/tonic_dd_transmit.sv), the file's presence being the one fact.
  const transmit = fs.existsSync(path.join(ROOT, c.protocol_dir, TRANSMIT_FILE));
  const files = c.protocol_sources ?? [`${c.protocol_dir}/incoming.v`, `${c.protocol_dir}/periodic_updates.v`,
    ...(transmit && set.proto_modules ? [`${c.protocol_dir}/${TRANSMIT_FILE}`] : [])];
  const { protocol_sources: _s, ...rest } = c;
  // The config's own proto_modules, else the set's; the transmit module is
  // the protocol's too (synth-estimate keeps it apart).
  const protoModules = rest.proto_modules ?? set.proto_modules;
  return {
    ...(set.top ? { top: set.top } : {}),
    ...rest,
    ...(protoModules ? { proto_modules: [...protoModules, ...(transmit ? ['tonic_proto_transmit'] : [])] } : {}),
    ...(transmit ? { model_defines: { ...(rest.model_defines ?? {}), TONIC_PROTO_TRANSMIT: 1 } } : {}),
    sources: set.sources.flatMap((s) => (s === PROTOCOL_FILES ? files : [s])),
    include_dirs: [...(set.include_dirs ?? []), c.protocol_dir],
  };
}

/// All configs of all manifests, each with its block name, validated.
export function loadConfigs() {
  const dir = path.join(ROOT, 'rtl', 'manifest');
  const raw = [];  // [where, block, config]
  const filesets = new Map();
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const where = path.join('rtl', 'manifest', file);
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    } catch (e) {
      throw new Error(`${where}: ${e.message}`);
    }
    if (typeof doc.block !== 'string' || !Array.isArray(doc.configs)) {
      throw new Error(`${where}: needs "block" (string) and "configs" (array)`);
    }
    for (const [name, set] of Object.entries(doc.filesets ?? {})) {
      if (filesets.has(name)) throw new Error(`${where}: file set ${name} defined twice`);
      if (!Array.isArray(set.sources) || (set.top !== undefined && typeof set.top !== 'string')) {
        throw new Error(`${where}: file set ${name} needs "sources" (and "top" a string if given)`);
      }
      filesets.set(name, set);
    }
    for (const c of doc.configs) raw.push([where, doc.block, c]);
  }
  for (const p of loadProtocols()) {
    // Its builds, and the netlist config of "checks": {"netlist"} (block netlist).
    for (const c of [...protocolConfigs(p), netlistConfig(p)].filter(Boolean)) raw.push([`${p.dir}/protocol.json`, c.block, c]);
  }
  for (const entry of raw) entry[2] = withFileset(entry[0], entry[2], filesets);
  const byName = new Map(raw.map(([, , c]) => [c.name, c]));
  const configs = [];
  const seen = new Set();
  for (let [where, block, c] of raw) {
    if (c.like !== undefined) {
      const base = byName.get(c.like);
      // A tree restricted to some protocols (TONIC_ONLY_PROTOCOLS) leaves
      // out the variants of the others' builds.
      if (!base && process.env.TONIC_ONLY_PROTOCOLS) continue;
      if (!base || base.like !== undefined) {
        throw new Error(`${where}: config ${c.name}: "like" names no config without "like" (${c.like})`);
      }
      if (c.model !== false) throw new Error(`${where}: config ${c.name}: "like" needs "model": false`);
      const { name: _n, params: _p, model_params: _m, model: _o, synth: _s, lint: _l, ...inherit } = base;
      c = { ...inherit, ...c };
    }
    for (const key of ['name', 'top']) {
      if (typeof c[key] !== 'string') throw new Error(`${where}: a config lacks "${key}"`);
    }
    if (!Array.isArray(c.sources) || c.sources.length === 0) {
      throw new Error(`${where}: config ${c.name} lacks "sources"`);
    }
    for (const s of c.sources) {
      if (!fs.existsSync(path.join(ROOT, s))) throw new Error(`${where}: config ${c.name}: no file ${s}`);
    }
    if (c.include_dirs !== undefined) {
      if (!Array.isArray(c.include_dirs) || c.include_dirs.some((d) => typeof d !== 'string')) {
        throw new Error(`${where}: config ${c.name}: "include_dirs" must be an array of strings`);
      }
      for (const d of c.include_dirs) {
        const st = fs.statSync(path.join(ROOT, d), { throwIfNoEntry: false });
        if (!st || !st.isDirectory()) throw new Error(`${where}: config ${c.name}: no directory ${d}`);
      }
    }
    if (c.proto_modules !== undefined
        && (!Array.isArray(c.proto_modules) || c.proto_modules.some((m) => typeof m !== 'string'))) {
      throw new Error(`${where}: config ${c.name}: "proto_modules" must be an array of module names`);
    }
    for (const key of ['params', 'model_params', 'model_defines']) {
      if (c[key] !== undefined && (c[key] === null || typeof c[key] !== 'object' || Array.isArray(c[key]))) {
        throw new Error(`${where}: config ${c.name}: "${key}" must be an object {Name: value}`);
      }
    }
    if (seen.has(c.name)) throw new Error(`${where}: config name ${c.name} used twice`);
    seen.add(c.name);
    configs.push({ block, params: {}, model_params: {}, model_defines: {}, include_dirs: [], model: true, synth: false,
      lint: true, proto_modules: [], ...c });
  }
  return configs;
}

/// Every file the configs are derived from: a change to any of them re-runs
/// CMake's configure step (and so this script).
export function sourcesOfConfigs(protocols = loadProtocols()) {
  const mdir = path.join(ROOT, 'rtl', 'manifest');
  const files = fs.readdirSync(mdir).filter((f) => f.endsWith('.json')).map((f) => path.join(mdir, f));
  files.push(path.join(ROOT, 'protocols'), path.join(ROOT, 'scripts', 'manifest.mjs'), path.join(ROOT, 'scripts', 'registry.mjs'));
  for (const p of protocols) {
    files.push(path.join(ROOT, p.dir), path.join(ROOT, p.dir, 'protocol.json'), path.join(ROOT, p.dir, 'user_configs.vh'));
  }
  return files.sort();
}

/// The configs as CMake variables (cmake/TonicModel.cmake reads them; CMake
/// never parses the manifests itself): TONIC_CONFIGS, and per config
/// TONIC_CONFIG_<name>_{TOP,SOURCES,PARAMS,INCLUDE_DIRS,DEFINES,MODEL,PROTOCOL}
/// (sources and include dirs absolute; PARAMS = params with model_params
/// over them, as Name=value); TONIC_PROTOCOLS and, per protocol,
/// TONIC_PROTOCOL_<p>_{CREDIT,RECEIVER}; the model lists of the generated
/// dispatch headers TONIC_{NET,SMALL,SMALL_NOASSERT}_MODELS; the builds of
/// tonic-run's detailed run TONIC_TWIN_MODELS and its traced ones
/// TONIC_TRACED_MODELS (tonic/twin_models.hpp, tonic/traced_models.hpp); the
/// runs of the opt-in checks (protocol.json "checks"): TONIC_BACKPRESSURE_{PROTOCOLS,
/// MODELS}, TONIC_FUZZ_TARGETS with TONIC_FUZZ_<target>_{MODEL,BASE,DEFINES},
/// TONIC_NETLIST_CONFIGS with TONIC_NETLIST_<config>_PROTOCOL;
/// TONIC_CONFIG_SOURCES, the files all this comes from.
export function cmakeTable(configs) {
  const q = (v) => `[=[${v}]=]`;
  const list = (xs) => xs.map(q).join(' ');
  const abs = (f) => path.join(ROOT, f);
  const out = ['# Generated by scripts/manifest.mjs --cmake at configure time. Do not edit.'];
  out.push(`set(TONIC_CONFIGS ${list(configs.map((c) => c.name))})`);
  for (const c of configs) {
    const v = (k, val) => out.push(`set(TONIC_CONFIG_${c.name}_${k} ${val})`);
    v('TOP', q(c.top));
    v('SOURCES', list(c.sources.map(abs)));
    v('PARAMS', list(Object.entries({ ...c.params, ...c.model_params }).map(([k, x]) => `${k}=${x}`)));
    v('INCLUDE_DIRS', list(c.include_dirs.map(abs)));
    v('DEFINES', list(Object.entries(c.model_defines).map(([k, x]) => `${k}=${x}`)));
    v('MODEL', c.model ? 'ON' : 'OFF');
    v('PROTOCOL', q(c.protocol ?? ''));
  }
  const protocols = loadProtocols();
  out.push(`set(TONIC_PROTOCOLS ${list(protocols.map((p) => p.name))})`);
  // The models of the generated dispatch headers (tonic/*_models.hpp).
  out.push(`set(TONIC_NET_MODELS ${list(networkBuilds(protocols).map((c) => c.name))})`);
  out.push(`set(TONIC_TWIN_MODELS ${list(twinBuilds(protocols).map((c) => c.name))})`);
  out.push(`set(TONIC_TRACED_MODELS ${list(tracedBuilds(protocols).map((c) => c.name))})`);
  out.push(`set(TONIC_STRUCTURAL_MODELS ${list(structuralBuilds(protocols).map((c) => c.name))})`);
  for (const [v, pattern] of [['SMALL', 'tonic_{p}_{size}'], ['SMALL_NOASSERT', 'tonic_{p}_{size}_noassert']]) {
    const names = protocols.map((p) => pattern.replace('{p}', p.name).replace('{size}', `${p.small.flows}x${p.small.window}`));
    out.push(`set(TONIC_${v}_MODELS ${list(names)})`);
  }
  for (const p of protocols) {
    out.push(`set(TONIC_PROTOCOL_${p.name}_CREDIT ${q(p.credit)})`, `set(TONIC_PROTOCOL_${p.name}_RECEIVER ${q(p.receiver)})`,
      `set(TONIC_PROTOCOL_${p.name}_NS3 ${q(p.ns3 ?? '')})`,
      `set(TONIC_PROTOCOL_${p.name}_MARGINAL ${p.marginal ? 'ON' : 'OFF'})`);
    // Its network scenarios (<folder>/netsim/<scenario>.json), by name; files relative to the root.
    out.push(`set(TONIC_PROTOCOL_${p.name}_SCENARIOS ${list(Object.keys(p.scenarios))})`,
      ...Object.entries(p.scenarios).map(([s, f]) => `set(TONIC_PROTOCOL_${p.name}_SCENARIO_${s} ${q(f)})`));
  }
  // The reference protocol (protocol.json "reference"; empty in a tree without it).
  out.push(`set(TONIC_REFERENCE_PROTOCOL ${q(referenceProtocol(protocols)?.name ?? '')})`);
  // The opt-in checks of protocol.json "checks" (registry.mjs): back-pressure
  // models, fuzz targets (a variant: its base config and defines), netlist configs.
  const bp = protocols.map(backpressureRun).filter(Boolean);
  out.push(`set(TONIC_BACKPRESSURE_PROTOCOLS ${list(bp.map((r) => r.protocol.name))})`,
    `set(TONIC_BACKPRESSURE_MODELS ${list(bp.map((r) => r.model))})`);
  const fz = protocols.map(fuzzTarget).filter(Boolean);
  out.push(`set(TONIC_FUZZ_TARGETS ${list(fz.map((t) => t.target))})`);
  for (const t of fz) {
    out.push(`set(TONIC_FUZZ_${t.target}_MODEL ${q(t.model)})`, `set(TONIC_FUZZ_${t.target}_BASE ${q(t.base)})`,
      `set(TONIC_FUZZ_${t.target}_DEFINES ${list(Object.entries(t.defines).map(([k, x]) => `${k}=${x}`))})`,
      // Its seed corpus and crash regressions, in the protocol folder (relative to the root).
      `set(TONIC_FUZZ_${t.target}_CORPUS ${q(t.corpus)})`, `set(TONIC_FUZZ_${t.target}_CRASHES ${q(t.crashes)})`);
  }
  const nl = protocols.map(netlistConfig).filter(Boolean);
  out.push(`set(TONIC_NETLIST_CONFIGS ${list(nl.map((c) => c.name))})`);
  for (const c of nl) out.push(`set(TONIC_NETLIST_${c.name}_PROTOCOL ${q(c.protocol)})`);
  out.push(`set(TONIC_CONFIG_SOURCES ${list(sourcesOfConfigs(protocols))})`, '');
  return out.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: opts } = cli({
    name: 'manifest',
    description: 'Checks rtl/manifest/*.json and prints one line per config: name, top, sources, params,\n' +
      'include dirs, model defines (tab-separated). Exit 2 on a bad manifest.',
    options: {
      synth: { type: 'boolean', help: 'only configs with "synth": true' },
      lint: { type: 'boolean', help: 'only configs `make lint` checks' },
      block: { type: 'string', arg: 'B', help: 'only the configs of this block' },
      config: { type: 'string', arg: 'C', help: 'only this config' },
      cmake: { type: 'string', arg: 'FILE', help: 'write the configs as CMake variables to FILE (the configure step)' },
    },
  });
  try {
    let configs = loadConfigs();
    if (opts.synth) configs = configs.filter((c) => c.synth);
    if (opts.lint) configs = configs.filter((c) => c.lint);
    if (opts.block) configs = configs.filter((c) => c.block === opts.block);
    if (opts.config) configs = configs.filter((c) => c.name === opts.config);
    if (opts.cmake) {
      writeIfChanged(opts.cmake, cmakeTable(configs));
      process.exit(0);
    }
    for (const c of configs) {
      const params = Object.entries(c.params).map(([k, v]) => `${k}=${v}`).join(' ');
      const defines = Object.entries(c.model_defines).map(([k, v]) => `${k}=${v}`).join(' ');
      process.stdout.write(`${c.name}\t${c.top}\t${c.sources.join(' ')}\t${params}\t${c.include_dirs.join(' ')}\t${defines}\n`);
    }
  } catch (e) {
    process.stderr.write(`manifest: ${e.message}\n`);
    process.exit(2);
  }
}
