#!/usr/bin/env node
// WebAssembly in Node: collidoscope's package against @dimforge/rapier3d-compat,
// its SIMD build @dimforge/rapier3d-simd-compat, crashcat (pure JS) and
// jolt-physics (Jolt in wasm), on identical inputs, single calls and our
// batch(); each contender's answers against exact references; our wasm against
// our native build on the same inputs (the cost of wasm); and the gzipped
// download of each.
//
//   node bench/wasm.mjs [--quick]        prints the markdown section
//   import { runWasm, wasmMarkdown } from './bench/wasm.mjs'   (scripts/bench.mjs)
//
// Inputs. Six shape classes, each a same-class pair: spheres, boxes, capsules
// and convex polytopes of 8, 32 and 128 vertices (points on random ellipsoids,
// so every point is a vertex and no four are coplanar); per class a pool of 8
// random shapes of size ~1. Three pose classes: separated (signed distance
// 0.02…0.5), near touching (signed distance ±1e-7…1e-4, half on each side)
// and overlapping (10–85 % of the depth the pair has at coincident origins).
// Each of the 18 cells holds M instances (pool shapes A and B, random
// rotations, B placed along a random direction by bisection on collidoscope's
// own signed distance; the references below are computed independently
// afterwards and are what every contender, ours included, is judged by).
// Besides the cells: sphere and capsule pairs among 1 000 bodies (one pose each,
// pairs as a broad phase gives them), ours only, batch() and createBatch().
//
// Contenders and what they are asked:
//   ours        intersect / distance / penetration (web/dist/lib/index.mjs;
//               shapes from sphere/box/capsule/polytope, poses as 7 numbers)
//   ours batch  batch(query, shapes, poses, pairs) over N = 10 000 pairs
//               (2 000 with --quick; the M instances cycled, two shape slots
//               with their own poses per pair); time per pair; timed again
//               after setTolerance(1e-4) (crashcat's and Jolt's tolerance)
//   rapier      @dimforge/rapier3d-compat shape queries without a world:
//               intersectsShape, and contactShape (prediction 1e6 for the
//               distance, 0 for the penetration). Timed two ways:
//               "rapier" = RawShape made once per shape and the poses once
//               per instance (the query alone through its wasm bindings);
//               "rapier Shape API" = the documented Shape methods, which
//               convert both shapes (a convex polyhedron's hull is rebuilt)
//               and the poses into wasm objects on every call.
//   rapier simd @dimforge/rapier3d-simd-compat (the same bindings built with
//               wasm SIMD), the "rapier" route (RawShape, poses made once).
//   crashcat    the narrow phase it exports: gjkClosestPoints on its support
//               structs (intersect: early out beyond the radii; distance),
//               collideConvexVsConvex with a closest-hit collector
//               (penetration: GJK + EPA). Shapes with convexRadius 0 and
//               hullTolerance 1e-9 (its defaults, 0.05 and 1e-3, round the
//               corners and drop hull points: another shape). Tolerances are
//               crashcat's defaults (collisionTolerance and
//               penetrationTolerance 1e-4).
//   jolt        jolt-physics (default flavour: single-threaded, wasm inlined,
//               f32) on shapes without bodies: TransformedShape.CollideShape,
//               which calls CollisionDispatch::sCollideShapeVsShape (GJK, EPA
//               when the cores overlap). Jolt registers its collision
//               functions only in JoltInterface's constructor, which also
//               builds a PhysicsSystem: one is made, as small as it allows,
//               and holds no body. Shapes: SphereShape, BoxShape and
//               ConvexHullShape with convex radius 0, CapsuleShape; hulls with
//               hullTolerance 1e-9 (its default 1e-3 drops points). A's
//               centre-of-mass transform and B's TransformedShape made once
//               per instance. intersect: an any-hit collector; penetration: a
//               closest-hit collector; distance: a closest-hit collector with
//               mMaxSeparationDistance 1 (Jolt reports a gap below it as a
//               negative depth; it inflates shape A by it in f32, so a larger
//               one costs digits: 1 exceeds every gap here, at most 0.5).
//               Tolerances its defaults (1e-4). Every object made is destroyed.
//   native      bench/wasm_native.cpp: the same api::Registry queries and
//               batch in a g++ -O2 build, on the same inputs (a JSON file in
//               buildDir), one process per repeat.
//
// Contacts (a row set of their own, on the same cells): our contact() and
// batch('contact') with margin CONTACT_MARGIN = 0.1, against rapier's
// contactShape with prediction = the margin, crashcat's
// collideConvexVsConvex with maxSeparationDistance = the margin and Jolt's
// CollideShape with mMaxSeparationDistance = the margin (a closest-hit
// collector). Their defaults differ (rapier's IntegrationParameters predict
// 0.02, normalizedPredictionDistance × lengthUnit; crashcat's and Jolt's
// collide settings a maximum separation of 0); 0.1 lies inside the
// separated cells' gaps (0.02…0.5), so about 85 % of those pairs are beyond
// it and show the early stop, and the rest need the full distance. Judged against the exact
// signed distance: a contact reported exactly when it is ≤ the margin
// (pairs within 1e-6 of the margin not counted), and its distance's error.
//   node bench/wasm.mjs --contact [--quick]   times the contact rows alone
//
// Timing: every contender on the same instances; per repeat the contenders
// take turns cell by cell and query by query (their order rotated each
// repeat), after a warm-up. One sample = the fastest of up to 3 sub-rounds of
// whole passes over the M instances (batch: whole calls) lasting ≥ targetMs
// each (fewer when one pass is long), which drops sub-rounds that another
// process preempted; medians over the repeats. The native program takes its
// samples the same way and runs once per repeat between the JS rounds.
// Ratios are collidoscope ÷ peer (< 1: we are faster) and wasm ÷ native.
// Full: 160 instances per cell, N = 10 000, 9 repeats (~2 min on 2 cores with
// five contenders; seven now); --quick: 24 instances, N = 2 000, 5 repeats, ~22 s.
//
// References (no library code): quaternions to matrices of our own; spheres
// and capsules by point/segment distances minus radii; boxes and polytopes by
// brute force: the hull faces of each polytope from all point triples, the
// overlap test and penetration depth as the minimum of h_{A−B}(u) over the
// face normals of A and B and the edge–edge directions that are faces of the
// Minkowski difference (Gauss-map arc test), the distance of separated pairs
// as the minimum over all vertex–triangle and edge–edge pairs.
//
// Download size: each peer's ESM entry as installed (its wasm inlined) and our
// default flavour, every file of the module graph gzipped -9 on its own, as
// scripts/sizes.mjs (README "Download size") measures.
//
// Hulls: our hull(points) against three.js's ConvexHull is bench/hull.mjs's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { mulberry32 } from './random.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE_EXE = 'collidoscope_wasm_native';

export const SHAPE_CLASSES = ['sphere', 'box', 'capsule', 'poly8', 'poly32', 'poly128'];
export const POSE_CLASSES = ['separated', 'near', 'overlapping'];
export const QUERIES = ['intersect', 'distance', 'penetration'];
const SHAPE_LABEL = {
  sphere: 'spheres', box: 'boxes', capsule: 'capsules', poly8: 'polytopes 8', poly32: 'polytopes 32', poly128: 'polytopes 128',
};
const POSE_LABEL = { separated: 'separated', near: 'near touching', overlapping: 'overlapping' };
// Error thresholds of the accuracy tables (absolute; the shapes are ~1 in size, the scenes ~3).
const TOL_TIGHT = 1e-9; // the package's documented accuracy (absolute here: scenes are ~3, so stricter than 1e-9 of the scale)
const TOL_FINE = 1e-6;
const TOL_FAIL = 1e-3;
const CRASHCAT_TOLERANCE = 1e-4; // crashcat's default collisionTolerance
const LOOSE_TOLERANCE = CRASHCAT_TOLERANCE; // our batch is also timed at setTolerance(1e-4), crashcat's and Jolt's
// The contact rows' margin (prediction distance), see the header.
export const CONTACT_MARGIN = 0.1;

// ---------------------------------------------------------------- random numbers and small vector maths
class Rng {
  constructor(seed) {
    this.next = mulberry32(seed);
  }
  u(a = 0, b = 1) {
    return a + (b - a) * this.next();
  }
  int(n) {
    return Math.min(n - 1, Math.floor(this.next() * n));
  }
  dir() {
    for (;;) {
      const x = this.u(-1, 1), y = this.u(-1, 1), z = this.u(-1, 1);
      const l = Math.hypot(x, y, z);
      if (l > 0.1 && l <= 1) return [x / l, y / l, z / l];
    }
  }
  quat() {
    for (;;) {
      const x = this.u(-1, 1), y = this.u(-1, 1), z = this.u(-1, 1), w = this.u(-1, 1);
      const l = Math.hypot(x, y, z, w);
      if (l > 0.1 && l <= 1) return [x / l, y / l, z / l, w / l];
    }
  }
}
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const scl = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.sqrt(dot(a, a));
const neg = (a) => [-a[0], -a[1], -a[2]];
// Rotation matrix of a quaternion [x, y, z, w] (normalized here), rows.
function matrixOf(q) {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  const x = q[0] / n, y = q[1] / n, z = q[2] / n, w = q[3] / n;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}
const mul = (m, v) => [dot(m[0], v), dot(m[1], v), dot(m[2], v)];
const median = (a) => {
  const s = a.filter((x) => Number.isFinite(x)).sort((x, y) => x - y);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const geomean = (a) => {
  const f = a.filter((x) => Number.isFinite(x) && x > 0);
  return f.length ? Math.exp(f.reduce((s, x) => s + Math.log(x), 0) / f.length) : NaN;
};

// ---------------------------------------------------------------- shapes (scene-format specs)
function makeSpec(cls, rng) {
  switch (cls) {
    case 'sphere':
      return { type: 'sphere', radius: rng.u(0.5, 1.2) };
    case 'box':
      return { type: 'box', halfExtents: [rng.u(0.3, 1.1), rng.u(0.3, 1.1), rng.u(0.3, 1.1)] };
    case 'capsule':
      return { type: 'capsule', radius: rng.u(0.2, 0.6), halfHeight: rng.u(0.3, 1.0) };
    default: {
      const n = Number(cls.slice(4));
      const radii = [rng.u(0.6, 1.2), rng.u(0.6, 1.2), rng.u(0.6, 1.2)];
      const points = [];
      for (let i = 0; i < n; i++) {
        const d = rng.dir();
        points.push([d[0] * radii[0], d[1] * radii[1], d[2] * radii[2]]);
      }
      return { type: 'polytope', points };
    }
  }
}

// ---------------------------------------------------------------- exact references (no library code)
// Hull of points in general position by brute force: a triple is a face when all other points lie on one side.
function bruteHull(P) {
  const n = P.length;
  const tris = [];
  const faces = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const eij = sub(P[j], P[i]);
      for (let k = j + 1; k < n; k++) {
        let nv = cross(eij, sub(P[k], P[i]));
        const len = norm(nv);
        if (len < 1e-14) continue;
        nv = scl(nv, 1 / len);
        let pos = false, ng = false;
        for (let l = 0; l < n && !(pos && ng); l++) {
          if (l === i || l === j || l === k) continue;
          const d = dot(nv, sub(P[l], P[i]));
          if (d > 1e-12) pos = true;
          else if (d < -1e-12) ng = true;
        }
        if (pos && ng) continue;
        if (pos) {
          tris.push([i, k, j]);
          faces.push({ n: neg(nv), i });
        } else {
          tris.push([i, j, k]);
          faces.push({ n: nv, i });
        }
      }
    }
  }
  if (tris.length !== 2 * n - 4) throw new Error(`reference hull: ${tris.length} triangles for ${n} points (not in general position)`);
  const byEdge = new Map();
  tris.forEach((t, f) => {
    for (let e = 0; e < 3; e++) {
      const a = t[e], b = t[(e + 1) % 3];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (!byEdge.has(key)) byEdge.set(key, []);
      byEdge.get(key).push(f);
    }
  });
  const edges = [];
  for (const [key, fs] of byEdge) {
    if (fs.length !== 2) throw new Error('reference hull: an edge without two faces');
    const [i, j] = key.split(',').map(Number);
    edges.push({ i, j, n1: faces[fs[0]].n, n2: faces[fs[1]].n });
  }
  return { verts: P, tris, faces, edges };
}

function boxFeatures(h) {
  const verts = [];
  for (let b = 0; b < 8; b++) verts.push([b & 1 ? h[0] : -h[0], b & 2 ? h[1] : -h[1], b & 4 ? h[2] : -h[2]]);
  const faces = [], tris = [], edges = [];
  for (let a = 0; a < 3; a++) {
    const [b, c] = [(a + 1) % 3, (a + 2) % 3];
    for (const s of [-1, 1]) {
      const nv = [0, 0, 0];
      nv[a] = s;
      const idx = (sa, sb, sc) => {
        let k = 0;
        const sg = [0, 0, 0];
        sg[a] = sa, sg[b] = sb, sg[c] = sc;
        for (let t = 0; t < 3; t++) if (sg[t] > 0) k |= 1 << t;
        return k;
      };
      const q = [idx(s, -1, -1), idx(s, 1, -1), idx(s, 1, 1), idx(s, -1, 1)];
      faces.push({ n: nv, i: q[0] });
      tris.push([q[0], q[1], q[2]], [q[0], q[2], q[3]]);
    }
    // Edges along axis a, at the signs (sb, sc) of the other two axes.
    for (const sb of [-1, 1]) {
      for (const sc of [-1, 1]) {
        const ends = [-1, 1].map((sa) => {
          let k = 0;
          const sg = [0, 0, 0];
          sg[a] = sa, sg[b] = sb, sg[c] = sc;
          for (let t = 0; t < 3; t++) if (sg[t] > 0) k |= 1 << t;
          return k;
        });
        const n1 = [0, 0, 0], n2 = [0, 0, 0];
        n1[b] = sb, n2[c] = sc;
        edges.push({ i: ends[0], j: ends[1], n1, n2 });
      }
    }
  }
  return { verts, tris, faces, edges };
}

// Local features of a shape: a point, a segment or a polytope, plus the radius around it.
function localFeatures(spec) {
  switch (spec.type) {
    case 'sphere':
      return { kind: 'point', r: spec.radius };
    case 'capsule':
      return { kind: 'segment', r: spec.radius, hh: spec.halfHeight };
    case 'box':
      return { kind: 'poly', r: 0, ...boxFeatures(spec.halfExtents) };
    default:
      return { kind: 'poly', r: 0, ...bruteHull(spec.points) };
  }
}

function worldFeatures(lf, pose) {
  const R = matrixOf(pose.slice(3, 7));
  const p = pose.slice(0, 3);
  const w = (v) => add(mul(R, v), p);
  switch (lf.kind) {
    case 'point':
      return { kind: 'point', r: lf.r, c: p };
    case 'segment':
      return { kind: 'segment', r: lf.r, p0: w([0, -lf.hh, 0]), p1: w([0, lf.hh, 0]) };
    default:
      return {
        kind: 'poly', r: 0, verts: lf.verts.map(w), tris: lf.tris,
        faces: lf.faces.map((f) => ({ n: mul(R, f.n), i: f.i })),
        edges: lf.edges.map((e) => ({ i: e.i, j: e.j, n1: mul(R, e.n1), n2: mul(R, e.n2) })),
      };
  }
}

function closestOnTriangle(p, a, b, c) {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, scl(ab, d1 / (d1 - d3)));
  const cp = sub(p, c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, scl(ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return add(b, scl(sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6))));
  const den = 1 / (va + vb + vc);
  return add(a, add(scl(ab, vb * den), scl(ac, vc * den)));
}
const clamp01 = (x) => (x < 0 ? 0 : x > 1 ? 1 : x);
// Distance between segments p0p1 and q0q1: the minimum of a convex quadratic on [0,1]².
function segSeg(p0, p1, q0, q1) {
  const d1 = sub(p1, p0), d2 = sub(q1, q0), r = sub(p0, q0);
  const a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  let s, t;
  if (a <= 1e-300 && e <= 1e-300) return norm(r);
  if (a <= 1e-300) {
    s = 0;
    t = clamp01(f / e);
  } else {
    const c = dot(d1, r);
    if (e <= 1e-300) {
      t = 0;
      s = clamp01(-c / a);
    } else {
      const b = dot(d1, d2);
      const den = a * e - b * b;
      s = den > 0 ? clamp01((b * f - c * e) / den) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp01(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp01((b - c) / a);
      }
    }
  }
  return norm(sub(add(p0, scl(d1, s)), add(q0, scl(d2, t))));
}
function maxDot(verts, u) {
  let m = -Infinity;
  for (const v of verts) {
    const d = v[0] * u[0] + v[1] * u[1] + v[2] * u[2];
    if (d > m) m = d;
  }
  return m;
}
// Gauss-map test: do the arcs a→b (edge of A) and c→d (edge of −B) cross, i.e. is the pair a face of A − B?
function isMinkowskiFace(a, b, c, d) {
  const bxa = cross(b, a), dxc = cross(d, c);
  const cba = dot(c, bxa), dba = dot(d, bxa), adc = dot(a, dxc), bdc = dot(b, dxc);
  return cba * dba < 0 && adc * bdc < 0 && cba * bdc > 0;
}
// min over the face normals u of A − B of h_{A−B}(u) = h_A(u) + h_B(−u): the depth when ≥ 0, separated when < 0.
function minkowskiMin(A, B) {
  let best = Infinity;
  for (const f of A.faces) best = Math.min(best, dot(f.n, A.verts[f.i]) + maxDot(B.verts, neg(f.n)));
  for (const g of B.faces) best = Math.min(best, maxDot(A.verts, neg(g.n)) + dot(g.n, B.verts[g.i]));
  for (const ea of A.edges) {
    const da = sub(A.verts[ea.j], A.verts[ea.i]);
    for (const eb of B.edges) {
      if (!isMinkowskiFace(ea.n1, ea.n2, neg(eb.n1), neg(eb.n2))) continue;
      let u = cross(da, sub(B.verts[eb.j], B.verts[eb.i]));
      const len = norm(u);
      if (len < 1e-12) continue;
      u = scl(u, 1 / len);
      if (dot(u, add(ea.n1, ea.n2)) < 0) u = neg(u);
      best = Math.min(best, dot(u, sub(A.verts[ea.i], B.verts[eb.i])));
    }
  }
  return best;
}
// Distance of two disjoint polytopes: vertex–triangle and edge–edge pairs.
function polyDistance(A, B) {
  let best = Infinity;
  for (const [P, Q] of [[A, B], [B, A]]) {
    for (const v of P.verts) {
      for (const t of Q.tris) {
        const c = closestOnTriangle(v, Q.verts[t[0]], Q.verts[t[1]], Q.verts[t[2]]);
        best = Math.min(best, norm(sub(v, c)));
      }
    }
  }
  for (const ea of A.edges) {
    for (const eb of B.edges) best = Math.min(best, segSeg(A.verts[ea.i], A.verts[ea.j], B.verts[eb.i], B.verts[eb.j]));
  }
  return best;
}
// Signed distance of two posed shapes (same kind): > 0 apart, < 0 minus the penetration depth.
function signedDistance(A, B) {
  const r = A.r + B.r;
  if (A.kind === 'point') return norm(sub(A.c, B.c)) - r;
  if (A.kind === 'segment') return segSeg(A.p0, A.p1, B.p0, B.p1) - r;
  const m = minkowskiMin(A, B);
  return m < 0 ? polyDistance(A, B) - r : -m - r;
}
// Support value of the whole posed shape in direction u.
function supportValue(F, u) {
  const l = norm(u);
  if (F.kind === 'point') return dot(u, F.c) + F.r * l;
  if (F.kind === 'segment') return Math.max(dot(u, F.p0), dot(u, F.p1)) + F.r * l;
  return maxDot(F.verts, u);
}

// ---------------------------------------------------------------- contenders
async function loadOurs() {
  const lib = path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs');
  if (!existsSync(lib)) return { pending: 'web/dist/lib/index.mjs is not built (node scripts/build.mjs)' };
  const api = await import(pathToFileURL(lib).href);
  await api.init();
  const make = (spec) => {
    switch (spec.type) {
      case 'sphere': return api.sphere(spec.radius);
      case 'box': return api.box(spec.halfExtents);
      case 'capsule': return api.capsule(spec.radius, spec.halfHeight);
      default: return api.polytope(spec.points);
    }
  };
  const version = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  return { api, make, version };
}

async function loadRapier(pkg) {
  try {
    const mod = await import(pkg);
    const R = mod.default ?? mod;
    await R.init();
    const make = (spec) => {
      switch (spec.type) {
        case 'sphere': return new R.Ball(spec.radius);
        case 'box': return new R.Cuboid(...spec.halfExtents);
        case 'capsule': return new R.Capsule(spec.halfHeight, spec.radius);
        default: return new R.ConvexPolyhedron(Float32Array.from(spec.points.flat()), null);
      }
    };
    return { R, make, version: R.version() };
  } catch (e) {
    return { pending: `${pkg} could not be loaded (${e.message})` };
  }
}

async function loadCrashcat() {
  let cc;
  try {
    cc = await import('crashcat');
  } catch (e) {
    return { pending: `crashcat is not installed (npm install -D crashcat): ${e.message}` };
  }
  cc.registerAllShapes();
  const make = (spec) => {
    switch (spec.type) {
      case 'sphere': return cc.sphere.create({ radius: spec.radius });
      case 'box': return cc.box.create({ halfExtents: [...spec.halfExtents], convexRadius: 0 });
      case 'capsule': return cc.capsule.create({ halfHeightOfCylinder: spec.halfHeight, radius: spec.radius });
      default: return cc.convexHull.create({ positions: spec.points.flat(), convexRadius: 0, hullTolerance: 1e-9 });
    }
  };
  let version = '?';
  try {
    const pj = path.join(ROOT, 'node_modules', 'crashcat', 'package.json');
    version = JSON.parse(readFileSync(pj, 'utf8')).version;
  } catch {}
  return { cc, make, version };
}

// Jolt's gap tolerance for the distance query (see the header): above every separation in the cells.
const JOLT_MAX_SEPARATION = 1;

async function loadJolt() {
  let J;
  try {
    const mod = await import('jolt-physics');
    J = await (mod.default ?? mod)();
  } catch (e) {
    return { pending: `jolt-physics could not be loaded (${e.message})` };
  }
  // RegisterTypes (the collision dispatch table) runs only in JoltInterface's constructor, which needs the layer
  // filters of a PhysicsSystem: one object layer, one broad-phase layer, room for a single body, never used.
  const js = new J.JoltSettings();
  js.mMaxBodies = 1;
  js.mMaxBodyPairs = 1;
  js.mMaxContactConstraints = 1;
  const pairFilter = new J.ObjectLayerPairFilterTable(1);
  const layers = new J.BroadPhaseLayerInterfaceTable(1, 1);
  const layer0 = new J.BroadPhaseLayer(0);
  layers.MapObjectToBroadPhaseLayer(0, layer0);
  J.destroy(layer0);
  js.mObjectLayerPairFilter = pairFilter;
  js.mBroadPhaseLayerInterface = layers;
  js.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(layers, 1, pairFilter, 1);
  const jolt = new J.JoltInterface(js); // owns the three filters
  J.destroy(js);
  // Each shape holds one reference of ours (Release() frees it); convex radius 0 everywhere, so the shapes are ours.
  const make = (spec) => {
    let shape;
    switch (spec.type) {
      case 'sphere':
        shape = new J.SphereShape(spec.radius);
        break;
      case 'box': {
        const h = new J.Vec3(...spec.halfExtents);
        shape = new J.BoxShape(h, 0);
        J.destroy(h);
        break;
      }
      case 'capsule':
        shape = new J.CapsuleShape(spec.halfHeight, spec.radius);
        break;
      default: {
        const settings = new J.ConvexHullShapeSettings();
        const points = settings.mPoints;
        for (const p of spec.points) {
          const v = new J.Vec3(p[0], p[1], p[2]);
          points.push_back(v);
          J.destroy(v);
        }
        settings.mMaxConvexRadius = 0;
        settings.mHullTolerance = 1e-9;
        const result = settings.Create();
        if (result.HasError()) {
          const message = result.GetError().c_str();
          J.destroy(settings);
          throw new Error(`jolt-physics ConvexHullShape: ${message}`);
        }
        shape = result.Get();
        shape.AddRef();
        J.destroy(settings); // drops the settings' own reference to the shape
        return shape;
      }
    }
    shape.AddRef();
    return shape;
  };
  return { J, make, dispose: () => J.destroy(jolt), version: packageVersion('jolt-physics') };
}

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', ...name.split('/'), 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

// The 7 numbers of a pose and helpers for the peers' pose types.
const poseOf = (p, q) => Float64Array.of(p[0], p[1], p[2], q[0], q[1], q[2], q[3]);

// ---------------------------------------------------------------- the inputs
function signedOurs(api, a, pa, b, pb) {
  const d = api.distance(a, pa, b, pb).distance;
  if (d > 0) return d;
  const p = api.penetration(a, pa, b, pb);
  return p.intersecting ? -p.depth : 0;
}

function makeCell(ours, shapeClass, poseClass, M, seed) {
  const rng = new Rng(seed);
  const specs = Array.from({ length: 8 }, () => makeSpec(shapeClass, rng));
  const shapes = specs.map(ours.make);
  const instances = [];
  while (instances.length < M) {
    const ia = rng.int(specs.length), ib = rng.int(specs.length);
    const pA = [rng.u(-1, 1), rng.u(-1, 1), rng.u(-1, 1)];
    const qA = rng.quat(), qB = rng.quat(), d = rng.dir();
    const poseA = poseOf(pA, qA);
    const at = (t) => poseOf(add(pA, scl(d, t)), qB);
    const f = (t) => signedOurs(ours.api, shapes[ia], poseA, shapes[ib], at(t));
    const f0 = f(0);
    if (!(f0 < -1e-3)) continue;
    let target;
    if (poseClass === 'separated') target = rng.u(0.02, 0.5);
    else if (poseClass === 'overlapping') target = f0 * rng.u(0.1, 0.85);
    else target = (instances.length % 2 ? -1 : 1) * 10 ** rng.u(-7, -4);
    let lo = 0, hi = 1;
    while (f(hi) <= target) hi *= 2;
    for (let it = 0; it < 200 && hi - lo > 1e-15 * hi; it++) {
      const mid = 0.5 * (lo + hi);
      if (f(mid) < target) lo = mid;
      else hi = mid;
    }
    instances.push({ ia, ib, poseA, poseB: at(target > 0 ? hi : lo) });
  }
  return { shapeClass, poseClass, specs, shapes, instances };
}

function references(cell, featureCache) {
  const lf = cell.specs.map((s) => {
    if (!featureCache.has(s)) featureCache.set(s, localFeatures(s));
    return featureCache.get(s);
  });
  return cell.instances.map((inst) => {
    const A = worldFeatures(lf[inst.ia], Array.from(inst.poseA));
    const B = worldFeatures(lf[inst.ib], Array.from(inst.poseB));
    return { sd: signedDistance(A, B), A, B };
  });
}

// Each contender gives, per query, `pass()` (one call per instance, returns a number to keep the work
// alive) and `answers()` (the normalized answers: {hit}, {d} or {hit, depth, n}).
function oursContender(ours, cell) {
  const { api } = ours;
  const I = cell.instances;
  const A = I.map((i) => cell.shapes[i.ia]), B = I.map((i) => cell.shapes[i.ib]);
  const PA = I.map((i) => i.poseA), PB = I.map((i) => i.poseB);
  const m = I.length;
  const q = {
    intersect: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += api.intersect(A[i], PA[i], B[i], PB[i]).intersecting ? 1 : 0;
      return s;
    },
    distance: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += api.distance(A[i], PA[i], B[i], PB[i]).distance;
      return s;
    },
    penetration: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += api.penetration(A[i], PA[i], B[i], PB[i]).depth;
      return s;
    },
    contact: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = api.contact(A[i], PA[i], B[i], PB[i], contactOptions);
        if (c !== null) s += c.distance;
      }
      return s;
    },
  };
  const contactOptions = { margin: CONTACT_MARGIN };
  const answers = {
    contact: () => I.map((_, i) => {
      const c = api.contact(A[i], PA[i], B[i], PB[i], contactOptions);
      return { c: c !== null, d: c === null ? NaN : c.distance };
    }),
    intersect: () => I.map((_, i) => {
      const r = api.intersect(A[i], PA[i], B[i], PB[i]);
      return { hit: r.intersecting, iterations: r.iterations };
    }),
    distance: () => I.map((_, i) => {
      const r = api.distance(A[i], PA[i], B[i], PB[i]);
      return { d: r.distance, iterations: r.iterations };
    }),
    penetration: () => I.map((_, i) => {
      const r = api.penetration(A[i], PA[i], B[i], PB[i]);
      return { hit: r.intersecting, depth: r.depth, n: r.intersecting ? r.normal : null, iterations: r.iterations };
    }),
  };
  return { pass: q, answers };
}

function oursBatch(ours, cell, N) {
  const { api } = ours;
  const I = cell.instances;
  const shapes = new Array(2 * N);
  const poses = new Float64Array(14 * N);
  const pairs = new Uint32Array(2 * N);
  for (let k = 0; k < N; k++) {
    const inst = I[k % I.length];
    shapes[2 * k] = cell.shapes[inst.ia];
    shapes[2 * k + 1] = cell.shapes[inst.ib];
    poses.set(inst.poseA, 14 * k);
    poses.set(inst.poseB, 14 * k + 7);
    pairs[2 * k] = 2 * k;
    pairs[2 * k + 1] = 2 * k + 1;
  }
  const outs = Object.fromEntries([...QUERIES, 'contact'].map((q) => [q, new Float64Array(api.batchLayout(q).stride * N)]));
  const pass = Object.fromEntries(QUERIES.map((q) => [q, () => api.batch(q, shapes, poses, pairs, { out: outs[q] })[0]]));
  // The same batch at crashcat's and Jolt's tolerance (setTolerance: GJK's and EPA's termination tests).
  const atLoose = (fn) => {
    api.setTolerance(LOOSE_TOLERANCE);
    try {
      return fn();
    } finally {
      api.setTolerance();
    }
  };
  pass.contact = () => api.batch('contact', shapes, poses, pairs, { margin: CONTACT_MARGIN, out: outs.contact })[0];
  const loose = Object.fromEntries(QUERIES.map((q) => [q, () => atLoose(pass[q])]));
  // Answers of the loose batch for the accuracy table, in the single calls' form ({hit}, {d}, {hit, depth, n}).
  const looseAnswers = Object.fromEntries(QUERIES.map((q) => [q, () => {
    const out = atLoose(() => api.batch(q, shapes, poses, pairs));
    const { fields, stride } = api.batchLayout(q);
    const at = (i, f) => out[i * stride + fields.indexOf(f)];
    return I.map((_, i) => q === 'intersect' ? { hit: at(i, 'intersecting') === 1 }
      : q === 'distance' ? { d: at(i, 'distance') }
        : { hit: at(i, 'intersecting') === 1, depth: at(i, 'depth'), n: at(i, 'intersecting') === 1 ? [at(i, 'normal.x'), at(i, 'normal.y'), at(i, 'normal.z')] : null });
  }]));
  return { pass, loose, looseAnswers, outs };
}

function rapierContenders(rapier, cell) {
  const { R } = rapier;
  const I = cell.instances;
  const shapes = cell.specs.map(rapier.make);
  const raws = shapes.map((s) => s.intoRaw());
  const vec = (p) => ({ x: p[0], y: p[1], z: p[2] });
  const rot = (p) => ({ x: p[3], y: p[4], z: p[5], w: p[6] });
  const m = I.length;
  const A = I.map((i) => shapes[i.ia]), B = I.map((i) => shapes[i.ib]);
  const rA = I.map((i) => raws[i.ia]), rB = I.map((i) => raws[i.ib]);
  const pA = I.map((i) => vec(i.poseA)), qA = I.map((i) => rot(i.poseA));
  const pB = I.map((i) => vec(i.poseB)), qB = I.map((i) => rot(i.poseB));
  const rpA = pA.map((v) => R.VectorOps.intoRaw(v)), rqA = qA.map((v) => R.RotationOps.intoRaw(v));
  const rpB = pB.map((v) => R.VectorOps.intoRaw(v)), rqB = qB.map((v) => R.RotationOps.intoRaw(v));
  const target = new R.ShapeContact(0, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 }, { x: 0, y: 0, z: 0 });
  const FAR = 1e6;
  const rawContact = (i, prediction) => {
    const c = rA[i].contactShape(rpA[i], rqA[i], rB[i], rpB[i], rqB[i], prediction);
    return c === undefined ? null : R.ShapeContact.fromBuffer(c, target);
  };
  const raw = {
    intersect: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += rA[i].intersectsShape(rpA[i], rqA[i], rB[i], rpB[i], rqB[i]) ? 1 : 0;
      return s;
    },
    distance: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = rawContact(i, FAR);
        if (c) s += c.distance;
      }
      return s;
    },
    penetration: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = rawContact(i, 0);
        if (c) s += c.distance;
      }
      return s;
    },
    contact: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = rawContact(i, CONTACT_MARGIN);
        if (c) s += c.distance;
      }
      return s;
    },
  };
  const api = {
    intersect: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += A[i].intersectsShape(pA[i], qA[i], B[i], pB[i], qB[i]) ? 1 : 0;
      return s;
    },
    distance: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = A[i].contactShape(pA[i], qA[i], B[i], pB[i], qB[i], FAR, target);
        if (c) s += c.distance;
      }
      return s;
    },
    penetration: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const c = A[i].contactShape(pA[i], qA[i], B[i], pB[i], qB[i], 0, target);
        if (c) s += c.distance;
      }
      return s;
    },
  };
  // Answers through the public Shape API (the same wasm query as the raw path).
  const answers = {
    contact: () => I.map((_, i) => {
      const c = rawContact(i, CONTACT_MARGIN);
      return { c: c !== null, d: c === null ? NaN : c.distance };
    }),
    intersect: () => I.map((_, i) => ({ hit: A[i].intersectsShape(pA[i], qA[i], B[i], pB[i], qB[i]) })),
    distance: () => I.map((_, i) => {
      const c = A[i].contactShape(pA[i], qA[i], B[i], pB[i], qB[i], FAR);
      return { d: c ? Math.max(0, c.distance) : NaN };
    }),
    penetration: () => I.map((_, i) => {
      const c = A[i].contactShape(pA[i], qA[i], B[i], pB[i], qB[i], 0);
      if (!c || !(c.distance < 0)) return { hit: false, depth: c ? Math.max(0, -c.distance) : 0, n: null };
      return { hit: true, depth: -c.distance, n: [c.normal1.x, c.normal1.y, c.normal1.z] };
    }),
  };
  const dispose = () => {
    for (const r of [...raws, ...rpA, ...rqA, ...rpB, ...rqB]) r.free();
  };
  return { raw, api, answers, dispose };
}

function crashcatContender(crash, cell) {
  const { cc } = crash;
  const I = cell.instances;
  const shapes = cell.specs.map(crash.make);
  const m = I.length;
  const A = I.map((i) => shapes[i.ia]), B = I.map((i) => shapes[i.ib]);
  const PA = I.map((i) => i.poseA), PB = I.map((i) => i.poseB);
  const supA = cc.createSupport(), supB = cc.createSupport();
  const gjk = cc.createGjkClosestPoints();
  const dir = [1, 0, 0];
  const ONE = [1, 1, 1];
  const EXCLUDE = cc.SupportFunctionMode.EXCLUDE_CONVEX_RADIUS;
  // GJK on the cores (radii reported by the supports), B in A's frame, as collideConvexVsConvex sets it up.
  const gjkPair = (i, intersectOnly) => {
    const a = PA[i], b = PB[i];
    cc.setShapeSupport(supA, A[i], EXCLUDE, ONE);
    cc.setShapeSupport(supB, B[i], EXCLUDE, ONE);
    // q = conj(qA)·qB, t = conj(qA)·(pB − pA)
    const ax = -a[3], ay = -a[4], az = -a[5], aw = a[6];
    const bx = b[3], by = b[4], bz = b[5], bw = b[6];
    const x = aw * bx + ax * bw + ay * bz - az * by;
    const y = aw * by - ax * bz + ay * bw + az * bx;
    const z = aw * bz + ax * by - ay * bx + az * bw;
    const w = aw * bw - ax * bx - ay * by - az * bz;
    const dx = b[0] - a[0], dy = b[1] - a[1], dz = b[2] - a[2];
    // rotate (dx, dy, dz) by conj(qA): v + 2w(u×v) + 2u×(u×v), u = (ax, ay, az), w = aw
    const cx = ay * dz - az * dy, cy = az * dx - ax * dz, cz = ax * dy - ay * dx;
    const tx = dx + 2 * (aw * cx + ay * cz - az * cy);
    const ty = dy + 2 * (aw * cy + az * cx - ax * cz);
    const tz = dz + 2 * (aw * cz + ax * cy - ay * cx);
    const M = supB.transform;
    M[0] = 1 - 2 * (y * y + z * z), M[1] = 2 * (x * y + z * w), M[2] = 2 * (x * z - y * w), M[3] = 0;
    M[4] = 2 * (x * y - z * w), M[5] = 1 - 2 * (x * x + z * z), M[6] = 2 * (y * z + x * w), M[7] = 0;
    M[8] = 2 * (x * z + y * w), M[9] = 2 * (y * z - x * w), M[10] = 1 - 2 * (x * x + y * y), M[11] = 0;
    M[12] = tx, M[13] = ty, M[14] = tz, M[15] = 1;
    supB.hasTransform = true;
    if (tx * tx + ty * ty + tz * tz > 1e-12) dir[0] = tx, dir[1] = ty, dir[2] = tz;
    else dir[0] = 1, dir[1] = 0, dir[2] = 0;
    const r = supA.convexRadius + supB.convexRadius;
    cc.gjkClosestPoints(gjk, supA, supB, CRASHCAT_TOLERANCE, dir, intersectOnly ? r * r : Number.MAX_VALUE);
    return r;
  };
  const intersect = (i) => {
    const r = gjkPair(i, true);
    return gjk.squaredDistance <= r * r;
  };
  const distance = (i) => {
    const r = gjkPair(i, false);
    return Math.max(0, Math.sqrt(gjk.squaredDistance) - r);
  };
  const collector = cc.createClosestCollideShapeCollector();
  const settings = cc.createDefaultCollideShapeSettings();
  const withMargin = cc.createDefaultCollideShapeSettings();
  withMargin.maxSeparationDistance = CONTACT_MARGIN;
  const collide = (i, how) => {
    const a = PA[i], b = PB[i];
    collector.reset();
    cc.collideConvexVsConvex(collector, how, A[i], 0, 0, a[0], a[1], a[2], a[3], a[4], a[5], a[6], 1, 1, 1,
      B[i], 0, 0, b[0], b[1], b[2], b[3], b[4], b[5], b[6], 1, 1, 1);
    return collector.hit;
  };
  const penetration = (i) => collide(i, settings);
  // Its penetration is negative for a gap (up to maxSeparationDistance); no hit means a gap beyond it.
  const contact = (i) => collide(i, withMargin);
  const pass = {
    intersect: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += intersect(i) ? 1 : 0;
      return s;
    },
    distance: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += distance(i);
      return s;
    },
    penetration: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const h = penetration(i);
        if (h) s += h.penetration;
      }
      return s;
    },
    contact: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const h = contact(i);
        if (h) s += h.penetration;
      }
      return s;
    },
  };
  const answers = {
    contact: () => I.map((_, i) => {
      const h = contact(i);
      return { c: !!h, d: h ? -h.penetration : NaN };
    }),
    intersect: () => I.map((_, i) => ({ hit: intersect(i) })),
    distance: () => I.map((_, i) => ({ d: distance(i) })),
    penetration: () => I.map((_, i) => {
      const h = penetration(i);
      if (!h || !(h.penetration > 0)) return { hit: false, depth: h ? Math.max(0, h.penetration) : 0, n: null };
      const ax = h.penetrationAxis, l = norm(ax);
      return { hit: true, depth: h.penetration, n: l > 0 ? scl(ax, 1 / l) : [NaN, NaN, NaN] };
    }),
  };
  return { pass, answers };
}

function joltContender(jolt, cell) {
  const { J } = jolt;
  const I = cell.instances;
  const m = I.length;
  const shapes = cell.specs.map(jolt.make);
  const unit = new J.Vec3(1, 1, 1);
  const origin = new J.RVec3(0, 0, 0);
  const filter = new J.ShapeFilter();
  const touching = new J.CollideShapeSettings(); // mMaxSeparationDistance 0, tolerances 1e-4 (its defaults)
  const gap = new J.CollideShapeSettings();
  gap.mMaxSeparationDistance = JOLT_MAX_SEPARATION;
  const nearby = new J.CollideShapeSettings();
  nearby.mMaxSeparationDistance = CONTACT_MARGIN;
  const anyHit = new J.CollideShapeAnyHitCollisionCollector();
  const closest = new J.CollideShapeClosestHitCollisionCollector();
  // Per instance: A's centre-of-mass transform (a hull's centre of mass is its local origin in Jolt, so the pose
  // goes through TransformedShape.SetWorldTransform, which applies it) and B as a TransformedShape.
  const scratch = new J.TransformedShape();
  const place = (ts, shape, pose) => {
    const p = new J.RVec3(pose[0], pose[1], pose[2]);
    const q = new J.Quat(pose[3], pose[4], pose[5], pose[6]);
    ts.mShape = shape;
    ts.SetWorldTransform(p, q, unit);
    J.destroy(p);
    J.destroy(q);
  };
  const A = I.map((i) => shapes[i.ia]);
  const comA = I.map((inst) => {
    place(scratch, shapes[inst.ia], inst.poseA);
    const t = scratch.GetCenterOfMassTransform(); // a view of a temporary: copied column by column
    const copy = new J.RMat44();
    for (let c = 0; c < 4; c++) copy.SetColumn4(c, t.GetColumn4(c));
    return copy;
  });
  const B = I.map((inst) => {
    const ts = new J.TransformedShape();
    place(ts, shapes[inst.ib], inst.poseB);
    return ts;
  });
  const collide = (i, settings, collector) => {
    collector.Reset();
    B[i].CollideShape(A[i], unit, comA[i], settings, origin, collector, filter);
    return collector.HadHit();
  };
  const intersect = (i) => collide(i, touching, anyHit);
  // Jolt's depth is negative for a gap (up to mMaxSeparationDistance); no hit means a gap beyond it.
  const depthOf = (i, settings) => (collide(i, settings, closest) ? closest.mHit.mPenetrationDepth : -Infinity);
  const pass = {
    intersect: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += intersect(i) ? 1 : 0;
      return s;
    },
    distance: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += Math.max(0, -depthOf(i, gap));
      return s;
    },
    penetration: () => {
      let s = 0;
      for (let i = 0; i < m; i++) s += Math.max(0, depthOf(i, touching));
      return s;
    },
    contact: () => {
      let s = 0;
      for (let i = 0; i < m; i++) {
        const depth = depthOf(i, nearby);
        if (depth !== -Infinity) s += depth;
      }
      return s;
    },
  };
  const answers = {
    contact: () => I.map((_, i) => {
      const depth = depthOf(i, nearby);
      return { c: depth !== -Infinity, d: depth === -Infinity ? NaN : -depth };
    }),
    intersect: () => I.map((_, i) => ({ hit: intersect(i) })),
    distance: () => I.map((_, i) => {
      const depth = depthOf(i, gap);
      return { d: depth === -Infinity ? NaN : Math.max(0, -depth) };
    }),
    penetration: () => I.map((_, i) => {
      const depth = depthOf(i, touching);
      if (!(depth > 0)) return { hit: false, depth: Math.max(0, depth), n: null };
      const ax = closest.mHit.mPenetrationAxis; // moves B out of A, as our normal does
      const n = [ax.GetX(), ax.GetY(), ax.GetZ()];
      const l = norm(n);
      return { hit: true, depth, n: l > 0 ? scl(n, 1 / l) : [NaN, NaN, NaN] };
    }),
  };
  const dispose = () => {
    for (const o of [...B, scratch, ...comA, unit, origin, filter, touching, gap, nearby, anyHit, closest]) J.destroy(o);
    for (const shape of shapes) shape.Release();
  };
  return { pass, answers, dispose };
}

// ---------------------------------------------------------------- accuracy
function judge(query, answers, refs) {
  const out = { n: answers.length, nan: 0, wrong: 0, wrongFar: 0, errMax: 0, errMedian: 0, overTight: 0, overFine: 0, overFail: 0, normalMax: 0 };
  const errs = [];
  answers.forEach((a, k) => {
    const { sd, A, B } = refs[k];
    const inside = sd < 0;
    if (query === 'intersect') {
      if (typeof a.hit !== 'boolean') out.nan++;
      else if (a.hit !== inside) {
        out.wrong++;
        if (Math.abs(sd) > CRASHCAT_TOLERANCE) out.wrongFar++;
      }
      return;
    }
    const value = query === 'distance' ? a.d : a.depth;
    if (!Number.isFinite(value)) {
      out.nan++;
      return;
    }
    const exact = query === 'distance' ? Math.max(0, sd) : Math.max(0, -sd);
    const err = Math.abs(value - exact);
    errs.push(err);
    if (err > TOL_TIGHT) out.overTight++;
    if (err > TOL_FINE) out.overFine++;
    if (err > TOL_FAIL) out.overFail++;
    if (query === 'penetration') {
      if (a.hit !== inside) {
        out.wrong++;
        if (Math.abs(sd) > CRASHCAT_TOLERANCE) out.wrongFar++;
      }
      if (inside && a.hit && a.n) {
        if (!a.n.every(Number.isFinite)) out.nan++;
        else {
          // How far B must really move along the reported normal, beyond the exact depth (0 for the right normal).
          const u = scl(a.n, 1 / norm(a.n));
          out.normalMax = Math.max(out.normalMax, supportValue(A, u) + supportValue(B, neg(u)) - (-sd));
        }
      }
    }
  });
  out.errMax = errs.length ? Math.max(...errs) : NaN;
  out.errMedian = median(errs);
  return out;
}

// Contacts ({c, d}: reported, signed distance) against the exact signed distance at CONTACT_MARGIN: wrong when
// reported and beyond the margin or missing within it (pairs within 1e-6 of the margin are not counted), and
// the error of the distance of the contacts both agree on.
function judgeContact(answers, refs) {
  const out = { n: answers.length, beyond: 0, wrong: 0, errMax: 0, overFine: 0, overFail: 0 };
  const errs = [];
  answers.forEach((a, k) => {
    const { sd } = refs[k];
    const within = sd <= CONTACT_MARGIN;
    if (!within) out.beyond++;
    if (Math.abs(sd - CONTACT_MARGIN) > 1e-6 && a.c !== within) out.wrong++;
    if (a.c && within) {
      const err = Number.isFinite(a.d) ? Math.abs(a.d - sd) : Infinity;
      errs.push(err);
      if (err > TOL_FINE) out.overFine++;
      if (err > TOL_FAIL) out.overFail++;
    }
  });
  out.errMax = errs.length ? Math.max(...errs) : NaN;
  return out;
}

// ---------------------------------------------------------------- timing
const now = () => process.hrtime.bigint();
let sink = 0;
// One sample: up to 3 sub-rounds of whole passes until targetNs each (fewer when one pass is long: a
// sub-round already took 3·targetNs), the fastest sub-round's ns per pass. The minimum drops the
// sub-rounds that another process preempted (the machine is shared); medians over repeats are taken later.
function sample(fn, targetNs) {
  let best = Infinity, total = 0;
  for (let sub = 0; sub < 3 && total < 3 * targetNs; sub++) {
    let passes = 0;
    const t0 = now();
    let ns;
    do {
      sink += fn();
      passes++;
      ns = Number(now() - t0);
    } while (ns < targetNs);
    total += ns;
    best = Math.min(best, ns / passes);
  }
  return best;
}
function warm(fn, ms) {
  const t0 = now();
  do sink += fn();
  while (Number(now() - t0) < ms * 1e6);
}

function nativeExe(buildDir) {
  return path.join(buildDir, NATIVE_EXE);
}

// ---------------------------------------------------------------- closed-form pairs among bodies
// The cells above give every pair its own two shapes and poses, so a batch checks two poses per pair. A game has
// bodies, each with one pose, and its broad phase pairs them: here BODIES spheres and capsules (radii 0.2–0.6,
// half heights 0.2–0.8, random poses in a 20-unit cube) and 10 000 random pairs of each kind, through batch() and
// through createBatch()'s buffers (no copy), medians of the same sampling as the cells.
const BODIES = 1000;

function closedFormBodies(ours, settings) {
  const { api } = ours;
  const rng = mulberry32(0xb0d1e5);
  const n = settings.batchN;
  const spheres = [], capsules = [];
  for (let i = 0; i < BODIES / 2; i++) {
    spheres.push(api.sphere(0.2 + 0.4 * rng()));
    capsules.push(api.capsule(0.2 + 0.4 * rng(), 0.2 + 0.6 * rng()));
  }
  const shapes = [...spheres, ...capsules];
  const poses = new Float64Array(7 * BODIES);
  for (let i = 0; i < BODIES; i++) {
    const q = [rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5];
    const l = Math.hypot(...q);
    poses.set([20 * rng() - 10, 20 * rng() - 10, 20 * rng() - 10, q[0] / l, q[1] / l, q[2] / l, q[3] / l], 7 * i);
  }
  const half = BODIES / 2;
  const pick = (kind) => Math.floor(rng() * half) + (kind === 'capsule' ? half : 0);
  const rows = [];
  for (const [ka, kb] of [['sphere', 'sphere'], ['sphere', 'capsule'], ['capsule', 'capsule']]) {
    const pairs = new Uint32Array(2 * n);
    for (let k = 0; k < n; k++) {
      pairs[2 * k] = pick(ka);
      do pairs[2 * k + 1] = pick(kb);
      while (pairs[2 * k + 1] === pairs[2 * k]);
    }
    for (const q of QUERIES) {
      const out = new Float64Array(api.batchLayout(q).stride * n);
      const buffers = api.createBatch(q, shapes, { capacity: n });
      buffers.poses.set(poses);
      buffers.pairs.set(pairs);
      const fns = { batch: () => api.batch(q, shapes, poses, pairs, { out })[0], inPlace: () => buffers.run(n)[0] };
      for (const fn of Object.values(fns)) warm(fn, settings.warmupMs);
      const ns = {};
      for (const [name, fn] of Object.entries(fns)) {
        const xs = [];
        for (let r = 0; r < settings.repeats; r++) xs.push(sample(fn, settings.targetMs * 1e6) / n);
        ns[name] = median(xs);
      }
      buffers.dispose();
      rows.push({ pair: `${ka}–${kb}`, query: q, ns });
    }
  }
  for (const s of shapes) s.dispose();
  return { bodies: BODIES, pairs: n, rows };
}

// ---------------------------------------------------------------- download size
// Bytes a page downloads for each library: every file of the entry's module graph (esbuild's, as bundlers
// resolve it), each gzipped -9 on its own, by scripts/sizes.mjs's functions. The rapier packages and
// jolt-physics's default entry inline their wasm; jolt-physics/wasm fetches a .wasm beside its .js, which the
// graph does not show, so it is added by name.
async function downloadSizes() {
  const { moduleGraph, fileSize } = await import(pathToFileURL(path.join(ROOT, 'scripts', 'sizes.mjs')).href);
  const measure = async (entry, extra = []) => {
    const parts = [...(await moduleGraph(entry)), ...extra].map(fileSize);
    return {
      files: parts.map((p) => path.relative(ROOT, p.file)),
      raw: parts.reduce((x, p) => x + p.raw, 0),
      gzip: parts.reduce((x, p) => x + p.gzip, 0),
    };
  };
  const out = { ours: await measure(path.join(ROOT, 'web', 'dist', 'lib', 'index.mjs')) };
  const peers = {
    rapier: ['@dimforge/rapier3d-compat'],
    rapierSimd: ['@dimforge/rapier3d-simd-compat'],
    jolt: ['jolt-physics'],
    joltWasmFile: ['jolt-physics/wasm', 'jolt-physics/jolt-physics.wasm.wasm'],
  };
  for (const [key, [entry, wasm]] of Object.entries(peers)) {
    try {
      out[key] = await measure(entry, wasm ? [fileURLToPath(import.meta.resolve(wasm))] : []);
    } catch {
      out[key] = null; // not installed: its column says so
    }
  }
  return out;
}

// ---------------------------------------------------------------- the run
// `contactOnly`: the inputs, references and contact rows alone (no other query, no native run, no sizes).
export async function runWasm({ quick = false, contactOnly = false, buildDir = path.join(ROOT, 'build', 'bench'), log = (m) => console.error(m) } = {}) {
  const started = Date.now();
  // Timed queries: the three of the tables, and the contact rows.
  const TIMED = contactOnly ? ['contact'] : [...QUERIES, 'contact'];
  const settings = {
    quick,
    repeats: quick ? 5 : 9,
    instances: quick ? 24 : 160,
    batchN: quick ? 2000 : 10000,
    targetMs: quick ? 1 : 2,
    warmupMs: quick ? 5 : 30,
    tolerances: { fine: TOL_FINE, fail: TOL_FAIL },
    crashcat: { collisionTolerance: CRASHCAT_TOLERANCE, penetrationTolerance: 1e-4, convexRadius: 0, hullTolerance: 1e-9 },
    rapier: { distancePrediction: 1e6, penetrationPrediction: 0 },
    contactMargin: CONTACT_MARGIN,
    jolt: { maxSeparationDistance: JOLT_MAX_SEPARATION, collisionTolerance: 1e-4, penetrationTolerance: 1e-4, convexRadius: 0, hullTolerance: 1e-9 },
  };
  const pending = {};
  const ours = await loadOurs();
  if (ours.pending) return { title: 'wasm', pending: { ours: ours.pending } };
  const rapier = await loadRapier('@dimforge/rapier3d-compat');
  if (rapier.pending) pending.rapier = rapier.pending;
  const rapierSimd = await loadRapier('@dimforge/rapier3d-simd-compat');
  if (rapierSimd.pending) pending.rapierSimd = rapierSimd.pending;
  const crash = await loadCrashcat();
  if (crash.pending) pending.crashcat = crash.pending;
  const jolt = await loadJolt();
  if (jolt.pending) pending.jolt = jolt.pending;
  const exe = nativeExe(buildDir);
  if (contactOnly) pending.native = 'not run (--contact)';
  else if (!existsSync(exe)) pending.native = `${path.relative(ROOT, exe)} is not built (cmake --build build/bench --target ${NATIVE_EXE})`;
  for (const [k, v] of Object.entries(pending)) log(`wasm bench: ${k} pending: ${v}`);

  // Inputs and references.
  const phase = (m) => log(`wasm bench: ${m} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  phase('making inputs and exact references');
  const featureCache = new Map();
  const cells = [];
  let seed = 1000;
  for (const shapeClass of SHAPE_CLASSES) {
    for (const poseClass of POSE_CLASSES) {
      const cell = makeCell(ours, shapeClass, poseClass, settings.instances, seed++);
      cell.refs = references(cell, featureCache);
      cells.push(cell);
    }
  }

  phase('contenders');
  // Contenders per cell.
  for (const cell of cells) {
    cell.c = {};
    cell.c.ours = oursContender(ours, cell);
    cell.c.batch = oursBatch(ours, cell, settings.batchN);
    if (!rapier.pending) cell.c.rapier = rapierContenders(rapier, cell);
    if (!rapierSimd.pending) cell.c.rapierSimd = rapierContenders(rapierSimd, cell);
    if (!crash.pending) cell.c.crashcat = crashcatContender(crash, cell);
    if (!jolt.pending) cell.c.jolt = joltContender(jolt, cell);
  }
  const timed = (cell, q) => {
    const list = [['ours', cell.c.ours.pass[q]], ['batch', cell.c.batch.pass[q]]];
    // Contacts: no loose batch, and rapier's query alone (its Shape API is timed on the three queries).
    if (q !== 'contact') list.push(['batchLoose', cell.c.batch.loose[q]]);
    if (cell.c.rapier && q === 'contact') list.push(['rapier', cell.c.rapier.raw[q]]);
    else if (cell.c.rapier) list.push(['rapier', cell.c.rapier.raw[q]], ['rapierApi', cell.c.rapier.api[q]]);
    if (cell.c.rapierSimd) list.push(['rapierSimd', cell.c.rapierSimd.raw[q]]);
    if (cell.c.crashcat) list.push(['crashcat', cell.c.crashcat.pass[q]]);
    if (cell.c.jolt) list.push(['jolt', cell.c.jolt.pass[q]]);
    return list;
  };

  // Accuracy (one pass each, before any timing) and the batch's agreement with the single calls.
  phase('accuracy');
  for (const cell of cells) {
    cell.accuracy = {};
    cell.batchMatches = {};
    // Contacts: each contender against the exact signed distance; the batch against contact() bit for bit.
    cell.contactAccuracy = {};
    for (const name of ['ours', 'rapier', 'rapierSimd', 'crashcat', 'jolt']) {
      if (cell.c[name]) cell.contactAccuracy[name] = judgeContact(cell.c[name].answers.contact(), cell.refs);
    }
    cell.c.batch.pass.contact();
    {
      const out = cell.c.batch.outs.contact;
      const stride = ours.api.batchLayout('contact').stride;
      cell.contactBatchMatches = cell.instances.every((inst, i) => {
        const c = ours.api.contact(cell.shapes[inst.ia], inst.poseA, cell.shapes[inst.ib], inst.poseB, { margin: CONTACT_MARGIN });
        const want = ours.api.batchResult('contact', out, i);
        return c === null ? want === null && out[i * stride] === 0 : want !== null && Object.is(c.distance, want.distance) &&
          c.normal.every((x, k) => Object.is(x, want.normal[k]));
      });
    }
    for (const q of contactOnly ? [] : QUERIES) {
      const mine = cell.c.ours.answers[q]();
      cell.iterations = { ...cell.iterations, [q]: mine.reduce((x, a) => x + a.iterations, 0) / mine.length };
      cell.accuracy[q] = { ours: judge(q, mine, cell.refs), oursLoose: judge(q, cell.c.batch.looseAnswers[q](), cell.refs) };
      if (cell.c.rapier) cell.accuracy[q].rapier = judge(q, cell.c.rapier.answers[q](), cell.refs);
      if (cell.c.rapierSimd) cell.accuracy[q].rapierSimd = judge(q, cell.c.rapierSimd.answers[q](), cell.refs);
      if (cell.c.crashcat) cell.accuracy[q].crashcat = judge(q, cell.c.crashcat.answers[q](), cell.refs);
      if (cell.c.jolt) cell.accuracy[q].jolt = judge(q, cell.c.jolt.answers[q](), cell.refs);
      cell.c.batch.pass[q]();
      const out = cell.c.batch.outs[q];
      const stride = ours.api.batchLayout(q).stride;
      const m = cell.instances.length;
      let same = true;
      for (let i = 0; i < m && same; i++) {
        const inst = cell.instances[i];
        const r = ours.api[q](cell.shapes[inst.ia], inst.poseA, cell.shapes[inst.ib], inst.poseB);
        const first = q === 'intersect' ? (r.intersecting ? 1 : 0) : q === 'distance' ? r.distance : r.depth;
        if (!Object.is(out[i * stride], first)) same = false;
      }
      cell.batchMatches[q] = same;
    }
  }

  // Native input.
  let nativeRuns = [];
  let nativeResults = null;
  const inputFile = path.join(buildDir, 'wasm_bench_input.json');
  if (!pending.native) {
    mkdirSync(buildDir, { recursive: true });
    writeFileSync(inputFile, JSON.stringify({
      batchN: settings.batchN, targetMs: settings.targetMs, warmupMs: settings.warmupMs, queries: QUERIES,
      cells: cells.map((c) => ({
        id: `${c.shapeClass}/${c.poseClass}`,
        shapes: c.specs,
        instances: c.instances.map((i) => [i.ia, i.ib, ...i.poseA, ...i.poseB]),
      })),
    }));
  }
  const runNative = (withResults) => {
    const r = spawnSync(nativeExe(buildDir), [inputFile, ...(withResults ? ['--results'] : [])], { encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`${NATIVE_EXE} failed: ${r.stderr || r.error?.message}`);
    return JSON.parse(r.stdout);
  };

  // Warm-up of every JS contender.
  phase('warm-up');
  for (const cell of cells) {
    for (const q of TIMED) for (const [, fn] of timed(cell, q)) warm(fn, settings.warmupMs);
  }

  // Timed repeats: JS contenders interleaved cell by cell, then the native program.
  const samples = cells.map(() => Object.fromEntries(TIMED.map((q) => [q, {}])));
  for (let r = 0; r < settings.repeats; r++) {
    phase(`repeat ${r + 1}/${settings.repeats}`);
    cells.forEach((cell, ci) => {
      for (const q of TIMED) {
        const list = timed(cell, q);
        for (let k = 0; k < list.length; k++) {
          const [name, fn] = list[(k + r) % list.length];
          const perPass = sample(fn, settings.targetMs * 1e6);
          const per = perPass / (name === 'batch' || name === 'batchLoose' ? settings.batchN : cell.instances.length);
          (samples[ci][q][name] ??= []).push(per);
        }
      }
    });
    if (!pending.native) {
      try {
        const nat = runNative(r === 0);
        if (r === 0) nativeResults = nat;
        nativeRuns.push(nat);
      } catch (e) {
        pending.native = e.message;
        log(`wasm bench: native pending: ${e.message}`);
      }
    }
  }
  for (const cell of cells) {
    cell.c.rapier?.dispose();
    cell.c.rapierSimd?.dispose();
    cell.c.jolt?.dispose();
  }
  jolt.dispose?.();
  const contact = cells.map((cell, ci) => {
    const ns = {};
    for (const [name, xs] of Object.entries(samples[ci].contact)) ns[name] = median(xs);
    return { shape: cell.shapeClass, pose: cell.poseClass, ns, accuracy: cell.contactAccuracy, batchMatchesSingle: cell.contactBatchMatches };
  });
  if (contactOnly) {
    return { title: 'contacts', generatedAt: new Date().toISOString(), seconds: (Date.now() - started) / 1000, settings, pending, contact, sink: Number.isFinite(sink) ? 0 : 1 };
  }
  const sizes = await downloadSizes().catch((e) => {
    pending.sizes = e.message;
    return null;
  });
  phase('closed-form pairs among bodies');
  const bodies = closedFormBodies(ours, settings);

  // Assemble.
  const outCells = cells.map((cell, ci) => {
    const id = `${cell.shapeClass}/${cell.poseClass}`;
    const queries = {};
    for (const q of QUERIES) {
      const ns = {};
      for (const [name, xs] of Object.entries(samples[ci][q])) ns[name] = median(xs);
      let nativeIdentical = null;
      if (nativeRuns.length) {
        const nc = nativeRuns.map((run) => run.cells.find((c) => c.id === id)?.[q]).filter(Boolean);
        ns.native = median(nc.map((x) => x.singleNs));
        ns.nativeBatch = median(nc.map((x) => x.batchNs));
        const nr = nativeResults?.cells.find((c) => c.id === id)?.[q];
        if (nr) {
          const stride = nr.stride;
          const m = cell.instances.length;
          // The timed rounds ran the loose-tolerance batch into the same buffer: answer again at the default
          // tolerance, which is what the native program ran.
          cell.c.batch.pass[q]();
          const wasm = cell.c.batch.outs[q];
          nativeIdentical = true;
          for (let k = 0; k < m * stride && nativeIdentical; k++) {
            const a = wasm[k], b = nr.results[k];
            if (!(b === null ? !Number.isFinite(a) : Object.is(a, b))) nativeIdentical = false;
          }
        }
      }
      queries[q] = { ns, iterations: cell.iterations[q], accuracy: cell.accuracy[q], batchMatchesSingle: cell.batchMatches[q], nativeIdentical };
    }
    return { shape: cell.shapeClass, pose: cell.poseClass, instances: cell.instances.length, queries };
  });

  return {
    title: 'WebAssembly in Node: collidoscope against rapier3d-compat, rapier3d-simd-compat, crashcat and jolt-physics, and the cost of wasm',
    generatedAt: new Date().toISOString(),
    seconds: (Date.now() - started) / 1000,
    versions: {
      node: process.version,
      collidoscope: ours.version,
      rapier: rapier.version ?? null,
      rapierSimd: rapierSimd.version ?? null,
      crashcat: crash.version ?? null,
      jolt: jolt.version ?? null,
      three: packageVersion('three'),
    },
    settings,
    pending,
    hull: 'Hull construction against three.js ConvexHull: bench/hull.mjs (not repeated here).',
    cells: outCells,
    contact,
    sizes,
    bodies,
    sink: Number.isFinite(sink) ? 0 : 1,
  };
}

// ---------------------------------------------------------------- markdown
const fmtRatio = (x) => (Number.isFinite(x) ? (x >= 10 ? x.toFixed(0) : x.toFixed(2)) : '–');
const fmtNs = (x) => (Number.isFinite(x) ? (x >= 1000 ? `${(x / 1000).toFixed(x >= 10000 ? 0 : 1)} µs` : `${x.toFixed(0)} ns`) : '–');
const fmtErr = (x) => (Number.isFinite(x) ? (x === 0 ? '0' : x.toExponential(0)) : '–');

// Column names of the peers, and those whose distance on overlapping pairs also computes the penetration.
const PEER_LABEL = { rapier: 'rapier', rapierApi: 'rapier Shape API', rapierSimd: 'rapier simd', crashcat: 'crashcat', jolt: 'jolt' };
const UNFAIR_DISTANCE = new Set(['rapier', 'rapierApi', 'rapierSimd', 'jolt']);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

function sizeLines(result) {
  const z = result.sizes;
  const v = result.versions;
  const peer = (key, name) => (z[key] ? `${name} ${kib(z[key].gzip)}` : `${name} – (not installed)`);
  const ratio = z.rapier ? z.ours.gzip / z.rapier.gzip : NaN;
  return [`**Download size** (gzip -9 of each file of the entry's module graph, as the README's "Download size" ` +
    `measures; the wasm inlined in every entry): collidoscope ${v.collidoscope} default flavour ` +
    `(${z.ours.files.map((f) => `\`${path.basename(f)}\``).join(' + ')}) ${kib(z.ours.gzip)}; ` +
    `${peer('rapier', `@dimforge/rapier3d-compat ${v.rapier ?? ''}`)}; ${peer('rapierSimd', `@dimforge/rapier3d-simd-compat ${v.rapierSimd ?? ''}`)}; ` +
    `${peer('jolt', `jolt-physics ${v.jolt ?? ''}`)}` +
    (z.joltWasmFile ? ` (its \`jolt-physics/wasm\` flavour, .js + .wasm: ${kib(z.joltWasmFile.gzip)})` : '') +
    `. Ours ÷ rapier3d-compat: **${Number.isFinite(ratio) ? ratio.toFixed(3) : '–'}** (the goal: under 0.2).`];
}

export function wasmMarkdown(result) {
  const L = [];
  L.push('## WebAssembly in Node: collidoscope against rapier, crashcat and Jolt');
  L.push('');
  if (!result.cells) {
    L.push(`Not run: ${Object.values(result.pending ?? {}).join('; ')}`);
    return L;
  }
  const v = result.versions;
  const s = result.settings;
  L.push(`Node ${v.node}; collidoscope ${v.collidoscope} (web/dist/lib/index.mjs, wasm -O2); @dimforge/rapier3d-compat ${v.rapier ?? '–'}; ` +
    `@dimforge/rapier3d-simd-compat ${v.rapierSimd ?? '–'}` +
    (v.rapierSimd && v.rapier && v.rapierSimd !== v.rapier ? ' (a separate package with its own releases, not the same version as rapier3d-compat)' : '') +
    `; crashcat ${v.crashcat ?? '–'}; jolt-physics ${v.jolt ?? '–'}; three.js ${v.three ?? '–'} (hulls only, in the hull section: bench/hull.mjs). ` +
    `Same-class pairs, ${s.instances} instances per cell (8 random shapes of size ~1 per class), batch() over N = ${s.batchN} pairs; ` +
    `contenders interleaved cell by cell after a warm-up, medians over ${s.repeats} repeats of ≥ ${s.targetMs} ms rounds. ` +
    `Near touching means a signed distance of ±1e-7…1e-4; overlapping 10–85 % of the pair's depth at coincident origins.`);
  for (const [k, msg] of Object.entries(result.pending ?? {})) L.push('', `- ${k}: pending — ${msg}`);
  L.push('');
  L.push('Peers, as asked: **rapier** = `RawShape`s made once from its `Shape`s, poses made once per instance, then ' +
    '`intersectsShape` / `contactShape` (prediction 1e6 for the distance, 0 for the penetration): the query alone; ' +
    '**rapier Shape API** = the documented `Shape.intersectsShape` / `Shape.contactShape`, which convert both shapes ' +
    '(a `ConvexPolyhedron` rebuilds its hull) and the poses into wasm objects on every call. **crashcat** = its exported ' +
    'narrow phase: `gjkClosestPoints` on its support structs (intersect with an early out beyond the radii; distance), ' +
    '`collideConvexVsConvex` with a closest-hit collector (GJK + EPA) for the penetration; shapes with `convexRadius: 0` and ' +
    '`hullTolerance: 1e-9` so that they are the same shapes as ours, its default tolerances (1e-4). **rapier simd** = ' +
    '@dimforge/rapier3d-simd-compat (the same bindings built with wasm SIMD) on the **rapier** route. **jolt** = jolt-physics ' +
    '(its default flavour: one thread, wasm inlined, f32) on shapes without bodies: `TransformedShape.CollideShape`, ' +
    'i.e. `CollisionDispatch::sCollideShapeVsShape` (GJK, then EPA when the cores overlap), with A\'s centre-of-mass ' +
    'transform and B\'s `TransformedShape` made once per instance; an any-hit collector for the intersect, a closest-hit ' +
    `collector for the penetration and, with \`mMaxSeparationDistance\` ${s.jolt?.maxSeparationDistance ?? '–'}, for the distance ` +
    '(Jolt reports a gap below it as a negative depth; it inflates shape A by it in f32, so a larger value costs digits: ' +
    'this one exceeds every gap in the cells, 0.5 at most). `SphereShape`, `BoxShape` and `ConvexHullShape` with convex ' +
    'radius 0 (hulls with `mHullTolerance` 1e-9), `CapsuleShape`; its default tolerances (1e-4). Jolt fills its collision ' +
    'dispatch table only when a `JoltInterface` is constructed, which also builds a `PhysicsSystem`: one is made, as small ' +
    'as it allows, and holds no body. Every Jolt object made is destroyed after the run.');
  L.push('');
  if (result.sizes) L.push(...sizeLines(result), '');

  const cellsOf = (shape) => result.cells.filter((c) => c.shape === shape);
  const QLABEL = { intersect: 'intersect', distance: 'distance', penetration: 'penetration (contact)' };
  const PEER_Q = {
    intersect: 'rapier `intersectsShape`, crashcat GJK with early out, Jolt `CollideShape` with an any-hit collector',
    distance: 'rapier `contactShape` with prediction 1e6, crashcat `gjkClosestPoints`, Jolt `CollideShape` with a maximum separation',
    penetration: 'rapier `contactShape` with prediction 0, crashcat `collideConvexVsConvex`, Jolt `CollideShape` with a closest-hit collector',
  };
  const gm = {};
  for (const q of QUERIES) {
    L.push(`### Speed: ${QLABEL[q]} (${PEER_Q[q]})`);
    L.push('');
    L.push('collidoscope time ÷ peer time: < 1 means we are faster. "batch" is our batch() per pair; "our iterations" the mean GJK iterations (intersect, distance) or EPA iterations (penetration; 0 when GJK settles it).' +
      (q === 'intersect' ? ' Jolt has no yes/no overlap query on two shapes: `CollideShape` with an any-hit collector still ' +
        'computes the contact (EPA when the cores overlap), so the jolt columns compare our intersect with its contact query.' : '') +
      (q === 'distance' ? ' Neither rapier nor Jolt has a distance query on shapes: a contact query with a large prediction ' +
        '(rapier) or maximum separation (Jolt) answers it, and on overlapping pairs it then computes the penetration as well, ' +
        'which ours (distance 0 once GJK encloses the origin) does not: those rows, marked *, favour us and are left out of ' +
        'the rapier, rapier simd and jolt means.' : ''));
    L.push('');
    // Columns: ours single ÷ each peer (rapier's Shape API after rapier), batch ÷ ours single, batch ÷ each peer.
    const singleCols = ['rapier', 'rapierApi', 'rapierSimd', 'crashcat', 'jolt'];
    const batchCols = ['rapier', 'rapierSimd', 'crashcat', 'jolt'];
    L.push(`| pair | poses | ours single | our iterations | ${singleCols.map((k) => `÷ ${PEER_LABEL[k]}`).join(' | ')} | batch ÷ ours single | ` +
      `${batchCols.map((k) => `batch ÷ ${PEER_LABEL[k]}`).join(' | ')} |`);
    L.push(`|---|---|${Array(2 + singleCols.length + 1 + batchCols.length).fill('---:').join('|')}|`);
    const keys = [...singleCols.map((k) => [k, 'ours', k]), ['batch', 'batch', 'ours'], ...batchCols.map((k) => [`batch:${k}`, 'batch', k])];
    gm[q] = Object.fromEntries(keys.map(([k]) => [k, []]));
    for (const c of result.cells) {
      const t = c.queries[q].ns;
      const unfair = q === 'distance' && c.pose === 'overlapping';
      const cells = keys.map(([k, num, den]) => {
        const x = t[num] / t[den];
        const marked = unfair && UNFAIR_DISTANCE.has(den);
        if (!marked) gm[q][k].push(x);
        return fmtRatio(x) + (marked && Number.isFinite(x) ? '*' : '');
      });
      L.push(`| ${SHAPE_LABEL[c.shape]} | ${POSE_LABEL[c.pose]} | ${fmtNs(t.ours)} | ${c.queries[q].iterations?.toFixed(1) ?? '–'} | ${cells.join(' | ')} |`);
    }
    L.push(`| **geometric mean** | | | | ${keys.map(([k]) => `**${fmtRatio(geomean(gm[q][k]))}**`).join(' | ')} |`);
    L.push('');
  }

  if (result.bodies) {
    const b = result.bodies;
    L.push('### Sphere and capsule pairs among bodies');
    L.push('');
    L.push(`The cells above give each pair its own two shapes and poses (two poses checked per pair). Here ${b.bodies} bodies ` +
      `(half spheres, half capsules, one pose each) and ${b.pairs} random pairs per kind, as a broad phase hands them over: ` +
      'ns per pair through `batch()` and through `createBatch()` buffers filled in place. All are closed forms.');
    L.push('');
    L.push(`| pair | ${QUERIES.map((q) => `${q}: batch() | ${q}: in place`).join(' | ')} |`);
    L.push(`|---|${QUERIES.map(() => '---:|---:').join('|')}|`);
    for (const pair of [...new Set(b.rows.map((r) => r.pair))]) {
      const cellsOfPair = QUERIES.map((q) => b.rows.find((r) => r.pair === pair && r.query === q));
      L.push(`| ${pair} | ${cellsOfPair.map((r) => `${fmtNs(r.ns.batch)} | ${fmtNs(r.ns.inPlace)}`).join(' | ')} |`);
    }
    L.push('');
  }

  // Our batch at crashcat's and Jolt's tolerance.
  L.push(`### Speed at crashcat's tolerance: batch() after \`setTolerance(${LOOSE_TOLERANCE})\``);
  L.push('');
  L.push(`The same batches timed at the default tolerance (1e-10) and at ${LOOSE_TOLERANCE}, crashcat's and Jolt's ` +
    '(setTolerance: GJK, EPA and the casts stop once the answer is certified within it; closed forms are exact ' +
    'either way). Ratios < 1: we are faster. The largest error is against the exact references (distance, or depth).');
  L.push('');
  const looseCols = ['rapier', 'rapierSimd', 'crashcat', 'jolt'];
  const looseGm = {};
  for (const q of QUERIES) {
    L.push(`${QLABEL[q]}:`);
    L.push('');
    L.push(`| pair | poses | batch, default | batch, ${LOOSE_TOLERANCE} | ${LOOSE_TOLERANCE} ÷ default | ${looseCols.map((k) => `${LOOSE_TOLERANCE} ÷ ${PEER_LABEL[k]}`).join(' | ')} |` +
      (q === 'intersect' ? '' : ` largest error at ${LOOSE_TOLERANCE} |`));
    L.push(`|---|---|${Array(3 + looseCols.length).fill('---:').join('|')}|${q === 'intersect' ? '' : '---:|'}`);
    const keys = [['default', 'batchLoose', 'batch'], ...looseCols.map((k) => [k, 'batchLoose', k])];
    looseGm[q] = Object.fromEntries(keys.map(([k]) => [k, []]));
    for (const c of result.cells) {
      const t = c.queries[q].ns;
      const unfair = q === 'distance' && c.pose === 'overlapping';
      const ratios = keys.map(([k, num, den]) => {
        const x = t[num] / t[den];
        const marked = unfair && UNFAIR_DISTANCE.has(den);
        if (!marked) looseGm[q][k].push(x);
        return fmtRatio(x) + (marked && Number.isFinite(x) ? '*' : '');
      });
      const err = c.queries[q].accuracy?.oursLoose;
      L.push(`| ${SHAPE_LABEL[c.shape]} | ${POSE_LABEL[c.pose]} | ${fmtNs(t.batch)} | ${fmtNs(t.batchLoose)} | ${ratios.join(' | ')} |` +
        (q === 'intersect' ? '' : ` ${err ? err.errMax.toExponential(1) : '–'} |`));
    }
    L.push(`| **geometric mean** | | | | ${keys.map(([k]) => `**${fmtRatio(geomean(looseGm[q][k]))}**`).join(' | ')} |${q === 'intersect' ? '' : ' |'}`);
    L.push('');
  }
  const looseAll = (k) => geomean(QUERIES.flatMap((q) => looseGm[q][k]));
  L.push(`At ${LOOSE_TOLERANCE}, over all three queries: batch() per pair ${fmtRatio(looseAll('default'))} of its time at the default; ` +
    looseCols.map((k) => `${fmtRatio(looseAll(k))} of ${PEER_LABEL[k]}'s`).join(', ') + ' (geometric means; * rows left out as above).');
  L.push('');

  // Accuracy.
  L.push('### Accuracy against the exact references');
  L.push('');
  L.push(`References computed independently (point/segment distances for spheres and capsules; for boxes and polytopes ` +
    `brute force over hull faces from all point triples, Minkowski-face directions for the overlap and depth, ` +
    `vertex–triangle and edge–edge pairs for the distance). Errors are absolute (shapes ~1, scenes ~3); ` +
    `"> ${TOL_FINE.toExponential(0)}" and "> ${TOL_FAIL.toExponential(0)}" count answers off by more; a failure is a NaN / missing answer, a wrong ` +
    `intersect answer, or an error > ${TOL_FAIL.toExponential(0)}.`);
  L.push('');
  const CONT = ['ours', 'rapier', 'rapierSimd', 'crashcat', 'jolt'];
  const contLabel = (k) => PEER_LABEL[k] ?? k;
  L.push(`Wrong intersect answers (separated / near touching / overlapping, ${result.settings.instances} instances each; ` +
    `in brackets those of pairs farther than 1e-4 from touching, i.e. beyond crashcat's and Jolt's tolerance and f32 rounding):`);
  L.push('');
  L.push(`| pair | ${CONT.map(contLabel).join(' | ')} |`);
  L.push(`|---|${CONT.map(() => '---:').join('|')}|`);
  const totals = {};
  for (const shape of SHAPE_CLASSES) {
    const cs = cellsOf(shape);
    const cells = CONT.map((k) => {
      const as = cs.map((c) => c.queries.intersect.accuracy[k]);
      if (as.some((a) => !a)) return '–';
      totals[k] ??= { wrongI: 0, nanI: 0, farI: 0 };
      for (const a of as) {
        totals[k].wrongI += a.wrong;
        totals[k].nanI += a.nan;
        totals[k].farI += a.wrongFar;
      }
      const far = as.reduce((x, a) => x + a.wrongFar, 0);
      return as.map((a) => String(a.wrong + a.nan)).join(' / ') + (far ? ` (${far})` : '');
    });
    L.push(`| ${SHAPE_LABEL[shape]} | ${cells.join(' | ')} |`);
  }
  L.push('');
  for (const q of ['distance', 'penetration']) {
    L.push(q === 'distance'
      ? 'Distance: largest error, and how many answers are off by > 1e-6 / > 1e-3 (all three pose classes together; overlapping pairs must answer 0):'
      : 'Penetration depth: largest error, answers off by > 1e-6 / > 1e-3, wrong "in contact" flags, and the normal\'s excess (how much farther than the exact depth B must move along the reported normal; 0 for the right normal):');
    L.push('');
    L.push(`| pair | ${CONT.map(contLabel).join(' | ')} |`);
    L.push(`|---|${CONT.map(() => '---').join('|')}|`);
    for (const shape of SHAPE_CLASSES) {
      const cs = cellsOf(shape);
      const cellText = CONT.map((k) => {
        const as = cs.map((c) => c.queries[q].accuracy[k]).filter(Boolean);
        if (!as.length) return '–';
        const max = Math.max(...as.map((a) => a.errMax));
        const fine = as.reduce((x, a) => x + a.overFine, 0), fail = as.reduce((x, a) => x + a.overFail, 0);
        const nan = as.reduce((x, a) => x + a.nan, 0), wrong = as.reduce((x, a) => x + a.wrong, 0);
        const nmax = Math.max(...as.map((a) => a.normalMax));
        totals[k][`fail_${q}`] = (totals[k][`fail_${q}`] ?? 0) + fail + nan + (q === 'penetration' ? wrong : 0);
        totals[k][`max_${q}`] = Math.max(totals[k][`max_${q}`] ?? 0, max);
        totals[k][`n_${q}`] = (totals[k][`n_${q}`] ?? 0) + as.reduce((x, a) => x + a.n, 0);
        totals[k][`nan_${q}`] = (totals[k][`nan_${q}`] ?? 0) + nan;
        totals[k].far = (totals[k].far ?? 0) + (q === 'penetration' ? as.reduce((x, a) => x + a.wrongFar, 0) : 0);
        let t = `${fmtErr(max)} (${fine} / ${fail})`;
        if (nan) t += `, ${nan} NaN`;
        if (q === 'penetration') t += `, ${wrong} flags, normal ${fmtErr(nmax)}`;
        return t;
      });
      L.push(`| ${SHAPE_LABEL[shape]} | ${cellText.join(' | ')} |`);
    }
    L.push('');
  }
  const perCellN = result.settings.instances;
  const nI = perCellN * result.cells.length;
  const withT = CONT.filter((k) => totals[k]);
  L.push(`Failures in all, intersect / distance / penetration (of ${nI} answers each): ` + withT.map((k) =>
    `${contLabel(k)} ${totals[k].wrongI + totals[k].nanI} / ${totals[k].fail_distance} / ${totals[k].fail_penetration}`).join('; ') +
    '. Wrong intersect answers or contact flags on pairs farther than 1e-4 from touching: ' +
    withT.map((k) => `${contLabel(k)} ${totals[k].farI + totals[k].far}`).join(', ') + '.');
  L.push('');
  const tight = (k) => result.cells.reduce((x, c) => x + (c.queries.distance.accuracy[k]?.overTight ?? 0) + (c.queries.penetration.accuracy[k]?.overTight ?? 0), 0);
  L.push(`Distances and depths off by more than ${TOL_TIGHT.toExponential(0)} (of ${2 * nI}): ` +
    withT.map((k) => `${contLabel(k)} ${tight(k)}`).join(', ') + `; ours after setTolerance(${LOOSE_TOLERANCE}) ${tight('oursLoose')}.`);
  L.push('');

  // Cost of wasm.
  const hasNative = result.cells.some((c) => Number.isFinite(c.queries.intersect.ns.native));
  let summaryWasm = null;
  L.push('### The cost of wasm: our wasm ÷ our native build, same inputs');
  L.push('');
  if (!hasNative) {
    L.push(`Native timings pending: ${result.pending?.native ?? 'not run'}.`);
  } else {
    L.push('Single: the package\'s single query in Node (JS argument handling and result object included) ÷ `api::Registry::query` ' +
      'in bench/wasm_native.cpp (g++ -O2, one process per repeat, between the JS rounds). Batch: `batch()` per pair ÷ ' +
      '`Registry::batch` per pair (the same C++ loop compiled twice). "same bits": the native answers equal the wasm answers bit for bit.');
    L.push('');
    L.push('| pair | poses | intersect single | batch | distance single | batch | penetration single | batch | native single (i / d / p) | same bits |');
    L.push('|---|---|---:|---:|---:|---:|---:|---:|---:|---|');
    const gw = { single: [], batch: [] };
    for (const c of result.cells) {
      const cols = [];
      const nat = [];
      let same = true;
      for (const q of QUERIES) {
        const t = c.queries[q].ns;
        const a = t.ours / t.native, b = t.batch / t.nativeBatch;
        gw.single.push(a), gw.batch.push(b);
        cols.push(fmtRatio(a), fmtRatio(b));
        nat.push(fmtNs(t.native));
        if (c.queries[q].nativeIdentical === false) same = false;
      }
      L.push(`| ${SHAPE_LABEL[c.shape]} | ${POSE_LABEL[c.pose]} | ${cols.join(' | ')} | ${nat.join(' / ')} | ${same ? 'yes' : '**no**'} |`);
    }
    L.push(`| **geometric mean** | | | | | | | | single **${fmtRatio(geomean(gw.single))}**, batch **${fmtRatio(geomean(gw.batch))}** | |`);
    summaryWasm = { single: geomean(gw.single), batch: geomean(gw.batch) };
  }
  L.push('');
  L.push('Hull construction (our `hull(points)` against three.js\'s `ConvexHull`) is measured in the hull section (bench/hull.mjs) and not repeated here.');
  L.push('');
  L.push(...summarySentences(result, gm, totals, summaryWasm));
  return L;
}

const SUMMARY_PEERS = ['rapier', 'rapierSimd', 'crashcat', 'jolt'];

function summarySentences(result, gm, totals, summaryWasm) {
  const L = [];
  const cmp = [];
  for (const c of result.cells) {
    for (const q of QUERIES) {
      const t = c.queries[q].ns;
      for (const peer of SUMMARY_PEERS) {
        if (UNFAIR_DISTANCE.has(peer) && q === 'distance' && c.pose === 'overlapping') continue; // not the same work (see the table)
        if (Number.isFinite(t[peer])) cmp.push({ q, c, peer, single: t.ours / t[peer], batch: t.batch / t[peer] });
      }
    }
  }
  const name = (x) => `${x.q} ${SHAPE_LABEL[x.c.shape]} ${POSE_LABEL[x.c.pose]} vs ${PEER_LABEL[x.peer]} ${x.single.toFixed(2)}`;
  const peerText = (peer) => {
    const xs = cmp.filter((x) => x.peer === peer);
    if (!xs.length) return null;
    const perQ = QUERIES.map((q) => {
      const ys = xs.filter((x) => x.q === q);
      return `${q} ${geomean(ys.map((y) => y.single)).toFixed(2)} (faster in ${ys.filter((y) => y.single < 1).length} of ${ys.length})`;
    });
    const b = xs.filter((x) => x.batch < 1).length;
    const who = { rapier: "rapier's query alone", rapierSimd: "rapier simd's query alone", crashcat: 'crashcat', jolt: "Jolt's `CollideShape`" }[peer];
    return `- against ${who}: our single calls take ${perQ.join(', ')} of its time; batch() per pair ` +
      `${geomean(xs.map((x) => x.batch)).toFixed(2)} of its time over all three queries, faster in ${b} of ${xs.length} query cells.`;
  };
  const texts = SUMMARY_PEERS.map(peerText).filter(Boolean);
  if (texts.length) L.push('**What it shows.** Geometric means over the 18 cells (the distance on overlapping pairs left out for rapier, rapier simd and Jolt):', '', ...texts);
  const sorted = [...cmp].sort((a, b) => b.single - a.single);
  if (sorted.length) {
    L.push('');
    L.push(`Our largest losses: ${sorted.slice(0, 4).map(name).join('; ')}. Our largest wins: ` +
      `${sorted.slice(-4).reverse().map(name).join('; ')}.`);
  }
  const api = QUERIES.flatMap((q) => gm[q].rapierApi);
  if (api.some(Number.isFinite)) {
    L.push(`Through rapier's documented Shape API, which converts both shapes and poses into wasm objects per call ` +
      `(and rebuilds a polyhedron's hull), our single calls take ${geomean(api).toFixed(2)} of its time.`);
  }
  const ratioOver = (pick, f) => geomean(result.cells.filter(pick).flatMap((c) => QUERIES.map((q) => f(c.queries[q].ns))));
  const bs = ratioOver(() => true, (t) => t.batch / t.ours);
  const wasmCheap = ratioOver((c) => c.shape === 'sphere' || c.shape === 'capsule', (t) => t.batch / t.nativeBatch);
  const wasmPoly = ratioOver((c) => c.shape.startsWith('poly'), (t) => t.batch / t.nativeBatch);
  const sep = result.cells.filter((c) => c.pose === 'separated');
  const sepPen = geomean(sep.map((c) => c.queries.penetration.ns.ours / c.queries.intersect.ns.ours));
  const why = [`batch() per pair costs ${bs.toFixed(2)}× a single call, so little of a call's time is JS glue`];
  if (Number.isFinite(wasmCheap)) {
    why.push(`the wasm code itself runs ${wasmCheap.toFixed(1)}× its native time on spheres and capsules (a native query ` +
      `takes 0.2–0.6 µs there) and ${wasmPoly.toFixed(1)}× on polytopes`);
  }
  L.push(`Why we lose where we lose: ${why.join('; ')}. crashcat is plain JS (no boundary to cross) and stops GJK and EPA at a ` +
    `1e-4 tolerance where ours certify ~1e-9 (see the accuracy below). On separated pairs our penetration() runs GJK ` +
    `to convergence, because it reports the closest points, and costs ${sepPen.toFixed(1)}× our intersect() there, ` +
    `where crashcat's and Jolt's collides stop at the first separating axis (Jolt's after a bounding-box test that may ` +
    `skip GJK altogether): our largest losses. Jolt's intersect is a whole contact query, so on overlapping pairs it ` +
    `pays for EPA where ours stops when GJK encloses the origin.`);
  L.push('');
  const acc = ['ours', ...SUMMARY_PEERS].filter((k) => totals[k]).map((k) =>
    `${PEER_LABEL[k] ?? k}: largest distance error ${fmtErr(totals[k].max_distance)}, largest depth error ${fmtErr(totals[k].max_penetration)}, ` +
    `${totals[k].wrongI} wrong intersect answers (${totals[k].farI} farther than 1e-4 from touching)`);
  L.push(`Accuracy: ${acc.join('; ')}. rapier computes in f32 (inputs and answers rounded to ~1e-7 of the scene) and crashcat ` +
    `treats gaps below its 1e-4 collision tolerance as contact, by design: that is where most of their wrong answers sit. ` +
    `Beyond that, rapier's capsule–capsule contactShape overestimates separations (up to a few 1e-3 here), ` +
    `which also turns some near-touching overlaps into misses` +
    (totals.rapier?.nan_distance ? `, and for ${totals.rapier.nan_distance} pair(s) its contactShape returned no contact ` +
      `at all, even with prediction 1e6 (the NaN in the distance table)` : '') + '.' +
    (totals.jolt ? ` Jolt computes in f32 too and, like crashcat, counts a gap below its 1e-4 collision tolerance as ` +
      `contact (${totals.jolt.wrongI - totals.jolt.farI} of its ${totals.jolt.wrongI} wrong intersect answers are within ` +
      `1e-4 of touching); its GJK stops at that tolerance, hence distance errors up to ` +
      `${fmtErr(totals.jolt.max_distance)}.` : ''));
  if (summaryWasm) {
    L.push('');
    L.push(`The cost of wasm: the same C++ in wasm takes ${summaryWasm.batch.toFixed(2)}× its native time in a batch ` +
      `(geometric mean per pair), and a single call from JS ${summaryWasm.single.toFixed(2)}× the native call; ` +
      `the answers are the same bits.`);
  }
  L.push('', ...contactMarkdown(result));
  return L;
}

// The contact rows: times per pair, our single call and batch against each peer, and each one's answers against
// the exact signed distance.
export function contactMarkdown(result) {
  const L = [];
  const rows = result.contact;
  if (!rows) return L;
  const margin = result.settings?.contactMargin ?? CONTACT_MARGIN;
  const peers = ['rapier', 'rapierSimd', 'crashcat', 'jolt'].filter((p) => rows.some((r) => Number.isFinite(r.ns[p])));
  L.push(`### Speed: contact with a margin of ${margin} (rapier \`contactShape\` with prediction ${margin}, crashcat ` +
    `\`collideConvexVsConvex\` with \`maxSeparationDistance\` ${margin}, Jolt \`CollideShape\` with \`mMaxSeparationDistance\` ${margin})`);
  L.push('');
  L.push(`Our \`contact(a, poseA, b, poseB, { margin: ${margin} })\` and \`batch('contact', …, { margin: ${margin} })\`: null ` +
    'beyond the margin (GJK stops on the first step that proves it), else the signed distance, normal and points. ' +
    'Peers\' defaults differ (rapier\'s \`IntegrationParameters\` predict 0.02, crashcat\'s and Jolt\'s collide settings a maximum separation of 0); this margin lies inside the separated cells\' ' +
    'gaps (0.02…0.5), so most separated pairs are beyond it. Time ÷ peer time: < 1 means we are faster. "wrong" counts, ' +
    'per contender, pairs reported as a contact beyond the margin or missed within it (against the exact signed ' +
    'distance; pairs within 1e-6 of the margin not counted); "error" is the largest error of a reported distance.');
  L.push('');
  L.push(`| pair | beyond margin | ours | batch | ${peers.map((p) => PEER_LABEL[p]).join(' | ')} | ` +
    `${peers.map((p) => `ours ÷ ${PEER_LABEL[p]}`).join(' | ')} | ${peers.map((p) => `batch ÷ ${PEER_LABEL[p]}`).join(' | ')} | ` +
    `wrong (ours / ${peers.map((p) => PEER_LABEL[p]).join(' / ')}) | error (ours / ${peers.map((p) => PEER_LABEL[p]).join(' / ')}) |`);
  L.push(`|---|---:|---:|---:|${peers.map(() => '---:|').join('')}${peers.map(() => '---:|').join('')}${peers.map(() => '---:|').join('')}---|---|`);
  const gm = { ours: {}, batch: {} };
  for (const r of rows) {
    const a = r.accuracy ?? {};
    const ratio = (x, p) => r.ns[x] / r.ns[p];
    for (const p of peers) {
      (gm.ours[p] ??= []).push(ratio('ours', p));
      (gm.batch[p] ??= []).push(ratio('batch', p));
    }
    L.push(`| ${SHAPE_LABEL[r.shape]}, ${POSE_LABEL[r.pose]} | ${a.ours ? `${a.ours.beyond}/${a.ours.n}` : '–'} | ` +
      `${fmtNs(r.ns.ours)} | ${fmtNs(r.ns.batch)} | ${peers.map((p) => fmtNs(r.ns[p])).join(' | ')} | ` +
      `${peers.map((p) => fmtRatio(ratio('ours', p))).join(' | ')} | ${peers.map((p) => fmtRatio(ratio('batch', p))).join(' | ')} | ` +
      `${['ours', ...peers].map((p) => (a[p] ? a[p].wrong : '–')).join(' / ')} | ` +
      `${['ours', ...peers].map((p) => (a[p] ? fmtErr(a[p].errMax) : '–')).join(' / ')} |`);
  }
  L.push('');
  const agree = rows.every((r) => r.batchMatchesSingle);
  L.push(`Geometric means over the ${rows.length} cells: ` +
    peers.map((p) => `ours ÷ ${PEER_LABEL[p]} ${fmtRatio(geomean(gm.ours[p]))}, batch ÷ ${PEER_LABEL[p]} ${fmtRatio(geomean(gm.batch[p]))}`).join('; ') +
    `. The batch's answers are ${agree ? '' : 'NOT '}the same bits as contact()'s on every cell.`);
  return L;
}

// ---------------------------------------------------------------- standalone
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  // Standalone: build the native half when a configured build/bench lacks it (npm run bench builds it itself).
  const buildDir = path.join(ROOT, 'build', 'bench');
  if (!existsSync(nativeExe(buildDir)) && existsSync(path.join(buildDir, 'CMakeCache.txt'))) {
    spawnSync('cmake', ['--build', buildDir, '--target', NATIVE_EXE], { stdio: 'inherit' });
  }
  const jsonAt = process.argv.indexOf('--json');
  const contactOnly = process.argv.includes('--contact');
  const result = await runWasm({ quick, contactOnly });
  if (jsonAt > 0 && process.argv[jsonAt + 1]) writeFileSync(process.argv[jsonAt + 1], JSON.stringify(result, null, 1));
  console.log((contactOnly ? contactMarkdown(result) : wasmMarkdown(result)).join('\n'));
  console.error(`wasm bench: ${result.seconds?.toFixed(0)} s`);
}
