// collidoscope — the types of the scene format, its results and the traces of its queries (re-exported by
// index.ts). Trace frames carry numbers, vectors and the names of the reasons a step ended; the words of a
// caption and the pseudocode are added by captions.ts. The names of statuses, reasons and kinds are the C++
// side's, generated into generated-schema.ts.
import type * as names from './generated-schema';
export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];
export type ShapeType =
  | 'point' | 'sphere' | 'box' | 'capsule' | 'cylinder' | 'cone' | 'ellipsoid' | 'segment' | 'triangle'
  | 'polytope';

/** A shape of the scene format (see the README for each type's fields). */
export interface Shape {
  type: ShapeType;
  radius?: number;
  halfHeight?: number;
  halfExtents?: Vec3;
  radii?: Vec3;
  points?: Vec3[];
  margin?: number;
  position?: Vec3;
  rotation?: Quat;
}

/** The scene format's queries. */
export type Query =
  | 'intersect' | 'distance' | 'penetration' | 'chungwang' | 'sat' | 'raycast' | 'shapecast' | 'hull' | 'obb';

export interface Scene {
  version: 1;
  shapes: Shape[];
  query: Query;
  /** The ray (query "raycast" only): origin + t·direction for 0 ≤ t ≤ maxT (default 1). */
  ray?: { origin: Vec3; direction: Vec3; maxT?: number };
  /** Linear motion over the step (query "shapecast" only), t ∈ [0, 1]. */
  motion?: { translationA?: Vec3; translationB?: Vec3 };
  /** Trace frame to show (the page and permalinks). */
  step?: number;
}

export type Status = names.GjkStatus;

export interface IntersectResult {
  intersecting: boolean;
  iterations: number;
  status: Status;
}

export interface DistanceResult {
  /** Distance between the shapes; 0 when they overlap. */
  distance: number;
  pointA: Vec3;
  pointB: Vec3;
  iterations: number;
  status: Status;
}

export interface PenetrationResult {
  /** True also when the shapes only touch (depth 0). */
  intersecting: boolean;
  /** Minimum translation distance; 0 when apart or touching. */
  depth: number;
  /** Unit vector: move B by depth·normal to separate it from A. Always finite. */
  normal: Vec3;
  /** On A; pointA − pointB = depth·normal (the closest points when apart). */
  pointA: Vec3;
  pointB: Vec3;
  /** EPA iterations (0 when GJK alone decided). */
  iterations: number;
  status: names.EpaStatus;
}

/** The convex hull of shape A's points (query "hull"). */
export interface HullResult {
  /** Dimension of the hull: a flat input gives a polygon, a collinear one a segment. */
  kind: names.HullKind;
  /** The extreme points only. */
  vertices: Vec3[];
  /** Outward counter-clockwise triangles (a polygon: fanned, CCW around `normal`). */
  faces: [number, number, number][];
  /** Coplanar triangles merged into convex polygons. */
  polygons: number[][];
  /** Per vertex: the vertices sharing a hull edge with it. */
  adjacency: number[][];
  /** Polygon hulls: the plane's unit normal; otherwise [0, 0, 0]. */
  normal: Vec3;
  /** Points within this distance of a face plane count as on it. */
  tolerance: number;
}

export interface BoxFit {
  center: Vec3;
  /** Orthonormal, right-handed. */
  axes: [Vec3, Vec3, Vec3];
  halfExtents: Vec3;
  volume: number;
}

/** Bounding volumes of shape A's points (query "obb"). The box itself is the best refined fit. */
export interface ObbResult extends BoxFit {
  /** Which fit the box came from after refinement ('aabb' when nothing beat the axis-aligned box). */
  method: 'points' | 'triangles' | 'aabb';
  aabb: { min: Vec3; max: Vec3; volume: number };
  sphere: { center: Vec3; radius: number; volume: number };
  /** The two PCA fits before refinement: of the points, and of the area-weighted hull triangles. */
  fits: { points: BoxFit; triangles: BoxFit };
}

/**
 * Separating-axis test (query "sat") on shapes with vertices (boxes, polytopes, triangles, segments,
 * points; spheres and capsules as rounded points and segments).
 */
export interface SatResult {
  intersecting: boolean;
  /** Unit, from A toward B: the axis of least overlap, or the separating axis. */
  axis: Vec3;
  /** Overlap along axis when intersecting (moving B by depth·axis separates them); 0 when apart. */
  depth: number;
  /** Separation along axis when apart (a lower bound of the distance); 0 when intersecting. */
  gap: number;
  /** Where the deciding axis came from. */
  axisKind: names.SatAxisKind;
  axesTested: number;
  /**
   * 'ok': exact for these shapes. 'rounded-bound': rounded shapes whose cores are apart, where the
   * finite axis set only bounds the answer (depth an upper bound; intersecting may be a false positive).
   */
  status: 'ok' | 'rounded-bound';
}

/** Status of a ray or shape cast: any status but 'converged' still reports a hit at a certified lower bound of t. */
export type CastStatus = 'converged' | 'max-iterations' | 'degenerate';

/** Ray against shape A (query "raycast"). On a miss t, point and normal are null. */
export interface RaycastResult {
  hit: boolean;
  /** In units of direction. 0 when the ray starts inside A. */
  t: number | null;
  point: Vec3 | null;
  /** A's outward unit normal at the hit; null on a miss or when the ray starts inside. */
  normal: Vec3 | null;
  startedInside: boolean;
  iterations: number;
  status: CastStatus;
}

/** A and B translating over the step (query "shapecast"): time of impact and contact. */
export interface ShapecastResult {
  hit: boolean;
  /** Time of impact in [0, 1]; null on a miss. */
  t: number | null;
  /** Unit, from A to B at contact (move B along it to separate); null on a miss or when overlapping at t = 0. */
  normal: Vec3 | null;
  pointA: Vec3 | null;
  pointB: Vec3 | null;
  initiallyOverlapping: boolean;
  iterations: number;
  status: CastStatus;
}

/** Chung–Wang's separating-vector test (query "chungwang"). */
export interface ChungWangResult {
  intersecting: boolean;
  /** Unit, from A to B: a separating axis when apart; null otherwise. */
  separatingAxis: Vec3 | null;
  iterations: number;
  /** 'max-iterations' (near touching: no decision within the cap) is reported as intersecting. */
  status: names.ChungWangStatus;
}

export type Result =
  | IntersectResult | DistanceResult | PenetrationResult | ChungWangResult | SatResult | RaycastResult
  | ShapecastResult | HullResult | ObbResult;

export interface SimplexVertex {
  /** w = a − b, a point of the Minkowski difference A − B. */
  w: Vec3;
  a: Vec3;
  b: Vec3;
  /** Barycentric weight of this vertex in v. */
  lambda: number;
}

export interface GjkFrame {
  kind: 'init' | 'support' | 'simplex' | 'done';
  /** Why the step did what it did, e.g. 'progress', 'separated', 'gap-within-tolerance'. */
  reason: names.GjkReason;
  /** 1-based line of Trace.pseudocode that produced this frame. */
  line: number;
  iteration: number;
  /** The simplex W after this step. */
  simplex: SimplexVertex[];
  /** Current v: the point of conv(W) nearest the origin (a direction at intersect's first frame). */
  v: Vec3;
  /** Search direction of this step's support point (−v). */
  direction: Vec3;
  support: { w: Vec3; a: Vec3; b: Vec3 } | null;
  /** ‖v‖² */
  vv: number;
  /** v·w for the new support point (support frames, and frames with a gap). */
  vw: number | null;
  /** ‖v‖² − v·w, the termination quantity (support frames only). */
  gap: number | null;
  /** What the gap is compared with. */
  tolerance: number;
  /** Current closest points on the cores of A and B. */
  closestA: Vec3;
  closestB: Vec3;
  caption: string;
}

/** A point of the EPA polytope: w = a − b, a point of core(A) − core(B). */
export interface EpaVertex {
  w: Vec3;
  a: Vec3;
  b: Vec3;
}

export interface EpaFace {
  /** Stable name of the face across frames. */
  id: number;
  /** Indices into the frame's vertices, counter-clockwise seen from outside. */
  v: [number, number, number];
  /** Unit outward normal. */
  normal: Vec3;
  /** Distance of the face's plane from the origin. */
  distance: number;
}

export interface EpaFrame {
  kind: 'seed' | 'closest' | 'support' | 'expand' | 'done';
  reason: names.EpaReason;
  /** 1-based line of Trace.pseudocode. */
  line: number;
  iteration: number;
  /** All polytope vertices so far (indices stable across frames). */
  vertices: EpaVertex[];
  /** The polytope's faces after this step. */
  faces: EpaFace[];
  /** Id of the face nearest the origin. */
  closest: number | null;
  /** The new support point (support and expand frames). */
  support: EpaVertex | null;
  /** Expand frames: the faces the support point saw, now removed. */
  removed: EpaFace[];
  /** Expand frames: horizon edges as vertex index pairs. */
  horizon: [number, number][];
  /** Expand frames: ids of the new faces. */
  added: number[];
  /** Current depth estimate (nearest face distance) and its normal, in core space. */
  depth: number;
  normal: Vec3;
  /** Support frames: n·w − d, compared with tolerance. */
  gap: number | null;
  tolerance: number;
  caption: string;
}

interface TraceBase {
  pseudocode: string[];
}

interface PairTraceBase extends TraceBase {
  /** The algorithms run on the cores; these radii (sphere/capsule radius + margin) are added afterwards. */
  marginA: number;
  marginB: number;
}

export interface HullFrame {
  kind: 'extremes' | 'tetrahedron' | 'eye' | 'visible' | 'horizon' | 'cone' | 'done' | 'degenerate';
  line: number;
  iteration: number;
  caption: string;
  /** The input points (frame 0 only; later frames: []). */
  points: Vec3[];
  /** The current hull; v and conflicts index the input points. */
  faces: { id: number; v: [number, number, number]; conflicts: number[] }[];
  /** Input index of the eye point. */
  eye: number | null;
  /** Eye frames: the eye's distance above its face (0 on other frames). */
  eyeDistance: number;
  /** Face ids the eye sees. */
  visible: number[];
  /** Horizon edges as input-index pairs. */
  horizon: [number, number][];
  /** Ids of the new faces. */
  added: number[];
  /** Input indices of the extreme points (extremes and degenerate frames). */
  extremes: number[];
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

/** One candidate axis of the separating-axis test (query "sat"). */
export interface SatFrame {
  kind: 'prepare' | 'axis' | 'skip' | 'done';
  line: number;
  /** 0-based number of the axis among those tested (prepare, skip and done: −1). */
  index: number;
  axisKind: SatResult['axisKind'];
  /** Unit, oriented from A toward B. */
  axis: Vec3;
  /** Face axes: the world corners of the face shown (the one facing the other shape); flat sides: the polygon. */
  face: Vec3[];
  /** Edge axes: the two edges (world endpoints), each the member of its parallel class nearest the other shape. */
  edgeA: [Vec3, Vec3] | null;
  edgeB: [Vec3, Vec3] | null;
  /** Projections of the full shapes (cores ± radius) on axis. */
  minA: number;
  maxA: number;
  minB: number;
  maxB: number;
  /** maxA − minB: > 0 overlap, < 0 gap (0 within rounding). */
  overlap: number;
  tolerance: number;
  separates: boolean;
  /** Best-so-far axis (index, overlap, direction) after this frame. */
  best: number;
  bestOverlap: number;
  bestAxis: Vec3;
  caption: string;
}

export interface SatTrace extends PairTraceBase {
  query: 'sat';
  frames: SatFrame[];
  result: SatResult;
}

/** One step of the GJK ray cast (queries "raycast" and "shapecast"; van den Bergen 2004). */
export interface CastFrame {
  kind: 'init' | 'support' | 'simplex' | 'done';
  reason: names.CastReason;
  line: number;
  iteration: number;
  /** λ (the hit parameter so far, a lower bound) and x = origin + λ·direction after this step. */
  lambda: number;
  x: Vec3;
  /** Support frames: whether λ moved, from oldLambda to newLambda. */
  updated: boolean;
  oldLambda: number;
  newLambda: number;
  /**
   * The simplex: support points p = a − b of C (ray cast: b = 0; shape cast: points on A and B and C = A − B),
   * w = x − p, and the weights of v.
   */
  simplex: SimplexVertex[];
  /** v: x minus the point of conv(P) nearest x. */
  v: Vec3;
  support: { w: Vec3; a: Vec3; b: Vec3 } | null;
  /** p = S_C(v) (support frames). */
  supportPoint: Vec3 | null;
  /** The supporting plane of the rounded shape: normal v̂ through planePoint (support frames). */
  planeNormal: Vec3 | null;
  planePoint: Vec3 | null;
  vw: number;
  /** ρ‖v‖: x is in front of the plane when v·w exceeds it. */
  threshold: number;
  vr: number;
  vv: number;
  /** ρ: the radius (margins) added to the core. */
  radius: number;
  tolerance: number;
  /** The hit normal so far (the last plane's normal, not unit); done: the result's unit normal. */
  normal: Vec3;
  /** Done frames: whether the cast hit, and its status (false and 'converged' on other frames). */
  hit: boolean;
  status: names.CastStatus;
  caption: string;
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

/** One step of Chung–Wang's separating-vector algorithm (query "chungwang"). */
export interface ChungWangFrame {
  kind: 'init' | 'support' | 'switch' | 'hemisphere' | 'reflect' | 'done';
  reason: names.ChungWangReason;
  line: number;
  iteration: number;
  /** The candidate separating axis of this step (unit). */
  s: Vec3;
  /** Support points on the cores and on the rounded shapes: p = S_A(s), q = S_B(−s) (support frames on). */
  pCore: Vec3 | null;
  qCore: Vec3 | null;
  p: Vec3 | null;
  q: Vec3 | null;
  /** s·(q − p): s separates when it exceeds tolerance. */
  gap: number | null;
  tolerance: number;
  /** (q − p)/‖q − p‖. */
  r: Vec3 | null;
  /** Every r so far: points on the Gauss sphere. */
  directions: Vec3[];
  /** A closed hemisphere still holds every r. */
  hemisphere: boolean;
  /** The hemisphere's centre direction (w·r ≥ 0 for every r). */
  w: Vec3 | null;
  /** Hemisphere frames: the plane ⊥ r (rows x, y, z = r of the rotation), the 2D projections, the wedge. */
  plane: {
    outcome: names.HemisphereCase;
    x: Vec3;
    y: Vec3;
    z: Vec3;
    /** Projection of each direction on the plane (z = 0). */
    projected: Vec3[];
    /** The final wedge: clockwise sweep from ra to rb (indices into directions). */
    wedge: { ra: Vec3; rb: Vec3; ia: number; ib: number } | null;
    steps: { index: number; case: names.HemisphereCase; projected: Vec3; ra: Vec3; rb: Vec3; ia: number; ib: number }[];
  } | null;
  /** Reflect: s − 2(r·s)r; switch: w. */
  nextS: Vec3 | null;
  caption: string;
}

export interface ChungWangTrace extends PairTraceBase {
  query: 'chungwang';
  frames: ChungWangFrame[];
  result: ChungWangResult;
}

export type Trace = GjkTrace | EpaTrace | HullTrace | SatTrace | RaycastTrace | ShapecastTrace | ChungWangTrace;

/** Points for hull() and boundingVolumes(): flat x0, y0, z0, x1, … (e.g. a three.js position attribute's array), or [x, y, z] triples. */
export type PointArray = Float64Array | Float32Array | ArrayLike<number> | readonly Vec3[];
