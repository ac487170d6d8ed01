// collidoscope — the JavaScript API: load the WebAssembly module, run
// scene-format queries, get traces, make and read permalinks.
//
//   import { init, run, trace } from 'collidoscope';
//   await init();
//   const r = run({ version: 1, query: 'distance', shapes: [
//     { type: 'sphere', radius: 1 },
//     { type: 'box', halfExtents: [1, 1, 1], position: [3, 0, 0] } ] });
//   // r.distance === 1, r.pointA = [1, 0, 0], r.pointB = [2, 0, 0]
//
// All validation happens once, in C++ (wasm/src/scene.cpp), so the API, the
// CLI, the page and permalinks report the same errors for the same input.
import { CollidoscopeError, toSceneJson } from './errors';
import { mod, unwrap } from './module';
import { jsonRoom } from './heap';
import { ConvexShape, flatPoints, sceneOf, type PoseLike } from './objects';

export { CollidoscopeError } from './errors';
export { init, type InitOptions } from './module';
export * from './objects';
export { World, type Body, type BodyMotion, type StepOptions, type StepStats, type WorldCastHit, type WorldContact, type WorldOptions, type WorldRayHit } from './world';
export { encodeLink, decodeLinkPayload } from './link';
import { decodeLinkPayload } from './link';
import { withText, type RawTrace } from './captions';
export { resultSentence } from './captions';
import type {
  ChungWangTrace, ClosedFormTrace, ClosedFormTraceOf, ContactQueryResult, ContainsResult, DistanceResult, EpaTrace, GjkTrace, HullResult, HullTrace, IntersectResult, ObbResult,
  PenetrationResult, Planar, PlanarEpaTrace, PointArray, ProjectResult, RaycastResult, RaycastTrace, Result, SatTrace, Scene, Scene2D, Shape,
  ShapecastResult, ShapecastTrace, SimulateTrace, Trace, Vec3, ObbTreeTrace, PairsTrace,
} from './types';
import type { ObbTreeResult, PairsResult, SimulateResult } from './generated-schema';

export * from './types';

/** Runs the scene's query and returns the result object of the scene format. */
export function run(scene: Scene2D & { query: 'intersect' }): Planar<IntersectResult>;
export function run(scene: Scene2D & { query: 'distance' }): Planar<DistanceResult>;
export function run(scene: Scene2D & { query: 'penetration' }): Planar<PenetrationResult>;
export function run(scene: Scene2D & { query: 'raycast' }): Planar<RaycastResult>;
export function run(scene: Scene2D & { query: 'shapecast' }): Planar<ShapecastResult>;
export function run(scene: Scene2D): Planar<IntersectResult | DistanceResult | PenetrationResult | RaycastResult | ShapecastResult>;
export function run(scene: Scene & { query: 'contains' }): ContainsResult;
export function run(scene: Scene & { query: 'project' }): ProjectResult;
export function run(scene: Scene & { query: 'contact' }): ContactQueryResult;
export function run(scene: Scene & { query: 'obbtree' }): ObbTreeResult;
/** Query "pairs": every pair of the scene's shapes (any number of them) that intersect, as a World finds them. */
export function run(scene: Scene & { query: 'pairs' }): PairsResult;
/** Query "simulate": the scene's "bodies" after "steps" steps of a World (see the README's scene format). */
export function run(scene: Scene & { query: 'simulate' }): SimulateResult;
export function run(scene: Scene | string): Result;
/** A scene of either kind (what decodeLink gives): a 2D scene's result has [x, y] vectors. */
export function run(scene: Scene | Scene2D | string): Result | Planar<Result>;
export function run(scene: Scene | Scene2D | string): Result | Planar<Result> {
  return unwrap<Result>(mod().runScene(jsonRoom(toSceneJson(scene), 'scene'), false));
}

/**
 * Runs the scene's query with a recording trace: every step of GJK (or EPA for penetration) as a frame. A pair of
 * points, spheres, segments and capsules is answered by a closed form: its trace is one frame naming the form
 * (a ClosedFormTrace, told apart by its `closedForm` key: isClosedForm()).
 */
export function trace(scene: Scene & { query: 'penetration' }): EpaTrace | ClosedFormTraceOf<'penetration'>;
export function trace(scene: Scene & { query: 'hull' }): HullTrace;
export function trace(scene: Scene & { query: 'sat' }): SatTrace;
export function trace(scene: Scene & { query: 'raycast' }): RaycastTrace;
export function trace(scene: Scene & { query: 'shapecast' }): ShapecastTrace;
export function trace(scene: Scene & { query: 'chungwang' }): ChungWangTrace;
export function trace(scene: Scene & { query: 'obbtree' }): ObbTreeTrace;
export function trace(scene: Scene & { query: 'simulate' }): SimulateTrace;
/** Query "pairs": the broad phase's boxes, sorted lists and sweep, then intersect() on each candidate pair. */
export function trace(scene: Scene & { query: 'pairs' }): PairsTrace;
export function trace(scene: Scene & { query: 'intersect' | 'distance' }): GjkTrace | ClosedFormTraceOf<'intersect' | 'distance'>;
export function trace(scene: Scene2D & { query: 'intersect' | 'distance' }): Planar<GjkTrace | ClosedFormTraceOf<'intersect' | 'distance'>>;
export function trace(scene: Scene2D & { query: 'raycast' }): Planar<RaycastTrace>;
export function trace(scene: Scene2D & { query: 'shapecast' }): Planar<ShapecastTrace>;
export function trace(scene: Scene2D & { query: 'penetration' }): Planar<PlanarEpaTrace | ClosedFormTraceOf<'penetration'>>;
export function trace(scene: Scene2D): Planar<GjkTrace | PlanarEpaTrace | RaycastTrace | ShapecastTrace | ClosedFormTrace>;
export function trace(scene: Scene | string): Trace;
export function trace(scene: Scene | Scene2D | string): Trace | Planar<Trace> | Planar<PlanarEpaTrace>;
export function trace(scene: Scene | Scene2D | string): Trace | Planar<Trace> | Planar<PlanarEpaTrace> | ObbTreeTrace | PairsTrace | SimulateTrace {
  return withText(unwrap<RawTrace>(mod().runScene(jsonRoom(toSceneJson(scene), 'scene'), true)));
}

/** Checks a scene; returns a normalized copy (defaults filled in, rotations normalized) or throws. */
export function validateScene(scene: Scene2D): Scene2D;
export function validateScene(scene: unknown): Scene;
export function validateScene(scene: unknown): Scene | Scene2D {
  return unwrap<Scene>(mod().validateScene(jsonRoom(toSceneJson(scene), 'scene')));
}

/**
 * What validation reported without refusing the scene: each mesh's degenerate and duplicate triangles, one line
 * each, e.g. "shapes[0].triangles[4]: degenerate (zero area or too thin for a normal); ray casts skip it".
 * Empty for a scene without such triangles. Throws what run() throws for an invalid scene.
 */
export function sceneWarnings(scene: Scene | string): string[] {
  return unwrap<string[]>(mod().sceneWarnings(jsonRoom(toSceneJson(scene), 'scene')));
}

// Directions sampled on curved shapes by shapeSurface() and minkowskiSurface() (kMinSamples, kMaxSamples in scene.h).
const MIN_SAMPLES = 6;
const MAX_SAMPLES = 20000;

/** `samples` as the int the C++ side takes: a whole number, clamped to 6…20000 (the wasm int would wrap). */
function sampleCount(samples: unknown): number {
  if (typeof samples !== 'number' || !Number.isInteger(samples) || samples < 0) {
    throw new CollidoscopeError('invalid-argument', 'samples', `must be a whole number of directions (${MIN_SAMPLES} to ${MAX_SAMPLES}), got ${typeof samples === 'number' ? samples : typeof samples}`);
  }
  return Math.min(Math.max(samples, MIN_SAMPLES), MAX_SAMPLES);
}

/** World-space points whose convex hull is the shape as the library sees it (`samples` directions on curved shapes, 6…20000). */
export function shapeSurface(shape: Shape, samples = 1200): Vec3[] {
  const n = sampleCount(samples);
  return unwrap<Vec3[]>(mod().shapeSurface(jsonRoom(toSceneJson(shape, 'invalid-scene', 'shape'), 'shape'), n));
}

/** Points of A − B (full shapes) and of core(A) − core(B), whose hulls are the two differences. */
export function minkowskiSurface(a: Shape, b: Shape, samples = 1200): { points: Vec3[]; corePoints: Vec3[] } {
  const n = sampleCount(samples);
  return unwrap<{ points: Vec3[]; corePoints: Vec3[] }>(
    mod().minkowskiSurface(jsonRoom(toSceneJson(a, 'invalid-scene', 'a'), 'a'), jsonRoom(toSceneJson(b, 'invalid-scene', 'b'), 'b'), n),
  );
}

/** A shape at a pose, for hull() and boundingVolumes(). */
function worldVertices(shape: ConvexShape, pose: PoseLike | undefined): Shape {
  return sceneOf('distance', shape, pose, shape, undefined).shapes[0];
}

/**
 * Convex hull of a point cloud: the "hull" result without building a scene. Points go to wasm memory in
 * one copy (no JSON), so a 100 000-point cloud costs about the hull itself. Also takes a shape with
 * vertices (polytope, box, triangle, segment, point) and its pose: the hull of its world-space vertices.
 * With `{ trace: true }` (third argument) it returns quickhull's trace instead, as trace() does.
 *
 *   const h = hull(mesh.geometry.attributes.position.array);   // Float32Array: widened to doubles
 */
export function hull(points: PointArray | ConvexShape, pose: PoseLike | undefined, options: { trace: true }): HullTrace;
export function hull(points: PointArray | ConvexShape, pose?: PoseLike, options?: { trace?: false }): HullResult;
export function hull(points: PointArray | ConvexShape, pose?: PoseLike, options?: { trace?: boolean }): HullResult | HullTrace {
  let traced: unknown;
  try {
    if (options !== undefined && (options === null || typeof options !== 'object' || Object.keys(options).some((k) => k !== 'trace'))) {
      throw new CollidoscopeError('invalid-argument', 'options', 'the only option is { trace: true }');
    }
    traced = options?.trace;
  } catch (e) {
    if (e instanceof CollidoscopeError) throw e;
    throw new CollidoscopeError('invalid-argument', 'options', `cannot be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (traced !== undefined && typeof traced !== 'boolean') {
    throw new CollidoscopeError('invalid-argument', 'options.trace', `must be true or false, got ${typeof traced}`);
  }
  const shape = isShape(points);
  if (!shape && pose !== undefined) {
    throw new CollidoscopeError('invalid-argument', 'pose', 'a point cloud has no pose (pass the points where they are)');
  }
  if (traced === true) {
    const flat = shape ? null : flatPoints(points as PointArray);
    const spec: Shape = shape
      ? worldVertices(points as ConvexShape, pose)
      : { type: 'polytope', points: Array.from({ length: flat!.length / 3 }, (_, i) => [flat![3 * i], flat![3 * i + 1], flat![3 * i + 2]] as Vec3) };
    return trace({ version: 1, query: 'hull', shapes: [spec] });
  }
  if (shape) return run({ version: 1, query: 'hull', shapes: [worldVertices(points as ConvexShape, pose)] }) as HullResult;
  return unwrap<HullResult>(mod().hullOfPoints(flatPoints(points as PointArray)));
}

/** AABB, bounding sphere and oriented boxes of a point cloud (or of a shape's vertices at a pose): the "obb" result without a scene. */
export function boundingVolumes(points: PointArray | ConvexShape, pose?: PoseLike): ObbResult {
  if (isShape(points)) return run({ version: 1, query: 'obb', shapes: [worldVertices(points as ConvexShape, pose)] }) as ObbResult;
  return unwrap<ObbResult>(mod().boundsOfPoints(flatPoints(points as PointArray)));
}

/** Whether v is a ConvexShape (false for a revoked Proxy, whose instanceof throws: flatPoints() then names it). */
function isShape(v: unknown): boolean {
  try {
    return v instanceof ConvexShape;
  } catch {
    return false;
  }
}

/**
 * Reads a permalink (a full URL or just its hash) and returns its scene, exactly as it was encoded.
 * Throws CollidoscopeError with code 'bad-link' when the link is garbled or its scene is invalid.
 * A 2D scene's link gives its Scene2D (`dimension: 2`): tell them apart by `dimension`.
 */
export function decodeLink(urlOrHash: string): Scene | Scene2D {
  const scene = decodeLinkPayload(urlOrHash);
  try {
    validateScene(scene);
  } catch (e) {
    if (e instanceof CollidoscopeError) {
      throw new CollidoscopeError('bad-link', e.field, `the link's scene is invalid: ${e.detail}`);
    }
    throw e;
  }
  return scene as Scene | Scene2D;
}
