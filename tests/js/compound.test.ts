// compound(): convex children with their own poses, through the object API. The reference is the same scene with
// the children as separate shapes (run() on each child placed in the world) combined by the rule the README
// documents, by brute force over every child; the compound's answer must be the chosen child's, field for field,
// with `child` naming it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as THREE from 'three';
import {
  batch, box, capsule, compound, CompoundShape, contact, contains, createShape, distance, init, intersect, mesh,
  penetration, project, raycast, run, sceneOf, shapecast, sphere, stats, type Scene, type Shape, type Vec3,
} from '../../web/lib/index';
import { drawShape } from '../../web/lib/three';
import { catchError, seeded } from './helpers';
import { root } from './vectors';

beforeAll(async () => {
  await init();
});

type R = Record<string, unknown>;

/** The compound's answer by the documented rule over the children's own answers; -1 when none answers. */
function choose(query: string, rs: R[]): number {
  let best = -1, key = Infinity;
  for (let i = 0; i < rs.length; i++) {
    const r = rs[i];
    if ((query === 'intersect' && r.intersecting) || (query === 'contains' && r.inside)) return i;
    let k = Infinity;
    if (query === 'distance') k = r.distance as number;
    if (query === 'penetration' && r.intersecting) k = -(r.depth as number);
    if ((query === 'raycast' || query === 'shapecast') && r.hit) k = r.t as number;
    if (query === 'project') k = r.inside ? -(r.distance as number) : (r.distance as number);
    if (k < key) [key, best] = [k, i];
  }
  return best;
}

describe('compound()', () => {
  const children: Shape[] = [
    { type: 'box', halfExtents: [0.5, 0.2, 0.3], position: [-0.6, 0, 0] },
    { type: 'sphere', radius: 0.4, position: [0.7, 0.3, 0] },
    { type: 'capsule', radius: 0.2, halfHeight: 0.5, position: [0, -0.4, 0.5], rotation: [0.6, 0, 0, 0.8] },
  ];

  function make(): CompoundShape {
    const parts = children.map((c) => ({ shape: createShape({ ...c, position: undefined, rotation: undefined } as Shape), position: c.position, rotation: c.rotation }));
    const out = compound(parts);
    for (const p of parts) p.shape.dispose();
    return out;
  }

  it("answers every query as the chosen child of the same scene with the children as separate shapes", () => {
    const rand = seeded(6);
    const c = make();
    expect(c.type).toBe('compound');
    const other = box([0.3, 0.25, 0.2]);
    let chosen = 0, none = 0;
    for (let n = 0; n < 25; n++) {
      const at: Vec3 = [3 * rand() - 1.5, 3 * rand() - 1.5, 3 * rand() - 1.5];
      const ray = { origin: [4 * rand() - 2, 3, 4 * rand() - 2] as Vec3, direction: [rand() - 0.5, -1.5, rand() - 0.5] as Vec3, maxT: 3 };
      const point: Vec3 = [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1];
      const motion = { translationB: [-at[0], -at[1], -at[2]] as Vec3 };
      const otherSpec = { ...other.spec(), position: at };
      const cases: [string, () => R, (child: Shape) => Scene][] = [
        ['intersect', () => intersect(c, undefined, other, { position: at }) as unknown as R, (ch) => ({ version: 1, query: 'intersect', shapes: [ch, otherSpec] })],
        ['distance', () => distance(c, undefined, other, { position: at }) as unknown as R, (ch) => ({ version: 1, query: 'distance', shapes: [ch, otherSpec] })],
        ['penetration', () => penetration(other, { position: at }, c, undefined) as unknown as R, (ch) => ({ version: 1, query: 'penetration', shapes: [otherSpec, ch] })],
        ['shapecast', () => shapecast(c, undefined, other, { position: at }, motion) as unknown as R, (ch) => ({ version: 1, query: 'shapecast', shapes: [ch, otherSpec], motion })],
        ['raycast', () => raycast(c, undefined, ray) as unknown as R, (ch) => ({ version: 1, query: 'raycast', shapes: [ch], ray })],
        ['contains', () => contains(c, undefined, point) as unknown as R, (ch) => ({ version: 1, query: 'contains', shapes: [ch], point })],
        ['project', () => project(c, undefined, point) as unknown as R, (ch) => ({ version: 1, query: 'project', shapes: [ch], point })],
      ];
      for (const [query, got, childScene] of cases) {
        const rs = children.map((ch) => run(childScene(ch)) as unknown as R);
        const want = choose(query, rs);
        const r = got();
        if (want < 0) {
          expect(r.child, query).toBeNull();
          none++;
        } else {
          // JSON drops the sign of a zero, which the object API's numbers keep (as for every shape).
          expect(JSON.parse(JSON.stringify(r)), query).toEqual({ ...rs[want], child: want });
          chosen++;
        }
      }
      // The object API's answer is run() of its scene (sceneOf).
      expect(distance(c, undefined, other, { position: at })).toEqual(run(sceneOf('distance', c, undefined, other, { position: at })));
    }
    expect(chosen).toBeGreaterThan(60);
    expect(none).toBeGreaterThan(10);
    c.dispose();
    other.dispose();
  });

  it('two compounds name both children', () => {
    const a = make(), b = make();
    const r = distance(a, undefined, b, { position: [3, 0, 0] }) as unknown as R;
    // The nearest pair: A's sphere (child 1, centre [0.7, 0.3, 0], radius 0.4) and B's box (child 0, centre
    // [2.4, 0, 0], half extents [0.5, 0.2, 0.3]), whose nearest point to the sphere's centre is its edge at [1.9, 0.2, 0].
    expect(r.childA).toBe(1);
    expect(r.childB).toBe(0);
    expect(r.distance as number).toBeCloseTo(Math.hypot(1.2, 0.1) - 0.4, 12);
    expect(intersect(a, undefined, b, { position: [0.2, 0, 0] })).toMatchObject({ intersecting: true, childA: 0, childB: 0 });
    a.dispose();
    b.dispose();
  });

  it('spec() carries the children and their poses; drawShape() draws each child', () => {
    const c = make();
    const spec = c.spec();
    expect(spec.type).toBe('compound');
    expect(spec.children?.map((ch) => ch.type)).toEqual(['box', 'sphere', 'capsule']);
    expect(spec.children?.[1].position).toEqual([0.7, 0.3, 0]);
    const g = drawShape(spec, { position: [1, 0, 0] });
    expect(g.children.filter((o) => o instanceof THREE.Group).length).toBe(3);
    expect(g.position.x).toBe(1);
    c.dispose();
  });

  it('bad children name the field; chungwang refuses a compound; the heap returns after dispose()', () => {
    const round = () => {
      const s = sphere(1);
      const m = mesh([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2]);
      const cases: [() => unknown, string, string, RegExp][] = [
        [() => compound([]), 'invalid-argument', 'children', /at least 1/],
        [() => compound('x' as never), 'invalid-argument', 'children', /must be an array/],
        [() => compound([{ shape: 3 as never }]), 'invalid-argument', 'children[0].shape', /must be a shape/],
        [() => compound([{ shape: s, scale: [1, 1, 1] } as never]), 'invalid-argument', 'children[0].scale', /unknown field/],
        [() => compound([{ shape: s }, { shape: m }]), 'invalid-argument', 'children[1].type', /convex shapes/],
        [() => compound([{ shape: s, position: [0, NaN, 0] }]), 'invalid-argument', 'children[0].position[1]', /finite/],
        [() => createShape({ type: 'compound', children: [{ type: 'sphere', radius: 1 }], margin: 0.1 }), 'invalid-argument', 'margin', /no margin/],
      ];
      for (const [f, code, field, message] of cases) {
        const e = catchError(f);
        expect(e.code, field).toBe(code);
        expect(e.field, e.message).toBe(field);
        expect(e.detail, field).toMatch(message);
      }
      const c = compound([{ shape: s, position: [1, 0, 0] }]);
      const e = catchError(() => batch('chungwang', [c, s], [0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 0, 1], [0, 1]));
      expect(e.code).toBe('unsupported-query');
      expect(e.detail).toMatch(/compound/);
      expect(contact(c, undefined, s, { position: [1, 1.5, 0] })).toMatchObject({ child: 0 });
      // A trace is the answering child's own, with the compound's answer as its result.
      const t = distance(c, undefined, s, { position: [4, 0, 0] }, { trace: true });
      expect(t.frames.length).toBeGreaterThan(0);
      expect(t.result).toMatchObject({ distance: 1, child: 0 });
      expect((t as unknown as R).child).toBe(0);
      c.dispose();
      s.dispose();
      m.dispose();
    };
    // A first round grows the registry's slots and the module's scratch (kept for reuse); later rounds must leave
    // the heap where they found it. The allocator may hand out a free chunk up to 8 bytes larger than asked
    // (a remainder too small to split), depending on which slots the shapes land in: rounds differ by that
    // much for each of two such chunks, but a leak of even one small block (16 bytes or more) per round would
    // pile up to 160 over 10 rounds.
    round();
    const heaps: number[] = [];
    for (let i = 0; i < 10; i++) {
      round();
      heaps.push(stats().heapBytes);
    }
    expect(Math.max(...heaps) - Math.min(...heaps), heaps.join(' ')).toBeLessThanOrEqual(16);
  });
});

describe('the CLI on heightfield and compound scenes', () => {
  it('prints the same answers as run(), with the hit triangle and the child', () => {
    const scenes = [
      {
        version: 1, query: 'raycast',
        shapes: [{ type: 'heightfield', heights: [[0, 0, 0], [0, 1, 0], [0, 0, 0]], cellSize: [2, 2], position: [-2, 0, -2] }],
        ray: { origin: [0.5, 5, -0.5], direction: [0, -1, 0], maxT: 10 },
      },
      {
        version: 1, query: 'distance',
        shapes: [{ type: 'compound', children: [{ type: 'box', halfExtents: [0.5, 0.2, 0.3], position: [-0.6, 0, 0] }, { type: 'sphere', radius: 0.4, position: [0.7, 0.3, 0] }] },
          { type: 'sphere', radius: 0.4, position: [3, 0, 0] }],
      },
    ];
    for (const scene of scenes) {
      const r = spawnSync(process.execPath, [join(root, 'web', 'dist', 'lib', 'cli.mjs'), 'run', '-'], {
        cwd: root, encoding: 'utf8', input: JSON.stringify(scene), timeout: 60_000,
      });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(run(scene as never));
    }
    // The heightfield's hit: cell (1, 0), the +z side of its diagonal (triangle 2·(1·2 + 0) + 1), at height 0.5.
    expect(run(scenes[0] as never)).toMatchObject({ hit: true, t: 4.5, triangle: 5, barycentric: [0.25, 0.5, 0.25] });
    expect(run(scenes[1] as never)).toMatchObject({ child: 1 });
  });
});
