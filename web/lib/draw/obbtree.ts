// The "obbtree" query's frames, in world space in both views: a level of the tree's build (each node's box as a
// wireframe, the split plane of each inner node as a translucent quad), a node pair of the descent (A's box pink,
// apart from the amber mesh; B's blue; a separating axis as an arrow between them; a leaf pair's two triangles filled, green when they
// intersect and red when apart; against a convex shape A's triangle alone, the first touching one labelled, an
// apart one joined to B by its closest points), and the answer.
import * as THREE from 'three';
import type { BoxFit, ObbTreeTrace, Vec3 } from '../index';
import { COLORS, arrow, label, line, marker, triangles } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

type Frame = ObbTreeTrace['frames'][number];

const LEVEL_COLOR = 0x5ad1e6;
const SPLIT_COLOR = 0xffd166;
const HIT = 0x3ddc97;
const MISS = 0xff4d4d;

/** The 8 corners of a box; corner i is on the + side of axis k when bit k of i is set. */
export function boxCorners(box: BoxFit): THREE.Vector3[] {
  const c = new THREE.Vector3(...box.center);
  const ax = box.axes.map((a, i) => new THREE.Vector3(...a).multiplyScalar(box.halfExtents[i]));
  return [0, 1, 2, 3, 4, 5, 6, 7].map((i) => c.clone()
    .addScaledVector(ax[0], i & 1 ? 1 : -1).addScaledVector(ax[1], i & 2 ? 1 : -1).addScaledVector(ax[2], i & 4 ? 1 : -1));
}

/** The 12 edges of a box as line segments. */
export function boxEdges(box: BoxFit, color: number, opacity = 1): THREE.LineSegments {
  const corner = boxCorners(box);
  const pts: THREE.Vector3[] = [];
  for (let i = 0; i < 8; ++i) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) pts.push(corner[i], corner[i | bit]);
  }
  const geom = new THREE.BufferGeometry().setFromPoints(pts);
  const m = new THREE.LineSegments(geom, new THREE.LineBasicMaterial({ color, transparent: opacity < 1, opacity, depthTest: false }));
  m.renderOrder = 5;
  return m;
}

/**
 * A tested triangle is small beside the mesh and often inside it: drawn over the mesh, not hidden by it (in the
 * transparent pass, after the translucent shapes, whatever its depth).
 */
function onTop<T extends THREE.Mesh | THREE.Line>(o: T): T {
  const m = o.material as THREE.Material;
  m.depthTest = false;
  m.transparent = true;
  o.renderOrder = 6;
  return o;
}

/** A triangle's three edges, over everything. */
function triangleOutline(c: readonly Vec3[], color: number): THREE.Line {
  return onTop(line([...c], color, { loop: true }));
}

/** The split plane of a node: the box's cross-section at splitOffset along axis splitAxis. */
function splitQuad(box: BoxFit, axis: number, offset: number): THREE.Mesh {
  const c = new THREE.Vector3(...box.center).addScaledVector(new THREE.Vector3(...box.axes[axis]), offset);
  const [u, v] = [0, 1, 2].filter((k) => k !== axis);
  const du = new THREE.Vector3(...box.axes[u]).multiplyScalar(box.halfExtents[u]);
  const dv = new THREE.Vector3(...box.axes[v]).multiplyScalar(box.halfExtents[v]);
  const p = (su: number, sv: number) => c.clone().addScaledVector(du, su).addScaledVector(dv, sv).toArray();
  return triangles([[p(-1, -1), p(1, -1), p(1, 1)], [p(-1, -1), p(1, 1), p(-1, 1)]], SPLIT_COLOR, 0.28);
}

function drawWorld(g: THREE.Group, f: Frame, ctx: DrawContext): void {
  if (f.kind === 'level') {
    for (const n of f.nodes) {
      g.add(boxEdges(n.box, n.split === 'leaf' ? COLORS.simplex : LEVEL_COLOR, f.nodes.length > 64 ? 0.6 : 1));
      if (n.splitAxis !== null && n.splitOffset !== null) g.add(splitQuad(n.box, n.splitAxis, n.splitOffset));
    }
    return;
  }
  if (f.boxA) g.add(boxEdges(f.boxA, COLORS.support));
  if (f.boxB) g.add(boxEdges(f.boxB, COLORS.b));
  if (f.kind === 'step' && f.axisDirection && f.boxA && f.boxB) {
    const from = new THREE.Vector3(...f.boxA.center);
    const dir = new THREE.Vector3(...f.axisDirection);
    // Point the arrow from A's box toward B's.
    if (dir.dot(new THREE.Vector3(...f.boxB.center).sub(from)) < 0) dir.negate();
    g.add(arrow(from, dir, ctx.arrowLength * 1.5, COLORS.direction));
    g.add(label(`axis ${f.axis}`, 'label-point', from.clone().addScaledVector(dir, ctx.arrowLength * 1.6)));
  }
  if (f.cornersA) {
    g.add(onTop(triangles([f.cornersA as Vec3[]], f.hit ? HIT : MISS, 0.8)), triangleOutline(f.cornersA as Vec3[], f.hit ? HIT : MISS));
    // A dot where it is, of a size on the screen: a triangle of a fine mesh is a few pixels wide.
    const c = f.cornersA.reduce((s, p) => s.add(new THREE.Vector3(...p).divideScalar(3)), new THREE.Vector3());
    g.add(onTop(marker(f.hit ? HIT : MISS, 7, c)));
    // Apart: the gap between the closest points.
    if (f.pointA && f.pointB) g.add(onTop(line([f.pointA, f.pointB], COLORS.direction)), onTop(marker(COLORS.direction, 4, f.pointB)));
    if (f.firstHit) g.add(label(`triangle ${f.triangleA}: the answer`, 'label-point', c.clone().add(new THREE.Vector3(0, ctx.arrowLength * 0.4, 0))));
  }
  if (f.cornersB) g.add(onTop(triangles([f.cornersB as Vec3[]], f.hit ? HIT : MISS, 0.8)), triangleOutline(f.cornersB as Vec3[], f.hit ? HIT : MISS));
}

export function obbTreeDrawing(frame: Frame, _trace: ObbTreeTrace): FrameDrawing {
  const draw = (g: THREE.Group, ctx: DrawContext) => drawWorld(g, frame, ctx);
  return { shapes: draw, minkowski: draw };
}
