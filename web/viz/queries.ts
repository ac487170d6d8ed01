// Every query the page shows, in one registry: its heading, mode, the drawing of its frames (the library's
// drawing layer, lib/draw/frames.ts), its values table, the views' contents and titles, and the scene it is
// made from (the result sentence is the library's, lib/captions.ts). The app, the views and the panel look a query up here and never branch on it.
import * as THREE from 'three';
import { closedFormTitle, pairsSentence } from '../lib/captions';
import { CLOSED_FORM, FRAME_DRAWERS, MESH_RAY, OBB_TREE, PAIRS } from '../lib/draw/frames';
import { boxCorners } from '../lib/draw/obbtree';
import { round } from '../lib/draw/format';
import { pairsBoxes, pairsFigureBounds } from '../lib/draw/pairs';
import { isClosedForm, isMeshRaycast, isObbTree, isPairs, type PairsTrace } from '../lib/index';
import type {
  ChungWangTrace, ClosedFormTrace, EpaTrace, GjkTrace, HullTrace, Query, RaycastTrace, SatTrace, Scene, Shape, ShapecastTrace, Trace, Vec3,
} from '../lib/index';
import { castRows } from './cast-panel';
import { closedFormRows } from './closed-form-panel';
import { chungWangRows } from './cw-panel';
import { epaRows } from './epa-panel';
import { gjkRows } from './gjk-panel';
import { hullRows } from './hull-panel';
import { builtinScene } from './builtin-meshes';
import { contactDrawing, contactRows, contactTrace, frameContacts, marginToShow, type ContactFrame, type ContactViewTrace } from './contact-view';
import { meshRayRows } from './mesh-ray-panel';
import { obbTreeRows } from './obbtree-panel';
import { pairsRows } from './pairs-panel';
import { isPointQuery, pointDrawing, pointRows, pointSentence, pointTrace, type PointQueryTrace } from './point-view';
import type { FrameOverlay, MinkowskiMode, QueryView } from './query-view';
import { SANDBOX_VIEW } from './sandbox-view';
import { satRows } from './sat-panel';

// ---- the views' headings and contents ------------------------------------------------------------------

/** Headings of the shapes view and the right view; `pairRight` is the right one's with two shapes. */
function titles(pairRight: string): (shapes: number) => [string, string] {
  return (shapes) => shapes < 2
    ? ['Shape A and the ray', 'Shape A: the ray, x(λ) and the simplex']
    : ['Shapes A and B', pairRight];
}

const DIFFERENCE_TITLE = 'Minkowski difference A − B  ·  O = origin';
const MOTION_TITLE = 'Minkowski difference A − B: the relative motion from O';

/** A − B, or shape A alone when the scene has only A (the ray cast). */
const differenceOrA = (shapes: number): MinkowskiMode => (shapes === 1 ? 'single' : 'difference');

/** The pair with the query: the fields the query does not use are already gone. */
const samePair = (pair: Scene, query: Query) => ({ scene: { ...pair, query } as Scene });

// ---- the entries -----------------------------------------------------------------------------------------

/** An entry, type-checked against the trace of its query. */
function entry<T extends Trace>(view: QueryView<T>): QueryView {
  return view as unknown as QueryView;
}

function gjk(traced: GjkTrace['query']): QueryView {
  return entry<GjkTrace>({
    algorithm: 'GJK', mode: 'gjk', family: 'pair', traced, drawer: FRAME_DRAWERS[traced],
    minkowski: differenceOrA, titles: titles(DIFFERENCE_TITLE), rows: gjkRows, fromPair: samePair,
  });
}

const hull: QueryView<HullTrace> = {
  algorithm: 'Quickhull', mode: 'hull', family: 'cloud', traced: 'hull', drawer: FRAME_DRAWERS.hull,
  rows: hullRows,
};

/** The scene queries of VIEWS (contact and contacts have no trace: CONTACT_VIEWS shows run()'s answer). */
type PageQuery = Exclude<Query, 'contact' | 'contacts'>;

const VIEWS: { readonly [Q in PageQuery]: QueryView } = {
  intersect: gjk('intersect'),
  distance: gjk('distance'),
  penetration: entry<EpaTrace>({
    algorithm: 'EPA (after GJK)', mode: 'epa', family: 'pair', traced: 'penetration', drawer: FRAME_DRAWERS.penetration,
    minkowski: differenceOrA, titles: titles(DIFFERENCE_TITLE), rows: epaRows, fromPair: samePair,
  }),
  sat: entry<SatTrace>({
    algorithm: 'Separating-axis test', mode: 'sat', family: 'pair', traced: 'sat', drawer: FRAME_DRAWERS.sat,
    minkowski: differenceOrA, titles: titles(DIFFERENCE_TITLE), rows: satRows,
    fromPair: (pair, query) => {
      // SAT needs shapes with vertices: a cylinder, cone or ellipsoid becomes its bounding box (same pose).
      const boxed = pair.shapes.map(boxIfCurved);
      const changed = ['A', 'B'].filter((_, i) => boxed[i] !== pair.shapes[i]);
      return {
        scene: { ...pair, shapes: boxed, query },
        note: changed.length ? `SAT works on shapes with vertices: the curved shape ${changed.join(' and ')} was replaced by its bounding box.` : undefined,
      };
    },
  }),
  chungwang: entry<ChungWangTrace>({
    algorithm: 'Chung–Wang', mode: 'cw', family: 'pair', traced: 'chungwang', drawer: FRAME_DRAWERS.chungwang,
    minkowski: () => 'gauss', titles: (shapes) => [titles('')(shapes)[0], 'Gauss sphere: directions r on the unit sphere'],
    rows: chungWangRows, fromPair: samePair,
  }),
  raycast: entry<RaycastTrace>({
    algorithm: 'GJK ray cast', mode: 'cast', family: 'single', traced: 'raycast', drawer: FRAME_DRAWERS.raycast,
    minkowski: differenceOrA, titles: titles(MOTION_TITLE), rows: castRows,
    // Shape A and a ray aimed at it.
    fromPair: (pair, query) => ({ scene: { version: 1, query, shapes: [pair.shapes[0]], ray: defaultRay(pair.shapes[0]) } }),
    frame: frameRay,
  }),
  shapecast: entry<ShapecastTrace>({
    algorithm: 'GJK shape cast', mode: 'cast', family: 'pair', traced: 'shapecast', drawer: FRAME_DRAWERS.shapecast,
    minkowski: differenceOrA, titles: titles(MOTION_TITLE), rows: castRows,
    // A motion that brings B to A.
    fromPair: (pair, query) => ({ scene: { ...pair, query, motion: defaultMotion(pair) } }),
    frame: frameMotion,
  }),
  hull: entry(hull),
  // The "obb" query has no steps of its own: its page shows quickhull's, with the boxes over them.
  obb: entry<HullTrace>({ ...hull, boundsShown: ['aabb', 'obb'] }),
  // A mesh's OBB tree: its levels, then the descent against shape B. Without a mesh for A, the torus knot.
  obbtree: {
    algorithm: 'OBB tree (build, then descent)', mode: 'cast', family: 'pair', traced: 'obbtree' as Trace['query'],
    drawer: OBB_TREE as unknown as QueryView['drawer'],
    minkowski: () => 'single', titles: () => ['Mesh A and shape B', 'The OBB tree: this step\'s boxes'],
    rows: obbTreeRows as unknown as QueryView['rows'],
    line: (f) => (f as unknown as { line: number }).line,
    fromPair: (pair, query) => (pair.shapes[0]?.type === 'mesh'
      ? { scene: { ...pair, query } }
      : { scene: builtinScene('torus-knot'), note: 'The obbtree view needs a mesh for shape A: here is the torus knot (more under "Mesh").' }),
    frame: frameObbTree,
  },
  contains: pointView('contains'),
  project: pointView('project'),
  // A world's broad phase (sweep and prune) and narrow phase over all the scene's shapes: their boxes on the left,
  // the seed's figure of the sorted intervals and the sweep line on the right.
  pairs: {
    algorithm: 'Sweep and prune, then intersect() per pair', mode: 'pairs', family: 'pair', traced: 'pairs' as Trace['query'],
    drawer: PAIRS as unknown as QueryView['drawer'],
    minkowski: () => 'figure',
    titles: () => ['The shapes and their boxes', 'Sorted intervals on x, y, z  ·  S = sweep line'],
    rows: pairsRows as unknown as QueryView['rows'],
    line: (f) => (f as unknown as { line: number }).line,
    sentence: (t) => pairsSentence(t as unknown as PairsTrace),
    // The pair as it is: two shapes are a world too (more come from the gallery, a link or the JSON).
    fromPair: samePair,
    frame: framePairs,
  },
  // The sandbox: a world's bodies, stepped by the library's trace of the scene (sandbox-view.ts).
  simulate: SANDBOX_VIEW,
};

/**
 * A pair answered by a closed form (intersect, distance, penetration of points, spheres, segments, capsules): the
 * views of its query, with the closed form's one frame drawn and listed, and its three lines of pseudocode.
 */
const CLOSED: { readonly [Q in ClosedFormTrace['query']]: QueryView } = {
  intersect: closedFormView('intersect'),
  distance: closedFormView('distance'),
  penetration: closedFormView('penetration'),
};

function closedFormView(traced: ClosedFormTrace['query']): QueryView {
  return entry<ClosedFormTrace>({
    algorithm: 'Closed form', heading: (t) => `Closed form (${closedFormTitle(t.closedForm)})`,
    mode: 'closed', family: 'pair', traced, drawer: CLOSED_FORM,
    minkowski: differenceOrA, titles: titles(DIFFERENCE_TITLE), rows: closedFormRows, fromPair: samePair,
    // The one frame is the whole formula: its answer is the last line.
    line: (_, t) => t.pseudocode.length,
  });
}

/** A ray cast on a mesh: its one frame (the answer through the box tree), drawn in world space in both views. */
const MESH_RAYCAST: QueryView = {
  algorithm: 'Ray cast through a box tree', mode: 'cast', family: 'single', traced: 'raycast',
  drawer: MESH_RAY as unknown as QueryView['drawer'],
  minkowski: () => 'single', titles: () => ['Mesh A and the ray', 'Mesh A: the hit triangle and its normal'],
  rows: meshRayRows as unknown as QueryView['rows'],
  fromPair: VIEWS.raycast.fromPair,
  // The one frame is the answer: its last line.
  line: (_, t) => t.pseudocode.length,
  frame: frameRay,
};

/**
 * A point query (contains, project): shape A, the query point and the answer in one step, in world space in both
 * views. The library answers it without a trace, so its one frame is made from run() (point-view.ts).
 */
function pointView(query: 'contains' | 'project'): QueryView {
  const drawer = {
    space: 'pair', minkowski: 'shape-a',
    draw: (t: PointQueryTrace, i: number) => (t.frames[i] ? pointDrawing(t.frames[i], t) : null),
  };
  return {
    algorithm: query === 'contains' ? 'Contains: is the point in A' : 'Project: the nearest point of A\'s surface',
    mode: 'point', family: 'single', traced: query as unknown as Trace['query'],
    drawer: drawer as unknown as QueryView['drawer'],
    minkowski: () => 'single',
    titles: () => query === 'contains' ? ['Shape A and the point p', 'Shape A: p inside (green) or outside (red)']
      : ['Shape A, p and its nearest point x', 'Shape A: x and the feature it lies on'],
    rows: pointRows as unknown as QueryView['rows'],
    answer: pointTrace as unknown as QueryView['answer'],
    sentence: pointSentence as unknown as QueryView['sentence'],
    // The one frame is the answer: its last line.
    line: (_, t) => t.pseudocode.length,
    // Shape A and a point off it.
    fromPair: (pair, q) => ({ scene: { version: 1, query: q, shapes: [pair.shapes[0]], point: defaultPoint(pair.shapes[0]) } }),
    frame: framePoint,
  };
}

/**
 * contact and contacts: one frame, the answer of run() (the library has no trace of them: contact-view.ts), in
 * world space in both views.
 */
function contactView(query: 'contact' | 'contacts', titles: [string, string]): QueryView {
  // contact's right view is A − B (where its distance and normal come from); contacts' the mesh in the world.
  const right = query === 'contact' ? 'difference' : 'single';
  return {
    algorithm: query === 'contact' ? 'Contact (distance, then penetration)' : 'Contacts (one per triangle or child pair)',
    mode: 'contact', family: 'pair', traced: query as Trace['query'],
    drawer: {
      space: 'pair', minkowski: right === 'difference' ? 'difference' : 'shape-a',
      draw: (t, i) => (t.frames[i] ? contactDrawing(t as unknown as ContactViewTrace) : null),
    },
    minkowski: () => right, titles: () => titles,
    rows: contactRows as unknown as QueryView['rows'],
    line: (f) => (f as unknown as ContactFrame).line,
    answer: (scene) => contactTrace(scene) as unknown as Trace,
    sentence: (t) => (t.frames[0] as unknown as ContactFrame).caption,
    // The pair as it is, with a margin that shows its contact when A and B are apart (the pair has none: withoutCast).
    fromPair: (pair, q) => {
      const margin = marginToShow(pair);
      return {
        scene: { ...pair, query: q, margin },
        note: margin > 0 ? `A and B are apart: the margin is set to ${margin}, a little more than their distance, so that the contact shows (edit it under Margin).` : undefined,
      };
    },
    frame: (_scene, a, b, trace) => frameContacts(trace as unknown as ContactViewTrace | null, a, b),
  };
}

const CONTACT_VIEWS: { readonly [Q in 'contact' | 'contacts']: QueryView } = {
  contact: contactView('contact', ['Shapes A and B: the contact', 'A − B: pointA − pointB = −distance · normal  ·  O = origin']),
  contacts: contactView('contacts', ['Shapes A and B: the contacts', 'Each contact: its triangle, normal and points']),
};

/** The views of query `q` (of a scene, or of a trace that is not a closed form's: see viewOfTrace). */
export function viewOf(q: Query | string): QueryView {
  const v = (VIEWS as Partial<Record<string, QueryView>>)[q] ?? (CONTACT_VIEWS as Partial<Record<string, QueryView>>)[q];
  if (!v) {
    throw new Error(`the page has no view of the query '${q}'`);
  }
  return v;
}

/** The views of a trace: its query's, or the closed form's when a closed form answered the pair. */
export function viewOfTrace(trace: Trace): QueryView {
  if (isMeshRaycast(trace)) return MESH_RAYCAST;
  if (isPointQuery(trace)) return viewOf((trace as unknown as PointQueryTrace).query);
  if (isObbTree(trace)) return VIEWS.obbtree;
  if (isPairs(trace)) return VIEWS.pairs;
  return isClosedForm(trace) ? CLOSED[trace.query] : viewOf(trace.query);
}

/** The frame `index` of `trace` as the page shows it; `scene` is the scene the trace came from. */
export function overlayFor(trace: Trace | null, index: number, scene?: Scene): FrameOverlay | null {
  if (!trace) return null;
  const view = viewOfTrace(trace);
  const frame = trace.frames[index];
  const drawing = view.drawer.draw(trace, index, scene);
  if (!frame || !drawing) return null;
  return { ...drawing, values: () => view.rows(frame, trace) };
}

// ---- scenes made for a query -----------------------------------------------------------------------------

/**
 * `next`, the scene after its shapes changed, with the ray or motion the page made for the shapes before
 * (defaultRay, defaultMotion) made again for the new shapes: a ray aimed at A stays aimed at A, and B still
 * moves to where A is. A ray or motion set by the user (fields, handles, a link, JSON) is kept as it is.
 */
export function followShapes(before: Scene, next: Scene): Scene {
  const out = { ...next };
  if (before.ray && next.ray && before.shapes[0] && next.shapes[0] && same(before.ray, defaultRay(before.shapes[0]))) {
    out.ray = defaultRay(next.shapes[0]);
  }
  if (before.point && next.point && before.shapes[0] && next.shapes[0] && same(before.point, defaultPoint(before.shapes[0]))) {
    out.point = defaultPoint(next.shapes[0]);
  }
  if (before.motion && next.motion && before.shapes.length >= 2 && next.shapes.length >= 2 && same(before.motion, defaultMotion(before))) {
    out.motion = defaultMotion(next);
  }
  return out;
}

/** Same JSON value (the page's rays and motions are plain numbers and arrays). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A ray for shape A: from 4 size units to its −x side, slightly above its centre, along +x, long enough to cross it. */
function defaultRay(a: Shape): NonNullable<Scene['ray']> {
  const p = a.position ?? [0, 0, 0];
  const size = shapeSize(a);
  return {
    origin: [round(p[0] - 4 * size, 4), round(p[1] + 0.25 * size, 4), round(p[2] + 0.1 * size, 4)],
    direction: [1, 0, 0],
    maxT: round(8 * size, 4),
  };
}

/** A query point for shape A: 2 size units to its +x side, slightly above and in front of its centre (off a face of a box). */
function defaultPoint(a: Shape): Vec3 {
  const p = a.position ?? [0, 0, 0];
  const size = shapeSize(a);
  return [round(p[0] + 2 * size, 4), round(p[1] + 0.25 * size, 4), round(p[2] + 0.1 * size, 4)];
}

/** The shape itself when it has vertices, else its local bounding box with the same pose and margin. */
function boxIfCurved(s: Shape): Shape {
  const c = s as Shape & { radius?: number; halfHeight?: number; radii?: Vec3 };
  const half: Vec3 | null = s.type === 'cylinder' || s.type === 'cone'
    ? [c.radius ?? 1, c.halfHeight ?? 1, c.radius ?? 1]
    : s.type === 'ellipsoid' ? (c.radii ?? [1, 1, 1]) : null;
  if (!half) return s;
  const box: Shape = { type: 'box', halfExtents: half };
  if (s.position) box.position = s.position;
  if (s.rotation) box.rotation = s.rotation;
  if (s.margin !== undefined) box.margin = s.margin;
  if (s.scale) box.scale = s.scale;
  return box;
}

/** A motion that brings B to A: B moves by their offset (so it ends where A was), A stays. */
function defaultMotion(pair: Scene): NonNullable<Scene['motion']> {
  const a = pair.shapes[0].position ?? [0, 0, 0];
  const b = pair.shapes[1].position ?? [0, 0, 0];
  return { translationA: [0, 0, 0], translationB: [0, 1, 2].map((i) => round(a[i] - b[i], 4)) as Vec3 };
}

/** A rough size of a shape (for default rays): its largest dimension parameter, at least 0.5. */
function shapeSize(s: Shape): number {
  const r = s as { radius?: number; halfHeight?: number; halfExtents?: Vec3; radii?: Vec3; points?: Vec3[] };
  let m = Math.max(r.radius ?? 0, r.halfHeight ?? 0, ...(r.halfExtents ?? []), ...(r.radii ?? []));
  for (const q of r.points ?? []) m = Math.max(m, Math.hypot(q[0], q[1], q[2]));
  if (s.scale) m *= Math.max(...s.scale.map(Math.abs));
  return Math.max(0.5, m);
}

// ---- what the casts add to the framed views --------------------------------------------------------------

function grow(s: THREE.Sphere, p: readonly number[]): void {
  if (p.every(Number.isFinite)) s.union(new THREE.Sphere(new THREE.Vector3(p[0], p[1], p[2]), 0));
}

/** The whole ray (up to maxT) in both views; a very long ray (maxT far beyond the shape) at most 4 shape sizes long, so that the shape stays more than a dot. */
function frameRay(scene: Scene, a: THREE.Sphere, b: THREE.Sphere): void {
  const ray = scene.ray;
  if (!ray) return;
  const t = Math.min(ray.maxT ?? 1, (4 * a.radius + Math.hypot(...ray.origin.map((x, i) => x - a.center.getComponent(i))))
    / Math.max(1e-300, Math.hypot(...ray.direction)));
  const end = ray.origin.map((x, i) => x + t * ray.direction[i]);
  for (const p of [ray.origin, end]) { grow(a, p); grow(b, p); }
}

/** The query point and the nearest point in both views. */
function framePoint(scene: Scene, a: THREE.Sphere, b: THREE.Sphere, trace: Trace | null): void {
  const r = trace && isPointQuery(trace) ? (trace as unknown as PointQueryTrace).result : null;
  const points = [scene.point, r && 'point' in r ? r.point : undefined];
  for (const p of points) if (p) { grow(a, p); grow(b, p); }
}

/**
 * The boxes the obbtree frames draw, whole in both views: A's root box (its corners reach past the mesh's bounding
 * sphere) and B's box (a convex B's, or a mesh B's root box), from the first level and the first step.
 */
function frameObbTree(_scene: Scene, a: THREE.Sphere, b: THREE.Sphere, trace: Trace | null): void {
  const t = trace as { query: string } | null;
  if (!t || !isObbTree(t)) return;
  const boxes = [t.frames[0]?.nodes[0]?.box, t.frames.find((f) => f.kind === 'step')?.boxB];
  for (const box of boxes) if (box) for (const p of boxCorners(box)) { grow(a, p.toArray()); grow(b, p.toArray()); }
}

/** Every shape's box in the shapes view; the figure of the sorted intervals in the right view. */
function framePairs(_scene: Scene, a: THREE.Sphere, b: THREE.Sphere, trace: Trace | null): void {
  const t = trace as { query: string } | null;
  if (!t || !isPairs(t)) return;
  const boxes = pairsBoxes(t).filter((x) => !x.unbounded && x.min && x.max);
  for (const x of boxes) { grow(a, x.min!); grow(a, x.max!); }
  b.copy(pairsFigureBounds(boxes.length));
}

/** Where the moving shapes end (shapes view), and the relative motion tB − tA from O (right view). */
function frameMotion(scene: Scene, a: THREE.Sphere, b: THREE.Sphere): void {
  const motion = scene.motion;
  if (!motion) return;
  const tA = motion.translationA ?? [0, 0, 0];
  const tB = motion.translationB ?? [0, 0, 0];
  scene.shapes.forEach((s, i) => {
    const p = s.position ?? [0, 0, 0];
    const t = i === 0 ? tA : tB;
    grow(a, p.map((x, k) => x + t[k]));
  });
  grow(b, tB.map((x, k) => x - tA[k]));
}
