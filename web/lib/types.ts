// collidoscope — the types of the scene format, its results and the traces of its queries (re-exported by
// index.ts). Every result and trace frame is declared once, in C++ (wasm/include/collidoscope/schema.h), and
// its interface generated into generated-schema.ts with the names of the statuses, reasons and kinds; this file
// re-exports them, narrows what the scene API cannot return, and adds what the TypeScript side adds: a frame's
// caption and a trace's pseudocode (captions.ts), and isClosedForm(), which tells a closed form's trace apart.
import type * as schema from './generated-schema';
import type {
  AabbFit, BoundsMethod, BoxFit, ChungWangPlane, ChungWangResult, ChungWangWedge, ChungWangWedgeStep, ClosedFormName,
  ContactPoint, ContactsResult, ContainsResult, DistanceResult, EpaFace, HullResult, HullTraceFace, IntersectResult,
  MeshDistanceResult, MeshIntersectResult, MeshMeshIntersectResult, MeshProjectResult, MeshRayFrame, MeshShapecastResult, ObbFits, ObbResult,
  PenetrationResult, PointFeature, FeatureKind, ProjectResult, SimplexVertex, SphereFit, SupportVertex, Vec3,
} from './generated-schema';

export type {
  AabbFit, BoundsMethod, BoxFit, ChungWangPlane, ChungWangResult, ChungWangWedge, ChungWangWedgeStep, ClosedFormName,
  ContactPoint, ContactsResult, ContainsResult, DistanceResult, EpaFace, HullResult, HullTraceFace, IntersectResult,
  MeshDistanceResult, MeshIntersectResult, MeshMeshIntersectResult, MeshProjectResult, MeshRayFrame, MeshShapecastResult, ObbFits, ObbResult,
  PenetrationResult, PointFeature, FeatureKind, ProjectResult, SimplexVertex, SphereFit, SupportVertex, Vec3,
};

export type Quat = [number, number, number, number];
export type ShapeType =
  | 'point' | 'sphere' | 'box' | 'capsule' | 'cylinder' | 'cone' | 'ellipsoid' | 'segment' | 'triangle'
  | 'polytope' | 'plane' | 'mesh' | 'heightfield' | 'compound';

/** A shape of the scene format (see the README for each type's fields). */
export interface Shape {
  type: ShapeType;
  radius?: number;
  halfHeight?: number;
  halfExtents?: Vec3;
  radii?: Vec3;
  points?: Vec3[];
  /** plane: the half-space normal·x ≤ offset (normal need not be unit). */
  normal?: Vec3;
  offset?: number;
  /** mesh: vertex positions and triangles as vertex-index triples (counter-clockwise seen from outside). */
  vertices?: Vec3[];
  triangles?: [number, number, number][];
  /**
   * heightfield: heights[i][j] is the height (y) at x = i·cellSize[0], z = j·cellSize[1]; every row the same
   * length, at least 2×2. Each cell is two triangles split along (i, j)–(i+1, j+1), normals up.
   */
  heights?: number[][];
  cellSize?: [number, number];
  /** compound: convex children, each with its own position and rotation relative to the compound. */
  children?: Shape[];
  margin?: number;
  /** Non-uniform scale in the shape's frame, before rotation (negative mirrors, 0 is an error). Default [1, 1, 1]. */
  scale?: Vec3;
  position?: Vec3;
  rotation?: Quat;
}

/** The scene format's queries. */
export type Query =
  | 'intersect' | 'distance' | 'penetration' | 'chungwang' | 'sat' | 'raycast' | 'shapecast' | 'hull' | 'obb'
  | 'contains' | 'project' | 'contact' | 'contacts' | 'obbtree' | 'pairs' | 'simulate';

/** A moving body of a "simulate" scene. */
export interface SceneBody {
  /** Index of its shape in "shapes" (one body per shape). */
  shape: number;
  /** Of the centre of mass, m/s, world frame (default [0, 0, 0]). */
  velocity?: Vec3;
  /** rad/s, world frame (default [0, 0, 0]). */
  angularVelocity?: Vec3;
  /** kg; 0 makes it static; default: the shape's volume (density 1). Planes, meshes and compounds are static only. */
  mass?: number;
}

export interface Scene {
  version: 1;
  shapes: Shape[];
  query: Query;
  /** The ray (query "raycast" only): origin + t·direction for 0 ≤ t ≤ maxT (default 1). */
  ray?: { origin: Vec3; direction: Vec3; maxT?: number };
  /** Linear motion over the step (query "shapecast" only), t ∈ [0, 1]. */
  motion?: { translationA?: Vec3; translationB?: Vec3 };
  /** The query point (queries "contains" and "project" only), against shape A. */
  point?: Vec3;
  /** Queries "contact" and "contacts" only: report contacts up to this gap (≥ 0, default 0: overlaps and touches). */
  margin?: number;
  /**
   * false: a pair with a closed form (intersect, distance, penetration of points, spheres, segments, capsules, and
   * points and boxes against boxes) is answered by GJK/EPA instead, and its trace shows their steps (default true).
   */
  closedForms?: boolean;
  /** Trace frame to show (the page and permalinks). */
  step?: number;
  /** Query "simulate" only: the shapes that move (the others are static). */
  bodies?: SceneBody[];
  /** Query "simulate" only: m/s² (default [0, -9.81, 0]). */
  gravity?: Vec3;
  /** Query "simulate" only: seconds per step (default 1/60). */
  dt?: number;
  /** Query "simulate" only: how many steps (default 1, at most 100 000; steps × shapes at most 1e7). */
  steps?: number;
  /** Query "simulate" only: islands of bodies at rest go to sleep (default true; `World.step()`'s `sleep`). */
  sleep?: boolean;
}

/** A vector of a 2D scene. */
export type Vec2 = [number, number];
export type ShapeType2D = 'point' | 'circle' | 'box' | 'capsule' | 'segment' | 'polygon';

/** A shape of a 2D scene: in the plane, turned by `angle` (radians, counter-clockwise; a circle has none). */
export interface Shape2D {
  type: ShapeType2D;
  radius?: number;
  halfHeight?: number;
  halfExtents?: Vec2;
  points?: Vec2[];
  margin?: number;
  position?: Vec2;
  angle?: number;
}

/** The queries a 2D scene runs. */
export type Query2D = 'intersect' | 'distance' | 'penetration' | 'raycast' | 'shapecast';

/**
 * A scene in the plane ("dimension": 2): it answers what the same scene in the plane z = 0 answers in 3D,
 * with [x, y] vectors (penetration runs a planar EPA).
 */
export interface Scene2D {
  version: 1;
  dimension: 2;
  shapes: Shape2D[];
  query: Query2D;
  ray?: { origin: Vec2; direction: Vec2; maxT?: number };
  motion?: { translationA?: Vec2; translationB?: Vec2 };
  closedForms?: boolean;
  step?: number;
}

/** A result or trace of a 2D scene: T with every [x, y, z] vector written as [x, y]. */
export type Planar<T> = T extends Vec3
  ? Vec2
  : T extends readonly (infer U)[]
    ? Planar<U>[]
    : T extends object
      ? { [K in keyof T]: Planar<T[K]> }
      : T;

export type Status = schema.GjkStatus;

/**
 * Separating-axis test (query "sat") on shapes with vertices (boxes, polytopes, triangles, segments,
 * points; spheres and capsules as rounded points and segments).
 */
export interface SatResult extends Omit<schema.SatResult, 'status'> {
  /**
   * 'ok': exact for these shapes. 'rounded-bound': rounded shapes whose cores are apart, where the
   * finite axis set only bounds the answer (depth an upper bound; intersecting may be a false positive).
   * (The scene API reports the other statuses as errors.)
   */
  status: 'ok' | 'rounded-bound';
}

/**
 * Status of a ray or shape cast: any status but 'converged' still reports a hit at a certified lower bound of t.
 */
export type CastStatus = Exclude<schema.CastStatus, 'invalid-input'>;

/** Ray against shape A (query "raycast"). On a miss t, point and normal are null. */
export interface RaycastResult extends Omit<schema.RaycastResult, 'status'> {
  status: CastStatus;
  /** A mesh only (schema.MeshRaycastResult): the hit triangle's index, null on a miss. */
  triangle?: number | null;
  /** A mesh only: [u, v, w] with point = u·v_i + v·v_j + w·v_k for the hit triangle [i, j, k], null on a miss. */
  barycentric?: Vec3 | null;
}

/** A and B translating over the step (query "shapecast"): time of impact and contact. */
export interface ShapecastResult extends Omit<schema.ShapecastResult, 'status'> {
  status: CastStatus;
  /** A mesh against a convex shape only (schema.MeshShapecastResult): the triangle hit first, null on a miss. */
  triangle?: number | null;
}

/**
 * intersect() and distance() of a mesh against a convex shape add the triangle that answers (the touching one,
 * null when apart; the nearest), as run() names it (schema.MeshIntersectResult, schema.MeshDistanceResult).
 */
export interface MeshTriangle {
  triangle?: number | null;
}

export type Result =
  | IntersectResult | DistanceResult | PenetrationResult | ChungWangResult | SatResult | RaycastResult
  | ShapecastResult | HullResult | ObbResult | ContainsResult | ProjectResult | ContactsResult | ContactQueryResult
  | schema.ObbTreeResult | schema.PairsResult | schema.SimulateResult;

/**
 * Query "contact": contact()'s answer for the scene's pair and margin; a compound adds the child pair that
 * answers ("child", or "childA" and "childB" when both are compounds; null without a contact).
 */
export interface ContactQueryResult extends schema.ContactQueryResult {
  child?: number | null;
  childA?: number | null;
  childB?: number | null;
}

export type { ObbTreeResult, ObbTreeNodeBox, PairsResult, SimulateResult, SimulatedBody, SimulateContact } from './generated-schema';

/** A point of the EPA polytope: w = a − b, a point of core(A) − core(B). */
export type EpaVertex = schema.SupportVertex;

/** A frame's caption: what the step did, in words (captions.ts). */
interface Captioned {
  caption: string;
}

/** One step of GJK (queries "intersect" and "distance"), with its caption. */
export interface GjkFrame extends schema.GjkFrame, Captioned {}
/** One step of EPA (query "penetration"), with its caption. */
export interface EpaFrame extends schema.EpaFrame, Captioned {}
/** One step of the planar EPA (query "penetration" of a 2D scene), with its caption. */
export interface PlanarEpaFrame extends schema.PlanarEpaFrame, Captioned {}
/** One step of quickhull (query "hull"), with its caption. */
export interface HullFrame extends schema.HullFrame, Captioned {}
/** One candidate axis of the separating-axis test (query "sat"), with its caption. */
export interface SatFrame extends schema.SatFrame, Captioned {}
/** One step of the GJK ray cast (queries "raycast" and "shapecast"), with its caption. */
export interface CastFrame extends schema.CastFrame, Captioned {}
/** One step of Chung–Wang's separating-vector algorithm (query "chungwang"), with its caption. */
export interface ChungWangFrame extends schema.ChungWangFrame, Captioned {}
/** The one frame of a pair answered by a closed form: the cores' closest points, with its caption. */
export interface ClosedFormFrame extends schema.ClosedFormFrame, Captioned {}

interface TraceBase {
  pseudocode: string[];
}

interface PairTraceBase extends TraceBase {
  /** The algorithms run on the cores; these radii (sphere/capsule radius + margin) are added afterwards. */
  marginA: number;
  marginB: number;
}

export interface HullTrace extends TraceBase {
  query: 'hull';
  frames: HullFrame[];
  result: HullResult;
}

export interface GjkTrace extends PairTraceBase {
  query: 'intersect' | 'distance';
  frames: GjkFrame[];
  result: IntersectResult | DistanceResult;
}

export interface EpaTrace extends PairTraceBase {
  query: 'penetration';
  frames: EpaFrame[];
  result: PenetrationResult;
}

/** A 2D scene's penetration trace (its vectors are [x, y]: trace() returns it as Planar<PlanarEpaTrace>). */
export interface PlanarEpaTrace extends PairTraceBase {
  query: 'penetration';
  dimension: 2;
  frames: PlanarEpaFrame[];
  result: PenetrationResult;
}

export interface SatTrace extends PairTraceBase {
  query: 'sat';
  frames: SatFrame[];
  result: SatResult;
}

export interface RaycastTrace extends TraceBase {
  query: 'raycast';
  frames: CastFrame[];
  result: RaycastResult;
  marginA: number;
}

export interface ShapecastTrace extends PairTraceBase {
  query: 'shapecast';
  frames: CastFrame[];
  result: ShapecastResult;
}

export interface ChungWangTrace extends PairTraceBase {
  query: 'chungwang';
  frames: ChungWangFrame[];
  result: ChungWangResult;
}

/**
 * A pair of points, spheres, segments and capsules (in 2D: points, circles, segments, capsules) asked intersect,
 * distance or penetration: the library answers it by a closed form, and its trace is one frame naming the form
 * (`closedForm`, the key that tells it from GJK's and EPA's traces). A 2D penetration whose two segment cores
 * cross runs the planar EPA instead.
 */
interface ClosedFormQueryTrace<Q extends 'intersect' | 'distance' | 'penetration', R> extends PairTraceBase {
  query: Q;
  closedForm: ClosedFormName;
  /** One frame. */
  frames: ClosedFormFrame[];
  result: R;
}

export type ClosedFormTrace =
  | ClosedFormQueryTrace<'intersect', IntersectResult>
  | ClosedFormQueryTrace<'distance', DistanceResult>
  | ClosedFormQueryTrace<'penetration', PenetrationResult>;

export type Trace =
  | GjkTrace | EpaTrace | HullTrace | SatTrace | RaycastTrace | ShapecastTrace | ChungWangTrace | ClosedFormTrace;

/**
 * The trace of a ray cast on a mesh (`trace()` of "raycast" with a mesh for shape A): one frame with the answer,
 * the hit triangle's corners and the tests the OBB tree ran. Not one of Trace's members (its frame is not a
 * GJK ray cast's); isMeshRaycast() tells it apart.
 */
export interface MeshRaycastTrace extends TraceBase {
  query: 'raycast';
  mesh: true;
  frames: (MeshRayFrame & { caption: string })[];
  result: RaycastResult;
  marginA: number;
}

/** One frame of an "obbtree" trace, with the pseudocode line it highlights and its caption. */
export interface ObbTreeFrame extends schema.ObbTreeFrame {
  line: number;
  caption: string;
}

/**
 * The trace of query "obbtree": the levels of mesh A's OBB tree as it was built, then (with a shape B) each node
 * pair of the descent, the leaf triangle tests and the answer. Not one of Trace's members (its frames are not an
 * algorithm on two convex shapes); isObbTree() tells it apart.
 */
export interface ObbTreeTrace extends TraceBase {
  query: 'obbtree';
  frames: ObbTreeFrame[];
  result: schema.ObbTreeResult;
  marginA: number;
}

/** One step of a "simulate" trace, with a caption. */
export interface SimulateFrame extends schema.SimulateFrame {
  caption: string;
}

/**
 * The trace of query "simulate": the start and every step (every `every`-th of a long run, and the last) with
 * every shape's pose and the step's contact points. Not one of Trace's members; isSimulate() tells it apart.
 */
export interface SimulateTrace {
  query: 'simulate';
  frames: SimulateFrame[];
  every: number;
  result: schema.SimulateResult;
}

/** Whether a trace is the "simulate" query's. */
export function isSimulate(t: { query: string }): t is SimulateTrace {
  return t.query === 'simulate';
}

/** One frame of a "pairs" trace, with the pseudocode line it highlights and its caption. */
export interface PairsFrame extends schema.PairsFrame {
  line: number;
  caption: string;
}

/**
 * The trace of query "pairs": a world's broad phase (sweep and prune) and narrow phase over the scene's shapes —
 * every shape's box, the three sorted endpoint lists, one frame per endpoint of the swept axis (the sweep line,
 * the active list, the box pairs so far), one frame per candidate pair (intersect()'s answer). Not one of Trace's
 * members (its frames are not an algorithm on two shapes); isPairs() tells it apart.
 */
export interface PairsTrace extends TraceBase {
  query: 'pairs';
  frames: PairsFrame[];
  /** run()'s answer, bit for bit. */
  result: schema.PairsResult;
  /** The swept axis (0 x, 1 y, 2 z); −1 with fewer than two boxes (no sweep). */
  sweepAxis: number;
  /** Pairs of overlapping boxes the sweep found (the candidates without the planes' pairs). */
  boxPairs: number;
  /** The frames stop early (at most 2000 frames, or too many list entries); `result` is still the whole answer. */
  truncated: boolean;
}

/** Whether a trace is the "pairs" query's. */
export function isPairs(t: { query: string }): t is PairsTrace {
  return t.query === 'pairs';
}

/** Whether a trace is the "obbtree" query's. */
export function isObbTree(t: { query: string }): t is ObbTreeTrace {
  return t.query === 'obbtree';
}

/** Whether a trace is a mesh ray cast's (one frame). */
export function isMeshRaycast(t: { query: string }): t is MeshRaycastTrace {
  return (t as { mesh?: unknown }).mesh === true;
}

/** The closed-form trace of query Q ('intersect', 'distance', 'penetration', or a union of them). */
export type ClosedFormTraceOf<Q extends ClosedFormTrace['query']> = Extract<ClosedFormTrace, { query: Q }>;

/** Whether a trace is a closed form's (one frame) rather than an algorithm's steps. */
export function isClosedForm<T extends { query: string }>(t: T): t is Extract<T, { closedForm: unknown }> {
  return typeof (t as { closedForm?: unknown }).closedForm === 'string';
}

/** Points for hull() and boundingVolumes(): flat x0, y0, z0, x1, … (e.g. a three.js position attribute's array), or [x, y, z] triples. */
export type PointArray = Float64Array | Float32Array | ArrayLike<number> | readonly Vec3[];
