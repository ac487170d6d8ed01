/// <reference lib="esnext.disposable" preserve="true" />
// collidoscope — the object API for games: shapes made once (they live in
// wasm memory), queries with poses, warm-start caches, and batches that
// answer many pairs in one call.
//
//   import { init, sphere, box, distance } from 'collidoscope';
//   await init();
//   using a = sphere(1);
//   using b = box([1, 1, 1]);
//   const r = distance(a, { position: [0, 0, 0] }, b, { position: [3, 0, 0] });
//   // r.distance === 1, r.pointA = [1, 0, 0], r.pointB = [2, 0, 0]
//
// The C++ side (wasm/include/collidoscope/api.h) checks every argument and
// names the offending field; this file only checks what JavaScript alone
// knows (types, lengths) and moves numbers in and out of the wasm heap.
import type { WasmModule } from '#collidoscope-wasm';
import { withText, type RawTrace } from './captions';
import { CONTACT_RECORD_STRIDE, DECODERS, decodeContactRecord } from './generated-schema';
import { CollidoscopeError, printable, toSceneJson } from './errors';
import { loadedModule, mod, unwrap } from './module';
import { AXES, POSE, describe, ensureHeap, jsonRoom, lastError, notNumber, num, unreadable, writePose, writeVec, type PoseLike, type XYZ } from './heap';
import type { ContactPoint, ContactsResult, EpaStatus, FeatureKind, MeshProjectResult } from './generated-schema';
import type {
  ChungWangResult, ChungWangTrace, ClosedFormTraceOf, ContainsResult, DistanceResult, EpaTrace, GjkTrace, IntersectResult, MeshTriangle,
  PenetrationResult, PointArray, ProjectResult, Quat, RaycastResult, RaycastTrace, SatResult, SatTrace, Scene, Shape, ShapecastResult, ShapecastTrace,
  ShapeType, Vec3,
} from './types';

// ------------------------------------------------------------------ heap scratch

/** Most points of a polytope or point cloud (kMaxPolytopePoints in shapes.h). */
const MAX_POINTS = 1_000_000;
const INPUT = 21; // [poseA 7][poseB 7][ray, motion or contact's margin: 7]
const CACHE = 4;
const MAX_STRIDE = 14;

/** The wasm-heap scratch of single queries, allocated once per module. */
interface Scratch {
  input: number;
  cache: number;
  out: number;
  /** 2 int32: the compound children of a single query's answer (Registry::query's features). */
  features: number;
}
let scratch: Scratch | null = null;

function scratchOf(m: WasmModule): Scratch {
  if (scratch === null) {
    const base = m._malloc(8 * (INPUT + CACHE + MAX_STRIDE + 1));
    scratch = { input: base, cache: base + 8 * INPUT, out: base + 8 * (INPUT + CACHE), features: base + 8 * (INPUT + CACHE + MAX_STRIDE) };
  }
  return scratch;
}

// ------------------------------------------------------------------ shapes

const disposeSymbol: typeof Symbol.dispose =
  (Symbol as { dispose?: typeof Symbol.dispose }).dispose ?? (Symbol.for('Symbol.dispose') as typeof Symbol.dispose);

// Frees the wasm side of shapes that were garbage-collected without dispose().
const finalizer: FinalizationRegistry<number> | null =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<number>((handle) => {
        loadedModule()?._cds_dispose(handle);
      })
    : null;

/**
 * A convex shape living in wasm memory: make it once with sphere(), box(), polytope(), … and query it with a
 * pose as often as needed. Free it with dispose() (or `using`); a forgotten shape is freed when it is
 * garbage-collected. A disposed shape throws CollidoscopeError 'disposed' when used.
 */
export class ConvexShape {
  #handle: number;
  /** The scene-format type. */
  readonly type: ShapeType;

  /** @internal Use the shape constructors (sphere(), box(), polytope(), createShape(), …). */
  constructor(handle: number, type: ShapeType) {
    this.#handle = handle;
    this.type = type;
    finalizer?.register(this, handle, this);
  }

  /** True after dispose(). */
  get disposed(): boolean {
    return this.#handle === 0;
  }

  /** @internal The registry handle, 0 after dispose() (batch()'s fast path; handle() names the problem). */
  rawHandle(): number {
    return this.#handle;
  }

  /** @internal The registry handle; throws 'disposed' after dispose(). */
  handle(field: string): number {
    if (this.#handle === 0) throw new CollidoscopeError('disposed', field, 'the shape was disposed');
    return this.#handle;
  }

  /** The scene-format shape object (no pose): for scenes, permalinks and drawing. */
  spec(): Shape {
    const { position: _p, rotation: _r, ...spec } = unwrap<Scene>(mod().shapeSpec(this.handle('shape'))).shapes[0];
    return spec;
  }

  /** Frees the shape's wasm memory. Idempotent. */
  dispose(): void {
    if (this.#handle === 0) return;
    loadedModule()?._cds_dispose(this.#handle);
    finalizer?.unregister(this);
    this.#handle = 0;
  }

  /** `using shape = sphere(1);` disposes it at the end of the block. */
  [disposeSymbol](): void {
    this.dispose();
  }
}

/** Options of every shape constructor. */
export interface ShapeOptions {
  /** Extra radius added around the shape (rounds its edges). Default 0. Not scaled by `scale`. */
  margin?: number;
  /**
   * Non-uniform scale [sx, sy, sz] in the shape's own frame, applied before the pose (a negative component
   * mirrors; none may be 0). Default [1, 1, 1].
   */
  scale?: Vec3;
}

function made(reply: string, type: ShapeType): ConvexShape {
  return new ConvexShape(unwrap<number>(reply), type);
}

/**
 * A shape from a scene-format shape object, e.g. `createShape({ type: 'capsule', radius: 0.5, halfHeight: 1 })`.
 * The object must not carry a pose (position, rotation): poses go to the queries.
 */
export function createShape(spec: Shape): ConvexShape {
  let type: ShapeType;
  try {
    if (spec === null || typeof spec !== 'object' || Array.isArray(spec)) {
      throw new CollidoscopeError('invalid-argument', 'shape', `must be a shape object, got ${describe(spec)}`);
    }
    type = spec.type; // read before the wasm shape exists: nothing to leak if it throws
  } catch (e) {
    throw unreadable(e, 'shape');
  }
  const reply = mod().createShape(jsonRoom(toSceneJson(spec, 'invalid-argument'), 'shape'));
  if (type === 'compound') return new CompoundShape(unwrap<number>(reply));
  return type === 'mesh' || type === 'heightfield' ? meshOfHandle(unwrap<number>(reply), type) : made(reply, type);
}

/**
 * Convex shapes with their own poses, queried as their union (compound()). The single queries answer it through
 * the child loop in wasm, and their results add `child` (or `childA` and `childB` for two compounds): the index of
 * the child that answers, null when none does. contact() and contacts() add them too; batches write them into
 * `features` when asked (BatchOptions.features, createBatch's `features: true`).
 */
export class CompoundShape extends ConvexShape {
  /** @internal Use compound(). */
  constructor(handle: number) {
    super(handle, 'compound');
  }
}

/** A child of compound(): a convex shape and its pose relative to the compound. */
export interface CompoundChild {
  shape: ConvexShape;
  position?: Vec3;
  rotation?: Quat;
}

/**
 * A compound of convex children (the pieces of a convex decomposition), each placed by its position and
 * rotation relative to the compound; up to 256 children, no mesh, heightfield, plane or compound among them.
 * Queries: intersect (the first child that intersects), distance (the nearest child), penetration (the deepest
 * intersecting child), raycast (the nearest hit), shapecast (the earliest), contains (the first child holding the
 * point) and project (the child of the smallest signed distance), each result with the `child` that answers.
 */
export function compound(children: readonly CompoundChild[]): CompoundShape {
  // The default flavour has no compounds (captions.ts: the build defines this constant): its wasm refuses any,
  // naming the flavours that have them.
  if (!(typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__)) {
    return createShape({ type: 'compound', children: [] } as unknown as Shape) as CompoundShape;
  }
  let spec: Shape;
  try {
    if (!Array.isArray(children)) {
      throw new CollidoscopeError('invalid-argument', 'children', `must be an array of { shape, position?, rotation? }, got ${describe(children)}`);
    }
    spec = {
      type: 'compound',
      children: children.map((c, i) => {
        if (c === null || typeof c !== 'object' || !(c.shape instanceof ConvexShape)) {
          throw new CollidoscopeError('invalid-argument', `children[${i}].shape`, `must be a shape, got ${describe(c?.shape)}`);
        }
        for (const k of Object.keys(c)) {
          if (k !== 'shape' && k !== 'position' && k !== 'rotation') {
            throw new CollidoscopeError('invalid-argument', `children[${i}].${k}`, 'unknown field (a child has shape, position and rotation)');
          }
        }
        const child: Shape = { ...c.shape.spec() };
        if (c.position !== undefined) child.position = c.position;
        if (c.rotation !== undefined) child.rotation = c.rotation;
        return child;
      }),
    };
  } catch (e) {
    throw unreadable(e, 'children');
  }
  return createShape(spec) as CompoundShape;
}

function withMargin(spec: Shape, options: ShapeOptions | undefined): Shape {
  if (options === undefined) return spec;
  if (options === null || typeof options !== 'object') {
    throw new CollidoscopeError('invalid-argument', 'options', `must be an object like { margin: 0.1 }, got ${describe(options)}`);
  }
  for (const k of Object.keys(options)) {
    if (k !== 'margin' && k !== 'scale') {
      throw new CollidoscopeError('invalid-argument', `options.${k}`, 'unknown option (the options are margin and scale)');
    }
  }
  const out = options.margin === undefined ? spec : { ...spec, margin: options.margin };
  return options.scale === undefined ? out : { ...out, scale: options.scale };
}

/** A point (a sphere of radius 0; give it a margin to make it round). */
export function point(options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'point' }, options));
}
/** A sphere of the given radius about the origin. */
export function sphere(radius: number, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'sphere', radius }, options));
}
/** A box with the given half extents along x, y, z. */
export function box(halfExtents: Vec3, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'box', halfExtents }, options));
}
/** A capsule along y: a segment from −halfHeight to +halfHeight, grown by radius. */
export function capsule(radius: number, halfHeight: number, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'capsule', radius, halfHeight }, options));
}
/** A cylinder along y. */
export function cylinder(radius: number, halfHeight: number, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'cylinder', radius, halfHeight }, options));
}
/** A cone along y: base circle at −halfHeight, apex at +halfHeight. */
export function cone(radius: number, halfHeight: number, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'cone', radius, halfHeight }, options));
}
/** An ellipsoid with the given semi-axes along x, y, z. */
export function ellipsoid(radii: Vec3, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'ellipsoid', radii }, options));
}
/** A segment between two points. */
export function segment(a: Vec3, b: Vec3, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'segment', points: [a, b] }, options));
}
/**
 * A plane: the half-space normal·x ≤ offset (a floor is plane([0, 1, 0], 0)), unbounded, for floors and walls.
 * It takes intersect, distance, penetration, contact, raycast, contains and project (closed forms, no trace).
 */
export function plane(normal: Vec3, offset: number, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'plane', normal, offset }, options));
}
/** A triangle. */
export function triangle(a: Vec3, b: Vec3, c: Vec3, options?: ShapeOptions): ConvexShape {
  return createShape(withMargin({ type: 'triangle', points: [a, b, c] }, options));
}

/**
 * The convex hull of points, as a shape: flat x0, y0, z0, x1, … (a Float32Array or Float64Array, e.g. a
 * three.js position attribute's array) or [x, y, z] triples. Up to 1 000 000 points; the points are copied
 * into wasm memory once, and a polytope of 96 points or more gets a precomputed support walk.
 */
export function polytope(points: PointArray, options?: ShapeOptions): ConvexShape {
  const spec = withMargin({ type: 'polytope' }, options);
  const margin = spec.margin ?? 0;
  if (typeof margin !== 'number') {
    throw new CollidoscopeError('invalid-argument', 'margin', `must be a number, got ${describe(margin)}`);
  }
  const scale = spec.scale ?? [1, 1, 1];
  if (!Array.isArray(scale) || scale.length !== 3 || scale.some((c) => typeof c !== 'number')) {
    throw new CollidoscopeError('invalid-argument', 'scale', `must be an array of 3 numbers, got ${describe(scale)}`);
  }
  const flat = flatPoints(points);
  const m = mod();
  ensureHeap(m, POLYTOPE_PEAK_BYTES_PER_POINT * (flat.length / 3) + 4096, 'points', `a polytope of ${flat.length / 3} points`);
  return made(m.createPolytope(flat, margin, scale[0], scale[1], scale[2]), 'polytope');
}

// Bytes a build needs at its peak, per element, from the growth of stats().memoryBytes, rounded up: a mesh's
// triangles and their OBB tree (≈ 640 a triangle while building 10⁵ to 4·10⁵, 442 kept); a polytope's hull under
// construction, worst when every point is a vertex (10⁶ points on a sphere: ≈ 1 470 a point; a random ball's
// cloud ≈ 94). The check is for the worst case, so a cloud that would fit may be refused when memory is short.
// The same figures as kMeshPeakBytesPer*, kPolytopePeakBytesPerPoint (heap_room.h), checked here before the
// arrays are copied into wasm memory.
const MESH_PEAK_BYTES_PER_TRIANGLE = 768;
const MESH_PEAK_BYTES_PER_VERTEX = 64;
const POLYTOPE_PEAK_BYTES_PER_POINT = 1536;

/** Most triangles and vertices of a mesh (kMaxMeshTriangles, kMaxMeshVertices in mesh.h). */
const MAX_MESH_TRIANGLES = 2_000_000;
const MAX_MESH_VERTICES = 3 * MAX_MESH_TRIANGLES;

/** What a mesh's validation found: problems no query minds, reported rather than refused. */
export interface MeshReport {
  vertexCount: number;
  triangleCount: number;
  /** Triangles with no normal (zero area, or too thin): ray casts skip them. Increasing. */
  degenerate: number[];
  /** [triangle, earlier triangle it repeats] (same three vertex positions, any order). */
  duplicates: [number, number][];
  /** The same as sentences, at most 20 and a count of the rest ("triangles[4]: degenerate …"). */
  warnings: string[];
}

/**
 * A triangle mesh in wasm memory (mesh(), meshFromGeometry(), heightfield()). It takes raycast (with the hit
 * triangle and barycentric coordinates), project, intersect, distance, shapecast and contacts against a convex
 * shape (intersect also against a mesh), hull and obb of its vertices, and the batches of those. Free it with
 * dispose().
 *
 * What is built when: mesh() builds what ray casts read (the triangles' normals and the ray layout, a
 * bounding-box hierarchy), about a quarter of the full build's time. The OBB tree that every other query
 * reads (intersect, distance, shapecast, contacts, project, a World's steps) is built once, by the first of
 * them, and kept: it costs 2–3 times mesh()'s own build (1.8–2.4 s of CPU in Node at 10⁶ triangles on a loaded
 * machine; see the README's mesh figures). A mesh that is only ray cast never builds it. Call prepare() to pay for it at a moment of
 * your choosing (a level's load); World.add() of a mesh body builds it too.
 */
export class MeshShape extends ConvexShape {
  #report: MeshReport | undefined;

  /** @internal Use mesh(), meshFromGeometry() or heightfield(). */
  constructor(handle: number, type: 'mesh' | 'heightfield' = 'mesh') {
    super(handle, type);
  }

  /**
   * Degenerate and duplicate triangles (not errors), found on the first read and kept (a hash of the
   * triangles: tens of milliseconds at 10⁶ triangles). Throws 'disposed' when first read after dispose().
   */
  get report(): MeshReport {
    if (this.#report === undefined) this.#report = unwrap<MeshReport>(mod().meshInfo(this.handle('shape')));
    return this.#report;
  }

  /**
   * Builds the mesh's OBB tree now, if no query has built it yet: what the first intersect, distance,
   * shapecast, contacts or project on it would otherwise do (ray casts do not need it). A game calls it at
   * a level's load so that no frame pays for it. Idempotent; returns the shape. Throws 'out-of-memory'
   * (naming "shape", the module intact) when the wasm heap cannot hold the build, 'disposed' after dispose().
   */
  prepare(): this {
    unwrap<boolean>(mod().prepareMesh(this.handle('shape')));
    return this;
  }
}

// Defined false by the build of the default package flavour, which has no meshes, heightfields or compounds
// (captions.ts): the code only they use is then left out of its bundle.
declare const __COLLIDOSCOPE_LEVEL_GEOMETRY__: boolean | undefined;

/** Flat numbers of a mesh array: typed arrays pass as they are (copied once into wasm), number[] is checked. */
function meshNumbers(values: unknown, field: 'vertices' | 'triangles', limit: number): ArrayLike<number> {
  try {
    const typed = values instanceof Float64Array || values instanceof Float32Array || values instanceof Uint32Array
      || values instanceof Uint16Array || values instanceof Int32Array;
    if (!typed && !Array.isArray(values)) {
      const want = field === 'vertices' ? 'a Float32Array, Float64Array or number[] (x0, y0, z0, x1, …)' : 'a Uint32Array, Uint16Array or number[] (i0, j0, k0, i1, …)';
      throw new CollidoscopeError('invalid-argument', field, `must be ${want}, got ${describe(values)}`);
    }
    const list = values as ArrayLike<unknown>;
    const n = list.length;
    const what = field === 'vertices' ? 'vertices' : 'triangles';
    if (n > 3 * limit) throw new CollidoscopeError('invalid-argument', field, `has more than ${limit} ${what} (${n} numbers; the limit is ${limit})`);
    if (n % 3 !== 0) throw new CollidoscopeError('invalid-argument', field, `has ${n} numbers, not a multiple of 3 (3 per ${field === 'vertices' ? 'vertex' : 'triangle'})`);
    if (!typed) {
      for (let i = 0; i < n; i++) {
        if (typeof list[i] !== 'number') throw new CollidoscopeError('invalid-argument', `${field}[${Math.floor(i / 3)}][${i % 3}]`, `must be a number, got ${describe(list[i])}`);
      }
    }
    return list as ArrayLike<number>;
  } catch (e) {
    throw unreadable(e, field);
  }
}

/**
 * A triangle mesh (non-convex, may be open) from flat arrays: `vertices` x0, y0, z0, x1, … (Float32Array,
 * Float64Array or number[]) and `indices` i0, j0, k0, i1, … (Uint32Array, Uint16Array or number[]), triangles
 * counter-clockwise seen from outside. Up to 2 000 000 triangles. Indices out of range, non-finite
 * coordinates and wrong lengths throw 'invalid-argument' naming the element (`triangles[4][1]`); degenerate
 * and duplicate triangles are listed in the shape's `report`. A mesh takes no margin.
 */
export function mesh(
  vertices: Float32Array | Float64Array | readonly number[], indices: Uint32Array | Uint16Array | readonly number[],
  options?: MeshOptions,
): MeshShape {
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__)) {
    const scale = meshScale(options);
    const v = meshNumbers(vertices, 'vertices', MAX_MESH_VERTICES);
    const ix = meshNumbers(indices, 'triangles', MAX_MESH_TRIANGLES);
    const m = mod();
    ensureHeap(m, MESH_PEAK_BYTES_PER_TRIANGLE * (ix.length / 3) + MESH_PEAK_BYTES_PER_VERTEX * (v.length / 3) + 4096,
      'triangles', `a mesh of ${ix.length / 3} triangles`);
    const vt = meshArrayType(v), it = meshArrayType(ix);
    let vp = 0, ip = 0;
    try {
      vp = meshArrayCopy(m, v, vt, 'vertices');
      ip = meshArrayCopy(m, ix, it, 'triangles');
      const handle = m._cds_create_mesh(vp, v.length, vt, ip, ix.length, it, scale[0], scale[1], scale[2]);
      if (handle === 0) throw lastError(m);
      return meshOfHandle(handle);
    } finally {
      m._free(vp);
      m._free(ip);
    }
  }
  // The default flavour has none: its wasm refuses one, naming the flavours that have them.
  const m = mod();
  const handle = m._cds_create_mesh(0, 0, 0, 0, 0, 0, 1, 1, 1);
  if (handle === 0) throw lastError(m);
  return meshOfHandle(handle);
}

// The element types mesh() copies into wasm memory (MeshArrayType in mesh_shape.h), by index: a typed array
// goes as it is (one copy of its bytes, widened or checked in C++), a number[] as doubles.
const MESH_ARRAY_TYPES = [Float64Array, Float32Array, Uint32Array, Uint16Array, Int32Array] as const;

function meshArrayType(a: ArrayLike<number>): number {
  const i = MESH_ARRAY_TYPES.findIndex((T) => a instanceof T);
  return i < 0 ? 0 : i;
}

/**
 * `a` copied into a new block of wasm memory as MESH_ARRAY_TYPES[type] (one TypedArray.set: a memcpy for a typed
 * array); the caller frees it. Only after ensureHeap, which checked room for the whole build: a refusal here
 * still throws 'out-of-memory' naming the field rather than abort.
 */
function meshArrayCopy(m: WasmModule, a: ArrayLike<number>, type: number, field: 'vertices' | 'triangles'): number {
  const T = MESH_ARRAY_TYPES[type];
  const bytes = T.BYTES_PER_ELEMENT * a.length;
  const p = m._malloc(Math.max(bytes, 8));
  if (p === 0) {
    throw new CollidoscopeError('out-of-memory', field, `copying ${Math.ceil(bytes / 1e6)} MB of ${field} into wasm memory failed: `
      + 'dispose shapes, meshes, worlds and batches that are no longer needed');
  }
  try {
    // The heap's buffer read after the malloc, which may have grown (and replaced) it.
    new T(m.HEAPU8.buffer as ArrayBuffer, p, a.length).set(a);
  } catch (e) {
    m._free(p);
    throw unreadable(e, field);
  }
  return p;
}

/** Options of mesh() and heightfield(): a surface takes a scale but no margin. */
export interface MeshOptions {
  /**
   * Non-uniform scale [sx, sy, sz] in the shape's frame, before the pose: the vertices are scaled once and the
   * tree built again; a mirror (an odd number of negative components) reverses the winding so that normals stay
   * outward (up, for a heightfield). None may be 0. Default [1, 1, 1].
   */
  scale?: Vec3;
}

function meshScale(options: MeshOptions | undefined): Vec3 {
  if (options === undefined) return [1, 1, 1];
  try {
    if (options === null || typeof options !== 'object') {
      throw new CollidoscopeError('invalid-argument', 'options', `must be an object like { scale: [1, 2, 1] }, got ${describe(options)}`);
    }
    for (const k of Object.keys(options)) {
      if (k !== 'scale') throw new CollidoscopeError('invalid-argument', `options.${k}`, 'unknown option (a mesh takes scale, and no margin)');
    }
    const scale = options.scale ?? [1, 1, 1];
    if (!Array.isArray(scale) || scale.length !== 3 || scale.some((c) => typeof c !== 'number')) {
      throw new CollidoscopeError('invalid-argument', 'scale', `must be an array of 3 numbers, got ${describe(scale)}`);
    }
    return scale as Vec3;
  } catch (e) {
    throw unreadable(e, 'options');
  }
}

/** Most cells of a heightfield (kMaxHeightfieldCells in heightfield.h): two triangles each, within the mesh limit. */
const MAX_HEIGHTFIELD_CELLS = MAX_MESH_TRIANGLES / 2;

/** Heights of a heightfield as one typed array, row after row: values[i·columns + j] is heights[i][j]. */
export interface HeightGrid {
  values: Float32Array | Float64Array;
  rows: number;
  columns: number;
}

function heightRows(heights: unknown): number[][] {
  if (Array.isArray(heights)) return heights as number[][];
  if (heights === null || typeof heights !== 'object') {
    throw new CollidoscopeError('invalid-argument', 'heights', `must be rows of heights (number[][]) or { values, rows, columns }, got ${describe(heights)}`);
  }
  const { values, rows, columns } = heights as HeightGrid;
  if (!(values instanceof Float32Array || values instanceof Float64Array)) {
    throw new CollidoscopeError('invalid-argument', 'heights.values', `must be a Float32Array or Float64Array, got ${describe(values)}`);
  }
  for (const [k, n] of [['rows', rows], ['columns', columns]] as const) {
    if (!Number.isInteger(n) || n < 2) throw new CollidoscopeError('invalid-argument', `heights.${k}`, `must be a whole number ≥ 2, got ${describe(n)}`);
  }
  if ((rows - 1) * (columns - 1) > MAX_HEIGHTFIELD_CELLS) {
    throw new CollidoscopeError('invalid-argument', 'heights', `has ${(rows - 1) * (columns - 1)} cells; the limit is ${MAX_HEIGHTFIELD_CELLS} (two triangles a cell, within the mesh limit)`);
  }
  if (values.length !== rows * columns) {
    throw new CollidoscopeError('invalid-argument', 'heights.values', `has ${values.length} heights, not rows × columns = ${rows * columns}`);
  }
  const out: number[][] = [];
  for (let i = 0; i < rows; i++) out.push(Array.from(values.subarray(i * columns, (i + 1) * columns)));
  return out;
}

/**
 * Terrain: a grid of heights (y) with a cell size [sx, sz]: heights[i][j] is the height at x = i·sx, z = j·sz
 * (grid point [0][0] at the shape's origin). Rows of equal length (number[][]), or one Float32Array/Float64Array
 * row after row with its rows and columns. Each cell is two triangles split along (i, j)–(i+1, j+1), normals up;
 * the shape is a mesh to every query (raycast with the hit triangle — cell (i, j) owns triangles
 * 2·(i·(columns − 1) + j) and the next — intersect, distance, shapecast, contacts), and its spec() is the
 * heightfield. At least 2×2 heights, at most 1 000 000 cells.
 */
export function heightfield(heights: readonly (readonly number[])[] | HeightGrid, cellSize: [number, number], options?: MeshOptions): MeshShape {
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__)) {
    let rows: number[][];
    try {
      rows = heightRows(heights);
    } catch (e) {
      throw unreadable(e, 'heights');
    }
    const spec: Shape = { type: 'heightfield', heights: rows, cellSize };
    if (options !== undefined) {
      const scale = meshScale(options);
      if (options.scale !== undefined) spec.scale = scale;
    }
    return createShape(spec) as MeshShape;
  }
  // The default flavour has none: its wasm refuses one, naming the flavours that have them.
  return createShape({ type: 'heightfield', heights: [[0, 0], [0, 0]], cellSize: [1, 1] }) as MeshShape;
}

function meshOfHandle(handle: number, type: 'mesh' | 'heightfield' = 'mesh'): MeshShape {
  return new MeshShape(handle, type);
}

/** What polytopeFromGeometry() reads: a three.js BufferGeometry, or anything with the same position attribute. */
export interface GeometryLike {
  /** Checked at run time: must give an AttributeLike for 'position'. */
  getAttribute?(name: string): unknown;
  attributes?: { position?: unknown };
}
/** A three.js BufferAttribute or InterleavedBufferAttribute (or look-alike). */
export interface AttributeLike {
  count: number;
  itemSize: number;
  getX(i: number): number;
  getY(i: number): number;
  getZ(i: number): number;
}

/**
 * The convex hull of a three.js BufferGeometry's vertices (its local space; interleaved and indexed geometries
 * work). The geometry's position attribute is read once; the geometry is not kept.
 */
export function polytopeFromGeometry(geometry: GeometryLike, options?: ShapeOptions): ConvexShape {
  let flat: Float64Array;
  try {
    flat = geometryPoints(geometry);
  } catch (e) {
    throw unreadable(e, 'geometry');
  }
  return polytope(flat, options);
}

function geometryPoints(geometry: GeometryLike): Float64Array {
  if (geometry === null || typeof geometry !== 'object') {
    throw new CollidoscopeError('invalid-argument', 'geometry', `must be a BufferGeometry, got ${describe(geometry)}`);
  }
  const attr = (typeof geometry.getAttribute === 'function' ? geometry.getAttribute('position') : geometry.attributes?.position) as
    | AttributeLike
    | null
    | undefined;
  if (attr === undefined || attr === null || typeof attr.getX !== 'function' || typeof attr.count !== 'number') {
    throw new CollidoscopeError('invalid-argument', 'geometry.attributes.position', 'is missing: the geometry has no vertex positions');
  }
  if (attr.itemSize !== 3) {
    throw new CollidoscopeError('invalid-argument', 'geometry.attributes.position.itemSize', `must be 3, got ${attr.itemSize}`);
  }
  if (!Number.isSafeInteger(attr.count) || attr.count < 0 || attr.count > MAX_POINTS) {
    throw new CollidoscopeError('invalid-argument', 'geometry.attributes.position.count', `must be a whole number of vertices up to ${MAX_POINTS}, got ${attr.count}`);
  }
  const flat = new Float64Array(attr.count * 3);
  for (let i = 0; i < attr.count; i++) {
    flat[3 * i] = attr.getX(i);
    flat[3 * i + 1] = attr.getY(i);
    flat[3 * i + 2] = attr.getZ(i);
  }
  return flat;
}

/** @internal Points as one Float64Array x0, y0, z0, x1, … (Float64Arrays pass through). */
export function flatPoints(points: PointArray): Float64Array {
  try {
    if (points instanceof Float64Array) return points;
    if (points instanceof Float32Array) return Float64Array.from(points);
    return flatPointsOf(points);
  } catch (e) {
    throw unreadable(e, 'points'); // a getter, a Proxy (a revoked one fails even instanceof)
  }
}

function flatPointsOf(points: PointArray): Float64Array {
  if (points === null || typeof points !== 'object' || typeof (points as ArrayLike<unknown>).length !== 'number') {
    throw new CollidoscopeError('invalid-argument', 'points', `must be an array of numbers or of [x, y, z] points, got ${describe(points)}`);
  }
  const list = points as ArrayLike<unknown>;
  // An array-like's length is whatever it says: check it before allocating (new Float64Array(1e12) throws a
  // RangeError). More than the C++ limit of 1 000 000 points is refused here, before any copying.
  const length = list.length;
  if (!Number.isSafeInteger(length) || length < 0) {
    throw new CollidoscopeError('invalid-argument', 'points', `must be an array of numbers or of [x, y, z] points, got a length of ${length}`);
  }
  if (length > 3 * MAX_POINTS) {
    throw new CollidoscopeError('invalid-argument', 'points', `has more than ${MAX_POINTS} points (${length} numbers)`);
  }
  if (list.length > 0 && Array.isArray(list[0])) {
    const triples = points as readonly Vec3[];
    if (triples.length > MAX_POINTS) throw new CollidoscopeError('invalid-argument', 'points', `has more than ${MAX_POINTS} points`);
    const out = new Float64Array(triples.length * 3);
    for (let i = 0; i < triples.length; i++) {
      const p = triples[i];
      if (!Array.isArray(p) || p.length !== 3) {
        throw new CollidoscopeError('invalid-argument', `points[${i}]`, 'must be an array of 3 numbers [x, y, z]');
      }
      for (let k = 0; k < 3; k++) {
        if (typeof p[k] !== 'number') throw new CollidoscopeError('invalid-argument', `points[${i}][${k}]`, `must be a number, got ${typeof p[k]}`);
        out[3 * i + k] = p[k];
      }
    }
    return out;
  }
  const out = new Float64Array(list.length);
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== 'number') throw new CollidoscopeError('invalid-argument', `points[${Math.floor(i / 3)}]`, `must hold numbers, got ${typeof x}`);
    out[i] = x;
  }
  return out;
}

// ------------------------------------------------------------------ poses

/** Poses and vectors as the queries take them (declared with the code that reads them). */
export type { PoseLike, XYZ, XYZW } from './heap';

/**
 * A pose as 7 numbers [x, y, z, qx, qy, qz, qw], as the queries read it (the rotation not yet normalized;
 * non-finite numbers are kept for the caller to report). Throws 'invalid-argument' for a malformed pose.
 */
export function poseNumbers(pose: PoseLike | undefined, field = 'pose'): Float64Array {
  const out = new Float64Array(POSE);
  writePose(out, 0, pose, field);
  return out;
}

// ------------------------------------------------------------------ layouts

/** The queries of the object API and of batch() (contact has no trace; its scene form comes from sceneOf()). */
export type PairQuery = 'intersect' | 'distance' | 'penetration' | 'chungwang' | 'sat' | 'shapecast';
export type BatchQuery = PairQuery | 'raycast' | 'contact' | PointQuery;
/** The queries on one shape and a point. */
export type PointQuery = 'contains' | 'project';
// In the C++ api::Kind order.
const KINDS: readonly BatchQuery[] = ['intersect', 'distance', 'penetration', 'chungwang', 'sat', 'raycast', 'shapecast', 'contact', 'contains', 'project'];
const isPointQuery = (q: BatchQuery): q is PointQuery => q === 'contains' || q === 'project';

interface Layout {
  fields: string[];
  status: string[];
  axisKind?: string[];
}
let layouts: Record<BatchQuery, Layout> | null = null;

function layoutOf(m: WasmModule, q: BatchQuery): Layout {
  if (layouts === null) layouts = unwrap<Record<BatchQuery, Layout>>(m.layout());
  return layouts[q];
}

/**
 * The result fields of batch(): `BATCH_LAYOUT.distance` is ['distance', 'pointA.x', …, 'status'], one double
 * per field and pair. Booleans are 0 or 1, 'status' (and sat's 'axisKind') the index in `statusNames`, and a
 * vector that is null in the single query's result (a raycast miss's point, say) is NaN.
 */
export function batchLayout(query: BatchQuery): { fields: readonly string[]; stride: number; statusNames: readonly string[]; axisKindNames?: readonly string[] } {
  const l = layoutOf(mod(), kindOf(query, 'query'));
  return { fields: l.fields, stride: l.fields.length, statusNames: l.status, ...(l.axisKind ? { axisKindNames: l.axisKind } : {}) };
}

/** `query` as a batch query; the error lists the queries the caller takes (KINDS, and `more`: sceneOf's contacts). */
function kindOf(query: unknown, field: string, more: readonly string[] = []): BatchQuery {
  if (typeof query !== 'string' || !(KINDS as readonly string[]).includes(query)) {
    const what = typeof query === 'string' ? `"${printable(query)}"` : describe(query);
    throw new CollidoscopeError('invalid-argument', field, `unknown query ${what} (expected ${[...KINDS, ...more].join(', ')})`);
  }
  return query as BatchQuery;
}

const vec = (o: Float64Array, i: number): Vec3 => [o[i], o[i + 1], o[i + 2]];

/** contact()'s result from its doubles at o[i…]: null when the `contact` flag is 0. */
function toContact(o: Float64Array, i: number): ContactResult | null {
  if (o[i] === 0) return null;
  const { contact: _flag, ...r } = toResult('contact', o, i) as ContactResult & { contact: boolean };
  return r;
}

/**
 * One result object from its doubles at o[i…] (the same object run() gives for the same scene), field by field
 * as the C++ layout declares them (batch_layout.h, generated into DECODERS).
 */
function toResult(q: BatchQuery, o: Float64Array, i: number): unknown {
  return DECODERS[q](o, i);
}

// ------------------------------------------------------------------ single queries

/**
 * A warm start for repeated intersect() calls on the same pair (a pair that moves a little between frames is
 * usually decided in one GJK step). Plain JavaScript memory: nothing to dispose.
 */
export class IntersectCache {
  /** [dx, dy, dz, valid]: the last separating direction. */
  readonly data = new Float64Array(CACHE);
  /** Forget the stored direction. */
  reset(): void {
    this.data.fill(0);
  }
}

/** Options of the pair queries. */
export interface QueryOptions {
  /** Return the query's trace (every step of the algorithm, as trace()) instead of its result. */
  trace?: boolean;
}
export interface IntersectOptions extends QueryOptions {
  cache?: IntersectCache;
}
/** The ray of raycast(): origin + t·direction for 0 ≤ t ≤ maxT (default 1). */
export interface Ray {
  origin: Vec3 | XYZ;
  direction: Vec3 | XYZ;
  maxT?: number;
}
/** The motion of shapecast() over the step t ∈ [0, 1]; a missing translation is zero. */
export interface Motion {
  translationA?: Vec3 | XYZ;
  translationB?: Vec3 | XYZ;
}

function checkOptions(options: unknown, allowed: readonly string[]): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object') {
    throw new CollidoscopeError('invalid-argument', 'options', `must be an object, got ${describe(options)}`);
  }
  let keys: string[];
  try {
    keys = Object.keys(options);
  } catch (e) {
    throw unreadable(e, 'options');
  }
  for (const k of keys) {
    if (!allowed.includes(k)) throw new CollidoscopeError('invalid-argument', `options.${k}`, `unknown option (expected ${allowed.join(', ')})`);
  }
}

function shapeHandle(s: unknown, field: string): number {
  let isShape: boolean;
  try {
    isShape = s instanceof ConvexShape; // a Proxy's getPrototypeOf trap may throw
  } catch (e) {
    throw unreadable(e, field);
  }
  if (!isShape) {
    throw new CollidoscopeError('invalid-argument', field, `must be a shape made by sphere(), box(), polytope(), createShape(), …, got ${describe(s)}`);
  }
  try {
    return (s as ConvexShape).handle(field); // a Proxy of a shape has no private handle
  } catch (e) {
    throw unreadable(e, field);
  }
}

// The query point of contains() and project(): errors name "point" and "point[i]".
function writePoint(heap: Float64Array, at: number, v: unknown): void {
  try {
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      const a = v as ArrayLike<unknown>;
      if (a.length !== 3) throw new CollidoscopeError('invalid-argument', 'point', `must have 3 numbers, got ${a.length}`);
      for (let i = 0; i < 3; i++) {
        const x = a[i];
        if (typeof x !== 'number') throw notNumber(x, `point[${i}]`);
        heap[at + i] = x;
      }
      return;
    }
    const o = v as XYZ;
    for (const k of Object.keys(o)) {
      if (k !== 'x' && k !== 'y' && k !== 'z') throw new CollidoscopeError('invalid-argument', `point.${printable(k)}`, 'unknown field (expected x, y, z)');
    }
    const xyz = [o.x, o.y, o.z];
    for (let i = 0; i < 3; i++) {
      const x = xyz[i];
      if (typeof x !== 'number') throw notNumber(x, `point.${AXES[i]}`);
      heap[at + i] = x;
    }
  } catch (e) {
    throw unreadable(e, 'point');
  }
}

// The handles prepare() found (module state rather than a returned pair: no allocation per query).
let preparedA = 0;
let preparedB = 0;

/**
 * Writes a query's arguments into the scratch input and sets preparedA/preparedB to the two handles. The
 * arguments are the query function's: (shape, pose, ray) for raycast, (a, poseA, b, poseB, motion?) otherwise.
 */
function prepare(m: WasmModule, q: BatchQuery, x0: unknown, x1: unknown, x2: unknown, x3?: unknown, x4?: unknown): void {
  const heap = m.HEAPF64;
  const at = scratchOf(m).input >> 3;
  // The ray or motion (poses are written whole; the other queries do not read it).
  if (q === 'raycast' || q === 'shapecast' || isPointQuery(q)) heap.fill(0, at + 2 * POSE, at + INPUT);
  if (isPointQuery(q)) {
    const a = shapeHandle(x0, 'shape');
    writePose(heap, at, x1 as PoseLike, 'pose');
    const point = x2;
    if (!Array.isArray(point) && !ArrayBuffer.isView(point) && (point === null || typeof point !== 'object')) {
      throw new CollidoscopeError('invalid-argument', 'point', `must be [x, y, z] or { x, y, z }, got ${describe(point)}`);
    }
    writePoint(heap, at + 2 * POSE, point);
    preparedA = preparedB = a;
    return;
  }
  if (q === 'raycast') {
    const pose = x1 as PoseLike, ray = x2 as Ray;
    const a = shapeHandle(x0, 'shape');
    writePose(heap, at, pose, 'pose');
    if (ray === null || typeof ray !== 'object') throw new CollidoscopeError('invalid-argument', 'ray', `must be { origin, direction, maxT? }, got ${describe(ray)}`);
    try {
      checkOptions(ray, ['origin', 'direction', 'maxT']);
      writeVec(heap, at + 2 * POSE, ray.origin, 3, 'ray', 'origin');
      writeVec(heap, at + 2 * POSE + 3, ray.direction, 3, 'ray', 'direction');
      heap[at + 2 * POSE + 6] = ray.maxT === undefined ? 1 : num(ray.maxT, 'ray.maxT');
    } catch (e) {
      throw unreadable(e, 'ray');
    }
    preparedA = preparedB = a;
    return;
  }
  const motion = x4 as Motion;
  const a = shapeHandle(x0, 'a');
  const b = shapeHandle(x2, 'b');
  writePose(heap, at, x1 as PoseLike, 'poseA');
  writePose(heap, at + POSE, x3 as PoseLike, 'poseB');
  if (q === 'shapecast') {
    if (motion === null || typeof motion !== 'object') {
      throw new CollidoscopeError('invalid-argument', 'motion', `must be { translationA?, translationB? }, got ${describe(motion)}`);
    }
    try {
      checkOptions(motion, ['translationA', 'translationB']);
      if (motion.translationA !== undefined) writeVec(heap, at + 2 * POSE, motion.translationA, 3, 'motion', 'translationA');
      if (motion.translationB !== undefined) writeVec(heap, at + 2 * POSE + 3, motion.translationB, 3, 'motion', 'translationB');
    } catch (e) {
      throw unreadable(e, 'motion');
    }
  }
  preparedA = a;
  preparedB = b;
}

const TRACE_OPTIONS: readonly string[] = ['trace'];
const INTERSECT_OPTIONS: readonly string[] = ['trace', 'cache'];
const CONTACT_OPTIONS: readonly string[] = ['margin'];

const KIND_INDEX: Readonly<Record<BatchQuery, number>> = Object.fromEntries(KINDS.map((k, i) => [k, i])) as Record<BatchQuery, number>;

function single(q: BatchQuery, options: IntersectOptions | undefined, x0: unknown, x1: unknown, x2: unknown, x3?: unknown, x4?: unknown): unknown {
  let trace: unknown;
  let cache: unknown;
  if (options !== undefined) {
    checkOptions(options, q === 'intersect' ? INTERSECT_OPTIONS : TRACE_OPTIONS);
    try {
      trace = options.trace;
      cache = options.cache;
    } catch (e) {
      throw unreadable(e, 'options');
    }
  }
  if (trace !== undefined && typeof trace !== 'boolean') {
    throw new CollidoscopeError('invalid-argument', 'options.trace', `must be true or false, got ${describe(trace)}`);
  }
  const m = mod();
  prepare(m, q, x0, x1, x2, x3, x4);
  const a = preparedA, b = preparedB;
  const s = scratchOf(m);
  const compoundA = x0 instanceof CompoundShape, compoundB = x2 instanceof CompoundShape && !isSingle(q);
  // A compound's trace is the answering child's own, which the scene runner writes (the default flavour has no
  // compounds: captions.ts).
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) && trace === true && (compoundA || compoundB)) {
    return withText(unwrap<RawTrace>(m.runScene(jsonRoom(JSON.stringify(unwrap<Scene>(m.sceneOfQuery(q, a, b, s.input))), 'shape'), true)));
  }
  if (trace === true) return withText(unwrap<RawTrace>(m.traceQuery(q, a, b, s.input)));
  if (cache !== undefined && !(cache instanceof IntersectCache)) {
    throw new CollidoscopeError('invalid-argument', 'options.cache', `must be an IntersectCache, got ${describe(cache)}`);
  }
  const c = cache as IntersectCache | undefined;
  if (c) m.HEAPF64.set(c.data, s.cache >> 3);
  if (m._cds_query(KIND_INDEX[q], a, b, s.input, c ? s.cache : 0, s.out, s.features) === 0) throw lastError(m);
  if (c) c.data.set(m.HEAPF64.subarray(s.cache >> 3, (s.cache >> 3) + CACHE));
  const r = withChildren(toResult(q, m.HEAPF64, s.out >> 3) as Record<string, unknown>, m.HEAP32, s.features >> 2, compoundA, compoundB);
  // A mesh against a convex shape names its triangle, as run() does (mesh–mesh: run() names the pair).
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) && (q === 'intersect' || q === 'distance' || q === 'shapecast') && !compoundA && !compoundB && (x0 instanceof MeshShape) !== (x2 instanceof MeshShape)) r.triangle = lastMeshHit(m)[0];
  return r;
}

/**
 * The triangle (null: none) and barycentric coordinates (null: not a ray hit) that the registry kept of the last
 * query on a mesh, beside the fixed layouts.
 */
function lastMeshHit(m: WasmModule): [number | null, Vec3 | null] {
  const s = scratchOf(m);
  m._cds_last_mesh_hit(s.cache);
  const at = s.cache >> 3;
  const h = m.HEAPF64;
  // The registry keeps the hit as computed; batch() and run() write −0 as +0, as every result vector is written
  // (api_results.h put()), so raycast() and project() do too to agree with them bit for bit (x + 0 changes nothing else).
  return [Number.isNaN(h[at]) ? null : h[at], Number.isNaN(h[at + 1]) ? null : [h[at + 1] + 0, h[at + 2] + 0, h[at + 3] + 0]];
}

function isSingle(q: BatchQuery): boolean {
  return q === 'raycast' || isPointQuery(q);
}

/**
 * A result with the compound children that answer (features[at], features[at + 1]: −1 when none does): `child`
 * for one compound side, `childA` and `childB` for two, as the scene format writes them.
 */
function withChildren<R extends object>(r: R, features: Int32Array, at: number, compoundA: boolean, compoundB: boolean): R {
  // The default flavour has no compounds (captions.ts: the build defines this constant).
  if (!(typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__)) return r;
  if (!compoundA && !compoundB) return r;
  const child = (k: number) => (k >= 0 ? k : null);
  if (compoundA && compoundB) return { ...r, childA: child(features[at]), childB: child(features[at + 1]) };
  return { ...r, child: child(features[compoundA ? at : at + 1]) };
}

/** Options of contact(). */
export interface ContactOptions {
  /**
   * Report a contact when the shapes are at most this far apart (finite, ≥ 0; default 0: only touching or
   * overlapping shapes). Pairs farther apart return null, and cost little: GJK stops as soon as one step proves
   * the gap larger than the margin (rapier's prediction distance works the same way).
   */
  margin?: number;
}

/**
 * contact()'s answer for a pair within the margin. The same numbers as distance() and penetration() on the
 * pair: apart, distance()'s distance and points and penetration()'s normal; overlapping, penetration()'s
 * normal and points with distance = −depth.
 */
export interface ContactResult {
  /** Signed: the gap (> 0) when apart, −depth when overlapping, 0 when touching. */
  distance: number;
  /** Unit, from A to B: moving B along it separates the shapes (or widens their gap). */
  normal: Vec3;
  /** On A. */
  pointA: Vec3;
  /** On B; pointB − pointA = distance·normal. */
  pointB: Vec3;
  /** GJK's steps, plus EPA's when the shapes overlap (0 for the closed forms). */
  iterations: number;
  /** 'converged' when certified within the default accuracy; else the query's best estimate. */
  status: EpaStatus;
}

/** contact()'s and contacts()' `options.margin`: a number or undefined (checked in wasm: finite, ≥ 0). */
function marginOption(options: ContactOptions | undefined): number | undefined {
  if (options === undefined) return undefined;
  checkOptions(options, CONTACT_OPTIONS);
  let margin: unknown;
  try {
    margin = options.margin;
  } catch (e) {
    throw unreadable(e, 'options');
  }
  if (margin !== undefined && typeof margin !== 'number') {
    throw new CollidoscopeError('invalid-argument', 'options.margin', `must be a number, got ${describe(margin)}`);
  }
  return margin;
}

/**
 * A contact for games: null when A and B are farther apart than `options.margin` (default 0), else one contact
 * with a signed distance (negative when they overlap), the normal from A to B and a point on each. Separated
 * pairs beyond the margin stop early, without closest points; penetration() keeps its meaning.
 *
 *   const c = contact(a, poseA, b, poseB, { margin: 0.1 });
 *   if (c !== null && c.distance < 0) pushApart(c.normal, -c.distance);
 */
export function contact(a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options?: ContactOptions): ContactResult | null {
  const margin = marginOption(options);
  const m = mod();
  prepare(m, 'contact', a, poseA, b, poseB);
  const s = scratchOf(m);
  m.HEAPF64[(s.input >> 3) + 2 * POSE] = margin ?? 0;
  if (m._cds_query(KIND_INDEX.contact, preparedA, preparedB, s.input, 0, s.out, s.features) === 0) throw lastError(m);
  const one = toContact(m.HEAPF64, s.out >> 3);
  const compoundA = a instanceof CompoundShape, compoundB = b instanceof CompoundShape;
  return one === null ? null : withChildren(one, m.HEAP32, s.features >> 2, compoundA, compoundB);
}

/** Scratch for contacts(): the header and the most contacts one call returns, reserved on first use. */
const CONTACTS_HEADER = 3;
/** The most contacts one contacts() call returns (the library's cap). */
export const MAX_CONTACTS = 4096;
/** Numbers per contact in contactsBatch()'s `contacts`: depth, normal, pointA, pointB, triangle (−1: none). */
export { CONTACT_RECORD_STRIDE };
let contactsOut = 0;

/**
 * Every contact of B with A within `options.margin` (default 0: overlaps and touches): one per triangle of a mesh
 * that touches or comes within the margin of the other shape (a mesh against a convex shape, in either order), or
 * at most one between two convex shapes (contact()'s, as a list). Each contact's normal moves B away from A (from
 * that triangle); `depth` is the overlap (negative: the gap). `truncated` says more than MAX_CONTACTS were found.
 * A game pushing a capsule out of a floor moves it by the deepest contact's depth·normal, then asks again.
 */
export function contacts(a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options?: ContactOptions): ContactsResult {
  const margin = marginOption(options);
  const m = mod();
  prepare(m, 'contact', a, poseA, b, poseB);
  const s = scratchOf(m);
  m.HEAPF64[(s.input >> 3) + 2 * POSE] = margin ?? 0;
  if (contactsOut === 0) contactsOut = m._malloc(8 * (CONTACTS_HEADER + CONTACT_RECORD_STRIDE * MAX_CONTACTS) + 4 * 2 * MAX_CONTACTS);
  const featuresOut = contactsOut + 8 * (CONTACTS_HEADER + CONTACT_RECORD_STRIDE * MAX_CONTACTS);
  if (m._cds_contacts(preparedA, preparedB, s.input, contactsOut, MAX_CONTACTS, featuresOut) === 0) throw lastError(m);
  const h = m.HEAPF64;
  const at = contactsOut >> 3;
  // (The default flavour has only convex shapes: the list below is for meshes and compounds.)
  if (!(typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) || h[at] < 0) {
    // Two convex shapes: the contact query's one contact (the input is still in place).
    if (m._cds_query(KIND_INDEX.contact, preparedA, preparedB, s.input, 0, s.out) === 0) throw lastError(m);
    const all = toResult('contact', m.HEAPF64, s.out >> 3) as ContactResult & { contact: boolean };
    const one = toContact(m.HEAPF64, s.out >> 3);
    if (one === null) return { contacts: [], truncated: false, iterations: all.iterations };
    return {
      contacts: [{ triangle: null, depth: -one.distance, normal: one.normal, pointA: one.pointA, pointB: one.pointB }],
      truncated: false,
      iterations: one.iterations,
    };
  }
  const list: ContactPoint[] = [];
  const compoundA = a instanceof CompoundShape, compoundB = b instanceof CompoundShape;
  for (let i = 0; i < h[at]; i++) {
    const point = decodeContactRecord(h, at + CONTACTS_HEADER + CONTACT_RECORD_STRIDE * i) as ContactPoint;
    list.push(withChildren(point, m.HEAP32, (featuresOut >> 2) + 2 * i, compoundA, compoundB));
  }
  return { contacts: list, truncated: h[at + 1] !== 0, iterations: h[at + 2] };
}

/** A pair query: the result, or with `{ trace: true }` the trace. */
export interface PairQueryFunction<R, T, O extends QueryOptions = QueryOptions> {
  (a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options: O & { trace: true }): T;
  (a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options?: O): R;
}

function pairQuery<R, T, O extends QueryOptions = QueryOptions>(q: PairQuery): PairQueryFunction<R, T, O> {
  return ((a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options?: O) =>
    single(q, options, a, poseA, b, poseB)) as PairQueryFunction<R, T, O>;
}

// Pairs of points, spheres, segments and capsules are answered by a closed form: traced, one frame naming it.

/** GJK boolean test: do A (at poseA) and B (at poseB) overlap? Touching counts as intersecting. */
export const intersect: PairQueryFunction<IntersectResult & MeshTriangle, GjkTrace | ClosedFormTraceOf<'intersect'>, IntersectOptions> = pairQuery('intersect');

/** GJK distance and closest points (0 when the shapes overlap). */
export const distance: PairQueryFunction<DistanceResult & MeshTriangle, GjkTrace | ClosedFormTraceOf<'distance'>> = pairQuery('distance');

/** GJK + EPA: penetration depth, normal (move B by depth·normal to separate) and contact points. */
export const penetration: PairQueryFunction<PenetrationResult, EpaTrace | ClosedFormTraceOf<'penetration'>> = pairQuery('penetration');

/** Chung–Wang's separating-vector test: intersecting, or a separating axis. */
export const chungWang: PairQueryFunction<ChungWangResult, ChungWangTrace> = pairQuery('chungwang');

/**
 * Separating-axis test on shapes with vertices (box, polytope, triangle, segment, point; sphere and capsule as
 * rounded point and segment). The first sat() on a non-box shape builds and keeps its SAT hull.
 */
export const sat: PairQueryFunction<SatResult, SatTrace> = pairQuery('sat');

/**
 * Ray cast against a shape: the first hit of origin + t·direction, 0 ≤ t ≤ maxT (GJK on convex shapes; on a
 * mesh() the closest triangle through its OBB tree, two-sided, with `triangle` and `barycentric`).
 */
export function raycast(shape: ConvexShape, pose: PoseLike | undefined, ray: Ray, options: QueryOptions & { trace: true }): RaycastTrace;
export function raycast(shape: ConvexShape, pose: PoseLike | undefined, ray: Ray, options?: QueryOptions): RaycastResult;
export function raycast(shape: ConvexShape, pose: PoseLike | undefined, ray: Ray, options?: QueryOptions): RaycastResult | RaycastTrace {
  const r = single('raycast', options, shape, pose, ray) as RaycastResult;
  if (!(typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) || !(shape instanceof MeshShape) || 'frames' in r) return r;
  [r.triangle, r.barycentric] = lastMeshHit(mod());
  return r;
}

/** GJK shape cast: A and B translate over the step; time of impact t ∈ [0, 1], normal and contact points. */
export function shapecast(a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, motion: Motion, options: QueryOptions & { trace: true }): ShapecastTrace;
export function shapecast(a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, motion: Motion, options?: QueryOptions): ShapecastResult;
export function shapecast(a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, motion: Motion, options?: QueryOptions): ShapecastResult | ShapecastTrace {
  return single('shapecast', options, a, poseA, b, poseB, motion) as ShapecastResult;
}

/**
 * Does the shape (at `pose`) contain the point? The boundary counts as inside (a point on the surface is
 * contained). The same answer as intersect() with a point shape at `point`.
 *
 *   if (contains(trigger, pose, [x, y, z]).inside) enter();
 */
export function contains(shape: ConvexShape, pose: PoseLike | undefined, point: Vec3 | XYZ): ContainsResult {
  return single('contains', undefined, shape, pose, point) as ContainsResult;
}

/**
 * The point of the shape's surface nearest `point`, its distance, whether `point` is inside (boundary
 * included), and the `feature` it lies on (a vertex, an edge or a face by input-point indices; the part of a
 * round shape: README). From inside, `point` on the result is where the shortest move takes the query point out
 * of the shape, and `distance` how far that is (the penetration depth of a point). A mesh() is a surface: inside
 * is false, and the result names the `triangle` and the point's `barycentric` coordinates in it.
 *
 *   const p = project(box, pose, [x, y, z]);
 *   if (p.inside) pushOut(p.point);
 *   if (p.feature.kind === 'vertex') corner = p.feature.vertices[0];
 */
export function project(shape: MeshShape, pose: PoseLike | undefined, point: Vec3 | XYZ): MeshProjectResult;
export function project(shape: ConvexShape, pose: PoseLike | undefined, point: Vec3 | XYZ): ProjectResult;
export function project(shape: ConvexShape, pose: PoseLike | undefined, point: Vec3 | XYZ): ProjectResult {
  const r = single('project', undefined, shape, pose, point) as ProjectResult;
  // The feature beside the fixed layout (a face lists any number of points): kind and count, then the list.
  const m = mod(), at = scratchOf(m).features >> 2;
  const list = m._cds_last_feature(at << 2) >> 2;
  r.feature = { kind: FEATURE_KINDS[m.HEAP32[at]], vertices: Array.from(m.HEAP32.subarray(list, list + m.HEAP32[at + 1])) };
  // A mesh's triangle and barycentric coordinates, kept beside the layout as a ray cast's.
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) && shape instanceof MeshShape) {
    const t = r as MeshProjectResult;
    [t.triangle, t.barycentric] = lastMeshHit(m) as [number, Vec3];
  }
  return r;
}

/** FeatureKind's names in point_query.h's order (a test checks project() against run()). */
const FEATURE_KINDS: readonly FeatureKind[] = ['vertex', 'edge', 'face', 'surface', 'side', 'cap', 'rim', 'base', 'apex'];

/**
 * The scene (format version 1) of a query: its shapes at their poses, and the ray, motion, point or margin. Pass
 * it to run(), trace(), encodeLink() or the CLI to replay the query, e.g. to report a pair that misbehaves in a
 * game. contact and contacts take contact()'s options: the scene's `"margin"` is `options.margin` (default 0, at
 * most 1e15), and run() of it gives contact()'s (contacts()') answer. They have no trace.
 *
 *   const link = encodeLink(sceneOf('penetration', a, poseA, b, poseB));
 *   const bad = encodeLink(sceneOf('contact', a, poseA, b, poseB, { margin: 0.05 }));
 */
export function sceneOf(query: 'raycast', shape: ConvexShape, pose: PoseLike | undefined, ray: Ray): Scene;
export function sceneOf(query: PointQuery, shape: ConvexShape, pose: PoseLike | undefined, point: Vec3 | XYZ): Scene;
export function sceneOf(query: 'shapecast', a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, motion: Motion): Scene;
export function sceneOf(query: 'contact' | 'contacts', a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined, options?: ContactOptions): Scene;
export function sceneOf(query: Exclude<PairQuery, 'shapecast'>, a: ConvexShape, poseA: PoseLike | undefined, b: ConvexShape, poseB: PoseLike | undefined): Scene;
export function sceneOf(query: BatchQuery | 'contacts', ...args: unknown[]): Scene {
  // contacts is the contact query's pair and margin under the other scene query.
  const q = query === 'contacts' ? 'contact' : kindOf(query, 'query', ['contacts']);
  const m = mod();
  const margin = q === 'contact' ? marginOption(args[4] as ContactOptions | undefined) : undefined;
  prepare(m, q, args[0], args[1], args[2], args[3], args[4]);
  const s = scratchOf(m);
  if (q === 'contact') m.HEAPF64[(s.input >> 3) + 2 * POSE] = margin ?? 0;
  const scene = unwrap<Scene>(m.sceneOfQuery(q, preparedA, preparedB, s.input));
  return query === 'contacts' ? { ...scene, query: 'contacts' } : scene;
}

// ------------------------------------------------------------------ batches

/** Options of batch(). */
export interface BatchOptions {
  /** raycast: 7 numbers per ray (origin, direction, maxT). */
  rays?: Float64Array | Float32Array | ArrayLike<number>;
  /** contains and project: 3 numbers per query point (x, y, z). */
  points?: Float64Array | Float32Array | ArrayLike<number>;
  /** shapecast: 6 numbers per pair (translationA, translationB). */
  motions?: Float64Array | Float32Array | ArrayLike<number>;
  /** contact: one margin for every pair (default 0). */
  margin?: number;
  /** contact: one margin per pair (instead of `margin`). */
  margins?: Float64Array | Float32Array | ArrayLike<number>;
  /** intersect: 4 numbers per pair, read and updated (zeros to start): each pair's warm start. */
  caches?: Float64Array;
  /** Where to write the results (stride · pairs numbers); a new array when left out. */
  out?: Float64Array;
  /**
   * Filled with 2 numbers per query (at least 2 · queries): the feature of shape A and of shape B that answers, −1
   * when none. A compound's is the index of its child that answers. A mesh's is a triangle index: the ray's hit
   * (raycast), the touching triangle (intersect), the nearest (distance), the first hit (shapecast); −1 on a miss
   * and for shapes that are neither. Mesh–mesh intersect fills both: run()'s `triangles`.
   * batchResult(query, out, i, { features, shapes, pairs }) adds them as the single query names them (`triangle`,
   * `child`, `childA`, `childB`).
   */
  features?: Int32Array;
  /** raycast: filled with 3 numbers per ray, a mesh hit's barycentric coordinates (NaN on a miss or another shape). */
  barycentric?: Float64Array;
}

/** Checks batch()'s features and barycentric arrays: typed arrays of at least `per` numbers per query. */
function featureArray<T extends Int32Array | Float64Array>(v: T | undefined, type: new (n: number) => T, per: number, n: number, q: BatchQuery, field: string): T | undefined {
  if (v === undefined) return undefined;
  attached(v, field);
  if (per === 3 && q !== 'raycast') throw new CollidoscopeError('invalid-argument', field, `is only used by raycast, not ${q}`);
  if (!(v instanceof type) || v.length < per * n) {
    throw new CollidoscopeError('invalid-argument', field, `must be a${per === 2 ? 'n Int32Array' : ' Float64Array'} of at least ${per} numbers per query (${per * n}), got ${describe(v)}`);
  }
  return v;
}

/** Growable wasm-heap buffers of batch(), kept between calls (they never shrink). */
const arena = { ptr: 0, bytes: 0 };

function arenaOf(m: WasmModule, bytes: number): number {
  if (bytes > arena.bytes) {
    if (arena.ptr !== 0) m._free(arena.ptr);
    const size = Math.max(bytes, 2 * arena.bytes, 4096);
    arena.ptr = m._malloc(size);
    if (arena.ptr === 0) {
      arena.bytes = 0;
      throw new CollidoscopeError('out-of-memory', 'pairs', `the batch needs ${bytes} bytes of wasm memory, more than is available`);
    }
    arena.bytes = size;
  }
  return arena.ptr;
}

/**
 * Throws for a typed array whose buffer was transferred away (postMessage, structuredClone with `transfer`): it
 * reads as empty, and copying from or into it throws a TypeError.
 */
function attached(v: unknown, field: string): void {
  if (!ArrayBuffer.isView(v) || v.byteLength !== 0) return;
  const buffer = v.buffer as ArrayBuffer & { detached?: boolean };
  let gone = buffer.detached;
  if (gone === undefined) {
    // Before ArrayBuffer.prototype.detached (Node 20): only a detached buffer refuses a new view.
    try {
      new Uint8Array(buffer);
      gone = false;
    } catch {
      gone = true;
    }
  }
  if (gone) throw new CollidoscopeError('invalid-argument', field, 'is a view of a detached ArrayBuffer (transferred away, to a worker or by structuredClone)');
}

function typedLength(v: unknown, field: string): number {
  let length: unknown;
  try {
    attached(v, field);
    length = v !== null && typeof v === 'object' ? (v as ArrayLike<number>).length : undefined;
  } catch (e) {
    throw unreadable(e, field);
  }
  if (typeof length !== 'number' || !Number.isSafeInteger(length) || length < 0) {
    throw new CollidoscopeError('invalid-argument', field, `must be a typed array or an array of numbers, got ${describe(v)}`);
  }
  return length;
}

function copyNumbers(heap: Float64Array | Uint32Array, at: number, v: ArrayLike<number>, field: string): void {
  try {
    if (ArrayBuffer.isView(v)) {
      heap.set(v as ArrayLike<number>, at);
      return;
    }
    for (let i = 0; i < v.length; i++) heap[at + i] = num(v[i], `${field}[${i}]`);
  } catch (e) {
    throw unreadable(e, field);
  }
}

/**
 * The shapes' handles into heap32 from index `at`. The common case (live shapes of this module) reads each
 * handle directly; anything else (a disposed shape, a stranger, a Proxy whose traps throw) is named by
 * shapeHandle.
 */
function writeHandles(heap32: Int32Array, at: number, shapes: readonly ConvexShape[]): void {
  try {
    for (let i = 0; i < shapes.length; i++) {
      const s = shapes[i];
      const h = s instanceof ConvexShape ? s.rawHandle() : 0;
      if (h === 0) {
        heap32[at + i] = shapeHandle(s, `shapes[${i}]`);
        continue;
      }
      heap32[at + i] = h;
    }
  } catch (e) {
    throw unreadable(e, 'shapes');
  }
}

/**
 * contact's margins in a batch: one for all pairs (options.margin, default 0) or one per pair
 * (options.margins); null for the other queries, which must not be given either.
 */
function contactMargins(q: BatchQuery, opt: BatchOptions, n: number): { all: number; per: ArrayLike<number> | null } | null {
  if (q !== 'contact') {
    if (opt.margin !== undefined || opt.margins !== undefined) {
      throw new CollidoscopeError('invalid-argument', opt.margin !== undefined ? 'options.margin' : 'options.margins', `is only used by contact, not ${q}`);
    }
    return null;
  }
  if (opt.margin !== undefined && opt.margins !== undefined) {
    throw new CollidoscopeError('invalid-argument', 'options.margins', 'give one margin for all pairs (margin) or one per pair (margins), not both');
  }
  if (opt.margins !== undefined) {
    const length = typedLength(opt.margins, 'options.margins');
    if (length !== n) throw new CollidoscopeError('invalid-argument', 'options.margins', `must hold 1 number per pair (${n}), got ${length}`);
    return { all: 0, per: opt.margins };
  }
  const all = opt.margin ?? 0;
  if (typeof all !== 'number') throw new CollidoscopeError('invalid-argument', 'options.margin', `must be a number, got ${describe(all)}`);
  // Checked here, not per pair in C++: the error names the option that was given.
  if (!Number.isFinite(all)) throw new CollidoscopeError('invalid-argument', 'options.margin', `must be a finite number, got ${all}`);
  if (all < 0) throw new CollidoscopeError('invalid-argument', 'options.margin', 'must not be negative');
  return { all, per: null };
}

/**
 * Answers many queries in one call, without crossing into wasm once per pair. `shapes` lists the shapes,
 * `poses` holds 7 numbers per shape ([x, y, z, qx, qy, qz, qw]; Float64Array or Float32Array), and `pairs` 2
 * shape indices per query (raycast: 1, with `options.rays`). Returns batchLayout(query).stride numbers per
 * query; each query's numbers are bit for bit what the single query (intersect(), distance(), …) returns.
 * contact takes `options.margin` (all pairs) or `options.margins` (one per pair); a pair beyond its margin
 * has `contact` 0 and NaN in the other fields (batchResult() turns it into null, as contact() returns).
 *
 *   const out = batch('distance', shapes, poses, new Uint32Array([0, 1, 0, 2]));
 *   const { stride } = batchLayout('distance');
 *   const d01 = out[0], d02 = out[stride];
 */
export function batch(query: BatchQuery, shapes: readonly ConvexShape[], poses: Float64Array | Float32Array | ArrayLike<number>, pairs: Uint32Array | ArrayLike<number>, options: BatchOptions = {}): Float64Array {
  const q = kindOf(query, 'query');
  const m = mod();
  checkOptions(options, ['rays', 'points', 'motions', 'margin', 'margins', 'caches', 'out', 'features', 'barycentric']);
  let opt: BatchOptions;
  try {
    opt = { rays: options.rays, points: options.points, motions: options.motions, margin: options.margin, margins: options.margins, caches: options.caches, out: options.out, features: options.features, barycentric: options.barycentric };
  } catch (e) {
    throw unreadable(e, 'options');
  }
  let nShapes: number;
  try {
    if (!Array.isArray(shapes)) throw new CollidoscopeError('invalid-argument', 'shapes', `must be an array of shapes, got ${describe(shapes)}`);
    nShapes = shapes.length;
  } catch (e) {
    throw unreadable(e, 'shapes');
  }
  const nPoses = typedLength(poses, 'poses');
  if (nPoses !== POSE * nShapes) {
    throw new CollidoscopeError('invalid-argument', 'poses', `must hold 7 numbers per shape (${POSE * nShapes}), got ${nPoses}`);
  }
  const per = q === 'raycast' || isPointQuery(q) ? 1 : 2;
  const nIndices = typedLength(pairs, 'pairs');
  if (nIndices % per !== 0) throw new CollidoscopeError('invalid-argument', 'pairs', `must hold 2 shape indices per pair, got ${nIndices} numbers`);
  const n = nIndices / per;
  if (n > 1 << 22) throw new CollidoscopeError('invalid-argument', 'pairs', `must hold at most ${1 << 22} queries, got ${n}`);
  const extraName = q === 'raycast' ? 'rays' : q === 'shapecast' ? 'motions' : isPointQuery(q) ? 'points' : null;
  const extraPer = q === 'raycast' ? 7 : isPointQuery(q) ? 3 : 6;
  const extras = extraName === null ? undefined : opt[extraName as 'rays' | 'motions' | 'points'];
  if (extraName !== null) {
    if (extras === undefined) throw new CollidoscopeError('invalid-argument', `options.${extraName}`, `is missing (${q} needs ${extraPer} numbers per query)`);
    const nExtras = typedLength(extras, `options.${extraName}`);
    if (nExtras !== extraPer * n) {
      throw new CollidoscopeError('invalid-argument', `options.${extraName}`, `must hold ${extraPer} numbers per query (${extraPer * n}), got ${nExtras}`);
    }
  }
  for (const name of ['rays', 'motions', 'points'] as const) {
    if (name !== extraName && opt[name] !== undefined) throw new CollidoscopeError('invalid-argument', `options.${name}`, `is not used by ${q}`);
  }
  const margins = contactMargins(q, opt, n);
  const caches = opt.caches;
  if (caches !== undefined) {
    attached(caches, 'options.caches');
    if (q !== 'intersect') throw new CollidoscopeError('invalid-argument', 'options.caches', `is only used by intersect, not ${q}`);
    if (!(caches instanceof Float64Array) || caches.length !== CACHE * n) {
      throw new CollidoscopeError('invalid-argument', 'options.caches', `must be a Float64Array of 4 numbers per pair (${CACHE * n})`);
    }
  }
  const stride = layoutOf(m, q).fields.length;
  const out = opt.out ?? new Float64Array(stride * n);
  attached(out, 'options.out');
  if (!(out instanceof Float64Array) || out.length < stride * n) {
    throw new CollidoscopeError('invalid-argument', 'options.out', `must be a Float64Array of at least ${stride * n} numbers`);
  }
  const features = featureArray(opt.features, Int32Array, 2, n, q, 'options.features');
  const bary = featureArray(opt.barycentric, Float64Array, 3, n, q, 'options.barycentric');
  // One arena: doubles first (8-byte aligned), then the 4-byte handles, indices and features.
  const dPoses = 0;
  const dExtras = dPoses + POSE * nShapes;
  const dCaches = dExtras + (extras || margins ? 7 * n : 0);
  const dOut = dCaches + (caches ? CACHE * n : 0);
  const dBary = dOut + stride * n;
  // raycast: 2 words per ray of scratch for tracing rays on a mesh in a coherent order (wasm/src/ray_order.cpp).
  const dRayOrder = dBary + (bary ? 3 * n : 0);
  const doubles = dRayOrder + (q === 'raycast' ? 2 * n : 0);
  const base = arenaOf(m, 8 * doubles + 4 * (nShapes + nIndices + (features ? 2 * n : 0)));
  const f64 = m.HEAPF64;
  const at = base >> 3;
  const iHandles = (base + 8 * doubles) >> 2;
  const iPairs = iHandles + nShapes;
  const iFeatures = iPairs + nIndices;
  writeHandles(m.HEAP32, iHandles, shapes);
  copyNumbers(f64, at + dPoses, poses, 'poses');
  if (extras) {
    if (extraPer === 7) copyNumbers(f64, at + dExtras, extras, `options.${extraName}`);
    else {
      // Motions (6 per pair) and points (3 per query) into the C++ layout's 7 (the rest unused).
      try {
        for (let i = 0; i < n; i++) {
          for (let k = 0; k < extraPer; k++) f64[at + dExtras + 7 * i + k] = num(extras[extraPer * i + k], `options.${extraName}[${extraPer * i + k}]`);
          for (let k = extraPer; k < 7; k++) f64[at + dExtras + 7 * i + k] = 0;
        }
      } catch (e) {
        throw unreadable(e, `options.${extraName}`);
      }
    }
  }
  if (margins) {
    // One margin per pair into the first of its 7 extras (the rest unused).
    const per = margins.per;
    try {
      if (per === null) for (let i = 0; i < n; i++) f64[at + dExtras + 7 * i] = margins.all;
      else if (ArrayBuffer.isView(per)) for (let i = 0; i < n; i++) f64[at + dExtras + 7 * i] = per[i];
      else for (let i = 0; i < n; i++) f64[at + dExtras + 7 * i] = num(per[i], `options.margins[${i}]`);
    } catch (e) {
      throw unreadable(e, 'options.margins');
    }
  }
  if (caches) f64.set(caches, at + dCaches);
  const u32 = m.HEAPU32;
  if (pairs instanceof Uint32Array) {
    // Whole numbers ≥ 0 already: only the range is checked, then one copy.
    let largest = 0;
    for (let i = 0; i < nIndices; i++) if (pairs[i] > largest) largest = pairs[i];
    if (largest >= nShapes) {
      const i = pairs.findIndex((v) => v >= nShapes);
      throw new CollidoscopeError('invalid-argument', `pairs[${i}]`, `must be a shape index from 0 to ${nShapes - 1}, got ${pairs[i]}`);
    }
    u32.set(pairs, iPairs);
  } else {
    try {
      for (let i = 0; i < nIndices; i++) {
        const v = (pairs as ArrayLike<number>)[i];
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= nShapes) {
          throw new CollidoscopeError('invalid-argument', `pairs[${i}]`, `must be a shape index from 0 to ${nShapes - 1}, got ${describe(v)}`);
        }
        u32[iPairs + i] = v;
      }
    } catch (e) {
      throw unreadable(e, 'pairs');
    }
  }
  const ok = m._cds_batch(
    KINDS.indexOf(q), iHandles << 2, nShapes, base + 8 * dPoses, iPairs << 2, n,
    extras || margins ? base + 8 * dExtras : 0, caches ? base + 8 * dCaches : 0, base + 8 * dOut,
    features ? iFeatures << 2 : 0, bary ? base + 8 * dBary : 0, q === 'raycast' ? base + 8 * dRayOrder : 0,
  );
  if (ok === 0) throw lastError(m);
  const heap = m.HEAPF64;
  out.set(heap.subarray(at + dOut, at + dOut + stride * n));
  if (features) features.set(m.HEAP32.subarray(iFeatures, iFeatures + 2 * n));
  if (bary) bary.set(heap.subarray(at + dBary, at + dBary + 3 * n));
  if (caches) caches.set(heap.subarray(at + dCaches, at + dCaches + CACHE * n));
  return out;
}

// ------------------------------------------------------------------ batches in place

/** The typed-array views of one BatchBuffers' memory (`wide`: the doubles the C++ reads). */
interface BatchViews {
  poses: Float64Array | Float32Array;
  wide: Float64Array;
  pairs: Uint32Array;
  extras: Float64Array | null;
  motions: Float64Array | null;
  points: Float64Array | null;
  margins: Float64Array | null;
  caches: Float64Array | null;
  out: Float64Array;
  handles: Int32Array;
  features: Int32Array | null;
  barycentric: Float64Array | null;
}

/** Options of createBatch(). */
export interface BatchBufferOptions {
  /** Most pairs (rays for raycast) one run() answers: the size of `pairs` and `out`. */
  capacity: number;
  /** 'f64' (default) or 'f32': the type of `poses`. Float32 poses are widened to doubles in wasm memory by run(). */
  precision?: 'f64' | 'f32';
  /** intersect: keep a warm-start cache per pair (`caches`, 4 numbers each, zeros to start). */
  caches?: boolean;
  /** Fill `features` on every run: 2 numbers per pair (mesh triangles, compound children), as batch()'s `options.features`. */
  features?: boolean;
  /** raycast: fill `barycentric` on every run: 3 numbers per ray, as batch()'s `options.barycentric`. */
  barycentric?: boolean;
}

/**
 * Batch buffers in wasm memory: poses, pairs (and rays, motions, caches) that a game fills in place every frame,
 * and results it reads in place, with no copy between JavaScript and wasm. Made by createBatch(); free it with
 * dispose(). The arrays are views of wasm memory: read them from the batch each time (a memory growth, which any
 * call into the library may cause, replaces them; the getters hand out the current ones).
 *
 *   const b = createBatch('distance', shapes, { capacity: 1024 });
 *   b.poses.set(myPoses);              // 7 numbers per shape, as batch() takes them
 *   b.pairs.set([0, 1, 0, 2]);         // 2 shape indices per pair
 *   const out = b.run(2);              // the first 2 pairs: 2 × stride numbers, a view (valid until the next call)
 */
export class BatchBuffers {
  readonly query: BatchQuery;
  /** Numbers per pair in `out` (batchLayout(query).stride). */
  readonly stride: number;
  readonly capacity: number;
  readonly shapeCount: number;
  readonly precision: 'f64' | 'f32';
  #ptr: number;
  #buffer: ArrayBufferLike | null = null;
  #views: BatchViews | null = null;
  readonly #layout: { wide: number; narrow: number; extras: number; motions: number; margins: number; caches: number; out: number; barycentric: number; rayOrder: number; handles: number; pairs: number; features: number; bytes: number };
  readonly #hasCaches: boolean;
  readonly #features: boolean;
  readonly #barycentric: boolean;

  /** @internal Use createBatch(). */
  constructor(query: BatchQuery, handles: readonly number[], capacity: number, precision: 'f64' | 'f32', caches: boolean, stride: number, features = false, barycentric = false) {
    this.query = query;
    this.stride = stride;
    this.capacity = capacity;
    this.shapeCount = handles.length;
    this.precision = precision;
    this.#hasCaches = caches;
    this.#features = features;
    this.#barycentric = barycentric;
    const n = handles.length;
    const per = query === 'raycast' || isPointQuery(query) ? 1 : 2;
    const extra = query === 'raycast' || query === 'shapecast' || query === 'contact' || isPointQuery(query);
    // Doubles first (8-byte aligned), then the 4-byte narrow poses, handles and indices. `motions` holds the
    // motions of shapecast (6 per pair) or the points of contains and project (3 per query).
    const wide = 0;
    const extras = wide + POSE * n;
    const motions = extras + (extra ? 7 * capacity : 0);
    const margins = motions + (query === 'shapecast' ? 6 * capacity : isPointQuery(query) ? 3 * capacity : 0);
    const cachesAt = margins + (query === 'contact' ? capacity : 0);
    const out = cachesAt + (caches ? CACHE * capacity : 0);
    const baryAt = out + stride * capacity;
    // raycast: 2 words per ray of scratch for tracing rays on a mesh in a coherent order (wasm/src/ray_order.cpp).
    const rayOrder = baryAt + (barycentric ? 3 * capacity : 0);
    const doubles = rayOrder + (query === 'raycast' ? 2 * capacity : 0);
    const narrow = 2 * doubles; // in 4-byte units
    const handlesAt = narrow + (precision === 'f32' ? POSE * n : 0);
    const pairs = handlesAt + n;
    const featuresAt = pairs + per * capacity;
    const bytes = 4 * (featuresAt + (features ? 2 * capacity : 0));
    this.#layout = { wide, narrow, extras, motions, margins, caches: cachesAt, out, barycentric: baryAt, rayOrder, handles: handlesAt, pairs, features: featuresAt, bytes };
    const m = mod();
    this.#ptr = m._malloc(bytes);
    if (this.#ptr === 0) throw new CollidoscopeError('out-of-memory', 'options.capacity', `the batch needs ${bytes} bytes of wasm memory, more than is available`);
    m.HEAPU8.fill(0, this.#ptr, this.#ptr + bytes);
    const v = this.#current();
    v.handles.set(handles);
    // Identity poses to start with.
    for (let i = 0; i < n; i++) v.poses[POSE * i + 6] = 1;
  }

  #current(): BatchViews {
    if (this.#ptr === 0) throw new CollidoscopeError('disposed', 'batch', 'the batch buffers were disposed');
    const buffer = mod().HEAPU8.buffer;
    if (this.#views === null || this.#buffer !== buffer) {
      const L = this.#layout, p = this.#ptr, n = this.shapeCount, cap = this.capacity;
      const d = (at: number, len: number) => new Float64Array(buffer, p + 8 * at, len);
      const wide = d(L.wide, POSE * n);
      const point = isPointQuery(this.query);
      const extra = this.query === 'raycast' || this.query === 'shapecast' || this.query === 'contact' || point;
      this.#views = {
        wide,
        poses: this.precision === 'f32' ? new Float32Array(buffer, p + 4 * L.narrow, POSE * n) : wide,
        extras: extra ? d(L.extras, 7 * cap) : null,
        motions: this.query === 'shapecast' ? d(L.motions, 6 * cap) : null,
        points: point ? d(L.motions, 3 * cap) : null,
        margins: this.query === 'contact' ? d(L.margins, cap) : null,
        caches: this.#hasCaches ? d(L.caches, CACHE * cap) : null,
        out: d(L.out, this.stride * cap),
        handles: new Int32Array(buffer, p + 4 * L.handles, n),
        pairs: new Uint32Array(buffer, p + 4 * L.pairs, (this.query === 'raycast' || point ? 1 : 2) * cap),
        features: this.#features ? new Int32Array(buffer, p + 4 * L.features, 2 * cap) : null,
        barycentric: this.#barycentric ? d(L.barycentric, 3 * cap) : null,
      };
      this.#buffer = buffer;
    }
    return this.#views;
  }

  /** 7 numbers per shape [x, y, z, qx, qy, qz, qw] (identity to start), Float64Array or Float32Array. */
  get poses(): Float64Array | Float32Array { return this.#current().poses; }
  /** 2 shape indices per pair (raycast, contains, project: 1 per query). */
  get pairs(): Uint32Array { return this.#current().pairs; }
  /** raycast: 7 numbers per ray (origin, direction, maxT). */
  get rays(): Float64Array {
    const v = this.#current();
    if (this.query !== 'raycast' || v.extras === null) throw new CollidoscopeError('invalid-argument', 'rays', `only raycast batches have rays, not ${this.query}`);
    return v.extras;
  }
  /** shapecast: 6 numbers per pair (translationA, translationB). */
  get motions(): Float64Array {
    const v = this.#current();
    if (v.motions === null) throw new CollidoscopeError('invalid-argument', 'motions', `only shapecast batches have motions, not ${this.query}`);
    return v.motions;
  }
  /** contains and project: 3 numbers per query point (x, y, z; zeros to start). */
  get points(): Float64Array {
    const v = this.#current();
    if (v.points === null) throw new CollidoscopeError('invalid-argument', 'points', `only contains and project batches have points, not ${this.query}`);
    return v.points;
  }
  /** contact: 1 number per pair, its margin (0 to start). */
  get margins(): Float64Array {
    const v = this.#current();
    if (v.margins === null) throw new CollidoscopeError('invalid-argument', 'margins', `only contact batches have margins, not ${this.query}`);
    return v.margins;
  }
  /** intersect with { caches: true }: 4 numbers per pair, kept between runs. */
  get caches(): Float64Array {
    const v = this.#current();
    if (v.caches === null) throw new CollidoscopeError('invalid-argument', 'caches', 'this batch was made without { caches: true }');
    return v.caches;
  }
  /** The results: `stride` numbers per pair, as batch() returns them. */
  get out(): Float64Array { return this.#current().out; }
  /** With { features: true }: 2 numbers per pair, written by run(): the mesh triangles and compound children that answer (batch()'s `options.features`). */
  get features(): Int32Array {
    const v = this.#current();
    if (v.features === null) throw new CollidoscopeError('invalid-argument', 'features', 'this batch was made without { features: true }');
    return v.features;
  }
  /** raycast with { barycentric: true }: 3 numbers per ray, written by run() (batch()'s `options.barycentric`). */
  get barycentric(): Float64Array {
    const v = this.#current();
    if (v.barycentric === null) throw new CollidoscopeError('invalid-argument', 'barycentric', 'this batch was made without { barycentric: true }');
    return v.barycentric;
  }

  /**
   * Answers the first `count` pairs (default: capacity) from the buffers; returns a view of their results in
   * `out` (count × stride numbers), valid until the next call into the library. Every pose and index is checked
   * first, as batch() checks them: on an error nothing is answered.
   */
  run(count: number = this.capacity): Float64Array {
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 0 || count > this.capacity) {
      throw new CollidoscopeError('invalid-argument', 'count', `must be a whole number from 0 to the capacity ${this.capacity}, got ${describe(count)}`);
    }
    const m = mod();
    const v = this.#current();
    if (this.precision === 'f32') v.wide.set(v.poses);
    if (v.motions !== null && v.extras !== null) {
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 6; k++) v.extras[7 * i + k] = v.motions[6 * i + k];
        v.extras[7 * i + 6] = 0;
      }
    }
    if (v.points !== null && v.extras !== null) {
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 3; k++) v.extras[7 * i + k] = v.points[3 * i + k];
        for (let k = 3; k < 7; k++) v.extras[7 * i + k] = 0;
      }
    }
    if (v.margins !== null && v.extras !== null) for (let i = 0; i < count; i++) v.extras[7 * i] = v.margins[i];
    const L = this.#layout, p = this.#ptr;
    const ok = m._cds_batch(
      KINDS.indexOf(this.query), p + 4 * L.handles, this.shapeCount, p + 8 * L.wide, p + 4 * L.pairs, count,
      v.extras !== null ? p + 8 * L.extras : 0, v.caches !== null ? p + 8 * L.caches : 0, p + 8 * L.out,
      v.features !== null ? p + 4 * L.features : 0, v.barycentric !== null ? p + 8 * L.barycentric : 0,
      this.query === 'raycast' ? p + 8 * L.rayOrder : 0,
    );
    if (ok === 0) throw lastError(m);
    return this.#current().out.subarray(0, this.stride * count);
  }

  /** Frees the buffers' wasm memory (not the shapes). */
  dispose(): void {
    if (this.#ptr === 0) return;
    loadedModule()?._free(this.#ptr);
    this.#ptr = 0;
    this.#views = null;
  }

  [disposeSymbol](): void {
    this.dispose();
  }
}

/**
 * Batch buffers for `query` over a fixed list of shapes, in wasm memory (see BatchBuffers): the zero-copy form
 * of batch() for a game that fills poses and pairs every frame.
 */
export function createBatch(query: BatchQuery, shapes: readonly ConvexShape[], options: BatchBufferOptions): BatchBuffers {
  const q = kindOf(query, 'query');
  const m = mod();
  if (options === null || typeof options !== 'object') {
    throw new CollidoscopeError('invalid-argument', 'options', `must be an object with a capacity, got ${describe(options)}`);
  }
  checkOptions(options, ['capacity', 'precision', 'caches', 'features', 'barycentric']);
  let opt: BatchBufferOptions;
  try {
    opt = { capacity: options.capacity, precision: options.precision, caches: options.caches, features: options.features, barycentric: options.barycentric };
  } catch (e) {
    throw unreadable(e, 'options');
  }
  const { capacity } = opt;
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 1 || capacity > 1 << 22) {
    throw new CollidoscopeError('invalid-argument', 'options.capacity', `must be a whole number from 1 to ${1 << 22}, got ${describe(capacity)}`);
  }
  const precision = opt.precision ?? 'f64';
  if (precision !== 'f64' && precision !== 'f32') {
    throw new CollidoscopeError('invalid-argument', 'options.precision', `must be 'f64' or 'f32', got ${describe(precision)}`);
  }
  if (opt.caches !== undefined && typeof opt.caches !== 'boolean') {
    throw new CollidoscopeError('invalid-argument', 'options.caches', `must be true or false, got ${describe(opt.caches)}`);
  }
  if (opt.caches && q !== 'intersect') throw new CollidoscopeError('invalid-argument', 'options.caches', `is only used by intersect, not ${q}`);
  for (const k of ['features', 'barycentric'] as const) {
    if (opt[k] !== undefined && typeof opt[k] !== 'boolean') throw new CollidoscopeError('invalid-argument', `options.${k}`, `must be true or false, got ${describe(opt[k])}`);
  }
  if (opt.barycentric && q !== 'raycast') throw new CollidoscopeError('invalid-argument', 'options.barycentric', `is only used by raycast, not ${q}`);
  let handles: number[];
  try {
    if (!Array.isArray(shapes)) throw new CollidoscopeError('invalid-argument', 'shapes', `must be an array of shapes, got ${describe(shapes)}`);
    handles = shapes.map((s, i) => shapeHandle(s, `shapes[${i}]`));
  } catch (e) {
    throw unreadable(e, 'shapes');
  }
  return new BatchBuffers(q, handles, capacity, precision, opt.caches === true, layoutOf(m, q).fields.length, opt.features === true, opt.barycentric === true);
}

/** What batchResult() adds from the arrays batch() filled (BatchOptions.features and .barycentric). */
export interface BatchExtras {
  /**
   * The batch's features, read with `shapes` and `pairs` (which side is a mesh or a compound): adds a mesh's
   * `triangle` (against a convex shape, and on a ray) and a compound's `child` (or `childA` and `childB`), null
   * when none answers, as the single query names them.
   */
  features?: Int32Array;
  /** raycast: adds `barycentric`, null on a miss or when the shape is not a mesh. */
  barycentric?: Float64Array;
  /** batch()'s shapes (with `features`). */
  shapes?: readonly ConvexShape[];
  /** batch()'s pairs (with `features`; raycast: 1 index per ray). */
  pairs?: Uint32Array | ArrayLike<number>;
}

/**
 * The result object of query number i of a batch() output (as the single query returns it). With `extras`, the
 * arrays that batch() filled too: a mesh's `triangle` (and a ray's `barycentric`) and a compound's children, as
 * the single queries and run() name them.
 */
export function batchResult(query: 'intersect', out: Float64Array, i: number, extras?: BatchExtras): IntersectResult & MeshTriangle;
export function batchResult(query: 'distance', out: Float64Array, i: number, extras?: BatchExtras): DistanceResult & MeshTriangle;
export function batchResult(query: 'penetration', out: Float64Array, i: number, extras?: BatchExtras): PenetrationResult;
export function batchResult(query: 'chungwang', out: Float64Array, i: number, extras?: BatchExtras): ChungWangResult;
export function batchResult(query: 'sat', out: Float64Array, i: number, extras?: BatchExtras): SatResult;
export function batchResult(query: 'raycast', out: Float64Array, i: number, extras?: BatchExtras): RaycastResult;
export function batchResult(query: 'shapecast', out: Float64Array, i: number, extras?: BatchExtras): ShapecastResult;
export function batchResult(query: 'contact', out: Float64Array, i: number, extras?: BatchExtras): ContactResult | null;
export function batchResult(query: 'contains', out: Float64Array, i: number, extras?: BatchExtras): ContainsResult;
/** A batch's project results have no `feature` (the layout holds a fixed number of doubles per query; project() names it). */
export function batchResult(query: 'project', out: Float64Array, i: number, extras?: BatchExtras): Omit<ProjectResult, 'feature'>;
export function batchResult(query: BatchQuery, out: Float64Array, i: number, extras?: BatchExtras): unknown {
  const q = kindOf(query, 'query');
  const m = mod();
  const stride = layoutOf(m, q).fields.length;
  if (!(out instanceof Float64Array)) throw new CollidoscopeError('invalid-argument', 'out', `must be the Float64Array batch() returned, got ${describe(out)}`);
  if (!Number.isInteger(i) || i < 0 || stride * (i + 1) > out.length) {
    throw new CollidoscopeError('invalid-argument', 'i', `must be a query index from 0 to ${Math.floor(out.length / stride) - 1}, got ${i}`);
  }
  const r = (q === 'contact' ? toContact(out, stride * i) : toResult(q, out, stride * i)) as Record<string, unknown> | null;
  if (extras === undefined || r === null) return r;
  checkOptions(extras, ['features', 'barycentric', 'shapes', 'pairs']);
  let f: unknown, b: unknown, shapes: unknown, pairs: unknown;
  try {
    f = extras.features;
    b = extras.barycentric;
    shapes = extras.shapes;
    pairs = extras.pairs;
  } catch (e) {
    throw unreadable(e, 'extras');
  }
  const features = featureArray(f as Int32Array | undefined, Int32Array, 2, i + 1, q, 'extras.features');
  const bary = featureArray(b as Float64Array | undefined, Float64Array, 3, i + 1, q, 'extras.barycentric');
  // The default flavour has neither meshes nor compounds: its features are all −1 and name nothing.
  if (features && (typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__)) addFeatures(r, q, features, i, shapes, pairs);
  // raycast() names barycentric coordinates for a mesh only: with the batch's shapes, the same here.
  const onMesh = shapes === undefined || isMeshRay(shapes, pairs, i);
  if (bary && onMesh) r.barycentric = Number.isNaN(bary[3 * i]) ? null : [bary[3 * i], bary[3 * i + 1], bary[3 * i + 2]];
  return r;
}

/** batchResult(): is ray i cast at a mesh (its shape read through `pairs`, 1 per ray)? */
function isMeshRay(shapes: unknown, pairs: unknown, i: number): boolean {
  if (!Array.isArray(shapes)) throw new CollidoscopeError('invalid-argument', 'extras.shapes', `must be batch()'s shapes, got ${describe(shapes)}`);
  if (typedLength(pairs, 'extras.pairs') < i + 1) throw new CollidoscopeError('invalid-argument', 'extras.pairs', `must be batch()'s pairs (1 per ray, at least ${i + 1} numbers)`);
  return shapes[(pairs as ArrayLike<number>)[i]] instanceof MeshShape;
}

/** batchResult(): query i's features named as its single query names them, from the shapes of its pair. */
function addFeatures(r: Record<string, unknown>, q: BatchQuery, features: Int32Array, i: number, shapes: unknown, pairs: unknown): void {
  const per = isSingle(q) ? 1 : 2;
  if (!Array.isArray(shapes)) throw new CollidoscopeError('invalid-argument', 'extras.shapes', `must be batch()'s shapes, to read extras.features with, got ${describe(shapes)}`);
  const length = typedLength(pairs, 'extras.pairs');
  if (length < per * (i + 1)) throw new CollidoscopeError('invalid-argument', 'extras.pairs', `must be batch()'s pairs (${per} per query, at least ${per * (i + 1)} numbers), got ${length}`);
  const side = (k: number): unknown => shapes[(pairs as ArrayLike<number>)[per * i + k]];
  const a = side(0), b = per === 2 ? side(1) : undefined;
  const named = (k: number) => (k >= 0 ? k : null);
  const fa = features[2 * i], fb = features[2 * i + 1];
  const ca = a instanceof CompoundShape, cb = b instanceof CompoundShape;
  if (ca && cb) {
    r.childA = named(fa);
    r.childB = named(fb);
  } else if (ca || cb) {
    r.child = named(ca ? fa : fb);
  }
  const ma = a instanceof MeshShape, mb = b instanceof MeshShape;
  if (per === 1 ? ma : ma !== mb && !ca && !cb) r.triangle = named(ma ? fa : fb);
}

// ------------------------------------------------------------------ contacts in batches

/** Options of contactsBatch(). */
export interface ContactsBatchOptions {
  /** One margin for every pair (default 0), as contacts()' `margin`. */
  margin?: number;
  /** One margin per pair (instead of `margin`). */
  margins?: Float64Array | Float32Array | ArrayLike<number>;
  /** Most contacts written over all pairs (default: `out`'s room, else 16 per pair and at least 4096). */
  capacity?: number;
  /** Where to write the contacts (CONTACT_RECORD_STRIDE numbers each); a new array when left out. */
  out?: Float64Array;
}

/** contactsBatch()'s answer: every pair's contacts in one flat array. */
export interface ContactsBatchResult {
  /** pairs + 1 numbers: pair i's contacts are numbers offsets[i] to offsets[i + 1] of the records. */
  offsets: Uint32Array;
  /**
   * CONTACT_RECORD_STRIDE (11) numbers per contact: depth, normal (3), pointA (3), pointB (3) and the mesh's
   * triangle (−1 between convex shapes). A view of the first offsets[pairs] contacts of `out`.
   */
  contacts: Float64Array;
  /** 1 number per pair: contacts()' `iterations`. */
  iterations: Float64Array;
  /** 1 per pair: contacts()' `truncated`, or 1 when the buffer filled up before the pair's contacts all fit. */
  truncatedPairs: Uint8Array;
  /** Some pair was truncated. */
  truncated: boolean;
  /**
   * 2 numbers per contact when some pair has a compound (else null): the child of A and of B the contact is
   * of, −1 for a side that is not a compound. contactsBatchResult() names them `child` (or `childA`, `childB`).
   */
  children: Int32Array | null;
  /** 1 number per pair: 1 when A is a compound, 2 when B is, 3 when both are. */
  compoundSides: Uint8Array;
}

/**
 * contacts() of many pairs in one call: `shapes`, `poses` (7 numbers per shape) and `pairs` (2 shape indices per
 * pair) as batch() takes them. A mesh against a convex shape gives one contact per nearby triangle, two convex
 * shapes contact()'s one contact or none, a compound one per child pair within the margin (with its children);
 * two meshes are refused as contacts() refuses them. contactsBatchResult(r, i) is contacts() of pair i, bit for bit (unless the buffer filled up).
 *
 *   const r = contactsBatch([floor, player], poses, [0, 1], { margin: 0.05 });
 *   for (const c of contactsBatchResult(r, 0).contacts) pushOut(c.normal, c.depth);
 */
export function contactsBatch(shapes: readonly ConvexShape[], poses: Float64Array | Float32Array | ArrayLike<number>, pairs: Uint32Array | ArrayLike<number>, options: ContactsBatchOptions = {}): ContactsBatchResult {
  if (typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) return contactsOfPairs(shapes, poses, pairs, options);
  // The default flavour (a build-time constant leaves the code out): its wasm refuses, naming the flavours with it.
  const m = mod();
  m._cds_contacts_batch(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  throw lastError(m);
}

function contactsOfPairs(shapes: readonly ConvexShape[], poses: Float64Array | Float32Array | ArrayLike<number>, pairs: Uint32Array | ArrayLike<number>, options: ContactsBatchOptions): ContactsBatchResult {
  const m = mod();
  checkOptions(options, ['margin', 'margins', 'capacity', 'out']);
  let opt: ContactsBatchOptions;
  try {
    opt = { margin: options.margin, margins: options.margins, capacity: options.capacity, out: options.out };
  } catch (e) {
    throw unreadable(e, 'options');
  }
  if (!Array.isArray(shapes)) throw new CollidoscopeError('invalid-argument', 'shapes', `must be an array of shapes, got ${describe(shapes)}`);
  const nShapes = shapes.length;
  const nPoses = typedLength(poses, 'poses');
  if (nPoses !== POSE * nShapes) throw new CollidoscopeError('invalid-argument', 'poses', `must hold 7 numbers per shape (${POSE * nShapes}), got ${nPoses}`);
  const nIndices = typedLength(pairs, 'pairs');
  if (nIndices % 2 !== 0) throw new CollidoscopeError('invalid-argument', 'pairs', `must hold 2 shape indices per pair, got ${nIndices} numbers`);
  const n = nIndices / 2;
  if (n > 1 << 22) throw new CollidoscopeError('invalid-argument', 'pairs', `must hold at most ${1 << 22} pairs, got ${n}`);
  const margins = contactMargins('contact', opt as BatchOptions, n)!;
  const given = opt.out;
  if (given !== undefined && !(given instanceof Float64Array)) throw new CollidoscopeError('invalid-argument', 'options.out', `must be a Float64Array, got ${describe(given)}`);
  const limit = Math.min(given ? Math.floor(given.length / CONTACT_RECORD_STRIDE) : 1 << 22, 1 << 22);
  const capacity = opt.capacity ?? (given ? limit : Math.min(Math.max(16 * n, MAX_CONTACTS), limit));
  if (typeof capacity !== 'number' || !Number.isInteger(capacity) || capacity < 0 || capacity > limit) {
    throw new CollidoscopeError('invalid-argument', 'options.capacity', `must be a whole number from 0 to ${limit}${given ? " (out's room)" : ''}, got ${describe(capacity)}`);
  }
  // Which side of each pair is a compound (set as the pairs are checked, below): its contacts name children.
  const compoundSides = new Uint8Array(n);
  // One arena: doubles first (poses, margins, per pair, records), then handles, pairs, offsets and children.
  const dMargins = POSE * nShapes;
  const dPerPair = dMargins + n;
  const dRecords = dPerPair + 2 * n;
  const doubles = dRecords + CONTACT_RECORD_STRIDE * capacity;
  const base = arenaOf(m, 8 * doubles + 4 * (nShapes + nIndices + n + 1 + 2 * capacity));
  const at = base >> 3;
  const iHandles = (base + 8 * doubles) >> 2;
  const iPairs = iHandles + nShapes;
  const iOffsets = iPairs + nIndices;
  const iChildren = iOffsets + n + 1;
  writeHandles(m.HEAP32, iHandles, shapes);
  const f64 = m.HEAPF64;
  copyNumbers(f64, at, poses, 'poses');
  if (margins.per === null) f64.fill(margins.all, at + dMargins, at + dMargins + n);
  else copyNumbers(f64, at + dMargins, margins.per, 'options.margins');
  try {
    for (let i = 0; i < nIndices; i++) {
      const v = (pairs as ArrayLike<number>)[i];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= nShapes) {
        throw new CollidoscopeError('invalid-argument', `pairs[${i}]`, `must be a shape index from 0 to ${nShapes - 1}, got ${describe(v)}`);
      }
      m.HEAPU32[iPairs + i] = v;
      if (shapes[v] instanceof CompoundShape) compoundSides[i >> 1] |= 1 << (i & 1);
    }
  } catch (e) {
    throw unreadable(e, 'pairs');
  }
  const anyCompound = compoundSides.some((x) => x !== 0);
  if (m._cds_contacts_batch(iHandles << 2, nShapes, base, iPairs << 2, n, base + 8 * dMargins, base + 8 * dRecords, capacity, iOffsets << 2, base + 8 * dPerPair, anyCompound ? iChildren << 2 : 0) === 0) throw lastError(m);
  const heap = m.HEAPF64;
  const offsets = m.HEAPU32.slice(iOffsets, iOffsets + n + 1);
  const count = CONTACT_RECORD_STRIDE * offsets[n];
  const contacts = (given ?? new Float64Array(count)).subarray(0, count);
  contacts.set(heap.subarray(at + dRecords, at + dRecords + count));
  const iterations = new Float64Array(n);
  const truncatedPairs = new Uint8Array(n);
  let truncated = false;
  for (let i = 0; i < n; i++) {
    iterations[i] = heap[at + dPerPair + 2 * i];
    truncatedPairs[i] = heap[at + dPerPair + 2 * i + 1];
    truncated ||= truncatedPairs[i] !== 0;
  }
  const children = anyCompound ? m.HEAP32.slice(iChildren, iChildren + 2 * offsets[n]) : null;
  return { offsets, contacts, iterations, truncatedPairs, truncated, children, compoundSides };
}

/** Pair i of a contactsBatch() answer as contacts() returns it. */
export function contactsBatchResult(r: ContactsBatchResult, i: number): ContactsResult {
  if (typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) return pairContacts(r, i);
  return contactsBatch([], [], []) as never; // the default flavour's refusal
}

function pairContacts(r: ContactsBatchResult, i: number): ContactsResult {
  if (r === null || typeof r !== 'object' || !(r.offsets instanceof Uint32Array) || !(r.contacts instanceof Float64Array)) {
    throw new CollidoscopeError('invalid-argument', 'r', `must be what contactsBatch() returned, got ${describe(r)}`);
  }
  const n = r.offsets.length - 1;
  if (!Number.isInteger(i) || i < 0 || i >= n) throw new CollidoscopeError('invalid-argument', 'i', `must be a pair index from 0 to ${n - 1}, got ${i}`);
  const list: ContactPoint[] = [];
  const sides = r.compoundSides?.[i] ?? 0;
  for (let k = r.offsets[i]; k < r.offsets[i + 1]; k++) {
    const point = decodeContactRecord(r.contacts, CONTACT_RECORD_STRIDE * k) as ContactPoint;
    list.push(sides !== 0 && r.children ? withChildren(point, r.children, 2 * k, (sides & 1) !== 0, (sides & 2) !== 0) : point);
  }
  return { contacts: list, truncated: r.truncatedPairs[i] !== 0, iterations: r.iterations[i] };
}

// ------------------------------------------------------------------ diagnostics

/** Memory in use: live shapes and worlds, bytes malloc has handed out in wasm, and the wasm memory's size. */
export function stats(): { liveShapes: number; liveWorlds: number; heapBytes: number; memoryBytes: number } {
  const m = mod();
  return { liveShapes: m._cds_live_shapes(), liveWorlds: m._cds_live_worlds(), heapBytes: m.heapInUse(), memoryBytes: m.HEAPU8.buffer.byteLength };
}

// ------------------------------------------------------------------ accuracy

/** The accuracy of every query when the module starts (kDefaultTolerance in numeric.h). */
export const DEFAULT_TOLERANCE = 1e-10;

/**
 * Sets the accuracy of the iterative queries (GJK, EPA, the casts) that the object API and batches run: they stop
 * once their answer is certified within `tolerance` of itself or of the scene's scale. The default, 1e-10, is as
 * exact as doubles allow; 1e-4 (crashcat's and Jolt's) trades the last digits for fewer iterations on curved shapes.
 * Closed forms (pairs of points, spheres, segments and capsules) are exact either way. Traces, scenes (run()) and
 * links always run at the default, so that a link replays bit for bit. Throws unless 1e-15 ≤ tolerance ≤ 1e-2.
 */
export function setTolerance(tolerance: number = DEFAULT_TOLERANCE): void {
  const m = mod();
  if (typeof tolerance !== 'number') throw new CollidoscopeError('invalid-argument', 'tolerance', `must be a number, got ${describe(tolerance)}`);
  if (m._cds_set_tolerance(tolerance) !== 1) throw lastError(m);
}

/** The accuracy that setTolerance() set (DEFAULT_TOLERANCE unless changed). */
export function getTolerance(): number {
  return mod()._cds_tolerance();
}
