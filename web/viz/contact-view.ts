// The page's views of "contact" and "contacts": one frame, the answer. Neither query has a trace in the library
// (runContactScene and runContactsScene refuse one: their steps are the distance and penetration queries'), so the
// frame is made here from run() of the scene itself, the library's own answer, as the CLI prints it; nothing is
// computed here but where a mesh's triangles lie in the world, to highlight them.
import * as THREE from 'three';
import { run } from '../lib/index';
import type { ContactPoint, ContactQueryResult, ContactsResult, Scene, Shape, Vec3 } from '../lib/index';
import { fmt, fmtVec } from '../lib/draw/format';
import { COLORS, arrow, label, line, marker } from '../lib/draw/primitives';
import type { DrawContext, FrameDrawing } from '../lib/draw/types';
import type { Row } from './query-view';
import { triangleCorners } from './shape-points';

/** The one frame: the answer, with the pseudocode line it ends on. */
export interface ContactFrame {
  kind: 'answer';
  line: number;
  caption: string;
}

/** A contact or contacts scene's answer as the page steps through it (one frame). */
export interface ContactViewTrace {
  query: 'contact' | 'contacts';
  frames: [ContactFrame];
  pseudocode: string[];
  result: ContactQueryResult | ContactsResult;
  /** The scene's margin (0 when it has none). */
  margin: number;
  /** contacts: each contact's mesh triangle, its corners in world space (null between convex shapes). */
  triangles: ([Vec3, Vec3, Vec3] | null)[];
}

const CONTACT_CODE = [
  'd ← distance(A, B), stopping as soon as a step proves d > margin   (GJK; a closed form for points, spheres, segments, capsules and most pairs with a box; a plane\'s formula; a compound: each child pair)',
  'if d > margin: no contact',
  'if d > 0: contact at distance d: the normal and closest points of the distance query',
  'else: depth, normal, points of the penetration query (EPA or the closed form); distance = −depth',
];

const CONTACTS_CODE = [
  'for each triangle of the mesh whose OBB-tree box is within margin of B\'s box (each child pair of a compound within margin; two convex shapes: the one pair)',
  '  c ← the contact of that triangle (child) and B within margin   (the face rule, or GJK and EPA)',
  '  if c: list it: depth = −distance, normal moving B off that triangle, pointA, pointB',
  'return the list (tree order, at most 4096: "truncated" beyond)',
];

/**
 * The margin the page gives a pair it switches to contact or contacts: 0 when A and B touch or overlap, else a
 * little more than their distance (× 1.25, rounded up to two significant digits), so that the view shows the
 * pair's contact instead of "no contact" (the user edits it under Margin). 0 when the library gives no distance
 * for the pair (two meshes).
 */
export function marginToShow(pair: Scene): number {
  let d: number;
  try {
    d = (run({ ...pair, query: 'distance' }) as { distance: number }).distance;
  } catch {
    return 0;
  }
  if (!(d > 0) || !Number.isFinite(d)) return 0;
  const m = 1.25 * d;
  const unit = 10 ** (Math.floor(Math.log10(m)) - 1);
  return Number((Math.ceil(m / unit) * unit).toPrecision(2));
}

/** The one frame of `scene` (query "contact" or "contacts"): run() of it, the library's answer. */
export function contactTrace(scene: Scene): ContactViewTrace {
  const margin = scene.margin ?? 0;
  if (scene.query === 'contact') {
    const r = run(scene) as ContactQueryResult;
    const line = !r.contact ? 2 : (r.distance ?? 0) > 0 ? 3 : 4;
    return { query: 'contact', frames: [{ kind: 'answer', line, caption: contactSentence(r, margin) }], pseudocode: CONTACT_CODE, result: r, margin, triangles: [] };
  }
  const r = run(scene) as ContactsResult;
  const mesh = scene.shapes.find((s) => s.type === 'mesh' || s.type === 'heightfield');
  return {
    query: 'contacts',
    frames: [{ kind: 'answer', line: 4, caption: contactsSentence(r, margin) }],
    pseudocode: CONTACTS_CODE,
    result: r,
    margin,
    triangles: r.contacts.map((c) => (mesh && c.triangle !== null ? cornersOf(mesh, c.triangle) : null)),
  };
}

/** What the frame says: contact()'s answer in words. */
export function contactSentence(r: ContactQueryResult, margin: number): string {
  if (!r.contact || r.distance === null || r.normal === null || r.pointA === null || r.pointB === null) {
    return `No contact: A and B are farther apart than the margin ${fmt(margin, 6)}.`;
  }
  const how = r.distance > 0 ? `apart by ${fmt(r.distance, 9)} (within the margin ${fmt(margin, 6)})`
    : r.distance < 0 ? `overlapping by ${fmt(-r.distance, 9)}` : 'touching';
  return `Contact: ${how}; signed distance ${fmt(r.distance, 9)}, normal ${fmtVec(r.normal, 6)} from A to B, `
    + `pointA ${fmtVec(r.pointA, 6)}, pointB ${fmtVec(r.pointB, 6)}.`;
}

/** What the frame says: how many contacts contacts() found and the deepest. */
export function contactsSentence(r: ContactsResult, margin: number): string {
  const n = r.contacts.length;
  if (n === 0) return `No contacts: nothing of A is within the margin ${fmt(margin, 6)} of B.`;
  const deepest = r.contacts.reduce((a, c) => (c.depth > a.depth ? c : a));
  const how = deepest.depth < 0 ? `a gap of ${fmt(-deepest.depth, 9)}` : `depth ${fmt(deepest.depth, 9)}`;
  return `${n} contact${n === 1 ? '' : 's'} within the margin ${fmt(margin, 6)}${r.truncated ? ' (truncated)' : ''}; the deepest`
    + `${deepest.triangle !== null ? ` (triangle ${deepest.triangle})` : ''}: ${how} along ${fmtVec(deepest.normal, 6)}.`;
}

/** The values table: the answer's numbers, every contact of contacts. */
export function contactRows(_frame: ContactFrame, t: ContactViewTrace): Row[] {
  if (t.query === 'contact') {
    const r = t.result as ContactQueryResult;
    const rows: Row[] = [['margin', fmt(t.margin, 9)]];
    if (!r.contact || r.distance === null || r.normal === null || r.pointA === null || r.pointB === null) {
      return [...rows, ['contact', 'none (beyond the margin)', 'ok'], ['GJK iterations', String(r.iterations)]];
    }
    return [
      ...rows,
      ['contact', 'yes', 'ok'],
      ['distance', fmt(r.distance, 12), 'ok'],
      ['normal (A to B)', fmtVec(r.normal, 9)],
      ['pointA', fmtVec(r.pointA, 9)],
      ['pointB', fmtVec(r.pointB, 9)],
      ['iterations', String(r.iterations)],
      ['status', r.status],
    ];
  }
  const r = t.result as ContactsResult;
  const rows: Row[] = [['margin', fmt(t.margin, 9)], ['contacts', String(r.contacts.length), 'ok']];
  if (r.truncated) rows.push(['truncated', 'yes (the first 4096)']);
  r.contacts.forEach((c, i) => {
    const which = c.triangle !== null ? `triangle ${c.triangle}` : childName(c) ?? 'the pair';
    rows.push([`#${i + 1} ${which}: depth`, fmt(c.depth, 12)], ['  normal', fmtVec(c.normal, 9)], ['  pointA', fmtVec(c.pointA, 9)], ['  pointB', fmtVec(c.pointB, 9)]);
  });
  rows.push(['iterations', String(r.iterations)]);
  return rows;
}

function childName(c: ContactPoint): string | null {
  const k = c as ContactPoint & { child?: number | null; childA?: number | null; childB?: number | null };
  if (k.childA !== undefined) return `children ${k.childA}, ${k.childB}`;
  return k.child !== undefined && k.child !== null ? `child ${k.child}` : null;
}

/** The frame's drawing, the same in both views (world space): the contacts' triangles, points and normals. */
export function contactDrawing(t: ContactViewTrace): FrameDrawing {
  const draw = (g: THREE.Group, ctx: DrawContext) => {
    const list: { normal: Vec3; pointA: Vec3; pointB: Vec3; text: string }[] = [];
    if (t.query === 'contact') {
      const r = t.result as ContactQueryResult;
      if (r.contact && r.normal && r.pointA && r.pointB && r.distance !== null) {
        list.push({ normal: r.normal, pointA: r.pointA, pointB: r.pointB, text: `distance ${fmt(r.distance, 6)}` });
      }
    } else {
      (t.result as ContactsResult).contacts.forEach((c, i) => {
        list.push({ normal: c.normal, pointA: c.pointA, pointB: c.pointB, text: `#${i + 1} depth ${fmt(c.depth, 4)}` });
      });
    }
    for (const tri of t.triangles) {
      if (!tri) continue;
      const fill = new THREE.Mesh(new THREE.BufferGeometry().setFromPoints(tri.map((p) => new THREE.Vector3(...p))), new THREE.MeshBasicMaterial({
        color: COLORS.simplex, transparent: true, opacity: 0.8, side: THREE.DoubleSide, depthWrite: false, depthTest: false,
      }));
      fill.name = 'contact-triangle';
      fill.renderOrder = 4;
      const outline = line(tri, COLORS.simplex, { loop: true });
      outline.renderOrder = 5;
      g.add(fill, outline);
    }
    // Labels on at most a few contacts, so that a floor's many stay readable.
    list.forEach((c, i) => {
      g.add(marker(COLORS.a, 5, c.pointA), marker(COLORS.b, 5, c.pointB), line([c.pointA, c.pointB], COLORS.contact, { opacity: 0.9 }));
      g.add(arrow(c.pointA, c.normal, ctx.arrowLength, COLORS.contact));
      if (i < 4) g.add(label(c.text, 'label-point label-closest', c.pointB));
    });
  };
  if (t.query === 'contacts') return { shapes: draw, minkowski: draw };
  // contact's right view is A − B: the contact is its point pointA − pointB = −distance·normal, nearest the origin
  // (the distance query's answer) or, overlapping, at depth along the normal from O (the penetration query's).
  const difference = (g: THREE.Group, ctx: DrawContext) => {
    const r = t.result as ContactQueryResult;
    if (!r.contact || !r.normal || !r.pointA || !r.pointB || r.distance === null) return;
    const w: Vec3 = [r.pointA[0] - r.pointB[0], r.pointA[1] - r.pointB[1], r.pointA[2] - r.pointB[2]];
    g.add(marker(COLORS.origin, 5, [0, 0, 0]), marker(COLORS.contact, 5, w), line([[0, 0, 0], w], COLORS.contact, { opacity: 0.9 }));
    g.add(arrow([0, 0, 0], r.normal, ctx.arrowLength, COLORS.contact));
    g.add(label('pointA − pointB', 'label-point label-closest', w));
  };
  return { shapes: draw, minkowski: difference };
}

/** A contact's mesh or heightfield triangle in world space, or null when the scene does not hold it. */
function cornersOf(mesh: Shape, tri: number): [Vec3, Vec3, Vec3] | null {
  const c = triangleCorners(mesh, tri);
  return c.length === 3 ? [c[0], c[1], c[2]] : null;
}

/** Grows the shapes view's sphere to the contacts' points (contacts: the right view's too, also world space). */
export function frameContacts(t: ContactViewTrace | null, a: THREE.Sphere, b: THREE.Sphere): void {
  if (!t) return;
  const points = t.query === 'contact'
    ? [(t.result as ContactQueryResult).pointA, (t.result as ContactQueryResult).pointB]
    : (t.result as ContactsResult).contacts.flatMap((c) => [c.pointA, c.pointB]);
  for (const p of points) {
    if (!p) continue;
    const s = new THREE.Sphere(new THREE.Vector3(...p), 0);
    a.union(s);
    if (t.query === 'contacts') b.union(s);
  }
}
