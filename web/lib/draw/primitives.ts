// Small three.js building blocks of every drawing: the palette, hull meshes, markers, lines, labels, disposal.
import * as THREE from 'three';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import { LineSegments2 } from 'three/examples/jsm/lines/LineSegments2.js';
import { LineSegmentsGeometry } from 'three/examples/jsm/lines/LineSegmentsGeometry.js';
import { CSS2DObject } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import type { Hull } from './hull-geometry';

export const COLORS = {
  a: 0xf5a524, // shape A: amber
  b: 0x4ea1ff, // shape B: blue
  mink: 0xb07cff, // A − B: violet
  core: 0x9aa4b2, // core of A − B (GJK runs on it)
  simplex: 0x3ddc97, // simplex: green
  support: 0xff5c8a, // new support point w and its sources a, b: pink
  closest: 0xffffff, // closest points v, on A and on B: white
  direction: 0xffd166, // search direction: yellow
  origin: 0xff6b6b,
  // EPA
  polytope: 0x5ad1e6, // the expanding polytope: cyan
  face: 0xffd166, // the face nearest the origin, its normal and distance: yellow
  removed: 0xff4d4d, // faces the new support point sees (removed): red
  horizon: 0xff9f1c, // horizon edges: orange, bold
  added: 0x3ddc97, // new faces: green
  contact: 0xffffff, // final contact points and normal: white
};

export interface HullStyle {
  color: number;
  opacity: number;
  /** Edge line opacity. */
  edgeOpacity?: number;
  /** Radius in pixels of the dot drawn for a 0-dimensional hull and at the ends of a 1-dimensional one. */
  pointSize: number;
  wireOnly?: boolean;
}

/** A translucent hull: back faces then front faces (correct blending for a convex body), plus edges. */
export function hullObject(hull: Hull, style: HullStyle): THREE.Group {
  const g = new THREE.Group();
  const color = new THREE.Color(style.color);
  if (hull.faces && !style.wireOnly) {
    const solid = hull.dim === 3;
    const mat = (side: THREE.Side, order: number) => {
      const m = new THREE.MeshStandardMaterial({
        color, transparent: style.opacity < 1, opacity: style.opacity, side, roughness: 0.6, metalness: 0.05,
        depthWrite: style.opacity >= 1, flatShading: true, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
      });
      const mesh = new THREE.Mesh(hull.faces!, m);
      mesh.renderOrder = order;
      return mesh;
    };
    if (solid) {
      g.add(mat(THREE.BackSide, 1));
      g.add(mat(THREE.FrontSide, 2));
    } else {
      g.add(mat(THREE.DoubleSide, 2));
    }
  }
  if (hull.edges) {
    const lines = new THREE.LineSegments(hull.edges, new THREE.LineBasicMaterial({
      color, transparent: true, opacity: style.edgeOpacity ?? 0.9,
    }));
    lines.renderOrder = 3;
    g.add(lines);
  }
  if (hull.dim <= 1) {
    for (const v of hull.vertices) g.add(marker(style.color, style.pointSize, v));
  }
  return g;
}

const sphereGeometry = new THREE.SphereGeometry(1, 20, 14);

/** A dot of `px` pixels radius on screen (the view rescales it before each render). */
export function marker(color: number, px: number, at?: THREE.Vector3 | readonly number[], opacity = 1): THREE.Mesh {
  const m = new THREE.Mesh(sphereGeometry, new THREE.MeshBasicMaterial({
    color, transparent: opacity < 1, opacity, depthTest: true,
  }));
  m.userData.px = px;
  m.renderOrder = 5;
  if (at) setPos(m, at);
  return m;
}

export function setPos(o: THREE.Object3D, at: THREE.Vector3 | readonly number[]): void {
  if (at instanceof THREE.Vector3) o.position.copy(at);
  else o.position.set(at[0], at[1], at[2]);
}

export function toV3(a: readonly number[]): THREE.Vector3 {
  return new THREE.Vector3(a[0], a[1], a[2]);
}

export function line(points: (THREE.Vector3 | readonly number[])[], color: number, opts: { dashed?: number; opacity?: number; loop?: boolean } = {}): THREE.Line {
  const vs = points.map((p) => (p instanceof THREE.Vector3 ? p : toV3(p)));
  const geom = new THREE.BufferGeometry().setFromPoints(vs);
  const material = opts.dashed
    ? new THREE.LineDashedMaterial({ color, dashSize: opts.dashed, gapSize: opts.dashed * 0.6, transparent: true, opacity: opts.opacity ?? 1 })
    : new THREE.LineBasicMaterial({ color, transparent: true, opacity: opts.opacity ?? 1 });
  const l = opts.loop ? new THREE.LineLoop(geom, material) : new THREE.Line(geom, material);
  if (opts.dashed) l.computeLineDistances();
  l.renderOrder = 4;
  return l;
}

/** Line segments `width` pixels wide (WebGL draws plain lines one pixel wide). `pairs` holds both ends of each segment. */
export function boldSegments(pairs: (readonly number[])[], color: number, width: number, opacity = 1): LineSegments2 {
  const flat: number[] = [];
  for (const p of pairs) flat.push(p[0], p[1], p[2]);
  const geom = new LineSegmentsGeometry().setPositions(flat);
  // LineMaterial measures widths in drawing-buffer pixels; the views render at up to 2 device pixels per CSS pixel.
  const ratio = pixelRatio();
  // Transparent, so that it is drawn in the transparent pass after the translucent faces (renderOrder decides).
  const mat = new LineMaterial({ color, linewidth: width * ratio, transparent: true, opacity, depthTest: false, depthWrite: false });
  const l = new LineSegments2(geom, mat);
  l.renderOrder = 7;
  return l;
}

/** An arrow from `from` along `dir`, `length` long with a head `head` long (at most the whole arrow), drawn over
 *  the translucent bodies. */
export function arrow(from: THREE.Vector3 | readonly number[], dir: THREE.Vector3 | readonly number[], length: number, color: number,
  head = length * 0.2): THREE.ArrowHelper {
  const d = dir instanceof THREE.Vector3 ? dir.clone() : toV3(dir);
  const o = from instanceof THREE.Vector3 ? from.clone() : toV3(from);
  const h = Math.min(head, length);
  const a = new THREE.ArrowHelper(d.normalize(), o, length, color, h, h * 0.5);
  a.renderOrder = 6;
  a.traverse((x) => {
    const m = (x as THREE.Mesh).material as THREE.Material | undefined;
    if (m) { m.depthTest = false; m.transparent = true; }
    x.renderOrder = 6;
  });
  return a;
}

/** Translucent triangles (both sides) through the given vertex triples. */
export function triangles(tris: (readonly number[])[][], color: number, opacity: number): THREE.Mesh {
  const arr: number[] = [];
  for (const t of tris) for (const p of t) arr.push(p[0], p[1], p[2]);
  const geom = new THREE.BufferGeometry();
  geom.setAttribute('position', new THREE.Float32BufferAttribute(arr, 3));
  const m = new THREE.Mesh(geom, new THREE.MeshBasicMaterial({
    color, transparent: true, opacity, side: THREE.DoubleSide, depthWrite: false,
  }));
  m.renderOrder = 4;
  return m;
}

/** Device pixels per CSS pixel the views render at (at most 2); 1 without a window (Node). */
export function pixelRatio(): number {
  return Math.min((globalThis as { devicePixelRatio?: number }).devicePixelRatio || 1, 2);
}

/**
 * An HTML label that follows a 3D point. Text is set with textContent; `userData.label` holds it too.
 * Without a DOM (the collidoscope/three helper in Node) it is a plain Object3D with a detached stand-in
 * element, so that the frame drawings run unchanged; nothing renders it.
 */
export function label(text: string, cls: string, at?: THREE.Vector3 | readonly number[]): CSS2DObject {
  const o = typeof document === 'undefined' ? detachedLabel() : new CSS2DObject(document.createElement('div'));
  o.element.className = 'label ' + cls;
  o.element.textContent = text;
  o.userData.label = text;
  if (at) setPos(o, at);
  return o;
}

function detachedLabel(): CSS2DObject {
  const o = new THREE.Object3D() as THREE.Object3D & { element: unknown };
  o.element = { style: {}, className: '', textContent: '' };
  return o as unknown as CSS2DObject;
}

/** Remove all children of `g` and free their GPU resources (the shared sphere geometry is kept). */
export function clearGroup(g: THREE.Object3D): void {
  for (const child of [...g.children]) {
    g.remove(child);
    child.traverse((o) => {
      const anyO = o as THREE.Mesh;
      if (anyO.geometry && anyO.geometry !== sphereGeometry) anyO.geometry.dispose();
      const mat = anyO.material as THREE.Material | THREE.Material[] | undefined;
      if (Array.isArray(mat)) mat.forEach((m) => m.dispose());
      else mat?.dispose();
      if (o instanceof CSS2DObject) o.element.remove();
    });
  }
}

/** Each edge of the triangles once, as endpoint pairs (for LineSegments): faces index `points`. */
export function uniqueEdges<P>(faces: readonly { v: readonly number[] }[], points: readonly P[]): P[] {
  const seen = new Set<string>();
  const out: P[] = [];
  for (const f of faces) {
    for (let e = 0; e < 3; e++) {
      const i = f.v[e], j = f.v[(e + 1) % 3];
      const key = i < j ? `${i},${j}` : `${j},${i}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(points[i], points[j]);
    }
  }
  return out;
}
