// Geometry of the convex hull of a point set, for any affine dimension.
// ConvexGeometry (QuickHull) needs a full-dimensional input; points, segments, triangles and flat
// polytopes (and Minkowski differences of such shapes) are handled here by dimension instead.
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { Vec3 } from '../index';

export interface Hull {
  /** Affine dimension of the point set: 0 point, 1 segment, 2 flat polygon, 3 solid. */
  dim: 0 | 1 | 2 | 3;
  /** Triangles of the hull (null for dim 0 and 1). */
  faces: THREE.BufferGeometry | null;
  /** Feature edges as line segments (null for dim 0). */
  edges: THREE.BufferGeometry | null;
  /** The hull's extreme points for dim 0/1, all input points otherwise. */
  vertices: THREE.Vector3[];
  center: THREE.Vector3;
  radius: number;
}

/** Relative tolerance for deciding that a point set is flat: well above float noise of sampled support points. */
const FLAT_TOLERANCE = 1e-7;
/**
 * Angle (degrees) above which an edge between two hull triangles is drawn. Few points are a polytope's own
 * vertices: show every real edge (not the diagonals of flat faces). Many points sample a curved surface: show
 * only sharp creases (box-like rims of a cylinder or cone), not the facets between samples.
 */
const EDGE_ANGLE_VERTICES = 1;
const EDGE_ANGLE_SAMPLED = 35;
const MAX_VERTEX_COUNT = 64;

export function buildHull(input: readonly Vec3[]): Hull {
  const pts = input.filter((p) => p.every(Number.isFinite)).map((p) => new THREE.Vector3(p[0], p[1], p[2]));
  if (pts.length === 0) pts.push(new THREE.Vector3());
  const box = new THREE.Box3().setFromPoints(pts);
  const center = box.getCenter(new THREE.Vector3());
  const scale = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-12);
  const tol = FLAT_TOLERANCE * scale + 1e-12;
  let radius = 0;
  for (const p of pts) radius = Math.max(radius, p.distanceTo(center));

  // Greedy choice of an affine basis: p0, the farthest point p1 from it, the farthest p2 from line p0p1,
  // and the farthest distance from plane p0p1p2.
  const p0 = pts[0];
  const p1 = farthest(pts, (p) => p.distanceTo(p0));
  if (p1.d <= tol) return { dim: 0, faces: null, edges: null, vertices: [p0.clone()], center, radius };
  const u = p1.p.clone().sub(p0).normalize();
  const distLine = (p: THREE.Vector3) => {
    const r = p.clone().sub(p0);
    return r.sub(u.clone().multiplyScalar(r.dot(u))).length();
  };
  const p2 = farthest(pts, distLine);
  if (p2.d <= tol) {
    // Segment: extreme points along u.
    const lo = farthest(pts, (p) => -p.clone().sub(p0).dot(u)).p;
    const hi = farthest(pts, (p) => p.clone().sub(p0).dot(u)).p;
    const edges = new THREE.BufferGeometry().setFromPoints([lo, hi]);
    return { dim: 1, faces: null, edges, vertices: [lo.clone(), hi.clone()], center, radius };
  }
  const n = p1.p.clone().sub(p0).cross(p2.p.clone().sub(p0)).normalize();
  const p3 = farthest(pts, (p) => Math.abs(p.clone().sub(p0).dot(n)));
  if (p3.d <= tol) return planarHull(pts, p0, u, n, center, radius);

  try {
    const faces = new ConvexGeometry(pts);
    if (!faces.getAttribute('position') || faces.getAttribute('position').count < 12) throw new Error('empty hull');
    const edges = new THREE.EdgesGeometry(faces, pts.length <= MAX_VERTEX_COUNT ? EDGE_ANGLE_VERTICES : EDGE_ANGLE_SAMPLED);
    return { dim: 3, faces, edges, vertices: pts, center, radius };
  } catch {
    // QuickHull can fail on nearly degenerate input: fall back to the flat hull through the best plane.
    return planarHull(pts, p0, u, n, center, radius);
  }
}

function farthest(pts: THREE.Vector3[], f: (p: THREE.Vector3) => number): { p: THREE.Vector3; d: number } {
  let best = pts[0];
  let bd = -Infinity;
  for (const p of pts) {
    const d = f(p);
    if (d > bd) { bd = d; best = p; }
  }
  return { p: best, d: bd };
}

/** Hull of points lying (nearly) in the plane through p0 with normal n: 2D monotone chain, fan triangulation. */
function planarHull(pts: THREE.Vector3[], p0: THREE.Vector3, u: THREE.Vector3, n: THREE.Vector3,
  center: THREE.Vector3, radius: number): Hull {
  const v = n.clone().cross(u).normalize();
  const uv = pts.map((p) => {
    const r = p.clone().sub(p0);
    return { x: r.dot(u), y: r.dot(v), p };
  });
  uv.sort((a, b) => a.x - b.x || a.y - b.y);
  const cross = (o: typeof uv[0], a: typeof uv[0], b: typeof uv[0]) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: typeof uv = [];
  for (const q of uv) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop();
    lower.push(q);
  }
  const upper: typeof uv = [];
  for (let i = uv.length - 1; i >= 0; i--) {
    const q = uv[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop();
    upper.push(q);
  }
  const ring = lower.slice(0, -1).concat(upper.slice(0, -1)).map((q) => q.p);
  const tri: number[] = [];
  for (let i = 1; i + 1 < ring.length; i++) {
    for (const q of [ring[0], ring[i], ring[i + 1]]) tri.push(q.x, q.y, q.z);
  }
  const faces = new THREE.BufferGeometry();
  faces.setAttribute('position', new THREE.Float32BufferAttribute(tri, 3));
  faces.computeVertexNormals();
  const seg: THREE.Vector3[] = [];
  ring.forEach((q, i) => seg.push(q, ring[(i + 1) % ring.length]));
  const edges = new THREE.BufferGeometry().setFromPoints(seg);
  return { dim: 2, faces, edges, vertices: ring.map((q) => q.clone()), center, radius };
}

/** A sphere around the points: centred on their bounding box, radius to the farthest point (tighter than the box's). */
export function enclosingSphere(points: THREE.Vector3[]): THREE.Sphere {
  if (points.length === 0) return new THREE.Sphere(new THREE.Vector3(), 1);
  const c = new THREE.Box3().setFromPoints(points).getCenter(new THREE.Vector3());
  let r = 0;
  for (const p of points) r = Math.max(r, p.distanceTo(c));
  // Only a single point has no size of its own; a scene of 1e-6 keeps its own scale.
  return new THREE.Sphere(c, r > 0 ? r : 1e-3);
}

/**
 * A triangle mesh (the scene format's "mesh") drawn as a Hull: its own triangles, not a hull, as flat faces
 * seen from both sides (a mesh may be open), and every triangle edge once as the wireframe. `vertices`, centre
 * and radius are those of its vertices, so the views frame it as they frame a hull.
 */
export function meshHull(vertices: readonly Vec3[], triangles: readonly (readonly number[])[]): Hull {
  const V = vertices.map((p) => new THREE.Vector3(p[0], p[1], p[2]));
  const tri: number[] = [];
  const seen = new Set<string>();
  const ends: THREE.Vector3[] = [];
  for (const t of triangles) {
    for (const i of t) tri.push(V[i].x, V[i].y, V[i].z);
    for (let k = 0; k < 3; k++) {
      const i = t[k], j = t[(k + 1) % 3];
      const key = i < j ? `${i},${j}` : `${j},${i}`;
      if (seen.has(key)) continue;
      seen.add(key);
      ends.push(V[i], V[j]);
    }
  }
  const faces = new THREE.BufferGeometry();
  faces.setAttribute('position', new THREE.Float32BufferAttribute(tri, 3));
  faces.computeVertexNormals();
  const edges = new THREE.BufferGeometry().setFromPoints(ends);
  const sphere = enclosingSphere(V);
  return { dim: 2, faces, edges, vertices: V, center: sphere.center, radius: sphere.radius };
}
