// Hand-written types of the Emscripten/embind module built from
// wasm/bindings/bindings.cpp (Emscripten 3.1.6 cannot emit them). Resolved
// through package.json "imports" → "#collidoscope-wasm" (condition "types").
// The embind functions take and return JSON text ({"ok", "value"|"error"});
// the _cds_* C exports take pointers into the heap and return 1 (ok) or 0
// (error: read it with lastError()).

export interface WasmModule {
  /** Runs a scene; reply {"ok":true,"value":result|trace} or {"ok":false,"error":{...}}. */
  runScene(sceneJson: string, trace: boolean): string;
  /** Validates a scene; the value is the normalized scene. */
  validateScene(sceneJson: string): string;
  /** World-space points whose hull is the shape; value: [[x,y,z],...]. */
  shapeSurface(shapeJson: string, samples: number): string;
  /** Points of A − B and of core(A) − core(B); value: {points, corePoints}. */
  minkowskiSurface(aJson: string, bJson: string, samples: number): string;
  /** Hull of x0,y0,z0,x1,… (copied by one TypedArray.set); value: the "hull" result. */
  hullOfPoints(points: Float64Array): string;
  /** Bounding volumes of x0,y0,z0,x1,…; value: the "obb" result. */
  boundsOfPoints(points: Float64Array): string;

  // Object API (wasm/include/collidoscope/api.h).
  /** A shape from a scene-format shape object without pose; value: its handle. */
  createShape(shapeJson: string): string;
  /** A polytope from x0,y0,z0,x1,… and a margin; value: its handle. */
  createPolytope(points: Float64Array, margin: number, sx: number, sy: number, sz: number): string;
  /** A mesh's sizes and report (found on this first read); value: MeshReport. */
  meshInfo(handle: number): string;
  /** Builds a mesh's OBB tree if it is not built (MeshShape.prepare()); value: true. */
  prepareMesh(handle: number): string;
  sceneWarnings(sceneJson: string): string;
  /** value: {"version":1,"shapes":[the shape],...}. */
  shapeSpec(handle: number): string;
  /** The query's trace; `input` points at the 21-double query input. */
  traceQuery(query: string, a: number, b: number, input: number): string;
  /** The query as a scene. */
  sceneOfQuery(query: string, a: number, b: number, input: number): string;
  /** value: {query: {fields, status, axisKind?}}. */
  layout(): string;
  /** Reply holding the error of the last failed _cds_* call. */
  lastError(): string;
  /** Bytes malloc has handed out. */
  heapInUse(): number;

  /** features: 0, or room for 2 int32: the compound children that answer (−1: none, or not a compound). */
  _cds_query(kind: number, a: number, b: number, input: number, cache: number, out: number, features?: number): number;
  /** rayOrder: 0, or scratch of 2 × 8 bytes per ray (raycast): long runs of rays on one mesh are traced in a coherent order (the same answers, faster). */
  _cds_batch(
    kind: number, handles: number, nShapes: number, poses: number, pairs: number, n: number, extras: number,
    caches: number, out: number, features: number, barycentric: number, rayOrder: number,
  ): number;
  /** Registry::contactsBatch: records (capacity of them), offsets (n + 1), perPair (iterations, truncated), children (0, or 2 int32 per contact: the compound children). */
  _cds_contacts_batch(
    handles: number, nShapes: number, poses: number, pairs: number, n: number, margins: number, records: number,
    capacity: number, offsets: number, perPair: number, children: number,
  ): number;
  _cds_dispose(handle: number): number;
  _cds_last_mesh_hit(out: number): void;
  /** The last project's feature: kind index and vertex count into out (2 int32); returns the int32 vertices. */
  _cds_last_feature(out: number): number;
  /** Registry::contacts: out gets count, truncated, iterations, then one kContactRecord per contact; features: 0, or 2 int32 per contact (the compound children). */
  _cds_contacts(a: number, b: number, input: number, out: number, capacity: number, features?: number): number;
  _cds_live_shapes(): number;
  /** A mesh's handle, or 0 (lastError()): arrays in wasm memory, a pointer, a count of numbers and a MeshArrayType (mesh_shape.h) each; the caller frees them. */
  _cds_create_mesh(vertices: number, vertexCount: number, vertexType: number, indices: number, indexCount: number,
    indexType: number, sx: number, sy: number, sz: number): number;
  _cds_set_tolerance(tolerance: number): number;
  _cds_tolerance(): number;
  /** Worlds (world.h): a new world's handle, or 0 (lastError()); broadphase 0 sweep and prune, 1 tree. */
  _cds_world_create(broadphase: number): number;
  _cds_world_dispose(world: number): number;
  _cds_live_worlds(): number;
  /** The body's id (> 0), or 0 (lastError()); pose: 7 doubles. */
  _cds_world_add(world: number, shape: number, pose: number): number;
  _cds_world_remove(world: number, body: number): number;
  _cds_world_set_pose(world: number, body: number, pose: number): number;
  /** The body's slot, −1 when it is not live. */
  _cds_world_slot(world: number, body: number): number;
  /** The pose array (7 doubles per slot; the slot count into out[0], an int32), 0 for a disposed world. */
  _cds_world_poses(world: number, out: number): number;
  _cds_world_set_mass(world: number, body: number, mass: number): number;
  _cds_world_mass(world: number, body: number): number;
  /** The velocity array (6 doubles per slot), 0 for a disposed world. */
  _cds_world_velocities(world: number): number;
  /** in: dt, gravity (3), substeps, iterations, friction, restitution, continuous, sleep, manifoldReuse; out: manifolds, points, warmStarted, ccdClamped, contacts, sleeping, reusedManifolds. */
  _cds_world_step(world: number, input: number, out: number): number;
  /** The last step's contacts, 16 doubles each (as many as its report's count), copied now; 0 for a disposed world. */
  _cds_world_contacts(world: number): number;
  /** ray: 7 doubles; the number of hits (−1: lastError()), 12 doubles each at *out (slot, t, point, normal, startedInside, pointB). */
  _cds_world_raycast(world: number, ray: number, all: number, out: number): number;
  /** The number of bodies (−1: lastError()), their int32 slots at *out. */
  _cds_world_overlap(world: number, shape: number, pose: number, out: number): number;
  /** in: pose (7) and translation (3); out: 12 doubles (slot −1: no hit); 0 on an error. */
  _cds_world_shapecast(world: number, shape: number, input: number, out: number): number;
  /** The number of pairs (−1: lastError()); the pointer to their slots into *pairs (uint32), candidates into *candidates (double). */
  _cds_world_pairs(world: number, pairs: number, candidates: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;

  /** Views of the heap; replaced when memory grows, so read them at each use. */
  HEAPU8: Uint8Array;
  HEAP32: Int32Array;
  HEAPU32: Uint32Array;
  HEAPF64: Float64Array;
}

export interface ModuleOptions {
  /** The separate-.wasm flavour's binary or its location; the single-file build ignores it. */
  wasm?: string | URL | ArrayBuffer | Uint8Array | Response | PromiseLike<Response>;
  /** The wasm binary; unused by the single-file build, accepted for forward compatibility. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare function createCollidoscopeModule(options?: ModuleOptions): Promise<WasmModule>;
export default createCollidoscopeModule;
