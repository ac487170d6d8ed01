// The "obbtree" query from JS: run() and trace() on meshes made here, checked against independent facts — every
// node of the tree appears once in the level frames, at its parent's level + 1; a "box-apart" step's two boxes
// do not overlap along the axis it names (projections computed here); a "sphere-apart" step's spheres are apart;
// the last step's running counts are the result's; the answer equals a brute-force test of every triangle pair
// (a separating-axis triangle–triangle test written here, on configurations far from touching). Also the page's
// built-in meshes (deterministic, valid, small enough for a link) and the merge of a loaded OBJ file.
import * as THREE from 'three';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeLink, init, run, sceneWarnings, trace, type ObbTreeTrace, type Scene, type Vec3 } from '../../web/lib/index';
import type { BoxFit } from '../../web/lib/generated-schema';
import { BUILTIN_MESHES, builtinScene, type BuiltinMesh } from '../../web/viz/builtin-meshes';
import { mergeMeshes, sceneOfMesh } from '../../web/viz/mesh-loader';

beforeAll(async () => {
  await init();
});

type Tri = [number, number, number];
/** A scene of the "obbtree" query (run() and trace() then give its result and trace types). */
type ObbScene = Scene & { query: 'obbtree' };

/** A closed box-shaped mesh of 12 triangles, centred at c with half sizes h. */
function boxMesh(c: Vec3, h: Vec3): { vertices: Vec3[]; triangles: Tri[] } {
  const vertices: Vec3[] = [];
  for (let k = 0; k < 8; k++) vertices.push([c[0] + (k & 1 ? h[0] : -h[0]), c[1] + (k & 2 ? h[1] : -h[1]), c[2] + (k & 4 ? h[2] : -h[2])]);
  const quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
  return { vertices, triangles: quads.flatMap(([a, b, cc, d]) => [[a, b, cc], [a, cc, d]] as Tri[]) };
}

/** A wavy grid of n × n cells in y = f(x, z). */
function gridMesh(n: number): { vertices: Vec3[]; triangles: Tri[] } {
  const vertices: Vec3[] = [];
  const triangles: Tri[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) vertices.push([i / n * 2 - 1, 0.1 * Math.sin(3 * i / n), j / n * 2 - 1]);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const a = i * (n + 1) + j;
    triangles.push([a, a + 1, a + n + 1], [a + 1, a + n + 2, a + n + 1]);
  }
  return { vertices, triangles };
}

const dot = (a: readonly number[], b: readonly number[]) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: readonly number[], b: readonly number[]): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: readonly number[], b: readonly number[]): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const radiusOn = (b: BoxFit, u: readonly number[]) => b.axes.reduce((s, a, i) => s + Math.abs(dot(a, u)) * b.halfExtents[i], 0);

/** Whether two triangles are separated by one of the 11 axes of the triangle–triangle SAT (both normals, 9 edge pairs). */
function trianglesApart(p: Vec3[], q: Vec3[]): boolean {
  const ep = [0, 1, 2].map((i) => sub(p[(i + 1) % 3], p[i]));
  const eq = [0, 1, 2].map((i) => sub(q[(i + 1) % 3], q[i]));
  const axes = [cross(ep[0], ep[1]), cross(eq[0], eq[1]), ...ep.flatMap((a) => eq.map((b) => cross(a, b)))];
  return axes.some((u) => {
    if (dot(u, u) < 1e-20) return false;
    const pp = p.map((v) => dot(v, u));
    const qq = q.map((v) => dot(v, u));
    return Math.max(...pp) < Math.min(...qq) - 1e-9 || Math.max(...qq) < Math.min(...pp) - 1e-9;
  });
}

function bruteForce(a: { vertices: Vec3[]; triangles: Tri[] }, b: { vertices: Vec3[]; triangles: Tri[] }): boolean {
  return a.triangles.some((ta) => b.triangles.some((tb) => !trianglesApart(ta.map((i) => a.vertices[i]), tb.map((i) => b.vertices[i]))));
}

/** Distance from p to the triangle (a, b, c): the closest point by its Voronoi regions (Ericson, §5.1.5). */
function triangleDistance(p: readonly number[], [a, b, c]: readonly (readonly number[])[]): number {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  const at = (q: readonly number[]) => Math.hypot(...sub(p, q));
  const lerp = (x: readonly number[], y: readonly number[], s: number) => x.map((v, i) => v + s * (y[i] - v));
  if (d1 <= 0 && d2 <= 0) return at(a);
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return at(b);
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return at(lerp(a, b, d1 / (d1 - d3)));
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return at(c);
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return at(lerp(a, c, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return at(lerp(b, c, (d4 - d3) / ((d4 - d3) + (d5 - d6))));
  const den = 1 / (va + vb + vc);
  const v = vb * den, w = vc * den;
  return at(a.map((x, i) => x + ab[i] * v + ac[i] * w));
}

function checkTrace(t: ObbTreeTrace, nodes: number): void {
  const level = new Map<number, number>();
  for (const f of t.frames.filter((x) => x.kind === 'level')) {
    for (const n of f.nodes) {
      expect(level.has(n.node), `node ${n.node} twice`).toBe(false);
      level.set(n.node, f.level!);
      expect(n.parent < 0 ? 0 : level.get(n.parent)! + 1).toBe(f.level);
    }
  }
  expect(level.size).toBe(Math.min(nodes, 511));
  const steps = t.frames.filter((x) => x.kind === 'step');
  for (const f of steps) {
    expect(f.caption.length).toBeGreaterThan(10);
    if (f.event === 'box-apart') {
      const u = f.axisDirection!;
      const gap = Math.abs(dot(sub(f.boxB!.center, f.boxA!.center), u)) - radiusOn(f.boxA!, u) - radiusOn(f.boxB!, u);
      expect(gap, `axis ${f.axis}`).toBeGreaterThan(0);
    } else if (f.event === 'sphere-apart') {
      const d = Math.hypot(...sub(f.boxB!.center, f.boxA!.center));
      expect(d).toBeGreaterThan(Math.hypot(...f.boxA!.halfExtents) + Math.hypot(...f.boxB!.halfExtents));
    }
  }
  if (steps.length > 0 && !t.result.stepsTruncated) {
    expect(steps.at(-1)!.nodePairs).toBe(t.result.nodePairs);
    expect(steps.at(-1)!.boxTests).toBe(t.result.boxTests);
  }
  expect(t.frames.at(-1)!.kind).toBe('done');
}

describe('the obbtree query', () => {
  it('describes one mesh\'s tree: every node once, level by level', () => {
    const g = gridMesh(6);
    const scene: ObbScene = { version: 1, query: 'obbtree', shapes: [{ type: 'mesh', ...g, position: [1, 2, 3] }] };
    const r = run(scene);
    expect(r).toMatchObject({ mode: 'tree', triangles: 72, nodes: 143, leaves: 72, intersecting: null });
    expect(r.meanSplits + r.medianSplits).toBe(71);
    const t = trace(scene);
    expect(t.pseudocode.length).toBe(9);
    checkTrace(t, 143);
    expect(t.frames[0].line).toBe(1);
  });

  it('steps through a mesh–mesh descent that agrees with brute force, with the seed\'s bounds beside it', () => {
    const a = gridMesh(5);
    for (const [y, expected] of [[0.05, true], [0.6, false]] as const) {
      const b = boxMesh([0.1, y, 0.2], [0.3, 0.2, 0.25]);
      expect(bruteForce(a, b)).toBe(expected);
      const scene: ObbScene = { version: 1, query: 'obbtree', shapes: [{ type: 'mesh', ...a }, { type: 'mesh', ...b }] };
      const t = trace(scene);
      expect(t.result.mode).toBe('mesh-mesh');
      expect(t.result.intersecting).toBe(expected);
      expect(run(scene)).toEqual(t.result);
      checkTrace(t, 99);
      const triangleSteps = t.frames.filter((f) => f.kind === 'step' && f.event === 'triangle');
      expect(triangleSteps.length).toBe(t.result.triangleTests);
      expect(triangleSteps.some((f) => f.hit)).toBe(expected);
      expect(t.result.singleContactBound).toBeCloseTo(2 * Math.log2(50 * 12) + 1, 12);
    }
  });

  it('steps through a mesh against a sphere one candidate triangle at a time; the first touching one is intersect\'s answer', () => {
    const mesh = { type: 'mesh' as const, ...gridMesh(4) };
    let apartSteps = 0;
    // Over the grid, beside it (its box reaches the edge's leaves, the sphere does not) and above it.
    for (const [position, touching] of [[[0.3, 0.1, -0.2], true], [[1.23, 0.05, 0.4], false], [[0.1, 0.5, 0.1], false]] as const) {
      const sphere = { type: 'sphere' as const, radius: 0.2, position: [...position] as Vec3 };
      const scene: ObbScene = { version: 1, query: 'obbtree', shapes: [mesh, sphere] };
      const t = trace(scene);
      expect(t.result.mode).toBe('mesh-convex');
      checkTrace(t, 63);
      const tests = t.frames.filter((f) => f.kind === 'step' && f.event === 'triangle');
      expect(tests.length).toBe(t.result.triangleTests);
      apartSteps += tests.filter((f) => !f.hit).length;
      for (const f of tests) {
        // Touching iff the sphere's centre lies within its radius of the triangle (closest point computed here).
        const d = triangleDistance(sphere.position, f.cornersA!);
        expect(Math.abs(d - 0.2), 'a configuration far from touching (GJK decides to ~1e-12)').toBeGreaterThan(1e-6);
        expect(f.hit, `triangle ${f.triangleA}`).toBe(d < 0.2);
        expect(f.triangleB).toBeNull();
        expect(f.cornersB).toBeNull();
        expect(f.iterations).toBeGreaterThan(0);
        expect(f.line).toBe(8);
        expect(f.caption).toContain(`Triangle ${f.triangleA} of A (in leaf ${f.nodeA}) against B: ${f.hit ? 'touching' : 'apart'}`);
        if (f.hit) {
          expect(f.distance).toBeNull();
        } else {
          // The gap measured for the view: the centre's distance to the triangle less the radius, between its points.
          expect(f.distance!).toBeCloseTo(d - 0.2, 12);
          expect(Math.hypot(...sub(f.pointB!, f.pointA!))).toBeCloseTo(f.distance!, 12);
          expect(triangleDistance(f.pointA!, f.cornersA!)).toBeLessThan(1e-12);
        }
      }
      // Every triangle the sphere touches is among the candidates (brute force over the whole mesh).
      const touched = mesh.triangles.map((tri, i) => [i, triangleDistance(sphere.position, tri.map((k) => mesh.vertices[k]))] as const)
        .filter(([, d]) => d < 0.2).map(([i]) => i);
      expect(touched.length > 0).toBe(touching);
      for (const i of touched) expect(tests.map((f) => f.triangleA)).toContain(i);
      const first = tests.filter((f) => f.firstHit);
      const answer = run({ version: 1, query: 'intersect', shapes: [mesh, sphere] }) as unknown as { intersecting: boolean; triangle: number | null };
      expect(answer.intersecting).toBe(touching);
      expect(first.map((f) => f.triangleA)).toEqual(touching ? [answer.triangle] : []);
      if (touching) {
        expect(first[0]).toBe(tests.find((f) => f.hit));
        expect(first[0].caption).toContain('the intersect query stops here');
      }
      expect(t.frames.at(-1)!.intersecting).toBe(touching);
    }
    expect(apartSteps).toBeGreaterThan(0);
  });

  it('refuses a convex shape A and a plane B, naming the field', () => {
    expect(() => run({ version: 1, query: 'obbtree', shapes: [{ type: 'sphere', radius: 1 }] } as ObbScene)).toThrow(/shapes\[0\]\.type.*mesh/);
    expect(() => run({
      version: 1, query: 'obbtree', shapes: [{ type: 'mesh', ...gridMesh(2) }, { type: 'plane', normal: [0, 1, 0], offset: 0 }],
    })).toThrow(/shapes\[1\]\.type/);
  });
});

describe('the page\'s meshes', () => {
  it('builds the built-in meshes the same way every time, valid and small enough for a link', () => {
    for (const name of Object.keys(BUILTIN_MESHES) as BuiltinMesh[]) {
      const scene = builtinScene(name) as ObbScene;
      expect(JSON.stringify(builtinScene(name))).toBe(JSON.stringify(scene));
      expect(sceneWarnings(scene), name).toEqual([]);
      const r = run(scene);
      expect(r.triangles).toBe(scene.shapes[0].triangles!.length);
      expect(r.intersecting, `${name}: shape B touches the mesh`).toBe(true);
      expect(encodeLink({ ...scene, step: 0 }, 'http://localhost:8080/').length).toBeLessThan(100_000);
    }
  });

  it('merges the meshes of an OBJ file, each placed by its world matrix', () => {
    const obj = ['o first', 'v 0 0 0', 'v 1 0 0', 'v 0 1 0', 'f 1 2 3', 'o second', 'v 0 0 1', 'v 1 0 1', 'v 0 1 1', 'f 4 5 6'].join('\n');
    const root = new OBJLoader().parse(obj);
    root.position.set(10, 0, 0);
    const shape = mergeMeshes(root);
    expect(shape.triangles).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(shape.vertices![1]).toEqual([11, 0, 0]);
    expect(shape.vertices![5]).toEqual([10, 1, 1]);
    const scene = sceneOfMesh(shape) as ObbScene;
    expect(run(scene)).toMatchObject({ mode: 'mesh-convex', triangles: 2 });
    expect(() => mergeMeshes(new THREE.Group())).toThrow(/no triangle mesh/);
  });
});
