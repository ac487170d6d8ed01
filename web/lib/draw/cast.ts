// Ray-cast and shape-cast frames (van den Bergen's GJK ray cast, raycast.h). The algorithm looks for the
// smallest λ with x = s + λr in C: C = A in world space for the ray cast ('single' right view), C = A − B for
// the shape cast, where the "ray" is the relative motion r = t_B − t_A from s = O over λ ∈ [0, 1] (A and B
// touch at time λ when λr ∈ A − B). Right view: the ray (solid up to x: the part proved free of C; dashed
// beyond), x(λ) and on advancing steps the jump from the old x, the simplex P (points p_i = a_i − b_i),
// v from the nearest point of conv(P) to x, the support point p with w = x − p, the supporting plane, and the
// hit point and normal. Left view (world space): the ray and the hit on shape A; or A and B with ghosts at
// their poses at time λ, the motion arrows, the support sources a(λ), b(λ) and the contact points.
//
// The trace carries neither the ray nor the motion: they come from the scene the trace was made from, the
// third argument of castDrawing. Without it (or with a scene that does not fit the trace) only the parts the
// trace holds are drawn.
import * as THREE from 'three';
import { shapeSurface, type CastFrame, type RaycastTrace, type Scene, type Shape, type ShapecastTrace, type Vec3 } from '../index';
import { fmt, len3 } from './format';
import { buildHull, type Hull } from './hull-geometry';
import { arrow, COLORS, label, line, marker, toV3, triangles } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

export type CastTrace = RaycastTrace | ShapecastTrace;

/** Colours of this view (the primitives.ts palette, named for what they show here). */
const C = {
  ray: COLORS.direction, // the ray / relative motion and x(λ): yellow
  jump: COLORS.horizon, // the step of λ, old x: orange
  simplex: COLORS.simplex, // P: green
  support: COLORS.support, // p = s_C(v), w, the supporting plane: pink
  v: COLORS.closest, // v and the nearest point of conv(P): white
  hit: COLORS.contact, // hit point, normal, contact points: white
};

/** The ray of the query: x(λ) = s + λr for 0 ≤ λ ≤ maxT, and (shape cast) the two translations. */
interface CastRay {
  s: Vec3;
  r: Vec3;
  maxT: number;
  tA: Vec3;
  tB: Vec3;
  shapes: Shape[];
}

export function castDrawing(frame: CastFrame, trace: CastTrace, scene?: Scene | null): FrameDrawing {
  const data = castFrameData(frame, trace);
  return {
    minkowski: (g, ctx) => withScene(g, trace, scene, () => drawRight(g, data, ctx), (ray) => drawRay(g, data, ctx, ray)),
    shapes: (g, ctx) => withScene(g, trace, scene, () => drawLeft(g, data, ctx), (ray) => drawLeftRay(g, data, ctx, ray)),
  };
}

/** The frame with what its drawing and the page's values table need beside it: the x it was tested against. */
export function castFrameData(frame: CastFrame, trace: CastTrace): CastFrameData {
  const index = trace.frames.indexOf(frame);
  const prev = index > 0 ? trace.frames[index - 1] : null;
  // x before this step: on a support frame where λ advanced, v, p and w belong to the old x.
  const xBefore: Vec3 = frame.kind === 'support' && frame.updated && prev ? prev.x : frame.x;
  return { frame, trace, xBefore, shapeCast: trace.query === 'shapecast' };
}

export interface CastFrameData {
  frame: CastFrame;
  trace: CastTrace;
  /** x when v and the support point of this frame were computed. */
  xBefore: Vec3;
  shapeCast: boolean;
}

// ---- the scene (ray, motion) --------------------------------------------------------------------------

/** The ray of `scene` if it is the scene `trace` was made from (query and ray origin agree), else null. */
function rayOf(scene: Scene | null | undefined, trace: CastTrace): CastRay | null {
  if (!scene || scene.query !== trace.query) return null;
  const x0 = trace.frames[0]?.x;
  if (trace.query === 'raycast') {
    const ray = scene.ray;
    if (!ray || !scene.shapes?.length) return null;
    // The first frame's x is the ray's origin, exactly (x ← s).
    if (x0 && !sameVec(x0, ray.origin)) return null;
    return { s: ray.origin, r: ray.direction, maxT: ray.maxT ?? 1, tA: [0, 0, 0], tB: [0, 0, 0], shapes: scene.shapes };
  }
  const m = scene.motion;
  if (!m || (scene.shapes?.length ?? 0) < 2) return null;
  const tA = m.translationA ?? [0, 0, 0];
  const tB = m.translationB ?? [0, 0, 0];
  const r = sub(tB, tA);
  // Every x of the trace is λ·r: reject a scene whose motion does not fit (a stale scene).
  for (const f of trace.frames) {
    if (f.lambda > 0 && !sameVec(f.x, scale(r, f.lambda), 1e-9)) return null;
  }
  return { s: [0, 0, 0], r, maxT: 1, tA, tB, shapes: scene.shapes };
}

function sameVec(a: Vec3, b: Vec3, rel = 1e-12): boolean {
  const m = Math.max(1, ...a.map(Math.abs), ...b.map(Math.abs));
  return a.every((x, i) => Math.abs(x - b[i]) <= rel * m);
}

/** Draws the frame's parts that need nothing but the trace, then those that need the ray or the motion when `scene` has them. */
function withScene(g: THREE.Group, trace: CastTrace, scene: Scene | null | undefined,
  drawTrace: () => void, drawScene: (ray: CastRay) => void): void {
  drawTrace();
  const ray = rayOf(scene, trace);
  if (ray) drawScene(ray);
  keepPrograms(g);
}

/**
 * The views free every material of a frame when the next one is drawn (primitives.ts clearGroup). Freeing the
 * last material of a kind makes three.js delete its shader program, so each step recompiled the dashed-line,
 * double-sided and arrow shaders, which is most of a step's time in a software renderer. These materials own
 * no textures, only a reference to their program: leaving that reference in place keeps one program per kind
 * alive for the next step; the material objects themselves are garbage-collected. (Thick lines are tubes,
 * not primitives.ts boldSegments, whose shader material three.js would keep in a Map: see tube().)
 */
function keepPrograms(g: THREE.Object3D): void {
  g.traverse((o) => {
    const m = (o as THREE.Mesh).material as THREE.Material | THREE.Material[] | undefined;
    // Not shader materials (primitives.ts boldSegments, unused here): three.js keeps those in a Map until disposed.
    for (const mat of Array.isArray(m) ? m : m ? [m] : []) if (!(mat as THREE.ShaderMaterial).isShaderMaterial) mat.dispose = () => {};
  });
}

// ---- right view: C (shape A, or A − B around O) -------------------------------------------------------

function drawRight(g: THREE.Group, d: CastFrameData, ctx: DrawContext): void {
  const { frame, xBefore } = d;
  const dash = Math.max(0.01, ctx.scale * 0.02);
  const x = toV3(frame.x);
  const analytic = frame.reason === 'analytic-sphere';

  // The simplex P: its points p_i = a_i − b_i (= x − w_i), edges and faces.
  const P = frame.simplex.map((s) => sub(s.a, s.b));
  for (const p of P) g.add(marker(C.simplex, 4, p));
  for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) g.add(line([P[i], P[j]], C.simplex, { opacity: 0.9 }));
  const tris: Vec3[][] = [];
  for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) for (let k = j + 1; k < P.length; k++) tris.push([P[i], P[j], P[k]]);
  if (tris.length) g.add(triangles(tris, C.simplex, 0.2));

  // v: from the point q of conv(P) nearest x to x (init: q is the first point of C; done with |P| = 4: v = 0).
  const v = toV3(frame.v);
  const vLen = v.length();
  const xRef = toV3(xBefore);
  if (frame.kind !== 'done' && vLen > 0) {
    const q = xRef.clone().sub(v);
    g.add(marker(C.v, 4, q));
    g.add(line([q, xRef], C.v, { opacity: 0.95 }));
    if (vLen > ctx.scale * 0.04) g.add(label('v', 'label-point label-closest', q.clone().lerp(xRef, 0.5)));
  }

  // The support point p = s_C(v), w = x − p (dashed, from p to the x it was tested against), and the
  // supporting plane of C ⊕ ρ for normal v̂ through planePoint.
  if (frame.supportPoint) {
    const p = toV3(frame.supportPoint);
    g.add(marker(C.support, 6, p));
    const name = analytic ? 'c (centre)' : frame.kind === 'init' ? 'p₀' : 'p';
    g.add(label(name, 'label-point label-support', p));
    if (frame.kind === 'support') {
      g.add(line([p, xRef], C.support, { dashed: dash, opacity: 0.8 }));
      if (p.distanceTo(xRef) > ctx.scale * 0.15) g.add(label('w = x − p', 'label-note', p.clone().lerp(xRef, 0.5)));
    }
  }
  if (frame.kind === 'support' && frame.planePoint && frame.planeNormal && len3(frame.planeNormal) > 0) {
    drawPlane(g, toV3(frame.planePoint), toV3(frame.planeNormal), xRef, ctx);
  }

  // x(λ), and on a step that moved it: the old x and the jump along the ray.
  drawX(g, d, ctx);

  if (frame.kind === 'done') drawHitRight(g, d, ctx, x);
}

/** x(λ) with its λ; on an advancing support frame also the old x and the jump old λ → new λ. */
function drawX(g: THREE.Group, d: CastFrameData, ctx: DrawContext): void {
  const { frame } = d;
  const x = toV3(frame.x);
  const done = frame.kind === 'done';
  if (!done || !d.trace.result.hit) {
    g.add(marker(C.ray, 6, x));
    // A miss reports λ = 0; x is where the ray was proved to miss.
    const start = !d.shapeCast && frame.lambda === 0 ? 's = x (λ = 0)' : `x (λ = ${fmt(frame.lambda, 6)})`;
    g.add(label(done ? 'last x' : start, 'label-point label-direction', x));
  }
  if (frame.kind === 'support' && frame.updated) {
    const old = toV3(d.xBefore);
    g.add(marker(C.jump, 5, old, 0.9));
    g.add(tube(d.xBefore, frame.x, ctx.scale * 0.008, C.jump));
    if (old.distanceTo(x) > ctx.scale * 0.08) {
      // At λ = 0 the old x is s (labelled with the ray). The jump's note goes under the old x, away from x's label.
      if (frame.oldLambda > 0) g.add(label('old x', 'label-point label-direction', old));
      g.add(label(`λ: ${fmt(frame.oldLambda, 6)} → ${fmt(frame.newLambda, 6)}`, 'label-note', old));
    } else {
      // A step too short to see at this scale: say it next to x.
      g.add(label(`λ: ${fmt(frame.oldLambda, 9)} → ${fmt(frame.newLambda, 9)}`, 'label-note', x));
    }
  }
}

/** A translucent square of the plane through `at` with unit normal `n`, around p and the x tested, and v̂. */
function drawPlane(g: THREE.Group, at: THREE.Vector3, n: THREE.Vector3, x: THREE.Vector3, ctx: DrawContext): void {
  n = n.clone().normalize();
  const proj = x.clone().addScaledVector(n, -n.dot(x.clone().sub(at)));
  const centre = at.clone().lerp(proj, 0.5);
  const half = Math.min(0.8 * ctx.scale, Math.max(0.3 * ctx.scale, 0.55 * at.distanceTo(proj)));
  const helper = Math.abs(n.x) < 0.9 ? new THREE.Vector3(1, 0, 0) : new THREE.Vector3(0, 1, 0);
  const u = helper.clone().cross(n).normalize().multiplyScalar(half);
  const w = n.clone().cross(u).normalize().multiplyScalar(half);
  const c = (a: number, b: number) => centre.clone().addScaledVector(u, a).addScaledVector(w, b).toArray() as Vec3;
  const corners = [c(-1, -1), c(1, -1), c(1, 1), c(-1, 1)];
  g.add(triangles([[corners[0], corners[1], corners[2]], [corners[0], corners[2], corners[3]]], C.support, 0.08));
  g.add(line(corners, C.support, { opacity: 0.4, loop: true }));
  const len = ctx.arrowLength * 0.5;
  g.add(arrow(at, n, len, C.support, len * 0.3));
  g.add(label('v̂', 'label-point label-support', at.clone().addScaledVector(n, len * 1.1)));
}

function drawHitRight(g: THREE.Group, d: CastFrameData, ctx: DrawContext, x: THREE.Vector3): void {
  const r = d.trace.result;
  if (!r.hit) return; // the ray says it (drawRay)
  g.add(marker(C.hit, 7, x));
  const inside = 'startedInside' in r ? r.startedInside : r.initiallyOverlapping;
  g.add(label('hit', 'label-point label-contact', x));
  const start = d.shapeCast ? 'λ = 0: A and B overlap at the start' : 'λ = 0: s lies inside A';
  g.add(label(inside ? start : `λ = ${fmt(r.t, 9)}`, 'label-note', x));
  if (r.normal) {
    const n = toV3(r.normal);
    const len = ctx.arrowLength * 0.8;
    g.add(arrow(x, n, len, C.hit, len * 0.22));
    g.add(label(d.shapeCast ? 'n (A → B)' : 'n', 'label-point label-contact', x.clone().addScaledVector(n.normalize(), len * 1.1)));
  }
}

/** The ray from s to s + maxT·r: solid up to x (no point of C before it), dashed beyond; on a miss all dashed. */
function drawRay(g: THREE.Group, d: CastFrameData, ctx: DrawContext, ray: CastRay): void {
  const { frame } = d;
  const s = toV3(ray.s);
  const rHat = toV3(ray.r).normalize();
  const rLen = len3(ray.r);
  if (!(rLen > 0)) {
    g.add(label('no relative motion (r = 0)', 'label-note', s));
    return;
  }
  const x = toV3(frame.x);
  const reached = x.distanceTo(s);
  // A very long (or unbounded) ray is drawn to a few view sizes beyond x.
  const full = ray.maxT * rLen;
  const cap = reached + 6 * ctx.scale;
  const drawn = Number.isFinite(full) ? Math.min(full, cap) : cap;
  const end = s.clone().addScaledVector(rHat, drawn);
  const dash = Math.max(0.01, ctx.scale * 0.025);
  const miss = frame.kind === 'done' && !d.trace.result.hit;
  if (reached > 0 && !miss) g.add(tube(ray.s, frame.x, ctx.scale * 0.006, C.ray));
  if (drawn > reached || miss) g.add(line([miss ? s : x, end], C.ray, { dashed: dash, opacity: miss ? 0.8 : 0.6 }));
  const head = Math.min(ctx.arrowLength * 0.35, Math.max(drawn * 0.3, 1e-9));
  g.add(arrow(end.clone().addScaledVector(rHat, -head), rHat, head, C.ray, head * 0.7));
  g.add(marker(C.ray, 4, s));
  if (d.shapeCast) {
    // O is labelled by the view; the end is r = t_B − t_A itself (λ = 1).
    g.add(label('r (λ = 1)', 'label-note', end)); // under the end: x's label is above its point
  } else {
    // While x is still at s (λ = 0) its label names both: two labels on one point would overprint.
    const atStart = frame.kind !== 'done' && frame.lambda === 0;
    if (!atStart) g.add(label('s', 'label-point label-direction', s));
    g.add(label(drawn < full ? `… (maxT = ${fmt(ray.maxT, 4)})` : `λ = maxT = ${fmt(ray.maxT, 4)}`, 'label-point label-direction', end));
  }
  if (miss) g.add(label('miss', 'label-note', s.clone().lerp(end, 0.5)));
}

// ---- left view: world space ---------------------------------------------------------------------------

function drawLeft(g: THREE.Group, d: CastFrameData, ctx: DrawContext): void {
  if (d.shapeCast) return; // everything on the shapes moves with λ: drawn with the motion (drawLeftRay)
  const { frame } = d;
  // Ray cast: C is shape A itself. The simplex points and the support point on it, x, and the hit.
  for (const s of frame.simplex) g.add(marker(C.simplex, 3, s.a, 0.9));
  if (frame.supportPoint && frame.reason !== 'analytic-sphere') {
    g.add(marker(C.support, 5, frame.supportPoint));
    g.add(label('p', 'label-point label-support', frame.supportPoint));
  }
  const x = toV3(frame.x);
  const r = d.trace.result;
  if (frame.kind === 'done' && r.hit) {
    drawHitRight(g, d, ctx, x);
    return;
  }
  g.add(marker(C.ray, 6, x));
  g.add(label(frame.kind === 'done' ? 'last x' : frame.lambda === 0 ? 's = x (λ = 0)' : `x (λ = ${fmt(frame.lambda, 6)})`,
    'label-point label-direction', x));
}

function drawLeftRay(g: THREE.Group, d: CastFrameData, ctx: DrawContext, ray: CastRay): void {
  if (!d.shapeCast) {
    drawRay(g, d, ctx, ray);
    return;
  }
  const { frame } = d;
  const r = (d.trace as ShapecastTrace).result;
  const done = frame.kind === 'done';
  const lambda = done ? (r.hit ? r.t ?? 0 : 1) : frame.lambda;
  const [shapeA, shapeB] = ray.shapes;

  // Motion arrows: each shape's full translation over the step, drawn just above the shape (from above its
  // highest point) so that it stays clear of the contact.
  ([[shapeA, ray.tA, 'A', COLORS.a], [shapeB, ray.tB, 'B', COLORS.b]] as const).forEach(([shape, t, name, color]) => {
    const len = len3(t);
    if (!(len > 0)) return;
    const from = toV3(topOf(shape)).add(new THREE.Vector3(0, 0.12 * ctx.scale, 0));
    g.add(arrow(from, toV3(t), len, color, Math.min(len * 0.2, ctx.arrowLength * 0.3)));
    g.add(label(`t_${name}`, `label-point label-${name.toLowerCase()}`, from.clone().add(toV3(t))));
  });

  // Ghosts: A and B at time λ (and, when λ just advanced, faintly at the old λ).
  const atLambda = (t: Vec3, l: number): Vec3 => scale(t, l);
  if (frame.kind === 'support' && frame.updated && frame.oldLambda > 0) {
    g.add(ghost(shapeA, atLambda(ray.tA, frame.oldLambda), COLORS.a, 0.35));
    g.add(ghost(shapeB, atLambda(ray.tB, frame.oldLambda), COLORS.b, 0.35));
  }
  if (lambda > 0) {
    g.add(ghost(shapeA, atLambda(ray.tA, lambda), COLORS.a, 0.8), ghost(shapeB, atLambda(ray.tB, lambda), COLORS.b, 0.8));
    // Each moving shape's ghost is named just above its highest point.
    ([[shapeA, ray.tA, 'A'], [shapeB, ray.tB, 'B']] as const).forEach(([shape, t, name]) => {
      if (len3(t) > 0) g.add(label(`${name}(λ)`, `label-point label-${name.toLowerCase()}`, add(topOf(shape), atLambda(t, lambda))));
    });
  }

  if (done) {
    if (!r.hit) {
      g.add(label('no contact during the motion', 'label-note', add(shapeB.position ?? [0, 0, 0], ray.tB)));
      return;
    }
    if (r.pointA && r.pointB) {
      g.add(marker(C.hit, 6, r.pointA), marker(C.hit, 6, r.pointB));
      g.add(line([r.pointA, r.pointB], C.hit, { opacity: 0.9 }));
      const apart = len3(sub(r.pointA, r.pointB)) > ctx.scale * 0.04;
      if (apart) g.add(label('pA', 'label-point label-contact', r.pointA), label('pB', 'label-point label-contact', r.pointB));
      else g.add(label('pA, pB', 'label-point label-contact', r.pointA));
    }
    if (r.normal && r.pointA) {
      const n = toV3(r.normal);
      const len = ctx.arrowLength * 0.8;
      g.add(arrow(toV3(r.pointA), n, len, C.hit, len * 0.22));
      g.add(label('n (A → B)', 'label-point label-contact', toV3(r.pointA).addScaledVector(n.normalize(), len * 1.1)));
    }
    return;
  }

  // The simplex's sources and the support point's: a on A and b on B, moved to time λ of the x they were
  // tested against; w = x − p = b(λ) − a(λ), the gap between them.
  const lx = frame.kind === 'support' && frame.updated ? frame.oldLambda : frame.lambda;
  for (const s of frame.simplex) {
    g.add(marker(C.simplex, 3, add(s.a, atLambda(ray.tA, frame.lambda)), 0.9));
    g.add(marker(C.simplex, 3, add(s.b, atLambda(ray.tB, frame.lambda)), 0.9));
  }
  if (frame.support) {
    const a = add(frame.support.a, atLambda(ray.tA, lx));
    const b = add(frame.support.b, atLambda(ray.tB, lx));
    g.add(marker(C.support, 5, a), marker(C.support, 5, b));
    g.add(line([a, b], C.support, { dashed: Math.max(0.01, ctx.scale * 0.02), opacity: 0.9 }));
    const lam = lx > 0 ? '(λ)' : '';
    g.add(label(`a${lam}`, 'label-point label-support', a), label(`b${lam}`, 'label-point label-support', b));
  }
}

/** Shape `shape` moved by `offset`: faint faces and its edges, in `color`. */
function ghost(shape: Shape, offset: Vec3, color: number, opacity: number): THREE.Group {
  const grp = new THREE.Group();
  const hull = hullOf(shape);
  if (hull.faces) {
    const m = new THREE.Mesh(hull.faces.clone(), new THREE.MeshBasicMaterial({
      color, transparent: true, opacity: 0.25 * opacity, side: THREE.DoubleSide, depthWrite: false,
    }));
    m.renderOrder = 3;
    grp.add(m);
  }
  if (hull.edges) {
    const l = new THREE.LineSegments(hull.edges.clone(), new THREE.LineDashedMaterial({
      color, transparent: true, opacity, dashSize: hull.radius * 0.08, gapSize: hull.radius * 0.05,
    }));
    l.computeLineDistances();
    l.renderOrder = 4;
    grp.add(l);
  }
  if (hull.dim <= 1) for (const p of hull.vertices) grp.add(marker(color, 4, p, opacity));
  grp.position.set(offset[0], offset[1], offset[2]);
  return grp;
}

/** The highest point of a shape's surface (world space, start pose). */
function topOf(shape: Shape): Vec3 {
  const vs = hullOf(shape).vertices;
  let top = vs[0];
  for (const p of vs) if (p.y > top.y) top = p;
  return top ? [top.x, top.y, top.z] : shape.position ?? [0, 0, 0];
}

/** Hulls of the shapes' surfaces in world space (start poses), by shape: a few recent ones. */
const hullCache = new Map<string, Hull>();

function hullOf(shape: Shape): Hull {
  const key = JSON.stringify(shape);
  let h = hullCache.get(key);
  if (!h) {
    try {
      h = buildHull(shapeSurface(shape));
    } catch {
      h = buildHull([shape.position ?? [0, 0, 0]]);
    }
    if (hullCache.size >= 8) hullCache.delete(hullCache.keys().next().value as string);
    hullCache.set(key, h);
  }
  return h;
}

// ---- small helpers ------------------------------------------------------------------------------------

function sub(a: Vec3, b: Vec3): Vec3 { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
function add(a: Vec3, b: Vec3): Vec3 { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
function scale(a: Vec3, k: number): Vec3 { return [a[0] * k, a[1] * k, a[2] * k]; }

/**
 * A thin tube from a to b (`radius` in world units): a thick line that needs no shader of its own (primitives.ts
 * boldSegments compiles one per step, see keepPrograms).
 */
function tube(a: Vec3, b: Vec3, radius: number, color: number): THREE.Mesh {
  const from = toV3(a), to = toV3(b);
  const len = from.distanceTo(to);
  const m = new THREE.Mesh(new THREE.CylinderGeometry(radius, radius, Math.max(len, 1e-12), 8, 1, true),
    new THREE.MeshBasicMaterial({ color, transparent: true, opacity: 0.95, depthWrite: false }));
  m.position.copy(from).lerp(to, 0.5);
  if (len > 0) m.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), to.clone().sub(from).normalize());
  m.renderOrder = 6;
  return m;
}
