// Chung–Wang frames (query "chungwang"). Left view, world space: the candidate axis s, the support points
// p = S_A(s) on A and q = S_B(−s) on B (and the core points when the shapes are rounded), the segment p → q
// whose direction is r, and the two supporting planes ⊥ s through p and q: s separates when B's plane lies
// beyond A's by more than τ (the gap bar between them turns green). Reflect frames add the reflected s, switch
// frames the hemisphere's centre w. Right view, the Gauss sphere: every direction r_i of R as a numbered dot,
// s and its successor, the hemisphere centred on w that holds R; on hemisphere frames the plane ⊥ r through O
// with the older r_j projected into it and the clockwise wedge from r_a to r_b that holds them — or, when no
// half-plane does, the opposite wedge in red and the four directions whose hull contains O (the proof).
import * as THREE from 'three';
import type { CSS2DObject, CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { ChungWangFrame, ChungWangTrace, Vec3 } from '../index';
import { dot3, fmt, len3 } from './format';
import { COLORS, arrow, boldSegments, label, line, marker, toV3, triangles } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

/** This view's colours (the shared ones where the meaning is the same). */
const C = {
  s: COLORS.direction, // the current axis s: yellow
  next: 0x3ddc97, // the next s (reflected, or w after a switch): green
  pq: COLORS.support, // p, q, the segment p → q and the new direction r: pink
  dir: 0xffb3c8, // older directions r_i on the Gauss sphere: light pink
  w: COLORS.polytope, // the hemisphere's centre w and its cap: cyan
  ab: COLORS.horizon, // the wedge's bounding directions r_a, r_b: orange
  wedge: 0x3ddc97, // the wedge that holds the projections: green
  bad: COLORS.removed, // no half-plane: the opposite wedge, the offending r_j, the surrounding tetrahedron: red
  disc: 0xc3cbe0, // the plane ⊥ r through O: grey-blue
  core: COLORS.core,
  a: COLORS.a,
  b: COLORS.b,
};

/** Width in pixels of the gap bar between the supporting planes. */
const GAP_WIDTH = 5;
/** Radius of the hemisphere cap: just over the unit sphere, so that it is drawn over its wireframe. */
const DOME_RADIUS = 1.006;
/** Directions closer than about 2° share a label on the Gauss sphere (cosine of the angle). */
const SAME_DIRECTION = Math.cos((2 * Math.PI) / 180);
/** Projections shorter than this (r_j nearly parallel to the new r) are not drawn as arrows. */
const TINY = 1e-6;

export function chungWangDrawing(frame: ChungWangFrame, trace: ChungWangTrace): FrameDrawing {
  return {
    minkowski: (g, ctx) => drawGauss(g, frame, trace, ctx),
    shapes: (g, ctx) => drawShapes(g, frame, trace, ctx),
  };
}

// ---- small helpers ------------------------------------------------------------------------------------------

const hex = (c: number) => '#' + c.toString(16).padStart(6, '0');

/** A label in one of this view's colours (the stylesheet has classes for the shared ones only), kept inside its view. */
function tinted(text: string, cls: string, at: THREE.Vector3 | readonly number[], color: number): CSS2DObject {
  const o = label(text, cls, at);
  o.element.style.color = hex(color);
  return keepInside(o);
}

/** Minimum distance in pixels between a label and the edge of its view. */
const LABEL_PAD = 4;

/**
 * Shifts a label back into its view when it would stick out (points on the rim of the Gauss sphere, notes near
 * the edge): after each render of the label layer, by a CSS `translate`, which composes with the transform the
 * label renderer sets.
 */
function keepInside(o: CSS2DObject): CSS2DObject {
  let dx = 0, dy = 0;
  o.onAfterRender = (renderer) => {
    const layer = (renderer as unknown as CSS2DRenderer).domElement.getBoundingClientRect();
    const b = o.element.getBoundingClientRect();
    if (!layer.width || !b.width) return;
    const left = b.left - dx, right = b.right - dx, top = b.top - dy, bottom = b.bottom - dy;
    let nx = 0, ny = 0;
    if (right > layer.right - LABEL_PAD) nx = layer.right - LABEL_PAD - right;
    if (left + nx < layer.left + LABEL_PAD) nx = layer.left + LABEL_PAD - left;
    if (bottom > layer.bottom - LABEL_PAD) ny = layer.bottom - LABEL_PAD - bottom;
    if (top + ny < layer.top + LABEL_PAD) ny = layer.top + LABEL_PAD - top;
    if (nx !== dx || ny !== dy) {
      dx = nx;
      dy = ny;
      o.element.style.translate = dx || dy ? `${dx}px ${dy}px` : '';
    }
  };
  return o;
}

const SUB = '₀₁₂₃₄₅₆₇₈₉';
/** r with a subscript index: r₀, r₁₂ ... */
export const rName = (i: number) => 'r' + String(i).replace(/\d/g, (d) => SUB[Number(d)]);

/** Two unit vectors completing n (unit) to an orthonormal basis. */
function basisOf(n: THREE.Vector3): [THREE.Vector3, THREE.Vector3] {
  const e = Math.abs(n.x) < 0.6 ? new THREE.Vector3(1, 0, 0) : Math.abs(n.y) < 0.6 ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(0, 0, 1);
  const u = new THREE.Vector3().crossVectors(n, e).normalize();
  const v = new THREE.Vector3().crossVectors(n, u).normalize();
  return [u, v];
}

/** The point at angle φ on the circle of `radius` around `c` spanned by X, Y. */
function onCircle(c: THREE.Vector3, X: THREE.Vector3, Y: THREE.Vector3, radius: number, phi: number): THREE.Vector3 {
  return c.clone().addScaledVector(X, radius * Math.cos(phi)).addScaledVector(Y, radius * Math.sin(phi));
}

/** Points of the arc from φ0 to φ1 (either way round). */
function arc(c: THREE.Vector3, X: THREE.Vector3, Y: THREE.Vector3, radius: number, phi0: number, phi1: number, n = 64): THREE.Vector3[] {
  const pts: THREE.Vector3[] = [];
  for (let i = 0; i <= n; i++) pts.push(onCircle(c, X, Y, radius, phi0 + ((phi1 - phi0) * i) / n));
  return pts;
}

/** A filled circular sector from φ0 to φ1 (radius `radius`, centre c) in the plane of X, Y. */
function sector(c: THREE.Vector3, X: THREE.Vector3, Y: THREE.Vector3, radius: number, phi0: number, phi1: number, color: number, opacity: number): THREE.Mesh {
  const n = Math.max(2, Math.ceil((Math.abs(phi1 - phi0) / (2 * Math.PI)) * 96));
  const rim = arc(c, X, Y, radius, phi0, phi1, n);
  const tris: (readonly number[])[][] = [];
  for (let i = 0; i < n; i++) tris.push([c.toArray(), rim[i].toArray(), rim[i + 1].toArray()]);
  return triangles(tris, color, opacity);
}

/** A translucent square ⊥ n centred at c (half side h), with its outline. */
function square(g: THREE.Group, c: THREE.Vector3, n: THREE.Vector3, h: number, color: number, opacity: number): [THREE.Vector3, THREE.Vector3] {
  const [u, v] = basisOf(n);
  const corner = (a: number, b: number) => c.clone().addScaledVector(u, a * h).addScaledVector(v, b * h);
  const k = [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
  g.add(triangles([[k[0].toArray(), k[1].toArray(), k[2].toArray()], [k[0].toArray(), k[2].toArray(), k[3].toArray()]], color, opacity));
  g.add(line(k, color, { loop: true, opacity: 0.75 }));
  return [u, v];
}

/** The unit sphere's cap {x : w·x ≥ 0} (a hemisphere), translucent, with its rim: the great circle ⊥ w. */
function dome(g: THREE.Group, w: THREE.Vector3, color: number): void {
  const geom = new THREE.SphereGeometry(DOME_RADIUS, 48, 16, 0, 2 * Math.PI, 0, Math.PI / 2);
  const mesh = new THREE.Mesh(geom, new THREE.MeshBasicMaterial({
    color, transparent: true, opacity: 0.13, side: THREE.DoubleSide, depthWrite: false,
  }));
  mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), w.clone().normalize());
  mesh.renderOrder = 3;
  g.add(mesh);
  const [u, v] = basisOf(w.clone().normalize());
  g.add(line(arc(new THREE.Vector3(), u, v, DOME_RADIUS, 0, 2 * Math.PI, 96), color, { opacity: 0.85 }));
}

/** A great circle ⊥ n (dashed): the mirror of a reflection. */
function greatCircle(n: THREE.Vector3, color: number, opacity: number): THREE.Line {
  const [u, v] = basisOf(n.clone().normalize());
  return line(arc(new THREE.Vector3(), u, v, 1, 0, 2 * Math.PI, 96), color, { dashed: 0.035, opacity });
}

/** An arrow from O on the Gauss sphere, with a head of fixed size (unit-sphere units), over everything. */
function ray(dir: THREE.Vector3, length: number, color: number, head = 0.08): THREE.ArrowHelper {
  const hl = Math.min(head, length * 0.35);
  const a = new THREE.ArrowHelper(dir.clone().normalize(), new THREE.Vector3(), length, color, hl, hl * 0.55);
  a.traverse((x) => {
    const m = (x as THREE.Mesh).material as THREE.Material | undefined;
    if (m) { m.depthTest = false; m.transparent = true; }
    x.renderOrder = 6;
  });
  return a;
}

/** The frame's index in the trace (frames are compared by identity, then by position as a fallback). */
export function indexOf(frame: ChungWangFrame, trace: ChungWangTrace): number {
  const i = trace.frames.indexOf(frame);
  return i >= 0 ? i : trace.frames.findIndex((f) => f.iteration === frame.iteration && f.kind === frame.kind);
}

/** The hemisphere frame whose sweep found no half-plane (the proof of intersection), if any up to `upTo`. */
function proofFrame(trace: ChungWangTrace, upTo: number): ChungWangFrame | null {
  for (let i = Math.min(upTo, trace.frames.length - 1); i >= 0; i--) {
    const f = trace.frames[i];
    if (f.kind === 'hemisphere' && f.plane?.outcome === 'no-half-plane') return f;
  }
  return null;
}

/** The w before this frame (the one the new r violated on a projecting hemisphere frame). */
export function previousW(trace: ChungWangTrace, index: number): Vec3 | null {
  for (let i = index - 1; i >= 0; i--) {
    const w = trace.frames[i].w;
    if (w) return w;
  }
  return null;
}

/** Clockwise angle from a to b (2D, z ignored), in [0, 2π). */
export function clockwise(a: Vec3, b: Vec3): number {
  const t = Math.atan2(a[1], a[0]) - Math.atan2(b[1], b[0]);
  return ((t % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
}

/** The directions on which the proof of "no hemisphere" rests: r_a, r_b, the offending r_j and the new r. */
function proofIndices(f: ChungWangFrame): number[] | null {
  const pl = f.plane;
  if (!pl || pl.outcome !== 'no-half-plane' || !pl.wedge) return null;
  const bad = pl.steps.find((st) => st.case === 'no-half-plane');
  if (!bad) return null;
  return [...new Set([pl.wedge.ia, pl.wedge.ib, bad.index, f.directions.length - 1])];
}

// ---- the Gauss sphere ---------------------------------------------------------------------------------------

function drawGauss(g: THREE.Group, frame: ChungWangFrame, trace: ChungWangTrace, ctx: DrawContext): void {
  void ctx; // the unit sphere sets every size here
  const O = new THREE.Vector3();
  const index = indexOf(frame, trace);
  const R = frame.directions;
  const n = R.length;
  const pl = frame.plane;
  const proof = frame.kind === 'done' || frame.kind === 'hemisphere' ? proofFrame(trace, index) : null;
  const proofIdx = proof ? proofIndices(proof) : null;

  // The hemisphere that holds R, centred on w.
  let wOnR = -1;
  if (frame.w && frame.hemisphere) {
    const w = toV3(frame.w).normalize();
    dome(g, w, C.w);
    g.add(ray(w, 1, C.w));
    // On switch frames the next s is w tilted slightly inwards: one label for both when they are close.
    const near = frame.kind === 'switch' && frame.nextS !== null && dot3(frame.nextS, frame.w) > Math.cos(0.15) * len3(frame.nextS) * len3(frame.w);
    // When w is one of the r_i (after the first r: w = r₀), that r's label says so.
    wOnR = frame.directions.findIndex((r) => dot3(r, w.toArray()) > SAME_DIRECTION);
    if (!near && wOnR < 0) g.add(tinted('w', 'label-point', w.clone().multiplyScalar(1.04), C.w));
    if (frame.kind === 'hemisphere' && pl) {
      // The old w failed the quick test w·r ≥ 0: show it faintly, with the new w ⊥ r replacing it.
      const old = previousW(trace, index);
      if (old && len3(old) > 0) {
        const ow = toV3(old).normalize();
        g.add(line([O, ow], C.w, { dashed: 0.03, opacity: 0.6 }), marker(C.w, 3, ow, 0.6));
        // (Not labelled when it is one of the r_i, as after the first r: w = r₀.)
        const same = frame.directions.some((r) => dot3(r, old) > 0.9999 * len3(old));
        if (!same) g.add(tinted('old w', 'label-point', ow.clone().multiplyScalar(0.97), C.w));
      }
    }
  }

  // Every direction r_i of R as a dot on the sphere; the newest highlighted. On a support frame the new r is
  // not yet in R: it is drawn highlighted on its own.
  const newest = frame.kind === 'support' || frame.kind === 'switch' ? -1 : n - 1;
  const inProof = new Set(proofIdx ?? []);
  // Directions that (nearly) repeat share one label, "r₀, r₂": the reflections often bounce between two caps.
  const groups: number[][] = [];
  R.forEach((r, i) => {
    const at = toV3(r);
    const isNew = i === newest && frame.r !== null;
    const color = inProof.has(i) ? C.bad : isNew ? C.pq : C.dir;
    g.add(marker(color, isNew ? 7 : 5, at));
    const same = groups.find((grp) => dot3(R[grp[0]], r) > SAME_DIRECTION);
    if (same) same.push(i);
    else groups.push([i]);
  });
  // A new r not yet in R (support and switch frames) that repeats a group takes over that group's label.
  const repeated = frame.r && newest < 0 ? groups.find((grp) => dot3(R[grp[0]], frame.r!) > SAME_DIRECTION) : undefined;
  for (const grp of groups) {
    if (grp === repeated) continue;
    const last = grp[grp.length - 1];
    const color = grp.some((i) => inProof.has(i)) ? C.bad : grp.includes(newest) && frame.r !== null ? C.pq : C.dir;
    const withW = grp.includes(wOnR) ? ' = w' : '';
    g.add(tinted(grp.map(rName).join(', ') + withW, 'label-point', toV3(R[last]).multiplyScalar(0.97), color));
  }
  if (wOnR >= 0 && repeated?.includes(wOnR) && frame.w) {
    g.add(tinted('w', 'label-point', toV3(frame.w).normalize().multiplyScalar(0.9), C.w)); // its r's label is taken
  }
  if (frame.r && newest < 0) {
    const r = toV3(frame.r);
    g.add(marker(C.pq, 7, r));
    g.add(line([O, r], C.pq, { opacity: 0.9 }));
    // A switch: r repeats (within an angle) the r_j nearest to it.
    let repeat = repeated ? ` ≈ ${repeated.map(rName).join(', ')}` : '';
    if (!repeated && frame.kind === 'switch' && R.length) {
      const j = R.reduce((best, x, i) => (dot3(x, frame.r!) > dot3(R[best], frame.r!) ? i : best), 0);
      repeat = ` ≈ ${rName(j)}`;
    }
    g.add(tinted('new r' + repeat, 'label-point', r.clone().multiplyScalar(1.1), C.pq));
  } else if (frame.r && n > 0 && frame.kind !== 'done') {
    g.add(line([O, toV3(frame.r)], C.pq, { opacity: 0.9 }));
  }

  // The axis s, and its successor: on reflect frames the mirror (the great circle ⊥ r) and the chord from s
  // to s' (parallel to r); on switch frames s jumps to w (tilted into the hemisphere's interior).
  const s = toV3(frame.s).normalize();
  const final = frame.kind === 'done';
  g.add(ray(s, 1, C.s, 0.1));
  g.add(tinted(final && !trace.result.intersecting ? 's (separating axis)' : 's', 'label-point label-direction', s.clone().multiplyScalar(1.12), C.s));
  if (frame.nextS) {
    const ns = toV3(frame.nextS).normalize();
    g.add(ray(ns, 1, C.next, 0.1));
    g.add(tinted(frame.kind === 'switch' ? 'next s ≈ w' : "s' (reflected)", 'label-point', ns.clone().multiplyScalar(1.12), C.next));
    g.add(line([s, ns], C.next, { dashed: 0.03, opacity: 0.9 }));
    if (frame.kind === 'reflect' && frame.r) g.add(greatCircle(toV3(frame.r), C.pq, 0.55));
  }

  // Hemisphere frames that projected: the plane ⊥ r through O, the projections, the wedge.
  if (frame.kind === 'hemisphere' && pl) drawPlane(g, frame);

  // The proof of intersection: r_a, r_b, r_j and the new r surround O.
  if (proof && proofIdx && proofIdx.length >= 3) {
    const P = proofIdx.map((i) => proof.directions[i]);
    const faces: (readonly number[])[][] = [];
    for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) for (let k = j + 1; k < P.length; k++) faces.push([P[i], P[j], P[k]]);
    g.add(triangles(faces, C.bad, 0.16));
    for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) g.add(line([P[i], P[j]], C.bad, { opacity: 0.8 }));
    const bad = proof.plane?.steps.find((st) => st.case === 'no-half-plane');
    const why = frame === proof && bad ? `${rName(bad.index)}′ lies in the opposite wedge: no half-plane holds the projections.\n` : '';
    const note = tinted(`${why}O lies inside conv{${proofIdx.map(rName).join(', ')}}: no hemisphere holds R.`, 'label-note', [0, -1.25, 0], C.bad);
    note.element.style.whiteSpace = 'pre-line';
    note.element.style.textAlign = 'center';
    g.add(note);
  } else if (final && !trace.result.intersecting && frame.w) {
    g.add(tinted('every r_i lies in the hemisphere of w', 'label-note', [0, -1.22, 0], C.w));
  }
}

function drawPlane(g: THREE.Group, frame: ChungWangFrame): void {
  const pl = frame.plane!;
  const O = new THREE.Vector3();
  const X = toV3(pl.x).normalize();
  const Y = toV3(pl.y).normalize();
  const Z = toV3(pl.z).normalize();

  // The disc ⊥ r and its rim; r itself as the disc's axis.
  g.add(sector(O, X, Y, 1, 0, 2 * Math.PI, C.disc, 0.1));
  g.add(line(arc(O, X, Y, 1, 0, 2 * Math.PI, 96), C.disc, { opacity: 0.55 }));
  g.add(ray(Z, 1, C.pq));
  g.add(tinted('plane ⊥ r', 'label-note', onCircle(O, X, Y, 1.02, -Math.PI * 0.75), C.disc));

  const wedge = pl.wedge;
  const failed = pl.outcome === 'no-half-plane';
  const bad = pl.steps.find((st) => st.case === 'no-half-plane');
  if (wedge) {
    const phiA = Math.atan2(wedge.ra[1], wedge.ra[0]);
    const theta = wedge.ia === wedge.ib ? 0 : clockwise(wedge.ra, wedge.rb);
    // The wedge sweeps clockwise (seen from the tip of r) from r_a to r_b: decreasing angle.
    if (theta > 0) g.add(sector(O, X, Y, 0.8, phiA, phiA - theta, failed ? C.ab : C.wedge, failed ? 0.2 : 0.3));
    g.add(line(arc(O, X, Y, 0.8, phiA, phiA - theta, 48), failed ? C.ab : C.wedge, { opacity: 0.9 }));
    if (failed) {
      // The opposite wedge: any projection in it leaves no half-plane (with r_a and r_b it surrounds O).
      g.add(sector(O, X, Y, 0.8, phiA + Math.PI, phiA + Math.PI - theta, C.bad, 0.4));
      g.add(tinted('opposite wedge', 'label-note', onCircle(O, X, Y, 0.55, phiA + Math.PI - theta / 2), C.bad));
    }
    const ends: [Vec3, number, string][] = [[wedge.ra, wedge.ia, 'r_a'], [wedge.rb, wedge.ib, 'r_b']];
    for (const [u, i, name] of wedge.ia === wedge.ib ? ends.slice(0, 1) : ends) {
      const at = onCircle(O, X, Y, 0.8, Math.atan2(u[1], u[0]));
      g.add(boldSegments([O.toArray(), at.toArray()], C.ab, 3, 0.9));
      const text = wedge.ia === wedge.ib ? `wedge: ${rName(i)}′ alone` : `${name} = ${rName(i)}′`;
      g.add(tinted(text, 'label-point', at, C.ab));
    }
  }

  // The older r_j projected into the plane (drop the z of M r_j): arrows, with a dotted drop from r_j.
  pl.projected.forEach((pr, j) => {
    if (j === frame.directions.length - 1) return; // the new r itself projects to O
    const at = X.clone().multiplyScalar(pr[0]).addScaledVector(Y, pr[1]);
    const len = at.length();
    const off = bad?.index === j;
    const color = off ? C.bad : C.dir;
    g.add(line([toV3(frame.directions[j]), at], color, { dashed: 0.025, opacity: 0.5 }));
    if (len < TINY) return;
    g.add(ray(at, len, color, 0.07));
    const isEnd = wedge && (j === wedge.ia || j === wedge.ib);
    if (!isEnd || off) g.add(tinted(rName(j) + '′', 'label-point', at.clone().multiplyScalar(1 + 0.12 / len), color));
  });
}

// ---- the shapes ---------------------------------------------------------------------------------------------

/** Where the s arrow starts on frames without support points: p of the nearest frame that has one. */
function anchor(frame: ChungWangFrame, trace: ChungWangTrace): Vec3 | null {
  if (frame.p) return frame.p;
  const i = indexOf(frame, trace);
  for (let k = i + 1; k < trace.frames.length; k++) if (trace.frames[k].p) return trace.frames[k].p;
  for (let k = i - 1; k >= 0; k--) if (trace.frames[k].p) return trace.frames[k].p;
  return null;
}

function drawShapes(g: THREE.Group, frame: ChungWangFrame, trace: ChungWangTrace, ctx: DrawContext): void {
  const s = toV3(frame.s).normalize();
  const len = ctx.arrowLength;
  const dash = Math.max(0.01, ctx.scale * 0.015);
  const from = anchor(frame, trace);
  const start = from ? toV3(from) : new THREE.Vector3();

  if (frame.p && frame.q && frame.gap !== null) {
    const p = toV3(frame.p);
    const q = toV3(frame.q);
    const gap = frame.gap;
    const separates = gap > frame.tolerance;

    // The supporting planes ⊥ s: through p (A lies on its −s side) and through q (B on its +s side).
    const h = ctx.scale * 0.34;
    const planeOpacity = frame.kind === 'support' || frame.kind === 'done' ? 0.17 : 0.1;
    const [u, v] = square(g, p, s, h, C.a, planeOpacity);
    square(g, q, s, h, C.b, planeOpacity);
    const focus = frame.kind === 'support' || frame.kind === 'done';
    if (focus) g.add(tinted('A: s·x ≤ s·p', 'label-note', p.clone().addScaledVector(u, h * 0.7).addScaledVector(v, h * 0.7), C.a));
    if (focus) g.add(tinted('B: s·x ≥ s·q', 'label-note', q.clone().addScaledVector(u, h * 0.7).addScaledVector(v, h * 0.7), C.b));

    // The gap along s, from A's plane (the foot q − gap·s) to q: green when B's plane lies beyond A's by
    // more than τ, red when the planes overlap.
    const gapColor = separates ? C.next : C.bad;
    const foot = q.clone().addScaledVector(s, -gap);
    if (Math.abs(gap) > 0) g.add(boldSegments([foot.toArray(), q.toArray()], gapColor, GAP_WIDTH));
    g.add(marker(gapColor, 3, foot));
    g.add(line([p, foot], C.a, { dashed: dash, opacity: 0.6 }));
    const verdict = separates ? '> τ: s separates' : '≤ τ: no separation';
    const note = tinted(`s·(q − p) = ${fmt(gap, 5)} ${verdict}`, 'label-note', foot.clone().add(q).multiplyScalar(0.5), gapColor);
    note.element.style.marginTop = '34px'; // below p and q's labels
    g.add(note);

    // p, q, the segment p → q (its direction is r), and the cores' points when the shapes are rounded.
    g.add(marker(C.pq, 6, p), marker(C.pq, 6, q));
    g.add(line([p, q], C.pq, { dashed: dash, opacity: 0.95 }));
    g.add(tinted('p', 'label-point', p, C.pq), tinted('q', 'label-point', q, C.pq));
    const margins = trace.marginA > 0 || trace.marginB > 0;
    if (margins && frame.pCore && frame.qCore) {
      for (const [core, pt, name] of [[frame.pCore, p, 'p core'], [frame.qCore, q, 'q core']] as const) {
        const c = toV3(core);
        if (c.distanceTo(pt) < 1e-12) continue;
        g.add(marker(C.core, 4, c), line([c, pt], C.core, { dashed: dash * 0.6, opacity: 0.9 }));
        g.add(tinted(name, 'label-point', c, C.core));
      }
    }
  }

  // The axis s from p (A's extreme point along s); reflect frames add s', switch frames w and the next s.
  const sLabel = frame.kind === 'init' ? 's₀: from A’s centre towards B’s' : frame.kind === 'done' && !trace.result.intersecting ? 's: separating axis' : 's';
  g.add(arrow(start, s, len, C.s));
  g.add(tinted(sLabel, 'label-point', start.clone().addScaledVector(s, len * 1.1), C.s));
  if (frame.kind === 'switch' && frame.w) {
    const w = toV3(frame.w).normalize();
    g.add(arrow(start, w, len * 0.85, C.w));
    if (!frame.nextS || dot3(frame.nextS, frame.w) < Math.cos(0.15) * len3(frame.nextS) * len3(frame.w)) {
      g.add(tinted('w', 'label-point', start.clone().addScaledVector(w, len * 0.95), C.w));
    }
  }
  if (frame.nextS) {
    const ns = toV3(frame.nextS).normalize();
    g.add(arrow(start, ns, len, C.next));
    const text = frame.kind === 'switch' ? 'next s ≈ w' : "s' = s − 2(r·s) r";
    g.add(tinted(text, 'label-point', start.clone().addScaledVector(ns, len * 1.1), C.next));
  }
}
