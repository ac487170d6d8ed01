// Quickhull frames (query "hull"): the input points, the current hull with each face's conflict points in
// that face's colour, the eye point and the face it was taken from, the faces the eye sees (red), the
// horizon (bold), the new faces (green); at the end the hull with its merged faces.
import * as THREE from 'three';
import type { HullFrame, HullTrace, Vec3 } from '../index';
import { COLORS, boldSegments, label, line, marker, pixelRatio, toV3, triangles, uniqueEdges } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

type HullFace = HullFrame['faces'][number];

/** Face colours by face id: distinct from red (visible), green (new), orange (horizon) and white (eye). */
export const PALETTE = [0x4ea1ff, 0xf5a524, 0xb07cff, 0xff7eb6, 0xc6e26b, 0x8f9bff, 0xe0b486, 0x7fd3ff, 0xd98cff];
export const faceColor = (id: number): number => PALETTE[((id % PALETTE.length) + PALETTE.length) % PALETTE.length];

export const HULL_COLORS = {
  face: COLORS.polytope, // the finished hull: cyan
  empty: 0x8a94a6, // faces whose conflict lists are empty (final unless a later eye sees them): grey
  vertex: 0xd7dbe3, // hull vertices
  inside: 0x5d6472, // points inside the current hull (no longer considered)
  eye: 0xffffff, // the eye point
  eyeFace: 0xffd166, // the face the eye was taken from, and the eye's distance to it
  visible: COLORS.removed,
  horizon: COLORS.horizon,
  added: COLORS.added,
};

const HORIZON_WIDTH = 4;

export function quickhullDrawing(frame: HullFrame, trace: HullTrace): FrameDrawing {
  return {
    hull: (g, ctx) => drawHull(g, frame, trace, ctx),
  };
}

/** The input points (frame 0 holds them; later frames refer to them by index). */
export function inputPoints(trace: HullTrace): Vec3[] {
  return trace.frames[0]?.points ?? [];
}

/** The face whose conflict list holds the eye, with the eye's height above its plane. */
export function eyeFace(frame: HullFrame, P: Vec3[]): { face: HullFace; distance: number; foot: THREE.Vector3 } | null {
  if (frame.eye === null) return null;
  const face = frame.faces.find((f) => f.conflicts.includes(frame.eye!))
    ?? frame.faces.find((f) => frame.visible.includes(f.id)) ?? null;
  if (!face || !P[frame.eye]) return null;
  const [a, b, c] = face.v.map((i) => toV3(P[i]));
  const n = b.clone().sub(a).cross(c.clone().sub(a));
  if (n.lengthSq() === 0) return null;
  n.normalize();
  const e = toV3(P[frame.eye]);
  const distance = n.dot(e.clone().sub(a));
  return { face, distance, foot: e.clone().addScaledVector(n, -distance) };
}

let dotTexture: THREE.Texture | null = null;
/** A round sprite for THREE.Points (which otherwise draws squares); null without a DOM (Node: square dots). */
function roundDot(): THREE.Texture | null {
  if (dotTexture || typeof document === 'undefined') return dotTexture;
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const ctx = c.getContext('2d')!;
  ctx.fillStyle = '#fff';
  ctx.beginPath();
  ctx.arc(32, 32, 29, 0, 2 * Math.PI);
  ctx.fill();
  dotTexture = new THREE.CanvasTexture(c);
  return dotTexture;
}

/** Dots of `px` CSS pixels at the given points, one colour per point. */
function dots(pts: { p: Vec3; color: number }[], px: number): THREE.Points | null {
  if (!pts.length) return null;
  const pos = new Float32Array(pts.length * 3);
  const col = new Float32Array(pts.length * 3);
  const c = new THREE.Color();
  pts.forEach(({ p, color }, i) => {
    pos.set(p, 3 * i);
    c.set(color);
    col.set([c.r, c.g, c.b], 3 * i);
  });
  const geom = new THREE.BufferGeometry();
  geom.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  geom.setAttribute('color', new THREE.BufferAttribute(col, 3));
  const mat = new THREE.PointsMaterial({
    size: px * pixelRatio(), sizeAttenuation: false, vertexColors: true, map: roundDot(), alphaTest: 0.5,
  });
  const o = new THREE.Points(geom, mat);
  o.renderOrder = 3;
  return o;
}

function drawHull(g: THREE.Group, frame: HullFrame, trace: HullTrace, ctx: DrawContext): void {
  const P = inputPoints(trace);
  const visible = new Set(frame.visible);
  const added = new Set(frame.added);
  const tri = (f: HullFace) => f.v.map((i) => P[i] ?? [0, 0, 0]);
  const segments = (pairs: Vec3[], color: number, opacity: number) => {
    if (!pairs.length) return;
    const geom = new THREE.BufferGeometry().setFromPoints(pairs.map((p) => toV3(p)));
    const l = new THREE.LineSegments(geom, new THREE.LineBasicMaterial({ color, transparent: true, opacity }));
    l.renderOrder = 4;
    g.add(l);
  };
  const edgesOf = (faces: HullFace[]) => uniqueEdges(faces, P);

  // Points: conflict points in their face's colour, hull vertices light, the rest (inside) dim.
  const owner = new Map<number, number>();
  for (const f of frame.faces) for (const i of f.conflicts) owner.set(i, f.id);
  const onHull = new Set(frame.faces.flatMap((f) => f.v));
  const inside: { p: Vec3; color: number }[] = [];
  const conflict: { p: Vec3; color: number }[] = [];
  const verts: { p: Vec3; color: number }[] = [];
  const start = frame.kind === 'extremes' || (frame.faces.length === 0 && frame.kind !== 'done' && frame.kind !== 'degenerate');
  P.forEach((p, i) => {
    if (i === frame.eye) return;
    if (onHull.has(i)) verts.push({ p, color: HULL_COLORS.vertex });
    else if (owner.has(i)) conflict.push({ p, color: faceColor(owner.get(i)!) });
    else inside.push({ p, color: start ? HULL_COLORS.vertex : HULL_COLORS.inside });
  });
  const small = P.length > 1500 ? 0.7 : 1;
  // The extreme points the initial tetrahedron is chosen from (extremes and degenerate frames).
  const extremes = Array.isArray(frame.extremes) ? frame.extremes : [];
  for (const i of extremes) if (P[i]) g.add(marker(HULL_COLORS.eyeFace, 5, P[i]));
  for (const d of [dots(inside, (start ? 5 : 3.5) * small), dots(conflict, 6 * small), dots(verts, 6 * small)]) if (d) g.add(d);

  // The hull: faces with conflict points in their colour, the others in the hull's colour.
  const plain = frame.faces.filter((f) => !visible.has(f.id) && !added.has(f.id));
  const byColour = new Map<number, HullFace[]>();
  for (const f of plain) {
    const c = f.conflicts.length ? faceColor(f.id) : (frame.kind === 'done' ? HULL_COLORS.face : HULL_COLORS.empty);
    byColour.set(c, [...(byColour.get(c) ?? []), f]);
  }
  const done = frame.kind === 'done' || frame.kind === 'degenerate';
  // Front faces only: the far side stays clear, so the conflict points inside can be seen.
  for (const [c, fs] of byColour) {
    const m = triangles(fs.map(tri), c, done ? 0.25 : 0.24);
    (m.material as THREE.Material).side = THREE.FrontSide;
    g.add(m);
  }
  const merged = done ? mergedEdges(trace) : null;
  if (merged && merged.length) segments(merged, HULL_COLORS.face, 0.95);
  else segments(edgesOf(frame.faces), 0xc9d3e0, 0.55);
  if (done && frame.faces.length === 0) drawResultOnly(g, trace, ctx);

  // The faces the eye sees, red; the new faces green; the horizon bold orange.
  const newFaces = frame.faces.filter((f) => added.has(f.id));
  if (newFaces.length) {
    g.add(triangles(newFaces.map(tri), HULL_COLORS.added, 0.4));
    segments(edgesOf(newFaces), HULL_COLORS.added, 1);
  }
  const seen = frame.faces.filter((f) => visible.has(f.id));
  if (seen.length) {
    const red = triangles(seen.map(tri), HULL_COLORS.visible, 0.5);
    red.renderOrder = 5;
    g.add(red);
    segments(edgesOf(seen), HULL_COLORS.visible, 0.95);
  }
  if (frame.horizon.length) {
    g.add(boldSegments(frame.horizon.flatMap(([i, j]) => [P[i], P[j]]), HULL_COLORS.horizon, HORIZON_WIDTH));
  }

  // The eye: a large white dot, its distance to the face it was taken from (dashed), that face outlined.
  if (frame.eye !== null && P[frame.eye]) {
    const e = P[frame.eye];
    g.add(marker(HULL_COLORS.eye, 7, e));
    g.add(label('eye', 'label-point label-eye', e));
    const ef = eyeFace(frame, P);
    if (ef && frame.kind === 'eye') {
      g.add(boldSegments(edgesOf([ef.face]), HULL_COLORS.eyeFace, 2.5));
      g.add(line([toV3(e), ef.foot], HULL_COLORS.eyeFace, { dashed: Math.max(0.01, ctx.scale * 0.015) }));
      g.add(marker(HULL_COLORS.eyeFace, 3, ef.foot));
    }
    if (frame.kind === 'cone' || frame.kind === 'horizon') {
      // The cone's apex joins every horizon vertex.
      const hv = [...new Set(frame.horizon.flat())];
      if (frame.kind === 'horizon') for (const i of hv) g.add(line([e, P[i]], HULL_COLORS.added, { dashed: Math.max(0.01, ctx.scale * 0.012), opacity: 0.7 }));
    }
  }
}

/** Edges of the merged faces (coplanar triangles joined) of the result, in input coordinates. */
function mergedEdges(trace: HullTrace): Vec3[] | null {
  const r = trace.result;
  if (!r || !Array.isArray(r.polygons) || !r.polygons.length || !Array.isArray(r.vertices)) return null;
  const out: Vec3[] = [];
  for (const poly of r.polygons) {
    for (let k = 0; k < poly.length; k++) {
      const a = r.vertices[poly[k]], b = r.vertices[poly[(k + 1) % poly.length]];
      if (a && b) out.push(a, b);
    }
  }
  return out;
}

/** Degenerate hulls (point, segment, polygon): drawn from the result. */
function drawResultOnly(g: THREE.Group, trace: HullTrace, ctx: DrawContext): void {
  const r = trace.result;
  if (!r || !Array.isArray(r.vertices)) return;
  const V = r.vertices;
  if (r.faces?.length) g.add(triangles(r.faces.map((f) => f.map((i) => V[i])), HULL_COLORS.face, 0.3));
  if (r.kind === 'segment' && V.length >= 2) g.add(boldSegments([V[0], V[1]], HULL_COLORS.face, 3));
  if (r.kind === 'polygon' && !r.polygons?.length && V.length >= 3) {
    g.add(boldSegments(V.flatMap((v, i) => [v, V[(i + 1) % V.length]]), HULL_COLORS.face, 2));
  }
  for (const v of V) g.add(marker(HULL_COLORS.face, 4, v));
  void ctx;
}
