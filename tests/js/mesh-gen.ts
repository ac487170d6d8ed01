// Test meshes made here, for the mesh tests: random triangle soups, a closed icosphere and torus, unwelded
// copies and a flat floor.

export interface Soup { vertices: number[]; indices: number[] }

export function randomSoup(rand: () => number, n: number): Soup {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (let t = 0; t < n; t++) {
    const c = [0, 1, 2].map(() => 3 * rand() - 1.5);
    for (let k = 0; k < 3; k++) vertices.push(...c.map((x) => x + rand() - 0.5));
    indices.push(3 * t, 3 * t + 1, 3 * t + 2);
  }
  return { vertices, indices };
}

/** An icosahedron subdivided `levels` times onto the unit sphere: closed, welded, outward CCW. */
export function icosphere(levels: number): Soup {
  const p = (1 + Math.sqrt(5)) / 2;
  let v: number[][] = [[-1, p, 0], [1, p, 0], [-1, -p, 0], [1, -p, 0], [0, -1, p], [0, 1, p], [0, -1, -p], [0, 1, -p],
    [p, 0, -1], [p, 0, 1], [-p, 0, -1], [-p, 0, 1]];
  let f = [[0, 11, 5], [0, 5, 1], [0, 1, 7], [0, 7, 10], [0, 10, 11], [1, 5, 9], [5, 11, 4], [11, 10, 2], [10, 7, 6],
    [7, 1, 8], [3, 9, 4], [3, 4, 2], [3, 2, 6], [3, 6, 8], [3, 8, 9], [4, 9, 5], [2, 4, 11], [6, 2, 10], [8, 6, 7], [9, 8, 1]];
  const unit = (a: number[]) => { const l = Math.hypot(...a); return a.map((x) => x / l); };
  v = v.map(unit);
  for (let l = 0; l < levels; l++) {
    const mid = new Map<string, number>();
    const m = (a: number, b: number) => {
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      let i = mid.get(key);
      if (i === undefined) { i = v.length; v.push(unit(v[a].map((x, k) => (x + v[b][k]) / 2))); mid.set(key, i); }
      return i;
    };
    f = f.flatMap(([a, b, c]) => { const ab = m(a, b), bc = m(b, c), ca = m(c, a); return [[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]; });
  }
  return { vertices: v.flat(), indices: f.flat() };
}

/** A torus around y (radii R, r): nu × nv quads split in two, closed, outward CCW. */
export function torus(nu: number, nv: number, R: number, r: number): Soup {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const u = (2 * Math.PI * i) / nu, w = (2 * Math.PI * j) / nv;
      vertices.push((R + r * Math.cos(w)) * Math.cos(u), r * Math.sin(w), (R + r * Math.cos(w)) * Math.sin(u));
    }
  }
  const at = (i: number, j: number) => ((i + nu) % nu) * nv + ((j + nv) % nv);
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      indices.push(a, d, c, a, c, b);
    }
  }
  return { vertices, indices };
}

export function unweld(s: Soup): Soup {
  const vertices = s.indices.flatMap((i) => [s.vertices[3 * i], s.vertices[3 * i + 1], s.vertices[3 * i + 2]]);
  return { vertices, indices: s.indices.map((_, i) => i) };
}

/** An n × n floor of unit squares in y = 0, centred, two CCW (seen from +y) triangles per square. */
export function floor(n: number): { vertices: number[]; indices: number[] } {
  const vertices: number[] = [];
  const indices: number[] = [];
  for (let i = 0; i <= n; i++) for (let j = 0; j <= n; j++) vertices.push(i - n / 2, 0, j - n / 2);
  const id = (i: number, j: number) => i * (n + 1) + j;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) indices.push(id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i + 1, j));
  return { vertices, indices };
}
