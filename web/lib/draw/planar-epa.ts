// Planar EPA frames (penetration of a 2D scene, lifted to z = 0): the polygon P inside core(A) − core(B), its
// edge nearest the origin (the one a new support point splits) with normal and distance, the support point w,
// the vertices w drops, the two edges that replace the split one; on the shapes the sources a and b and, at the
// end, the contact points and the normal along which B moves out of A.
import * as THREE from 'three';
import type { PlanarEpaFrame, PlanarEpaTrace, Vec3 } from '../index';
import { fmt, len3 } from './format';
import { COLORS, arrow, boldSegments, label, line, marker, toV3, triangles } from './primitives';
import { drawSupportAndAnswer } from './epa';
import type { DrawContext, FrameDrawing } from './types';

/** Width in pixels of the edge being split. */
const SPLIT_WIDTH = 4;

export function planarEpaDrawing(frame: PlanarEpaFrame, trace: PlanarEpaTrace): FrameDrawing {
  return {
    minkowski: (g, ctx) => drawDifference(g, frame, trace, ctx),
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
  };
}

/** The nearest edge's two ends (P is counter-clockwise: edge i runs from vertex i to vertex i + 1). */
export function nearestEdge(frame: PlanarEpaFrame): [Vec3, Vec3] | null {
  const n = frame.vertices.length;
  if (frame.closest === null || n < 2 || frame.closest >= n) return null;
  return [frame.vertices[frame.closest].w, frame.vertices[(frame.closest + 1) % n].w];
}

/** w and its two neighbours in P (counter-clockwise), when w is one of P's vertices. */
function insertedAt(W: readonly Vec3[], w: Vec3): [Vec3, Vec3, Vec3] | null {
  const k = W.findIndex((p) => p[0] === w[0] && p[1] === w[1]);
  if (k < 0 || W.length < 3) return null;
  return [W[(k + W.length - 1) % W.length], W[k], W[(k + 1) % W.length]];
}

/** A convex polygon (counter-clockwise, in the plane z = 0) as a fan of triangles. */
function fan(points: readonly Vec3[]): Vec3[][] {
  const tris: Vec3[][] = [];
  for (let i = 1; i + 1 < points.length; i++) tris.push([points[0], points[i], points[i + 1]]);
  return tris;
}

function drawDifference(g: THREE.Group, frame: PlanarEpaFrame, trace: PlanarEpaTrace, ctx: DrawContext): void {
  const dash = Math.max(0.01, ctx.scale * 0.015);
  const W = frame.vertices.map((v) => v.w);
  if (W.length === 0) {
    // GJK found the cores apart: no polygon. Show the closest point of A − B to the origin.
    const r = trace.result;
    const p: Vec3 = [r.pointA[0] - r.pointB[0], r.pointA[1] - r.pointB[1], 0];
    g.add(marker(COLORS.contact, 5, p), line([[0, 0, 0], p], COLORS.contact, { dashed: dash }));
    g.add(label('separated: ‖pA − pB‖ = ' + fmt(len3(p), 6), 'label-note', toV3(p).multiplyScalar(0.5)));
    return;
  }

  // The polygon P: a light fill, its edges and its vertices.
  if (W.length >= 3) g.add(triangles(fan(W), COLORS.polytope, 0.13));
  g.add(line(W, COLORS.polytope, { loop: W.length > 2, opacity: 0.7 }));
  for (const w of W) g.add(marker(COLORS.polytope, 3, w));

  // Expand: the vertices w saw are gone (red); w joins the polygon between the split edge's ends (green).
  for (const v of frame.removed) g.add(marker(COLORS.removed, 5, v.w));
  const edge = nearestEdge(frame);
  if (edge) g.add(boldSegments([edge[0], edge[1]], COLORS.face, SPLIT_WIDTH));
  const inserted = frame.kind === 'expand' && frame.support ? insertedAt(W, frame.support.w) : null;
  if (inserted) {
    // The edge w split (between its new neighbours) dashed red; the two edges through w that replace it green.
    const [before, w, after] = inserted;
    g.add(line([before, after], COLORS.removed, { dashed: dash, opacity: 0.9 }));
    g.add(boldSegments([before, w, w, after], COLORS.added, SPLIT_WIDTH));
  }

  const n = toV3(frame.normal);
  const p = n.clone().multiplyScalar(frame.depth);
  const estimate = frame.kind !== 'seed' && n.lengthSq() > 0;
  if (estimate) {
    g.add(marker(COLORS.face, 5, p));
    if (frame.depth > 0) g.add(line([new THREE.Vector3(), p], COLORS.face, { dashed: dash, opacity: 0.9 }));
    const len = ctx.arrowLength * 0.7;
    g.add(arrow(p, n, len, COLORS.face));
    g.add(label('n', 'label-point label-face', p.clone().addScaledVector(n, len * 1.1)));
    g.add(label(`${frame.kind === 'done' ? 'depth' : 'd'} = ${fmt(frame.depth, 6)}`, 'label-note label-face-note', p.clone().multiplyScalar(0.5)));
  }

  if (frame.support) {
    const w = frame.support.w;
    g.add(marker(COLORS.support, 6, w));
    g.add(label('w', 'label-point label-support', w));
    if (frame.kind === 'support' && estimate) g.add(line([p, toV3(w)], COLORS.support, { dashed: dash, opacity: 0.8 }));
  }
}

function drawShapes(g: THREE.Group, frame: PlanarEpaFrame, trace: PlanarEpaTrace, ctx: DrawContext): void {
  // The sources on A and B of the nearest edge's ends: the contact points are their weighted sums.
  if (frame.kind !== 'done' && frame.closest !== null) {
    const n = frame.vertices.length;
    for (const i of [frame.closest, (frame.closest + 1) % n]) {
      const v = frame.vertices[i];
      if (v) g.add(marker(COLORS.face, 3, v.a, 0.9), marker(COLORS.face, 3, v.b, 0.9));
    }
  }
  drawSupportAndAnswer(g, frame.support, frame.kind === 'done' ? trace.result : null, ctx);
}
