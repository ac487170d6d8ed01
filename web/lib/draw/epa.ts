// EPA frames (penetration): the polytope inside core(A) − core(B), the face nearest the origin with its normal
// and distance, the new support point w, the faces it sees (removed), the horizon, the new faces; on the shapes
// the sources a and b of w and, at the end, the contact points and the normal along which B moves out of A.
import * as THREE from 'three';
import type { EpaFace, EpaFrame, EpaTrace, Vec3 } from '../index';
import { fmt, len3 } from './format';
import { COLORS, arrow, boldSegments, label, line, marker, toV3, triangles, uniqueEdges } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

/** Width in pixels of the horizon edges. */
const HORIZON_WIDTH = 4;

export function epaDrawing(frame: EpaFrame, trace: EpaTrace): FrameDrawing {
  return {
    minkowski: (g, ctx) => drawMinkowski(g, frame, trace, ctx),
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
  };
}

/** The face of this frame with id `id`: among the polytope's faces, or among those just removed. */
function findFace(frame: EpaFrame, id: number | null): EpaFace | null {
  if (id === null) return null;
  return frame.faces.find((f) => f.id === id) ?? frame.removed.find((f) => f.id === id) ?? null;
}

function drawMinkowski(g: THREE.Group, frame: EpaFrame, trace: EpaTrace, ctx: DrawContext): void {
  const W = frame.vertices.map((v) => v.w);
  const tri = (f: EpaFace) => f.v.map((i) => W[i]);
  const edgesOf = (faces: EpaFace[]) => uniqueEdges(faces, W);
  const segments = (pts: Vec3[], color: number, opacity: number) => {
    if (!pts.length) return;
    const geom = new THREE.BufferGeometry().setFromPoints(pts.map((p) => toV3(p)));
    const l = new THREE.LineSegments(geom, new THREE.LineBasicMaterial({ color, transparent: true, opacity }));
    l.renderOrder = 4;
    g.add(l);
  };

  if (frame.vertices.length === 0) {
    // GJK found the cores apart: no polytope. Show the closest point of A − B to the origin.
    const r = trace.result;
    const p = r.pointA.map((x, i) => x - r.pointB[i]) as Vec3;
    g.add(marker(COLORS.contact, 5, p), line([[0, 0, 0], p], COLORS.contact, { dashed: Math.max(0.02, ctx.scale * 0.02) }));
    g.add(label('separated: ‖pA − pB‖ = ' + fmt(len3(p), 6), 'label-note', toV3(p).multiplyScalar(0.5)));
    return;
  }

  const closest = findFace(frame, frame.closest);
  const added = new Set(frame.added);
  const plain = frame.faces.filter((f) => f.id !== closest?.id && !added.has(f.id));

  // The polytope: translucent faces and thin edges; vertices as small dots.
  if (plain.length) g.add(triangles(plain.map(tri), COLORS.polytope, 0.13));
  segments(edgesOf(frame.faces), COLORS.polytope, 0.6);
  for (const w of W) g.add(marker(COLORS.polytope, 3, w));

  // Expand: removed faces in red, the horizon bold, the new faces in green.
  // The new faces cover the removed ones on screen: they get a light fill and bright edges, and the removed
  // faces are drawn after them, so that red stays red and green stays green.
  const newFaces = frame.faces.filter((f) => added.has(f.id));
  if (newFaces.length) {
    g.add(triangles(newFaces.map(tri), COLORS.added, 0.22));
    segments(edgesOf(newFaces), COLORS.added, 1);
  }
  if (frame.removed.length) {
    const red = triangles(frame.removed.map(tri), COLORS.removed, 0.45);
    red.renderOrder = 5;
    g.add(red);
    segments(edgesOf(frame.removed), COLORS.removed, 0.9);
  }
  if (frame.horizon.length) {
    g.add(boldSegments(frame.horizon.flatMap(([i, j]) => [W[i], W[j]]), COLORS.horizon, HORIZON_WIDTH));
  }

  // The closest face highlighted (on expand frames it is among the removed faces, red), and the current
  // estimate: the face's nearest point d·n to the origin, its normal n and its distance d.
  if (closest && !frame.removed.some((f) => f.id === closest.id)) {
    g.add(triangles([tri(closest)], COLORS.face, 0.42));
    segments(edgesOf([closest]), COLORS.face, 1);
  }
  const n = toV3(frame.normal);
  const p = n.clone().multiplyScalar(frame.depth);
  const estimate = frame.kind !== 'seed' && n.lengthSq() > 0;
  if (estimate) {
    g.add(marker(COLORS.face, 5, p));
    if (frame.depth > 0) g.add(line([new THREE.Vector3(), p], COLORS.face, { dashed: Math.max(0.01, ctx.scale * 0.015), opacity: 0.9 }));
    const len = ctx.arrowLength * 0.7;
    g.add(arrow(p, n, len, COLORS.face));
    g.add(label('n', 'label-point label-face', p.clone().addScaledVector(n, len * 1.1)));
    const final = frame.kind === 'done';
    g.add(label(`${final ? 'depth' : 'd'} = ${fmt(frame.depth, 6)}`, 'label-note label-face-note', p.clone().multiplyScalar(0.5)));
  }

  // The new support point w; on support frames, dashed from d·n to w: the gap n·w − d along n.
  if (frame.support) {
    const w = frame.support.w;
    g.add(marker(COLORS.support, 6, w));
    g.add(label('w', 'label-point label-support', w));
    if (frame.kind === 'support' && estimate) {
      g.add(line([p, toV3(w)], COLORS.support, { dashed: Math.max(0.01, ctx.scale * 0.015), opacity: 0.8 }));
    }
  }
}

function drawShapes(g: THREE.Group, frame: EpaFrame, trace: EpaTrace, ctx: DrawContext): void {
  // The sources on A and B of the closest face's vertices: the contact points are their weighted sums.
  const closest = findFace(frame, frame.closest);
  if (closest && frame.kind !== 'done') {
    for (const i of closest.v) {
      const v = frame.vertices[i];
      if (!v) continue;
      g.add(marker(COLORS.face, 3, v.a, 0.9), marker(COLORS.face, 3, v.b, 0.9));
    }
  }
  drawSupportAndAnswer(g, frame.support, frame.kind === 'done' ? trace.result : null, ctx);
}

/** What the shapes' view draws of EPA's answer (3D or planar, in 3D coordinates). */
export interface EpaAnswer {
  pointA: Vec3;
  pointB: Vec3;
  normal: Vec3;
  depth: number;
  intersecting: boolean;
}

/**
 * On the shapes, shared by the 3D and the planar EPA: the support pair a, b of the last support point; then the
 * answer (null before the last frame): the contact points, the normal from pA and the depth or the gap.
 */
export function drawSupportAndAnswer(g: THREE.Group, support: { a: Vec3; b: Vec3 } | null | undefined, r: EpaAnswer | null,
  ctx: DrawContext): void {
  const dash = Math.max(0.01, ctx.scale * 0.015);
  if (support) {
    const { a, b } = support;
    g.add(marker(COLORS.support, 5, a), marker(COLORS.support, 5, b));
    g.add(line([a, b], COLORS.support, { dashed: dash, opacity: 0.9 }));
    g.add(label('a', 'label-point label-support', a), label('b', 'label-point label-support', b));
  }
  if (!r) return;

  // The answer: contact points on A and B, and the normal: the direction to move B to separate it from A.
  g.add(marker(COLORS.contact, 5, r.pointA), marker(COLORS.contact, 5, r.pointB));
  g.add(line([r.pointA, r.pointB], COLORS.contact, { opacity: 0.9 }));
  if (len3(r.pointA.map((x, i) => x - r.pointB[i]) as Vec3) > ctx.scale * 0.03) {
    g.add(label('pA', 'label-point label-contact', r.pointA), label('pB', 'label-point label-contact', r.pointB));
  } else {
    g.add(label('pA, pB', 'label-point label-contact', r.pointA)); // too close to label apart
  }
  const n = toV3(r.normal);
  if (n.lengthSq() > 0) {
    // From pA: moving B by depth·n brings pB to pA, where the shapes then only touch.
    const from = toV3(r.pointA);
    g.add(arrow(from, n, ctx.arrowLength, COLORS.contact));
    g.add(label('n (move B)', 'label-point label-contact', from.clone().addScaledVector(n.normalize(), ctx.arrowLength * 1.1)));
  }
  const mid = toV3(r.pointA).add(toV3(r.pointB)).multiplyScalar(0.5);
  const text = r.intersecting ? `depth = ${fmt(r.depth, 6)}` : `apart by ${fmt(len3(r.pointA.map((x, i) => x - r.pointB[i]) as Vec3), 6)}`;
  g.add(label(text, 'label-note label-depth', mid));
}
