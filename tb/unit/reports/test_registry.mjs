// SPDX-License-Identifier: Apache-2.0
// Checks scripts/registry.mjs, the one reader of protocol folders, on
// copies of a protocol folder of the tree (the first window protocol with
// a twin and without "traced") in a scratch directory: a well-formed folder
// reads, and each malformed descriptor is an error that names the file and
// the key (unknown keys, a bad receiver, a twin.hpp without "twin", "twin"
// without the file or without its class, "traced" without a twin); the
// detailed-run builds (twinBuilds) are exactly the behavioural, suffix-free,
// define-free builds of the protocols with a twin, window credit and a TCP
// receiver.
//
// usage: node test_registry.mjs   (ctest -L reports; node:test, writes only under os.tmpdir())
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '..', '..', '..');
const reg = await import(path.join(ROOT, 'scripts', 'registry.mjs'));

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tonic-registry-'));
process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }));
let n = 0;

/// The folder the cases copy: the first window protocol with a twin, not traced.
const template = reg.loadProtocols().find((p) => p.twin && p.credit === 'window' && !p.traced);
assert.ok(template, 'no window protocol with a twin and without "traced" in protocols/');
const templateDir = path.join(reg.PROTOCOLS_DIR, template.name);

/// A copy of the template folder as <scratch>/case<n>/demo_proto, edited by fn(dir, descriptor).
function folder(fn) {
  const dir = path.join(scratch, `case${n++}`, 'demo_proto');
  fs.cpSync(templateDir, dir, { recursive: true });
  // The template's own scenarios name the template, not demo_proto.
  fs.rmSync(path.join(dir, 'netsim'), { recursive: true, force: true });
  const dfile = path.join(dir, 'protocol.json');
  const d = JSON.parse(fs.readFileSync(dfile, 'utf8'));
  fn(dir, d);
  fs.writeFileSync(dfile, JSON.stringify(d));
  return dir;
}
const fails = (fn, re) => assert.throws(() => reg.readProtocol(folder(fn)), re);

test('a well-formed folder reads, with its twin', () => {
  const p = reg.readProtocol(folder(() => {}));
  assert.equal(p.name, 'demo_proto');
  assert.equal(p.credit, 'window');
  assert.equal(p.twin, template.twin);
  assert.equal(p.traced, false);
  assert.ok(p.user_fields.length > 0);
});

test('unknown keys and a bad receiver are errors naming the key', () => {
  fails((_, d) => { d.recevier = 'tcp'; }, /protocol\.json: unknown key "recevier"/);
  fails((_, d) => { d.receiver = 'udp'; }, /"receiver" must be one of/);
  fails((_, d) => { d.builds = [{ flows: 1024, window: 100 }]; }, /builds\[0\]: "window" must be a power of two/);
});

test('the twin: file and key go together, and the class must be in the file', () => {
  fails((_, d) => { delete d.twin; }, /twin\.hpp exists: name its class in "twin"/);
  fails((dir) => { fs.rmSync(path.join(dir, 'twin.hpp')); },
    new RegExp(`"twin" names ${template.twin} but .*twin\\.hpp does not exist`));
  fails((_, d) => { d.twin = 'NoSuchTwin'; }, /twin\.hpp: no struct or class NoSuchTwin/);
  fails((_, d) => { d.twin = 'not a class'; }, /"twin" must be a C\+\+ class name/);
  const p = reg.readProtocol(folder((dir, d) => { fs.rmSync(path.join(dir, 'twin.hpp')); delete d.twin; }));
  assert.equal(p.twin, null);
});

test('"traced" needs a twin and is a boolean', () => {
  fails((dir, d) => { fs.rmSync(path.join(dir, 'twin.hpp')); delete d.twin; d.traced = true; }, /"traced" needs a twin/);
  fails((_, d) => { d.traced = 'yes'; }, /"traced" must be true or false/);
  assert.equal(reg.readProtocol(folder((_, d) => { d.traced = true; })).traced, true);
});

test('twinBuilds: the behavioural builds of the protocols with a twin, window credit and a TCP receiver', () => {
  const protocols = reg.loadProtocols();
  const builds = reg.twinBuilds(protocols);
  const eligible = new Set(protocols.filter((p) => p.twin && p.credit === 'window' && ['tcp', 'tcp_sack'].includes(p.receiver))
    .map((p) => p.name));
  assert.ok(builds.length >= eligible.size);
  for (const p of eligible) assert.ok(builds.some((c) => c.name === `tonic_${p}_1024x128`), `${p}: its 1024x128 build`);
  for (const c of builds) {
    assert.ok(eligible.has(c.protocol), c.name);
    assert.equal(c.model_params.SimRam, 1, c.name);
    assert.equal(c.model_defines, undefined, c.name);
    assert.equal(c.name, `tonic_${c.protocol}_${c.size.flows}x${c.size.window}`);
  }
  for (let i = 1; i < builds.length; ++i) {
    const [a, b] = [builds[i - 1].size, builds[i].size];
    assert.ok(a.flows < b.flows || (a.flows === b.flows && a.window <= b.window), 'smallest first');
  }
  for (const c of reg.tracedBuilds(protocols)) assert.ok(builds.some((b) => b.name === c.name), c.name);
});

test('"reference" and "ns3": types, the schemes they allow, and one reference per tree', () => {
  fails((_, d) => { d.reference = 'yes'; }, /"reference" must be true or false/);
  fails((_, d) => { d.ns3 = 'TcpNoSuch'; }, /"ns3" must be one of TcpNewReno/);
  fails((_, d) => { d.receiver = 'roce'; d.ns3 = 'TcpNewReno'; }, /"ns3" must be one of .* on a tcp or tcp_sack protocol/);
  fails((_, d) => { d.receiver = 'roce'; d.reference = true; }, /"reference" needs window credit and a tcp or tcp_sack receiver/);
  const p = reg.readProtocol(folder((_, d) => { d.reference = true; d.ns3 = 'TcpCubic'; }));
  assert.equal(p.reference, true);
  assert.equal(p.ns3, 'TcpCubic');
  const protocols = reg.loadProtocols();
  assert.equal(protocols.filter((q) => q.reference).length, 1, 'the tree has one reference protocol');
  assert.equal(reg.referenceProtocol(protocols).credit, 'window');
  assert.equal(reg.referenceProtocol(protocols.filter((q) => !q.reference)), null);
});

test('UserInit is read per field: values, casts, fills, default, and errors naming the field', () => {
  const withInit = (init) => folder((dir) => {
    const f = path.join(dir, 'user_configs.vh');
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/localparam user_t UserInit = '\{[^}]*\};/, `localparam user_t UserInit = ${init};`));
  });
  const p = reg.readProtocol(folder(() => {}));
  const names = p.user_fields.map((f) => f.name);
  assert.deepEqual(Object.keys(p.user_init), names);
  const last = p.user_fields[p.user_fields.length - 1];
  const q = reg.readProtocol(withInit(`'{${names[0]}: '1, default: ${last.width}'(InitWnd + 1)}`));
  assert.equal(q.user_init[names[0]], (1n << BigInt(p.user_fields[0].width)) - 1n);
  assert.equal(q.user_init[last.name], BigInt(q.consts.InitWnd) + 1n);
  assert.throws(() => reg.readProtocol(withInit(`'{${names[0]}: 0}`)), new RegExp(`UserInit: no value for field ${names[1]}`));
  assert.throws(() => reg.readProtocol(withInit(`'{nosuch: 0, default: 0}`)), /UserInit: user_t has no field nosuch/);
  assert.throws(() => reg.readProtocol(withInit(`'{0, 0, 0}`)), /UserInit: "0" is not field: value/);
});
