// SAT frames (query "sat"): one candidate axis per frame. On the shapes: the axis as a long line beside the
// shapes, A's and B's projected intervals drawn on it, their overlap (red) or gap (green), and the feature the
// axis comes from (a face, or an edge of A and an edge of B). In A − B: the axis through the origin and the
// projection of A − B on it, [minA − maxB, maxA − minB], which holds O exactly when the axis does not separate.
import * as THREE from 'three';
import type { SatFrame, SatTrace, Vec3 } from '../index';
import { fmt } from './format';
import { COLORS, arrow, boldSegments, label, line, marker, toV3, triangles } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

/** Colours of this view (A and B keep theirs: amber and blue). */
const SAT_COLORS = {
  axis: 0xdfe3ea, // the candidate axis: light grey
  overlap: 0xff4d4d, // the overlap of the two intervals: red
  gap: 0x3ddc97, // the gap of a separating axis: green
  feature: COLORS.face, // the face or edges the axis comes from: yellow
  best: COLORS.polytope, // the best axis so far: cyan, faint
};

/** Widths in pixels of the interval bars, of the feature outlines and of the A − B projection. */
const INTERVAL_WIDTH = 6;
const FEATURE_WIDTH = 4;

/** Most candidate axes drawn on the prepare frame (a polytope pair may have hundreds). */
const MAX_STAR_AXES = 60;

/** The default viewing direction of the visualizer page's views: the axis line is offset across it, on screen. */
const VIEW_DIR = new THREE.Vector3(0.4, 0.35, 1).normalize();

export function satDrawing(frame: SatFrame, trace: SatTrace): FrameDrawing {
  return {
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
    minkowski: (g, ctx) => drawMinkowski(g, frame, trace, ctx),
  };
}

/** The axis frame whose intervals this frame shows: itself, or (done) the deciding axis; null for prepare, skip. */
export function shownAxis(frame: SatFrame, trace: SatTrace): SatFrame | null {
  if (frame.kind === 'axis') return frame;
  if (frame.kind === 'done') return trace.frames.find((f) => f.kind === 'axis' && f.index === frame.best) ?? null;
  return null;
}

export function axesTested(trace: SatTrace): number {
  return trace.frames.filter((f) => f.kind === 'axis').length;
}

// ---- where the axis line goes in the shapes view -----------------------------------------------------

interface Anchor {
  /** Centre of the features seen in the trace (faces and edges of both shapes): about the shapes' middle. */
  center: THREE.Vector3;
  points: THREE.Vector3[];
}

const anchors = new WeakMap<SatTrace, Anchor>();

/** The trace's feature points (world space): the faces and edges shown on its frames. */
function anchorOf(trace: SatTrace): Anchor {
  let a = anchors.get(trace);
  if (a) return a;
  const points: THREE.Vector3[] = [];
  for (const f of trace.frames) {
    for (const p of f.face) points.push(toV3(p));
    for (const e of [f.edgeA, f.edgeB]) if (e) points.push(toV3(e[0]), toV3(e[1]));
  }
  const center = new THREE.Vector3();
  for (const p of points) center.add(p);
  if (points.length) center.multiplyScalar(1 / points.length);
  a = { center, points };
  anchors.set(trace, a);
  return a;
}

/**
 * The middle of the shapes: the view's own centre when the context gives it, else the centre of the trace's
 * features; points (spheres) have none, and then the origin is all we know.
 */
function anchorCenter(trace: SatTrace, ctx: DrawContext): THREE.Vector3 {
  return ctx.center instanceof THREE.Vector3 ? ctx.center.clone() : anchorOf(trace).center.clone();
}

/** A unit vector ⊥ L, across L on screen for the default camera, pointing downwards or to the left. */
function sideOf(L: THREE.Vector3): THREE.Vector3 {
  let p = new THREE.Vector3().crossVectors(VIEW_DIR, L);
  if (p.length() < 0.3) {
    // L nearly along the viewing direction: any ⊥ will do; take "down" without its L part.
    p = new THREE.Vector3(0, -1, 0).addScaledVector(L, L.y);
    if (p.length() < 0.3) p = new THREE.Vector3(1, 0, 0).addScaledVector(L, -L.x);
  }
  p.normalize();
  // Below the shapes; for a vertical L, to the left (labels extend to the right of their point).
  if (p.y > 1e-9 || (Math.abs(p.y) <= 1e-9 && p.x > 0)) p.negate();
  return p;
}

/** The axis line of the shapes view: the world point whose projection on L is t is base + t·L. */
interface AxisLine {
  L: THREE.Vector3;
  side: THREE.Vector3;
  base: THREE.Vector3;
  /** Half the distance between A's bar and B's bar. */
  spread: number;
  at(t: number, across?: number): THREE.Vector3;
}

function axisLine(trace: SatTrace, axis: Vec3, ctx: DrawContext): AxisLine {
  const L = toV3(axis).normalize();
  const side = sideOf(L);
  const { points } = anchorOf(trace);
  const center = anchorCenter(trace, ctx);
  // Beside the shapes: past the farthest feature point along `side`, plus the radii, plus a little room.
  let reach = 0;
  for (const p of points) reach = Math.max(reach, p.clone().sub(center).dot(side));
  const r = Math.max(trace.marginA, trace.marginB);
  const offset = points.length
    ? THREE.MathUtils.clamp(reach + r + 0.08 * ctx.scale, 0.3 * ctx.scale, 0.7 * ctx.scale)
    : 0.7 * ctx.scale;
  const base = center.clone().addScaledVector(L, -center.dot(L)).addScaledVector(side, offset);
  const spread = 0.045 * ctx.scale;
  return {
    L, side, base, spread,
    at: (t, across = 0) => base.clone().addScaledVector(L, t).addScaledVector(side, across),
  };
}

// ---- shapes view ------------------------------------------------------------------------------------

function drawShapes(g: THREE.Group, frame: SatFrame, trace: SatTrace, ctx: DrawContext): void {
  if (frame.kind === 'prepare') {
    drawStar(g, trace, anchorCenter(trace, ctx), ctx.scale * 0.9, 'shapes');
    return;
  }
  const f = shownAxis(frame, trace);
  if (!f) {
    drawSkip(g, frame, trace, ctx);
    return;
  }
  const ax = axisLine(trace, f.axis, ctx);
  drawAxisLine(g, f, ax, ctx);
  drawFeature(g, f, ax, ctx);
  if (frame.kind === 'axis' && frame.best >= 0 && frame.best !== frame.index) drawBestAxis(g, frame, trace, ctx);
  if (frame.kind === 'done' && !f.separates && trace.result.intersecting) drawDepthArrow(g, f, ax, trace, ctx);
}

/**
 * A skipped candidate: the parallel edges and why; the best axis so far, faint. Skip frames carry no features,
 * so the edges are found among those the trace shows elsewhere: pairs of an edge of A and an edge of B with the
 * same direction (one pair per direction; with several, all are drawn: each is skipped once).
 */
function drawSkip(g: THREE.Group, frame: SatFrame, trace: SatTrace, ctx: DrawContext): void {
  // The note goes below the shapes, out of the edges' and the best axis's way.
  const center = anchorCenter(trace, ctx).add(new THREE.Vector3(0, -0.75 * ctx.scale, 0));
  if (frame.best >= 0) drawBestAxis(g, frame, trace, ctx);
  if (frame.axisKind === 'flat-side') {
    g.add(label('skipped: this edge is along the flat shape\'s normal n, so n × e = 0', 'label-note', center));
    return;
  }
  const pairs: [Vec3, Vec3][][] = frame.edgeA && frame.edgeB ? [[frame.edgeA, frame.edgeB]] : parallelEdgePairs(trace);
  pairs.forEach(([ea, eb], i) => {
    drawEdges(g, { edgeA: ea, edgeB: eb }, i === 0);
  });
  const which = pairs.length > 1 ? ` (${pairs.length} parallel pairs: each is skipped once)` : '';
  g.add(label(`skipped: edge of A ∥ edge of B, a × b = 0${which}`, 'label-note', center));
}

/** Direction classes of unit vectors up to sign (tolerance: well above rounding, far below any real angle). */
const PARALLEL_SINE = 1e-9;

/** Pairs [edge of A, edge of B] with parallel directions, one per direction, from the edges the trace shows. */
function parallelEdgePairs(trace: SatTrace): [Vec3, Vec3][][] {
  const collect = (own: 'a' | 'b'): [Vec3, Vec3][] => {
    const edges: [Vec3, Vec3][] = [];
    for (const f of trace.frames) {
      const e = own === 'a' ? f.edgeA : f.edgeB;
      if (e) edges.push(e);
      if (f.axisKind === (own === 'a' ? 'face-a' : 'face-b') && f.kind === 'axis') {
        for (let i = 0; i < f.face.length; i++) edges.push([f.face[i], f.face[(i + 1) % f.face.length]]);
      }
    }
    return edges;
  };
  const dir = (e: [Vec3, Vec3]) => toV3(e[1]).sub(toV3(e[0])).normalize();
  const parallel = (u: THREE.Vector3, v: THREE.Vector3) => new THREE.Vector3().crossVectors(u, v).length() <= PARALLEL_SINE;
  const pairs: [Vec3, Vec3][][] = [];
  const seen: THREE.Vector3[] = [];
  const bs = collect('b').filter((e) => dir(e).lengthSq() > 0);
  for (const ea of collect('a')) {
    const u = dir(ea);
    if (u.lengthSq() === 0 || seen.some((d) => parallel(d, u))) continue;
    const eb = bs.find((e) => parallel(dir(e), u));
    if (!eb) continue;
    seen.push(u);
    pairs.push([ea, eb]);
  }
  return pairs;
}

/** The axis line, A's and B's intervals on it, and the overlap or the gap between them. */
function drawAxisLine(g: THREE.Group, f: SatFrame, ax: AxisLine, ctx: DrawContext): void {
  const lo = Math.min(f.minA, f.minB), hi = Math.max(f.maxA, f.maxB);
  const pad = 0.15 * ctx.scale;
  const t0 = lo - pad, t1 = hi + pad;
  const head = Math.min(0.12 * ctx.scale, (t1 - t0) * 0.2);
  g.add(line([ax.at(t0), ax.at(t1 - head)], SAT_COLORS.axis, { opacity: 0.75 }));
  g.add(arrow(ax.at(t1 - head), ax.L, head, SAT_COLORS.axis));
  g.add(label(`L${f.index + 1}`, 'label-point label-contact', ax.at(t1)));

  // The region between the intervals, under the bars: red overlap [minB, maxA], or green gap [maxA, minB].
  const s = ax.spread;
  const from = Math.min(f.maxA, f.minB), to = Math.max(f.maxA, f.minB);
  const color = f.separates ? SAT_COLORS.gap : SAT_COLORS.overlap;
  if (to - from > 0) {
    const q = [ax.at(from, -1.8 * s), ax.at(to, -1.8 * s), ax.at(to, 1.8 * s), ax.at(from, 1.8 * s)].map((v) => v.toArray());
    const band = triangles([[q[0], q[1], q[2]], [q[0], q[2], q[3]]], color, 0.4);
    band.renderOrder = 6;
    (band.material as THREE.Material).depthTest = false;
    g.add(band);
  }
  g.add(boldSegments([ax.at(from).toArray(), ax.at(to).toArray()], color, 2, 0.9));
  const what = f.separates ? `gap ${fmt(-f.overlap, 5)}` : `overlap ${fmt(f.overlap, 5)}`;
  g.add(label(what, 'label-note', ax.at((from + to) / 2, 2.5 * s)));

  // The intervals: A's bar nearer the shapes, B's beyond it.
  g.add(boldSegments([ax.at(f.minA, -s).toArray(), ax.at(f.maxA, -s).toArray()], COLORS.a, INTERVAL_WIDTH));
  g.add(boldSegments([ax.at(f.minB, s).toArray(), ax.at(f.maxB, s).toArray()], COLORS.b, INTERVAL_WIDTH));
  // Labels at the outer ends (A's low end, B's high end: the axis points from A toward B).
  g.add(label('A', 'label-point label-a', ax.at(f.minA, -s)));
  g.add(label('B', 'label-point label-b', ax.at(f.maxB, s)));
}

/** The face or the two edges the axis comes from, with faint projection lines to the axis line. */
function drawFeature(g: THREE.Group, f: SatFrame, ax: AxisLine, ctx: DrawContext): void {
  const dash = Math.max(0.01, ctx.scale * 0.02);
  const project = (p: THREE.Vector3) => {
    g.add(line([p, ax.at(p.dot(ax.L))], SAT_COLORS.feature, { dashed: dash, opacity: 0.45 }));
  };
  if (f.face.length) {
    const pts = f.face.map((p) => toV3(p));
    if (pts.length >= 2) {
      const pairs: (readonly number[])[] = [];
      for (let i = 0; i < pts.length; i++) pairs.push(f.face[i], f.face[(i + 1) % pts.length]);
      g.add(boldSegments(pairs, SAT_COLORS.feature, FEATURE_WIDTH));
    }
    if (pts.length >= 3) {
      const tris: (readonly number[])[][] = [];
      for (let i = 1; i + 1 < pts.length; i++) tris.push([f.face[0], f.face[i], f.face[i + 1]]);
      g.add(triangles(tris, SAT_COLORS.feature, 0.3));
    }
    const c = pts.reduce((s, p) => s.add(p), new THREE.Vector3()).multiplyScalar(1 / pts.length);
    const owner = f.axisKind === 'face-a' ? 'face of A' : f.axisKind === 'face-b' ? 'face of B' : 'flat shape';
    g.add(label(owner, 'label-point label-face', c));
    for (const p of pts) project(p);
  }
  if (f.edgeA || f.edgeB) {
    drawEdges(g, f);
    for (const e of [f.edgeA, f.edgeB]) if (e) project(toV3(e[0]).add(toV3(e[1])).multiplyScalar(0.5));
  }
}

/** An edge of A and an edge of B (either may be null), bold, with their ends marked. */
function drawEdges(g: THREE.Group, f: Pick<SatFrame, 'edgeA' | 'edgeB'>, labelled = true): void {
  const pairs: (readonly number[])[] = [];
  if (f.edgeA) pairs.push(f.edgeA[0], f.edgeA[1]);
  if (f.edgeB) pairs.push(f.edgeB[0], f.edgeB[1]);
  if (pairs.length) g.add(boldSegments(pairs, SAT_COLORS.feature, FEATURE_WIDTH));
  for (const p of pairs) g.add(marker(SAT_COLORS.feature, 3, p));
  // Labels near opposite ends (crossing edges have nearly the same midpoint).
  const along = (e: [Vec3, Vec3], u: number) => toV3(e[0]).lerp(toV3(e[1]), u);
  if (!labelled) return;
  if (f.edgeA) g.add(label('edge of A', 'label-point label-face', along(f.edgeA, 0.1)));
  if (f.edgeB) g.add(label('edge of B', 'label-point label-face', along(f.edgeB, 0.1)));
}

/** The best axis so far, faint and dashed, where it was drawn when it was tested. */
function drawBestAxis(g: THREE.Group, frame: SatFrame, trace: SatTrace, ctx: DrawContext): void {
  const best = trace.frames.find((f) => f.kind === 'axis' && f.index === frame.best);
  if (!best) return;
  const ax = axisLine(trace, best.axis, ctx);
  const lo = Math.min(best.minA, best.minB) - 0.3 * ctx.scale, hi = Math.max(best.maxA, best.maxB) + 0.3 * ctx.scale;
  g.add(line([ax.at(lo), ax.at(hi)], SAT_COLORS.best, { dashed: Math.max(0.01, ctx.scale * 0.03), opacity: 0.5 }));
  g.add(label(`best so far: L${best.index + 1}`, 'label-note', ax.at(hi)));
}

/**
 * Done, intersecting: moving B by depth·axis separates the shapes. On the line B's bar would slide by the red
 * overlap; on the shapes an arrow from B's side of the contact (the feature the axis came from) says so.
 */
function drawDepthArrow(g: THREE.Group, f: SatFrame, ax: AxisLine, trace: SatTrace, ctx: DrawContext): void {
  const depth = trace.result.depth;
  const pts = f.edgeB ? [...f.edgeB] : f.face.length ? f.face : f.edgeA ? [...f.edgeA] : [];
  const from = pts.length
    ? pts.reduce((s, p) => s.add(toV3(p)), new THREE.Vector3()).multiplyScalar(1 / pts.length)
    : ax.at(f.minB, ax.spread);
  const len = ctx.arrowLength * 0.8;
  g.add(arrow(from, ax.L, len, COLORS.contact));
  g.add(label(`move B by ${fmt(depth, 5)}·L`, 'label-point label-contact', from.clone().addScaledVector(ax.L, len)));
}

/** All the candidate axes of the trace, as a star of faint lines through `center`, coloured by where they come from. */
function drawStar(g: THREE.Group, trace: SatTrace, center: THREE.Vector3, radius: number, where: 'shapes' | 'mink'): void {
  // Edge × edge first, so that the face axes (often the same directions) show their owner's colour on top.
  const rank = (f: SatFrame) => (f.axisKind === 'face-a' || f.axisKind === 'face-b' ? 1 : 0);
  const axes = trace.frames.filter((f) => f.kind === 'axis').slice(0, MAX_STAR_AXES).sort((x, y) => rank(x) - rank(y));
  const colour = (k: SatFrame['axisKind']) => (k === 'face-a' ? COLORS.a : k === 'face-b' ? COLORS.b : SAT_COLORS.axis);
  for (const f of axes) {
    const L = toV3(f.axis).normalize();
    g.add(line([center.clone().addScaledVector(L, -radius), center.clone().addScaledVector(L, radius)], colour(f.axisKind), { opacity: 0.45 }));
  }
  const n = axesTested(trace);
  const skipped = trace.frames.filter((f) => f.kind === 'skip').length;
  const text = `${n} candidate ax${n === 1 ? 'is' : 'es'}${skipped ? ` (${skipped} parallel pair${skipped === 1 ? '' : 's'} skipped)` : ''}`;
  if (where === 'shapes') g.add(label(text, 'label-note', center.clone().add(new THREE.Vector3(0, -radius, 0))));
}

// ---- Minkowski view: A − B around the origin ---------------------------------------------------------

function drawMinkowski(g: THREE.Group, frame: SatFrame, trace: SatTrace, ctx: DrawContext): void {
  if (frame.kind === 'prepare') {
    drawStar(g, trace, new THREE.Vector3(), ctx.scale * 0.9, 'mink');
    return;
  }
  const f = shownAxis(frame, trace);
  if (!f) {
    const best = frame.best >= 0 ? trace.frames.find((x) => x.kind === 'axis' && x.index === frame.best) : undefined;
    if (best) {
      const L = toV3(best.axis).normalize();
      g.add(line([L.clone().multiplyScalar(-ctx.scale), L.clone().multiplyScalar(ctx.scale)], SAT_COLORS.best, { dashed: Math.max(0.01, ctx.scale * 0.03), opacity: 0.5 }));
      g.add(label(`best so far: L${best.index + 1}`, 'label-note', L.clone().multiplyScalar(ctx.scale)));
    }
    return;
  }
  const L = toV3(f.axis).normalize();
  // The projection of A − B on L: h_{A−B}(−L) … h_{A−B}(L), i.e. [minA − maxB, maxA − minB].
  const lo = f.minA - f.maxB, hi = f.maxA - f.minB;
  const R = Math.max(Math.abs(lo), Math.abs(hi), 0.5 * ctx.scale) + 0.15 * ctx.scale;
  const head = 0.1 * ctx.scale;
  g.add(line([L.clone().multiplyScalar(-R), L.clone().multiplyScalar(R - head)], SAT_COLORS.axis, { opacity: 0.7 }));
  g.add(arrow(L.clone().multiplyScalar(R - head), L, head, SAT_COLORS.axis));
  g.add(label(`L${f.index + 1}`, 'label-point label-contact', L.clone().multiplyScalar(R)));

  // The two supporting planes ⊥ L that hold A − B between them (faint squares), and the interval.
  const side = sideOf(L);
  const other = new THREE.Vector3().crossVectors(L, side).normalize();
  const h = 0.45 * ctx.scale;
  for (const t of [lo, hi]) {
    const c = L.clone().multiplyScalar(t);
    const q = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => c.clone().addScaledVector(side, u * h).addScaledVector(other, v * h).toArray());
    g.add(triangles([[q[0], q[1], q[2]], [q[0], q[2], q[3]]], COLORS.mink, 0.07));
    g.add(line(q, COLORS.mink, { loop: true, opacity: 0.35 }));
  }
  const pLo = L.clone().multiplyScalar(lo), pHi = L.clone().multiplyScalar(hi);
  g.add(boldSegments([pLo.toArray(), pHi.toArray()], COLORS.mink, INTERVAL_WIDTH));
  g.add(marker(COLORS.mink, 5, pLo), marker(COLORS.mink, 5, pHi));

  // From O to the near end: inside the interval the overlap (how far B must move along L), outside the gap.
  const color = f.separates ? SAT_COLORS.gap : SAT_COLORS.overlap;
  if (Math.abs(hi) > 0) g.add(boldSegments([[0, 0, 0], pHi.toArray()], color, 3));
  const text = f.separates
    ? `O ∉ [${fmt(lo, 4)}, ${fmt(hi, 4)}]: separates, gap ${fmt(-f.overlap, 5)}`
    : `O ∈ [${fmt(lo, 4)}, ${fmt(hi, 4)}]: overlap ${fmt(f.overlap, 5)}`;
  g.add(label(text, 'label-note', L.clone().multiplyScalar((lo + hi) / 2)));
  if (frame.kind === 'done' && trace.result.intersecting && hi > 0) {
    // Moving B by depth·L moves A − B by −depth·L: O ends on the boundary plane at maxA − minB.
    g.add(arrow(new THREE.Vector3(), L, Math.max(hi, 0.15 * ctx.arrowLength), COLORS.contact));
  }
}
