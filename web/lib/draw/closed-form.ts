// Closed-form frames (pairs of points, spheres, segments, capsules; points against boxes): on the shapes, the
// closest points p and q of the two cores (for a point and a box, the centre and its clamp into the box, or its
// projection on the nearest face when inside) and the segment between them, then the answer as GJK's and EPA's last frames draw theirs (the
// closest points, or the contact points and the normal). In A − B: v = p − q, the point of core(A) − core(B)
// nearest the origin, and the point of A − B (the cores' difference grown by r_A + r_B) that the answer measures.
import * as THREE from 'three';
import type { ClosedFormFrame, ClosedFormTrace, Vec3 } from '../index';
import { drawSupportAndAnswer } from './epa';
import { fmt, len3 } from './format';
import { COLORS, arrow, label, line, marker, toV3 } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

export function closedFormDrawing(frame: ClosedFormFrame, trace: ClosedFormTrace): FrameDrawing {
  return {
    minkowski: (g, ctx) => drawMinkowski(g, frame, trace, ctx),
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
  };
}

/** Whether two points drawn `d` apart in a view of size `scale` can be labelled apart. */
const apart = (d: number, scale: number): boolean => d > scale * 0.03;

function drawShapes(g: THREE.Group, frame: ClosedFormFrame, trace: ClosedFormTrace, ctx: DrawContext): void {
  const p = frame.coreA;
  const q = frame.coreB;
  if (frame.form === 'box-box') {
    drawBoxBox(g, frame, trace, ctx);
    return;
  }
  g.add(marker(COLORS.simplex, 5, p), marker(COLORS.simplex, 5, q));
  g.add(line([p, q], COLORS.simplex, { opacity: 0.9 }));
  if (apart(frame.coreDistance, ctx.scale)) {
    g.add(label('p', 'label-point label-core-point', p), label('q', 'label-point label-core-point', q));
  } else {
    g.add(label('p, q', 'label-point label-core-point', p));
  }
  const dash = Math.max(0.02, ctx.scale * 0.02);
  switch (trace.query) {
    case 'intersect':
      // The answer is the comparison of d with the radii: written beside the segment of the cores.
      g.add(label(`d = ${fmt(frame.coreDistance, 6)}`, 'label-note', toV3(p).add(toV3(q)).multiplyScalar(0.5)));
      return;
    case 'distance': {
      const r = trace.result;
      g.add(marker(COLORS.closest, 4, r.pointA), marker(COLORS.closest, 4, r.pointB));
      g.add(line([r.pointA, r.pointB], COLORS.closest, { dashed: dash }));
      const gap = len3(r.pointA.map((x, i) => x - r.pointB[i]) as Vec3);
      if (apart(gap, ctx.scale)) {
        g.add(label('pA', 'label-point label-closest', r.pointA), label('pB', 'label-point label-closest', r.pointB));
      }
      g.add(label(`distance = ${fmt(r.distance, 6)}`, 'label-note label-depth', toV3(r.pointA).add(toV3(r.pointB)).multiplyScalar(0.5)));
      return;
    }
    case 'penetration':
      drawSupportAndAnswer(g, null, trace.result, ctx);
  }
}

/**
 * Two boxes: the axis L of least overlap (or the separating one) drawn from the witness p on A's core, the witness q
 * on B's, and the overlap along L; a penetration adds the contact points and normal as EPA's last frame does.
 */
function drawBoxBox(g: THREE.Group, frame: ClosedFormFrame, trace: ClosedFormTrace, ctx: DrawContext): void {
  const p = frame.coreA;
  const q = frame.coreB;
  g.add(marker(COLORS.simplex, 5, p), marker(COLORS.simplex, 5, q));
  g.add(line([p, q], COLORS.simplex, { opacity: 0.9 }));
  // A penetration's normal is the axis, drawn with the answer below (one arrow).
  if (frame.axis && trace.query !== 'penetration') g.add(arrow(toV3(p), toV3(frame.axis), ctx.arrowLength, COLORS.direction));
  const note = `L (${frame.axisKind ?? 'axis'}): overlap ${fmt(frame.overlap ?? 0, 6)}`;
  g.add(label(note, 'label-note', toV3(p).add(toV3(q)).multiplyScalar(0.5)));
  if (trace.query === 'penetration') drawSupportAndAnswer(g, null, trace.result, ctx);
}

function drawMinkowski(g: THREE.Group, frame: ClosedFormFrame, trace: ClosedFormTrace, ctx: DrawContext): void {
  // v = p − q: the closest points of the cores give the point of core(A) − core(B) nearest O, ‖v‖ = d.
  const v = toV3(frame.coreA).sub(toV3(frame.coreB));
  g.add(marker(COLORS.simplex, 5, v), line([new THREE.Vector3(), v], COLORS.simplex));
  g.add(label('v = p − q', 'label-point label-core-point', v));
  if (apart(frame.coreDistance, ctx.scale)) {
    g.add(label(`‖v‖ = d = ${fmt(frame.coreDistance, 6)}`, 'label-note', v.clone().multiplyScalar(0.5)));
  }
  const radius = frame.radiusA + frame.radiusB;
  if (trace.query === 'penetration' && trace.result.intersecting) {
    const r = trace.result;
    // Moving B by depth·n brings the origin onto the boundary of A − B, at depth·n: drawn with n.
    const n = toV3(r.normal);
    if (n.lengthSq() === 0) return;
    const at = n.clone().multiplyScalar(r.depth);
    g.add(marker(COLORS.contact, 5, at));
    if (r.depth > 0) g.add(line([new THREE.Vector3(), at], COLORS.contact, { dashed: Math.max(0.01, ctx.scale * 0.015) }));
    g.add(arrow(at, n, ctx.arrowLength * 0.7, COLORS.contact));
    g.add(label(`depth = ${fmt(r.depth, 6)}`, 'label-note label-depth', at));
    return;
  }
  if (radius > 0 && frame.coreDistance > radius) {
    // Apart: A − B reaches r_A + r_B beyond v towards O; what is left of ‖v‖ is the distance.
    const edge = v.clone().multiplyScalar(1 - radius / frame.coreDistance);
    g.add(marker(COLORS.closest, 4, edge));
    g.add(label(`r_A + r_B = ${fmt(radius, 6)}`, 'label-note', edge.clone().add(v).multiplyScalar(0.5)));
  }
}
