// The page's one frame of "contact" and "contacts" (web/viz/contact-view.ts), without a browser: its result and
// values are contact()'s and contacts()' own (the object API on the same shapes), its pseudocode line follows the
// answer, and each contact's highlighted triangle is the mesh's, posed by hand here.
import { beforeAll, describe, expect, it } from 'vitest';
import { box, contact, contacts, init, mesh, sphere, type Scene, type Vec3 } from '../../web/lib/index';
import { fmt, fmtVec } from '../../web/lib/draw/format';
import { contactRows, contactTrace } from '../../web/viz/contact-view';

beforeAll(async () => {
  await init();
});

const ID = [0, 0, 0, 0, 0, 0, 1];

describe('the contact frame', () => {
  it('holds contact()\'s answer, and its line says which case answered: beyond, apart within, overlapping', () => {
    using a = sphere(0.5);
    using b = box([0.4, 0.6, 0.5]);
    // Sphere centre at 0, box centre at x: the gap is x − 0.9.
    for (const [x, margin, line] of [[2, 0.3, 2], [1.05, 0.3, 3], [0.7, 0, 4]] as const) {
      const scene: Scene = { version: 1, query: 'contact', margin, shapes: [{ type: 'sphere', radius: 0.5 }, { type: 'box', halfExtents: [0.4, 0.6, 0.5], position: [x, 0, 0] }] };
      const t = contactTrace(scene);
      const want = contact(a, ID, b, [x, 0, 0, 0, 0, 0, 1], { margin });
      expect(t.frames).toHaveLength(1);
      expect(t.frames[0].line).toBe(line);
      const rows = new Map(contactRows(t.frames[0], t).map(([k, v]) => [k, v]));
      if (want === null) {
        expect(t.result).toMatchObject({ contact: false, distance: null });
        expect(t.frames[0].caption).toMatch(/^No contact/);
      } else {
        expect(t.result).toMatchObject({ contact: true, distance: want.distance, normal: want.normal.map((v) => v + 0), pointA: want.pointA.map((v) => v + 0) });
        expect(rows.get('distance')).toBe(fmt(want.distance, 12));
        expect(rows.get('pointB')).toBe(fmtVec(want.pointB, 9));
      }
    }
  });
});

describe('the contacts frame', () => {
  it('lists contacts()\' contacts with their triangles\' corners where the posed mesh has them', () => {
    // Two triangles of a unit square in y = 0, the mesh moved by p (no rotation): corner = vertex + p.
    const vertices: Vec3[] = [[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 0, 0]];
    const triangles: [number, number, number][] = [[0, 1, 2], [0, 2, 3]];
    const p: Vec3 = [0.5, -0.25, 2];
    const scene: Scene = {
      version: 1, query: 'contacts', margin: 0.1,
      shapes: [{ type: 'mesh', vertices, triangles, position: p }, { type: 'box', halfExtents: [0.3, 0.2, 0.3], position: [1, -0.1, 2.5] }],
    };
    using m = mesh(new Float64Array(vertices.flat()), new Uint32Array(triangles.flat()));
    using b = box([0.3, 0.2, 0.3]);
    const want = contacts(m, [...p, 0, 0, 0, 1], b, [1, -0.1, 2.5, 0, 0, 0, 1], { margin: 0.1 });
    expect(want.contacts.length).toBe(2);
    const t = contactTrace(scene);
    expect(t.result).toEqual(JSON.parse(JSON.stringify(want)));
    want.contacts.forEach((c, i) => {
      expect(t.triangles[i]).toEqual(triangles[c.triangle!].map((k) => vertices[k].map((v, j) => v + p[j])));
    });
    const rows = contactRows(t.frames[0], t);
    expect(rows.find(([k]) => k === 'contacts')?.[1]).toBe('2');
    expect(rows.filter(([k]) => /: depth$/.test(k)).map(([k, v]) => [k, v])).toEqual(
      want.contacts.map((c, i) => [`#${i + 1} triangle ${c.triangle}: depth`, fmt(c.depth, 12)]));
  });
});
