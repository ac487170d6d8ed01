// GJK frames (intersect, distance): the simplex, search direction, new support point w and closest point v
// in A − B; the support sources a, b and the closest points on the shapes.
import * as THREE from 'three';
import type { GjkFrame, GjkTrace } from '../index';
import { fmt, len3 } from './format';
import { COLORS, label, line, marker, toV3, triangles } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

export function gjkDrawing(frame: GjkFrame, trace: GjkTrace): FrameDrawing {
  return {
    minkowski: (g, ctx) => drawMinkowski(g, frame, ctx),
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
  };
}

function drawMinkowski(g: THREE.Group, frame: GjkFrame, ctx: DrawContext): void {
  const W = frame.simplex.map((s) => s.w);

  // Simplex: vertices, every edge, every face (a tetrahedron shows its four faces).
  for (const w of W) g.add(marker(COLORS.simplex, 5, w));
  for (let i = 0; i < W.length; i++) for (let j = i + 1; j < W.length; j++) g.add(line([W[i], W[j]], COLORS.simplex));
  const tris: (readonly number[])[][] = [];
  for (let i = 0; i < W.length; i++) for (let j = i + 1; j < W.length; j++) for (let k = j + 1; k < W.length; k++) tris.push([W[i], W[j], W[k]]);
  if (tris.length) g.add(triangles(tris, COLORS.simplex, 0.18));

  // Search direction, drawn from the origin.
  const d = toV3(frame.direction);
  if (d.lengthSq() > 0 && Number.isFinite(d.lengthSq()) && frame.kind !== 'done') {
    const arrowLen = ctx.arrowLength;
    const arrow = new THREE.ArrowHelper(d.clone().normalize(), new THREE.Vector3(), arrowLen, COLORS.direction, arrowLen * 0.18, arrowLen * 0.09);
    arrow.renderOrder = 6;
    g.add(arrow);
    g.add(label('d', 'label-point label-direction', d.clone().normalize().multiplyScalar(arrowLen * 1.08)));
  }

  // New support point w.
  if (frame.support) {
    g.add(marker(COLORS.support, 6, frame.support.w));
    g.add(label('w', 'label-point label-support', frame.support.w));
    if (frame.kind === 'support') {
      // Dashed from v to w: how far the support point reaches beyond v along the search direction.
      g.add(line([frame.v, frame.support.w], COLORS.support, { dashed: Math.max(0.02, ctx.scale * 0.02), opacity: 0.7 }));
    }
  }

  // Closest point v and its distance to the origin (before the first support point of an intersect
  // query, W is empty and v is only a direction).
  if (W.length === 0) return;
  g.add(marker(COLORS.closest, 5, frame.v));
  g.add(line([[0, 0, 0], frame.v], COLORS.closest));
  g.add(label('v', 'label-point label-closest', frame.v));
  const n = len3(frame.v);
  if (n > 0) g.add(label('‖v‖ = ' + fmt(n, 5), 'label-note', toV3(frame.v).multiplyScalar(0.5)));
}

function drawShapes(g: THREE.Group, frame: GjkFrame, trace: GjkTrace, ctx: DrawContext): void {
  for (const s of frame.simplex) {
    g.add(marker(COLORS.simplex, 3, s.a, 0.9));
    g.add(marker(COLORS.simplex, 3, s.b, 0.9));
  }
  const dash = Math.max(0.02, ctx.scale * 0.02);
  if (frame.support) {
    const { a, b } = frame.support;
    g.add(marker(COLORS.support, 5, a), marker(COLORS.support, 5, b));
    g.add(line([a, b], COLORS.support, { dashed: dash, opacity: 0.9 }));
    g.add(label('a', 'label-point label-support', a), label('b', 'label-point label-support', b));
  }
  if (frame.simplex.length) {
    g.add(marker(COLORS.closest, 4, frame.closestA), marker(COLORS.closest, 4, frame.closestB));
    g.add(line([frame.closestA, frame.closestB], COLORS.closest, { opacity: 0.85 }));
  }
  const r = trace.result;
  if (frame.kind === 'done' && 'pointA' in r && (trace.marginA > 0 || trace.marginB > 0)) {
    // With margins the reported points lie on the full shapes, not on the cores GJK ran on.
    g.add(marker(COLORS.closest, 4, r.pointA), marker(COLORS.closest, 4, r.pointB));
    g.add(line([r.pointA, r.pointB], COLORS.closest, { dashed: dash }));
  }
}
