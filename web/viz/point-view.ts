// The point queries on the page: "contains" (is the point in shape A) and "project" (the point of A's surface
// nearest it, and the feature it lies on). The library answers both without a trace (point_query.h: one pair query
// with a point for B, answered by a closed form, GJK or EPA at once; a mesh by its box tree), so the page shows
// one step made from run()'s own answer: run() is deterministic, so a link replays the same bits through it. The
// feature's corners are the shape's input points (box corners, polytope points, mesh vertices) placed by the
// shape's pose, which is all the page adds to the answer.
import * as THREE from 'three';
import { fmt, fmtVec } from '../lib/draw/format';
import { COLORS, boldSegments, label, line, marker, toV3 } from '../lib/draw/primitives';
import type { FrameDrawing } from '../lib/draw/types';
import { run as runQuery, type ContainsResult, type MeshProjectResult, type ProjectResult, type Scene, type Shape, type Trace, type Vec3 } from '../lib/index';
import type { Row } from './query-view';
import { featureCorners, triangleCorners } from './shape-points';

/** What run() answers for a point query: a compound adds the child, a mesh or heightfield its triangle. */
export type PointAnswer = (ContainsResult | ProjectResult | MeshProjectResult) & { child?: number };

/** The one frame: the query point and, for project, the feature's corners in world space (null for a round part). */
export interface PointQueryFrame {
  kind: 'answer';
  caption: string;
  point: Vec3;
  corners: Vec3[] | null;
  /** A mesh's or heightfield's nearest triangle, its corners in world space (null for other shapes). */
  triangle: Vec3[] | null;
}

/** The page's trace of a point query: one frame, told apart by `pointQuery` (see isPointQuery). */
export interface PointQueryTrace {
  query: 'contains' | 'project';
  pointQuery: true;
  pseudocode: string[];
  frames: [PointQueryFrame];
  result: PointAnswer;
  /** A compound A's answering child (compound-child.ts reads it). */
  child?: number;
}

/** Whether a trace is a point query's one frame (a Trace to the page, which keeps it with the library's). */
export function isPointQuery(t: { query: string }): boolean {
  return (t as { pointQuery?: unknown }).pointQuery === true;
}

const INSIDE_COLOR = COLORS.simplex; // green
const OUTSIDE_COLOR = COLORS.removed; // red
const FEATURE_COLOR = COLORS.simplex;
const SEGMENT_COLOR = COLORS.direction;

// ---- the trace -----------------------------------------------------------------------------------------------

/** Runs the scene's point query through the library's run() and makes its one frame. */
export function pointTrace(scene: Scene): Trace {
  const q = scene.query as 'contains' | 'project';
  const r = runQuery(scene as Scene & { query: 'project' }) as PointAnswer;
  const a = scene.shapes[0];
  const p = scene.point as Vec3;
  const project = q === 'project' && 'feature' in r;
  const corners = project ? featureCorners(a, (r as ProjectResult).feature.vertices, (r as PointAnswer).child) : null;
  const triangle = project && (r as MeshProjectResult).triangle !== undefined ? triangleCorners(a, (r as MeshProjectResult).triangle) : [];
  const frame: PointQueryFrame = {
    kind: 'answer', caption: caption(q, a, r), point: p, corners: corners && corners.length ? corners : null,
    triangle: triangle.length ? triangle : null,
  };
  const trace: PointQueryTrace = { query: q, pointQuery: true, pseudocode: pseudocode(q, a), frames: [frame], result: r };
  // A compound's answering child at the top, as on the library's compound traces: the right view shows that child.
  if (r.child !== undefined) trace.child = r.child;
  return trace as unknown as Trace;
}

/**
 * How the library answers (point_query.h, mesh_pair.h, compound.h): contains is the intersect query of A and the
 * point; project is the distance query when the point is outside and the penetration query when inside; a mesh
 * is a surface, searched by its box tree; a compound asks each child.
 */
function pseudocode(q: 'contains' | 'project', a: Shape): string[] {
  const compound = a.type === 'compound'
    ? [q === 'contains' ? 'for each child c of A: if c contains p, answer c   // the first child that holds p'
      : 'for each child c of A: project p on c; keep the c of least signed distance   // negative inside']
    : [];
  if (q === 'contains') {
    return [...compound,
      'inside ← intersect(A, {p})   // the pair query with the point p for B',
      '   closed form for a point, sphere, capsule, segment or box; else GJK',
      'answer inside   // the boundary counts as inside'];
  }
  if (a.type === 'mesh' || a.type === 'heightfield') {
    return [
      'x ← the point of A\'s triangles nearest p   // distance to {p}: branch and bound on the OBB tree',
      'triangle ← the nearest (smallest index among equally near); u, v, w ← x in its corners',
      'feature ← its corner, else its edge, else its face, within 1e-7 · size of x',
      'answer x, |x − p|, inside = false   // a mesh is a surface'];
  }
  return [...compound,
    'if p ∉ A: x ← the point of A nearest p   // distance(A, {p}): closed form or GJK',
    'else: x ← p + depth · n   // penetration(A, {p}): closed form, the cylinder\'s or cone\'s nearest side, or EPA',
    'feature ← the vertex, else the edge, else the face within 1e-7 · size of x   // of the core when rounded',
    'answer x, |x − p|, inside, feature'];
}

function caption(q: 'contains' | 'project', a: Shape, r: PointAnswer): string {
  const child = r.child !== undefined ? ` (child ${r.child} answers)` : '';
  if (q === 'contains' || !('point' in r)) {
    return `The point p is ${r.inside ? 'inside' : 'outside'} shape A (${a.type})${child}, and drawn ${r.inside ? 'green' : 'red'}.`;
  }
  const how = a.type === 'mesh' || a.type === 'heightfield'
    ? `The nearest point of A's triangles (triangle ${(r as MeshProjectResult).triangle})`
    : r.inside ? 'The point p is inside A: the nearest point of its surface, at the penetration depth,'
      : 'The point p is outside A: the nearest point of A';
  return `${how} is x = ${fmtVec(r.point, 6)}, at distance ${fmt(r.distance, 9)}, on the ${featureText(r.feature)}${child}.`;
}

function featureText(f: ProjectResult['feature']): string {
  return f.vertices.length ? `${f.kind} [${f.vertices.join(', ')}]` : f.kind;
}

// ---- the drawing and the values table ---------------------------------------------------------------------

export function pointDrawing(frame: PointQueryFrame, trace: PointQueryTrace): FrameDrawing {
  const draw = (g: THREE.Group) => drawWorld(g, frame, trace);
  return { shapes: draw, minkowski: draw };
}

function drawWorld(g: THREE.Group, frame: PointQueryFrame, trace: PointQueryTrace): void {
  const r = trace.result;
  const p = toV3(frame.point);
  g.add(overDot(r.inside ? INSIDE_COLOR : OUTSIDE_COLOR, 8, p, 'query-point', 8), label(`p (${r.inside ? 'inside' : 'outside'})`, 'label-point', p));
  if (!('point' in r)) return;
  const x = toV3(r.point);
  const c = frame.corners?.map(toV3) ?? [];
  // A mesh's nearest triangle, faint under its feature (filled in full when the feature is the triangle's face).
  if (frame.triangle && c.length < 3) {
    const tri = new THREE.Mesh(new THREE.BufferGeometry().setFromPoints(frame.triangle.map(toV3)), new THREE.MeshBasicMaterial({
      color: FEATURE_COLOR, transparent: true, opacity: 0.35, side: THREE.DoubleSide, depthWrite: false, depthTest: false,
    }));
    tri.name = 'nearest-triangle';
    tri.renderOrder = 4;
    g.add(tri);
  }
  if (c.length >= 3) {
    const tris: THREE.Vector3[] = [];
    for (let i = 1; i + 1 < c.length; i++) tris.push(c[0], c[i], c[i + 1]);
    const fill = new THREE.Mesh(new THREE.BufferGeometry().setFromPoints(tris), new THREE.MeshBasicMaterial({
      color: FEATURE_COLOR, transparent: true, opacity: 0.85, side: THREE.DoubleSide, depthWrite: false, depthTest: false,
    }));
    fill.name = 'feature-face';
    fill.renderOrder = 4;
    g.add(fill);
  }
  if (c.length >= 2) {
    // Bold and over the body: an edge seen through the translucent shape is still plain.
    const ends: Vec3[] = [];
    const loop = c.length >= 3 ? c.length : 1;
    for (let i = 0; i < loop; i++) ends.push(c[i].toArray() as Vec3, c[(i + 1) % c.length].toArray() as Vec3);
    const edge = boldSegments(ends, FEATURE_COLOR, 4);
    edge.name = c.length === 2 ? 'feature-edge' : 'feature-outline';
    g.add(edge);
  }
  if (c.length === 1) {
    // Under x's dot (a vertex is where x is), larger, so that both show.
    g.add(overDot(FEATURE_COLOR, 12, c[0], 'feature-vertex', 6));
  }
  const seg = line([p, x], SEGMENT_COLOR, { opacity: 0.95 });
  seg.name = 'query-segment';
  // From a point inside A, the segment runs inside it: drawn over the body.
  (seg.material as THREE.LineBasicMaterial).depthTest = false;
  seg.renderOrder = 7;
  g.add(seg, overDot(COLORS.contact, 6, x, 'closest-point', 9), label(`x: ${featureText(r.feature)}, d = ${fmt(r.distance, 6)}`, 'label-point label-closest', x));
}

/** A dot drawn over the shapes (a point inside A is seen through it, in its own colour). */
function overDot(color: number, px: number, at: THREE.Vector3, name: string, order: number): THREE.Mesh {
  const m = marker(color, px, at);
  // Transparent (at full opacity) so that it is drawn in the pass after the translucent bodies, by renderOrder.
  Object.assign(m.material as THREE.MeshBasicMaterial, { depthTest: false, transparent: true });
  m.renderOrder = order;
  m.name = name;
  return m;
}

export function pointRows(frame: PointQueryFrame, trace: PointQueryTrace): Row[] {
  const r = trace.result;
  const rows: Row[] = [
    ['point p', fmtVec(frame.point, 12)],
    ['inside', r.inside ? 'yes' : 'no', 'ok'],
  ];
  if (r.child !== undefined) rows.push(['child', String(r.child)]);
  if ('point' in r) {
    rows.push(['closest point x', fmtVec(r.point, 12), 'ok'], ['distance |x − p|', fmt(r.distance, 12), 'ok'],
      ['feature', r.feature.kind], ['feature vertices', r.feature.vertices.length ? r.feature.vertices.join(', ') : '—']);
    const m = r as MeshProjectResult;
    if (m.triangle !== undefined) rows.push(['triangle', String(m.triangle)], ['barycentric (u, v, w)', fmtVec(m.barycentric, 12)]);
  }
  rows.push(['iterations', String(r.iterations)], ['status', r.status]);
  return rows;
}

/** The page's result sentence for a point query. */
export function pointSentence(trace: PointQueryTrace): string {
  return trace.frames[0].caption;
}
