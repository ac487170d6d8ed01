#!/usr/bin/env node
// Triangle meshes: collidoscope against three-mesh-bvh (the mesh BVH three.js
// users already use) in Node, and against Bullet's btBvhTriangleMeshShape
// natively, on the same meshes and rays.
//
//   node bench/meshes.mjs [--quick]        prints the markdown section
//   import { runMeshes, meshesMarkdown } from './bench/meshes.mjs'   (scripts/bench.mjs)
//
// Meshes: closed tori (major radius 1, minor 0.35, nu ≈ 4·nv quads split in
// two) and random triangle soups in [−1, 1]³ (edges ~ 2/∛n), of about 1 000
// to 1 000 000 triangles (100 000 with --quick). Coordinates are rounded to
// float32 once, and both contenders read those same numbers: three-mesh-bvh
// its Float32Array position attribute, collidoscope the same values as
// doubles.
//
// Rays: origins on a sphere of radius 4, aimed at random points of the
// mesh's bounds (about 80 % hit); closest hit, two-sided, unbounded (maxT
// large).
//   three-mesh-bvh  new MeshBVH(geometry) with its defaults (CENTER split,
//                   up to 10 triangles per leaf); bvh.raycastFirst(ray,
//                   DoubleSide) per ray, the Ray object reused. Also built
//                   with { strategy: SAH }, the kind of tree ours is, for a
//                   like-for-like build and ray table.
//   ours            'collidoscope/meshes': mesh(vertices, indices) (validation, normals and the ray layout
//                   built in wasm; the OBB tree, which rays do not read, timed apart as a first prepare());
//                   batch('raycast', [mesh], pose, pairs, { rays }) over all
//                   rays in one call (the batch API is how a game casts many
//                   rays; three-mesh-bvh has no batch).
// Agreement: on every ray both hit or both miss, and common hits have t
// within 1e-6 (three-mesh-bvh computes in float32 vectors).
//
// Mesh–mesh: two copies of the same mesh, the second at a random rotation and
// an offset that makes about half the pairs intersect; three-mesh-bvh's
// bvh.intersectsGeometry(other, matrix) with the other geometry's own
// boundsTree (its BVH-vs-BVH path) against ours (meshes' intersect); the
// answers must agree.
//
// Contacts in batches: a floor of 2·g² triangles (a g × g grid in y = 0) and
// N capsules (radius 0.3, half-height 0.5) at random spots, about half of them
// sunk into it; contactsBatch() over the N (floor, capsule) pairs in one call
// against a loop of contacts() over the same pairs (the answers must agree).
// Compounds: one compound of 16 children (boxes, spheres, capsules at
// random poses) against 4 096 boxes and spheres around it, batch('distance')
// with the children's features, against the same 16 children as shapes of
// their own queried pair by pair in one batch (16 × 4 096 pairs, the nearest
// kept in JavaScript): what the child loop saves over a caller's own loop.
// Report only; the answers must agree.
//
// Times: medians of interleaved passes (process.cpuUsage, user + system);
// builds: the median of 5 (3 at 1M triangles), after warmBuilds.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './random.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

// Torus of about n triangles: flat Float32Array positions and Uint32Array indices.
function torus(n) {
  const nv = Math.max(3, Math.round(Math.sqrt(n / 8)));
  const nu = Math.max(3, Math.floor(n / (2 * nv)));
  const R = 1, r = 0.35;
  const pos = new Float32Array(nu * nv * 3);
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      const u = (2 * Math.PI * i) / nu, v = (2 * Math.PI * j) / nv, k = 3 * (i * nv + j);
      pos[k] = (R + r * Math.cos(v)) * Math.cos(u);
      pos[k + 1] = r * Math.sin(v);
      pos[k + 2] = (R + r * Math.cos(v)) * Math.sin(u);
    }
  const id = (i, j) => ((i + nu) % nu) * nv + ((j + nv) % nv);
  const idx = new Uint32Array(nu * nv * 6);
  let w = 0;
  for (let i = 0; i < nu; i++)
    for (let j = 0; j < nv; j++) {
      const a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      idx.set([a, c, b, a, d, c], w);
      w += 6;
    }
  return { pos, idx };
}

function soup(n, rnd) {
  const size = 2 / Math.cbrt(n);
  const pos = new Float32Array(9 * n);
  const idx = new Uint32Array(3 * n);
  for (let i = 0; i < n; i++) {
    const c = [2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd() - 1];
    for (let k = 0; k < 3; k++)
      for (let a = 0; a < 3; a++) pos[9 * i + 3 * k + a] = c[a] + size * (2 * rnd() - 1);
    idx.set([3 * i, 3 * i + 1, 3 * i + 2], 3 * i);
  }
  return { pos, idx };
}

function rays(count, rnd) {
  const out = new Float64Array(7 * count);
  for (let i = 0; i < count; i++) {
    let d;
    do d = [2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd() - 1];
    while (Math.hypot(...d) < 0.1 || Math.hypot(...d) > 1);
    const l = Math.hypot(...d);
    const o = d.map((x) => (4 * x) / l);
    const target = [2.4 * rnd() - 1.2, 0.8 * rnd() - 0.4, 2.4 * rnd() - 1.2];
    out.set([...o, target[0] - o[0], target[1] - o[1], target[2] - o[2], 1e9], 7 * i);
  }
  return out;
}

// A unit quaternion from three uniforms (Shoemake).
function rotation(rnd) {
  const u1 = rnd(), u2 = 2 * Math.PI * rnd(), u3 = 2 * Math.PI * rnd();
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

async function loadThree() {
  try {
    const THREE = await import('three');
    const bvh = await import('three-mesh-bvh');
    const version = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'three-mesh-bvh', 'package.json'), 'utf8')).version;
    return { THREE, bvh, version };
  } catch (e) {
    return { pending: `three-mesh-bvh could not be loaded: ${e.message}` };
  }
}

async function loadOurs() {
  // The flavour with triangle meshes (the default 'collidoscope' leaves them out).
  const lib = path.join(ROOT, 'web', 'dist', 'lib', 'meshes', 'index.mjs');
  if (!existsSync(lib)) return { pending: 'web/dist/lib/meshes/index.mjs is not built (node scripts/build.mjs)' };
  const api = await import(pathToFileURL(lib).href);
  await api.init();
  if (typeof api.mesh !== 'function') return { pending: 'this build has no mesh() in its API' };
  return { api };
}

// Both builders run a few times on a small torus before anything is timed:
// V8 first runs JavaScript in its interpreter and wasm in its baseline
// compiler (Liftoff) and optimises hot functions later, so the first builds
// of either would measure the compilers rather than the builders.
function warmBuilds(three, ours) {
  const { pos, idx } = torus(2000);
  const { THREE, bvh: B } = three;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geometry.setIndex(new THREE.BufferAttribute(idx, 1));
  for (let i = 0; i < 20; i++) {
    new B.MeshBVH(geometry.clone());
    new B.MeshBVH(geometry.clone(), { strategy: B.SAH });
    ours.api?.mesh(pos, idx).dispose();
  }
}

function benchOne(kind, n, three, ours, quick) {
  const rnd = mulberry32(0x5eed + n);
  const { pos, idx } = kind === 'torus' ? torus(n) : soup(n, rnd);
  const triangles = idx.length / 3;
  const { THREE, bvh: B } = three;
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geometry.setIndex(new THREE.BufferAttribute(idx, 1));
  const row = { mesh: kind, triangles, buildMs: {}, rayUs: {}, pending: {} };

  // Builds, interleaved, after the same warm-up for both (warmBuilds). Each
  // three-mesh-bvh build gets a fresh clone (MeshBVH reorders the geometry's
  // index in place), made before its timer starts; ours copies the typed
  // arrays into wasm inside mesh(), so that copy is timed. mesh() builds what
  // ray casts read; the OBB tree the other queries read is built on first
  // need, timed here as a first prepare() right after (buildMs.tree).
  const builds = n >= 1000000 ? 3 : 5;
  const tb = [], ts = [], ob = [], op = [];
  let bvh, bvhSah, shape;
  for (let i = 0; i < builds; i++) {
    const g = geometry.clone();
    let t = cpuMs();
    bvh = new B.MeshBVH(g);
    tb.push(cpuMs() - t);
    // Its SAH strategy, the kind of tree ours is (a binned surface-area
    // heuristic): the like-for-like build.
    const gs = geometry.clone();
    t = cpuMs();
    bvhSah = new B.MeshBVH(gs, { strategy: B.SAH });
    ts.push(cpuMs() - t);
    if (ours.api) {
      shape?.dispose();
      t = cpuMs();
      shape = ours.api.mesh(pos, idx);
      ob.push(cpuMs() - t);
      if (typeof shape.prepare === 'function') {
        t = cpuMs();
        shape.prepare();
        op.push(cpuMs() - t);
      }
    }
  }
  geometry.boundsTree = bvh;
  row.buildMs.three = median(tb);
  row.buildMs.threeSah = median(ts);
  if (ours.api) row.buildMs.ours = median(ob);
  if (op.length) row.buildMs.tree = median(op);

  // Rays.
  const count = quick ? 5000 : 20000;
  const rs = rays(count, rnd);
  const ray = new THREE.Ray();
  const castWith = (tree) => (i) => {
    ray.origin.set(rs[7 * i], rs[7 * i + 1], rs[7 * i + 2]);
    ray.direction.set(rs[7 * i + 3], rs[7 * i + 4], rs[7 * i + 5]);
    // three-mesh-bvh wants a unit direction; t is then in units of |d|.
    const len = ray.direction.length();
    ray.direction.divideScalar(len);
    const h = tree.raycastFirst(ray, THREE.DoubleSide);
    return h ? h.distance / len : -1;
  };
  const threeCast = castWith(bvh), threeSahCast = castWith(bvhSah);
  let hits = 0;
  const threeT = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    threeT[i] = threeCast(i);
    if (threeT[i] >= 0) hits++;
  }
  row.hits = hits;
  row.rays = count;
  let out, pairs, poses;
  if (ours.api) {
    pairs = new Uint32Array(count);
    poses = Float64Array.of(0, 0, 0, 0, 0, 0, 1);
    out = ours.api.batch('raycast', [shape], poses, pairs, { rays: rs });
    const stride = ours.api.batchLayout('raycast').stride;
    const fields = ours.api.batchLayout('raycast').fields;
    const hitAt = fields.indexOf('hit'), tAt = fields.indexOf('t');
    let disagree = 0;
    for (let i = 0; i < count; i++) {
      const oh = out[i * stride + hitAt] !== 0;
      if (oh !== threeT[i] >= 0 || (oh && Math.abs(out[i * stride + tAt] - threeT[i]) > 1e-6)) disagree++;
    }
    row.disagreements = disagree;
  }
  const tt = [], tts = [], ot = [];
  for (let pass = 0; pass < 5; pass++) {
    let t = cpuMs();
    let sink = 0;
    for (let i = 0; i < count; i++) sink += threeCast(i);
    tt.push(((cpuMs() - t) * 1000) / count);
    t = cpuMs();
    for (let i = 0; i < count; i++) sink += threeSahCast(i);
    tts.push(((cpuMs() - t) * 1000) / count);
    if (ours.api) {
      t = cpuMs();
      ours.api.batch('raycast', [shape], poses, pairs, { rays: rs, out });
      ot.push(((cpuMs() - t) * 1000) / count);
    }
    if (Number.isNaN(sink)) throw new Error('unreachable');
  }
  row.rayUs.three = median(tt);
  row.rayUs.threeSah = median(tts);
  if (ours.api) row.rayUs.ours = median(ot);

  // Mesh–mesh: the same mesh twice, B rotated and offset.
  const pairsMM = quick ? 20 : 50;
  const configs = [];
  for (let i = 0; i < pairsMM; i++) {
    const q = rotation(rnd);
    let d;
    do d = [2 * rnd() - 1, 2 * rnd() - 1, 2 * rnd() - 1];
    while (Math.hypot(...d) < 0.1 || Math.hypot(...d) > 1);
    const l = Math.hypot(...d);
    const off = 1.5 + 2 * rnd();
    configs.push({ q, p: d.map((x) => (off * x) / l) });
  }
  const matrices = configs.map(({ q, p }) =>
    new THREE.Matrix4().compose(new THREE.Vector3(...p), new THREE.Quaternion(...q), new THREE.Vector3(1, 1, 1)));
  const threeHits = matrices.map((m) => bvh.intersectsGeometry(geometry, m));
  row.meshMesh = { pairs: pairsMM, intersecting: threeHits.filter(Boolean).length };
  const canMeshMesh = ours.api && (() => {
    try {
      ours.api.intersect(shape, undefined, shape, { position: configs[0].p, rotation: configs[0].q });
      return true;
    } catch (e) {
      row.pending.meshMesh = `ours: ${e.message}`;
      return false;
    }
  })();
  const tm = [], om = [];
  for (let pass = 0; pass < 5; pass++) {
    let t = cpuMs();
    for (const m of matrices) bvh.intersectsGeometry(geometry, m);
    tm.push(((cpuMs() - t) * 1000) / pairsMM);
    if (canMeshMesh) {
      t = cpuMs();
      for (const c of configs) ours.api.intersect(shape, undefined, shape, { position: c.p, rotation: c.q });
      om.push(((cpuMs() - t) * 1000) / pairsMM);
    }
  }
  row.meshMesh.threeUs = median(tm);
  if (canMeshMesh) {
    row.meshMesh.oursUs = median(om);
    row.meshMesh.disagreements = configs.filter((c, i) =>
      ours.api.intersect(shape, undefined, shape, { position: c.p, rotation: c.q }).intersecting !== threeHits[i]).length;
  }
  shape?.dispose();
  return row;
}

/** contactsBatch() against a loop of contacts() (see the header). */
export function benchContacts(api, quick) {
  const rnd = mulberry32(0xc0ffee);
  const g = 64;
  const vertices = [], indices = [];
  for (let i = 0; i <= g; i++) for (let j = 0; j <= g; j++) vertices.push((i - g / 2) / 4, 0, (j - g / 2) / 4);
  const id = (i, j) => i * (g + 1) + j;
  for (let i = 0; i < g; i++)
    for (let j = 0; j < g; j++) indices.push(id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i + 1, j));
  const floor = api.mesh(vertices, indices);
  const body = api.capsule(0.3, 0.5);
  const n = quick ? 500 : 2000;
  const shapes = [floor];
  const poses = [0, 0, 0, 0, 0, 0, 1];
  const pairs = new Uint32Array(2 * n);
  for (let i = 0; i < n; i++) {
    shapes.push(body);
    const q = rotation(rnd);
    poses.push((rnd() - 0.5) * g / 4, 0.3 + 0.9 * rnd(), (rnd() - 0.5) * g / 4, ...q);
    pairs.set([0, i + 1], 2 * i);
  }
  const margin = 0.05;
  const loop = () => {
    let count = 0;
    for (let i = 0; i < n; i++) count += api.contacts(floor, undefined, body, poses.slice(7 * (i + 1), 7 * (i + 2)), { margin }).contacts.length;
    return count;
  };
  const out = new Float64Array(api.CONTACT_RECORD_STRIDE * 16 * n);
  const batched = () => api.contactsBatch(shapes, poses, pairs, { margin, out }).offsets[n];
  const row = { pairs: n, triangles: indices.length / 3, contacts: batched(), loopContacts: loop() };
  const tl = [], tb = [];
  for (let pass = 0; pass < 5; pass++) {
    let t = cpuMs();
    loop();
    tl.push(((cpuMs() - t) * 1000) / n);
    t = cpuMs();
    batched();
    tb.push(((cpuMs() - t) * 1000) / n);
  }
  row.loopUs = median(tl);
  row.batchUs = median(tb);
  floor.dispose();
  body.dispose();
  return row;
}

export function benchCompound(ours) {
  const { api } = ours;
  const rnd = mulberry32(0xc0b0);
  const r = () => 2 * rnd() - 1;
  const poseOf = (spread) => {
    const [x, y, z, w] = rotation(rnd);
    return { position: [spread * r(), spread * r(), spread * r()], rotation: [x, y, z, w] };
  };
  const parts = Array.from({ length: 16 }, (_, i) => ({
    shape: i % 3 === 0 ? api.box([0.2 + 0.2 * rnd(), 0.2, 0.3]) : i % 3 === 1 ? api.sphere(0.2 + 0.2 * rnd()) : api.capsule(0.15, 0.3),
    pose: poseOf(1),
  }));
  const c = api.compound(parts.map((p) => ({ shape: p.shape, position: p.pose.position, rotation: p.pose.rotation })));
  const n = 4096;
  const others = [api.box([0.3, 0.2, 0.25]), api.sphere(0.3)];
  // Shapes: the compound, its 16 children, then one other shape per pair.
  const shapes = [c, ...parts.map((p) => p.shape), ...Array.from({ length: n }, (_, i) => others[i % 2])];
  const poses = new Float64Array(7 * shapes.length);
  poses[6] = 1;
  parts.forEach((p, i) => poses.set([...p.pose.position, ...p.pose.rotation], 7 * (1 + i)));
  for (let i = 0; i < n; i++) {
    const p = poseOf(3);
    poses.set([...p.position, ...p.rotation], 7 * (17 + i));
  }
  const compoundPairs = new Uint32Array(2 * n), childPairs = new Uint32Array(2 * 16 * n);
  for (let i = 0; i < n; i++) {
    compoundPairs.set([0, 17 + i], 2 * i);
    for (let k = 0; k < 16; k++) childPairs.set([1 + k, 17 + i], 2 * (16 * i + k));
  }
  const features = new Int32Array(2 * n);
  const stride = api.batchLayout('distance').stride;
  const nearest = (out) => {
    const best = new Float64Array(n).fill(Infinity);
    for (let i = 0; i < n; i++) for (let k = 0; k < 16; k++) best[i] = Math.min(best[i], out[stride * (16 * i + k)]);
    return best;
  };
  const cm = [], sm = [];
  let compoundOut, childOut;
  for (let pass = 0; pass < 5; pass++) {
    let t = cpuMs();
    compoundOut = api.batch('distance', shapes, poses, compoundPairs, { features });
    cm.push(((cpuMs() - t) * 1000) / n);
    t = cpuMs();
    childOut = api.batch('distance', shapes, poses, childPairs);
    const best = nearest(childOut);
    sm.push(((cpuMs() - t) * 1000) / n);
    childOut = best;
  }
  let disagreements = 0;
  for (let i = 0; i < n; i++) if (Math.abs(compoundOut[stride * i] - childOut[i]) > 1e-9) disagreements++;
  c.dispose();
  for (const p of parts) p.shape.dispose();
  for (const o of others) o.dispose();
  return { children: 16, pairs: n, compoundUs: median(cm), childrenUs: median(sm), disagreements };
}

export async function runMeshes({ quick = false, buildDir = path.join(ROOT, 'build', 'bench') } = {}) {
  const result = { pending: {}, rows: [], native: null };
  const three = await loadThree();
  const ours = await loadOurs();
  if (ours.pending) result.pending.ours = ours.pending;
  if (three.pending) result.pending.three = three.pending;
  else {
    result.threeMeshBvh = three.version;
    warmBuilds(three, ours);
    for (const kind of ['torus', 'soup'])
      for (const n of [1000, 10000, 100000, 1000000]) {
        if (quick && n > 100000) continue;
        result.rows.push(benchOne(kind, n, three, ours, quick));
      }
  }
  if (ours.api && typeof ours.api.contactsBatch === 'function') result.contacts = benchContacts(ours.api, quick);
  if (!ours.pending && typeof ours.api.compound === 'function') result.compound = benchCompound(ours);
  const exe = path.join(buildDir, 'collidoscope_mesh_peers');
  if (existsSync(exe)) result.native = JSON.parse(execFileSync(exe, quick ? ['--quick'] : [], { encoding: 'utf8', maxBuffer: 1 << 24 }));
  else result.pending.bullet = `${exe} is not built (needs libbullet-dev)`;
  return result;
}

const f = (x, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(d));

export function meshesMarkdown(r) {
  const md = ['## Triangle meshes: three-mesh-bvh in Node, Bullet natively', ''];
  md.push('Closed tori and random triangle soups of about 1 000 to 1 000 000 triangles, float32 coordinates read by both; 20 000 rays from a sphere of radius 4 aimed into the mesh\'s bounds, closest hit, two-sided (bench/meshes.mjs). Ratio = ours ÷ theirs (< 1: ours faster). Medians of interleaved passes.', '');
  for (const [k, v] of Object.entries(r.pending)) md.push(`- **${k} pending**: ${v}`);
  if (Object.keys(r.pending).length) md.push('');
  if (r.rows.length) {
    md.push(`### In Node: collidoscope (wasm, \`batch('raycast')\`) against three-mesh-bvh ${r.threeMeshBvh ?? ''} (\`raycastFirst\`, \`intersectsGeometry\`)`, '');
    md.push('`mesh()` builds what ray casts read (validation, normals, the ray layout; the copy of the arrays from JavaScript is timed); the OBB tree that intersect, distance, shapecast, contacts and project read is built on first need (or by `prepare()`), timed as a first `prepare()` right after `mesh()` ("OBB tree ms"; "build + tree ratio" counts both against three-mesh-bvh\'s build).', '');
    md.push('| mesh | triangles | build ms: ours / three | build ratio | OBB tree ms | build + tree ratio | ray µs: ours / three | ray ratio | rays hit | disagreements | mesh–mesh µs: ours / three | mesh–mesh ratio | intersecting pairs |');
    md.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const x of r.rows) {
      const mm = x.meshMesh;
      md.push(`| ${x.mesh} | ${x.triangles} | ${f(x.buildMs.ours, 1)} / ${f(x.buildMs.three, 1)} | ${f(x.buildMs.ours / x.buildMs.three)} | ${f(x.buildMs.tree, 1)} | ${f((x.buildMs.ours + x.buildMs.tree) / x.buildMs.three)} | ${f(x.rayUs.ours, 3)} / ${f(x.rayUs.three, 3)} | ${f(x.rayUs.ours / x.rayUs.three)} | ${x.hits}/${x.rays} | ${x.disagreements ?? '—'} | ${f(mm.oursUs, 1)} / ${f(mm.threeUs, 1)} | ${f(mm.oursUs / mm.threeUs)} | ${mm.intersecting}/${mm.pairs}${mm.disagreements ? ` (${mm.disagreements} disagree)` : ''} |`);
    }
    md.push('');
    if (r.rows.some((x) => x.buildMs.threeSah !== undefined)) {
      md.push('Like for like: three-mesh-bvh built with `{ strategy: SAH }`, a binned surface-area heuristic as ours is (its default above splits at the centre of the longest axis, which builds faster and casts slower).', '');
      md.push('| mesh | triangles | build ms: ours / three SAH | build ratio | ray µs: ours / three SAH | ray ratio |', '|---|---:|---:|---:|---:|---:|');
      for (const x of r.rows) {
        md.push(`| ${x.mesh} | ${x.triangles} | ${f(x.buildMs.ours, 1)} / ${f(x.buildMs.threeSah, 1)} | ${f(x.buildMs.ours / x.buildMs.threeSah)} | ${f(x.rayUs.ours, 3)} / ${f(x.rayUs.threeSah, 3)} | ${f(x.rayUs.ours / x.rayUs.threeSah)} |`);
      }
      md.push('');
    }
    const pend = r.rows.flatMap((x) => Object.entries(x.pending).map(([k, v]) => `${x.mesh} ${x.triangles} ${k}: ${v}`));
    if (pend.length) md.push(`Not measured: ${[...new Set(pend.map((s) => s.replace(/^\S+ \d+ /, '')))].join('; ')}.`, '');
  }
  if (r.contacts) {
    const c = r.contacts;
    md.push('### Contacts in batches: `contactsBatch()` against a loop of `contacts()`', '');
    md.push(`A floor of ${c.triangles} triangles and ${c.pairs} capsules (radius 0.3, half-height 0.5) at random spots, about half sunk into it, margin 0.05: the (floor, capsule) pairs in one \`contactsBatch()\` call against one \`contacts()\` call per pair (bench/meshes.mjs). Ratio = batch ÷ loop.`, '');
    md.push('| pairs | contacts: batch / loop | µs per pair: batch / loop | ratio |', '|---:|---:|---:|---:|');
    md.push(`| ${c.pairs} | ${c.contacts} / ${c.loopContacts} | ${f(c.batchUs, 2)} / ${f(c.loopUs, 2)} | ${f(c.batchUs / c.loopUs)} |`, '');
  }
  if (r.compound) {
    const x = r.compound;
    md.push('### Compounds in a batch: the child loop against the children queried one by one', '');
    md.push(`One compound of ${x.children} children against ${x.pairs} boxes and spheres, \`batch('distance')\` with \`features\`, against the same children as shapes of their own in one batch of ${x.children} × ${x.pairs} pairs with the nearest kept in JavaScript (bench/meshes.mjs). µs per compound pair.`, '');
    md.push('| compound batch µs | children one by one µs | ratio | disagreements |', '|---:|---:|---:|---:|');
    md.push(`| ${f(x.compoundUs, 3)} | ${f(x.childrenUs, 3)} | ${f(x.compoundUs / x.childrenUs)} | ${x.disagreements} |`, '');
  }
  if (r.native) {
    md.push(`### Natively: the OBB tree and its ray layout against Bullet's btBvhTriangleMeshShape (${r.native.bulletDouble ? 'double' : 'single'} precision)`, '');
    md.push('Same meshes (double coordinates) and rays; Bullet casts the segment to origin + 8·direction with a btTriangleRaycastCallback that keeps the nearest hit (build/bench/collidoscope_mesh_peers, bench/mesh_peers.cpp). A disagreement is a ray where one hits and the other does not, or the nearest triangles differ and their t differ by more than 1e-9; "Bullet outside" counts those where Bullet\'s triangle does not contain the point where the ray meets its plane (its callback accepts hits slightly beyond a triangle\'s edges). Ours equal brute force over every triangle (tests/cpp/test_mesh.cpp).', '');
    md.push('| mesh | triangles | build ms: ours / Bullet | build ratio | ray µs: ours / Bullet | ray ratio | rays hit | disagreements (Bullet outside) |');
    md.push('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const x of r.native.rows)
      md.push(`| ${x.mesh} | ${x.triangles} | ${f(x.buildMs.ours, 1)} / ${f(x.buildMs.bullet, 1)} | ${f(x.buildMs.ours / x.buildMs.bullet)} | ${f(x.rayUs.ours, 3)} / ${f(x.rayUs.bullet, 3)} | ${f(x.rayUs.ours / x.rayUs.bullet)} | ${x.hits}/${x.rays} | ${x.disagreements} (${x.bulletOutside}) |`);
    md.push('');
  }
  return md;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await runMeshes({ quick: process.argv.includes('--quick') });
  console.log(meshesMarkdown(r).join('\n'));
}
