// meshArrays() (collidoscope/three): the one reading of three.js geometries into mesh() arrays, used by
// meshFromGeometry() and by the page's file loader. Checked against geometries made here with known vertices and
// triangles: indexed, non-indexed and interleaved BufferGeometries, and a .glb written here with two primitives in
// one mesh, a node hierarchy (translation, scale, rotation, a mirror) and an interleaved buffer view, parsed by
// three.js's GLTFLoader. Expected coordinates are the node transforms applied by hand.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { CollidoscopeError, init } from '../../web/lib/index';
import { meshArrays, meshFromGeometry } from '../../web/lib/three';
import { mergeMeshes } from '../../web/viz/mesh-loader';
import { SQUARE, SQUARE_INDEX, TWO_PRIMITIVES_WORLD, twoPrimitivesGlb } from './gltf';

beforeAll(async () => {
  await init();
});

const triples = (a: ArrayLike<number>): number[][] => {
  const out: number[][] = [];
  for (let i = 0; i < a.length; i += 3) out.push([a[i], a[i + 1], a[i + 2]]);
  return out;
};

function fieldOf(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    if (e instanceof CollidoscopeError) return e.field;
    throw e;
  }
  throw new Error('no error');
}

describe('meshArrays() of a BufferGeometry', () => {
  it('reads indexed, non-indexed and interleaved positions with their triangles', () => {
    const indexed = new THREE.BufferGeometry();
    indexed.setAttribute('position', new THREE.Float32BufferAttribute(SQUARE, 3));
    indexed.setIndex(SQUARE_INDEX);
    const a = meshArrays(indexed);
    expect(a.vertices.length / 3).toBe(4);
    expect(triples(a.indices)).toEqual([[0, 1, 2], [0, 2, 3]]);
    expect(Array.from(a.vertices)).toEqual(SQUARE);

    const flat = indexed.toNonIndexed();
    const b = meshArrays(flat);
    expect(b.vertices.length / 3).toBe(6);
    expect(triples(b.indices)).toEqual([[0, 1, 2], [3, 4, 5]]);
    expect(triples(b.vertices)[4]).toEqual([1, 1, 0]);

    // Positions at offset 2 of a stride of 5 floats (two other numbers first), indexed.
    const data = new Float32Array(4 * 5);
    for (let i = 0; i < 4; i++) data.set([9, 9, SQUARE[3 * i], SQUARE[3 * i + 1], SQUARE[3 * i + 2]], 5 * i);
    const interleaved = new THREE.BufferGeometry();
    interleaved.setAttribute('position', new THREE.InterleavedBufferAttribute(new THREE.InterleavedBuffer(data, 5), 3, 2));
    interleaved.setIndex(SQUARE_INDEX);
    const c = meshArrays(interleaved);
    expect(Array.from(c.vertices)).toEqual(SQUARE);
    expect(Array.from(c.indices)).toEqual(SQUARE_INDEX);
  });

  it('is what meshFromGeometry() makes its mesh of', () => {
    const g = new THREE.TorusKnotGeometry(1, 0.3, 24, 5);
    const m = meshFromGeometry(g);
    const a = meshArrays(g);
    expect(m.report.triangleCount).toBe(a.indices.length / 3);
    expect(m.report.triangleCount).toBe(24 * 5 * 2);
    expect(m.report.vertexCount).toBe(a.vertices.length / 3);
    m.dispose();
  });

  it('names what it cannot read', () => {
    const bad = new THREE.BufferGeometry();
    expect(fieldOf(() => meshArrays(bad))).toBe('geometry.attributes.position');
    bad.setAttribute('position', new THREE.Float32BufferAttribute([0, 0, 0, 1, 0, 0], 3));
    expect(fieldOf(() => meshArrays(bad))).toBe('geometry.attributes.position.count');
    bad.setIndex([0, 1]);
    expect(fieldOf(() => meshArrays(bad))).toBe('geometry.index.count');
    const many = new THREE.BufferGeometry();
    many.setAttribute('position', new THREE.Float32BufferAttribute(new Array(9 * 5).fill(0), 3));
    expect(fieldOf(() => meshArrays(many, { maxTriangles: 4 }))).toBe('triangles');
    expect(meshArrays(many, { maxTriangles: 5 }).indices.length).toBe(15);
    expect(fieldOf(() => meshArrays({} as THREE.BufferGeometry))).toBe('geometry');
  });
});

async function parseGlb(file: Buffer): Promise<THREE.Object3D> {
  const data = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
  return (await new GLTFLoader().parseAsync(data as ArrayBuffer, '')).scene;
}

describe('meshArrays() of an InstancedMesh', () => {
  it('gives one copy of the geometry per instance, placed by the instance matrix within the mesh\'s world matrix', () => {
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(SQUARE, 3));
    g.setIndex(SQUARE_INDEX);
    const inst = new THREE.InstancedMesh(g, new THREE.MeshBasicMaterial(), 3);
    const shifts: [number, number, number][] = [[10, 0, 0], [0, 20, 0], [0, 0, 30]];
    shifts.forEach((t, i) => inst.setMatrixAt(i, new THREE.Matrix4().makeTranslation(...t)));
    inst.setMatrixAt(2, new THREE.Matrix4().makeScale(-1, 1, 1).setPosition(0, 0, 30)); // a mirrored instance
    const group = new THREE.Group();
    group.position.set(1, 2, 3);
    group.add(inst);
    const a = meshArrays(group);
    const n = SQUARE.length / 3;
    expect(a.vertices.length / 3).toBe(3 * n);
    expect(a.indices.length).toBe(3 * SQUARE_INDEX.length);
    const got = triples(a.vertices);
    for (let i = 0; i < n; i++) {
      const [x, y, z] = [SQUARE[3 * i], SQUARE[3 * i + 1], SQUARE[3 * i + 2]];
      expect(got[i]).toEqual([x + 11, y + 2, z + 3]);
      expect(got[n + i]).toEqual([x + 1, y + 22, z + 3]);
      expect(got[2 * n + i]).toEqual([-x + 1, y + 2, z + 33]);
    }
    // Instances 0 and 1 keep the winding; the mirrored one has each triangle's last two corners swapped back.
    const tri = triples(a.indices);
    const src = triples(SQUARE_INDEX);
    src.forEach((t, i) => {
      expect(tri[i]).toEqual(t);
      expect(tri[src.length + i]).toEqual(t.map((c) => c + n));
      expect(tri[2 * src.length + i]).toEqual([t[0], t[2], t[1]].map((c) => c + 2 * n));
    });
    inst.count = 1; // fewer instances drawn, fewer copies
    expect(meshArrays(group).indices.length).toBe(SQUARE_INDEX.length);
  });
});

describe('meshArrays() of a loaded glTF', () => {
  it('takes every primitive of every mesh, placed by its node\'s world transform', async () => {
    const root = await parseGlb(twoPrimitivesGlb());
    const { vertices, indices } = meshArrays(root);
    const v = triples(vertices).map((p) => p.map((x) => Math.round(x * 1e6) / 1e6 + 0));
    const t = triples(indices);
    expect(v.length).toBe(4 + 3 + 3);
    expect(t.length).toBe(2 + 1 + 1);
    // Node 1: p ↦ 2p + (0, 1, 0).
    expect(v.slice(0, 4)).toEqual([[0, 1, 0], [2, 1, 0], [2, 3, 0], [0, 3, 0]]);
    expect(t.slice(0, 2)).toEqual([[0, 1, 2], [0, 2, 3]]);
    expect(v.slice(4, 7)).toEqual([[0, 1, 2], [2, 1, 2], [0, 3, 2]]);
    expect(t[2]).toEqual([4, 5, 6]);
    // Node 2: mirror x, then a quarter turn about z ((x, y) ↦ (−y, x)), then up by 1: (x, y) ↦ (−y, 1 − x).
    expect(v.slice(7)).toEqual([[0, 1, 0], [0, -1, 0], [-3, 1, 0]]);
    // The mirror would make it clockwise: the last two corners swap back.
    expect(t[3]).toEqual([7, 9, 8]);
    const n = (a: number[], b: number[], c: number[]) => (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    expect(n(v[7], v[9], v[8])).toBeGreaterThan(0); // counter-clockwise seen from +z, as the file's triangle
  });

  it('gives the page the same triangles as one shape of the scene format', async () => {
    const shape = mergeMeshes(await parseGlb(twoPrimitivesGlb()));
    expect(shape.vertices).toEqual(TWO_PRIMITIVES_WORLD.vertices);
    expect(shape.triangles).toEqual(TWO_PRIMITIVES_WORLD.triangles);
  });
});
