// collidoscope/three — debug drawing of collidoscope shapes, results and trace frames in your own three.js scene.
//
//   import * as THREE from 'three';
//   import { init, run, trace } from 'collidoscope';
//   import { COLORS, dispose, drawResult, drawShape, drawTraceFrame } from 'collidoscope/three';
//   await init();
//   const a = { type: 'box', halfExtents: [1, 1, 1] }, b = { type: 'sphere', radius: 1, position: [3, 0, 0] };
//   const result = run({ version: 1, query: 'distance', shapes: [a, b] });
//   const debug = new THREE.Group();
//   debug.add(drawShape(a), drawShape(b, undefined, { color: COLORS.b }), drawResult(result));
//   scene.add(debug);
//   ...
//   dispose(debug);   // removes it from the scene and frees its geometries and materials
//
//   const t = trace({ version: 1, query: 'distance', shapes: [a, b] });
//   scene.add(drawTraceFrame(t, 2, { shapes: [a, b] }));   // GJK's third step, on the shapes
//
// Every drawing function returns a new THREE.Group and changes nothing global (the dots of all drawings share
// one unit sphere, which is never freed); the group's `userData.dispose()` (or dispose(group)) frees the rest. No DOM is needed: text labels are off
// by default; with `labels: true` they are CSS2DObjects for a CSS2DRenderer (in a browser).
//
// Everything is drawn by the library's drawing layer (web/lib/draw), on which the visualizer page builds too:
// what you see in your scene is what the page shows on its shapes view.
import * as THREE from 'three';
import {
  CollidoscopeError, hull as convexHull, mesh, minkowskiSurface, poseNumbers, shapeSurface, type MeshShape, type PoseLike as LibPoseLike,
  type ChungWangResult, type DistanceResult, type HullResult, type HullTrace, type ObbResult, type PenetrationResult,
  type Planar, type PlanarEpaTrace, type Quat, type Query, type RaycastResult, type Result, type SatResult, type Scene,
  type Scene2D, type Shape, type ShapecastResult, type Trace, type Vec3, isPairs, isSimulate, type PairsTrace, type SimulateTrace,
} from './index';
import { BOUND_KINDS, boundObject, type BoundKind } from './draw/bounds';
import { frameDrawer } from './draw/frames';
import { enclosingSphere, meshHull, type Hull } from './draw/hull-geometry';
import { surfaceTriangles } from './draw/surface-triangles';
import { isPlanarTrace, liftScene, liftTrace } from './draw/planar';
import { pairsBoxes, pairsFigureBounds } from './draw/pairs';
import { localHalfSpace, planeObject, planePatch } from './draw/plane';
import { movingShapes, worldColors } from './draw/simulate';
import { COLORS as PAGE_COLORS, arrow, clearGroup, hullObject, label, line, marker, toV3 } from './draw/primitives';
import type { DrawContext, FrameDrawing } from './draw/types';

/** The visualizer page's colours (hex numbers), used by every drawing here: for legends, or for drawShape's `style.color`. */
export interface Palette {
  /** Shape A: amber. */ a: number;
  /** Shape B: blue. */ b: number;
  /** A − B: violet. */ mink: number;
  /** The core of A − B that GJK runs on (rounded shapes without their radius): grey. */ core: number;
  /** The GJK simplex: green. */ simplex: number;
  /** A new support point and its sources on A and B: pink. */ support: number;
  /** Closest points: white. */ closest: number;
  /** Search direction, rays, axes: yellow. */ direction: number;
  /** The origin: red. */ origin: number;
  /** The EPA polytope and hulls: cyan. */ polytope: number;
  /** EPA's nearest face: yellow. */ face: number;
  /** Faces removed: red. */ removed: number;
  /** Horizon edges: orange. */ horizon: number;
  /** New faces: green. */ added: number;
  /** Contact points and normals: white. */ contact: number;
}

/** The page's palette (draw/primitives.ts). */
export const COLORS: Readonly<Palette> = PAGE_COLORS;

// ---- inputs ---------------------------------------------------------------------------------------------

/** A point or direction: [x, y, z] or anything with x, y, z (a THREE.Vector3). */
export type Vec3Like = Vec3 | readonly number[] | { x: number; y: number; z: number };

/**
 * Where a shape is: the library's PoseLike (`{ position?, rotation?, quaternion? }` — a THREE.Object3D fits,
 * its local transform — or 7 numbers [x, y, z, qx, qy, qz, qw]); here `rotation` may also be a THREE.Euler.
 * Missing parts are the identity; quaternions are normalized.
 */
export type PoseLike = LibPoseLike | { position?: Vec3Like; rotation: THREE.Euler };

/** A shape: a scene-format spec ({ type, radius, ..., position?, rotation? }) or a handle with `spec()` (ConvexShape). */
export type ShapeLike = Shape | { spec(): Shape };

/**
 * A shape placed in the world: a scene-format spec (its own position and rotation), a ConvexShape (at the
 * origin), or `{ shape, pose }`.
 */
export type PlacedShape = ShapeLike | { shape: ShapeLike; pose?: PoseLike };

/** The bounding volumes of an "obb" result that drawResult can draw. */
export type BoundsKind = 'obb' | 'aabb' | 'sphere' | 'obbPoints' | 'obbTriangles';

/** Options shared by the drawing functions. */
export interface DrawOptions {
  /** Text labels (CSS2DObjects with the page's class names: 'label label-point …'); default false. */
  labels?: boolean;
  /**
   * Size of the drawing (arrows, dashes, planes, offsets): about the radius of what is drawn. Default: from
   * `shapes` when given, else from the result's or trace's own points, else 1.
   */
  scale?: number;
  /**
   * World size of one "pixel" of the dots (the page sizes them in screen pixels: a contact point is 4–6).
   * Default scale / 250. scaleMarkers() resizes them for a camera instead.
   */
  markerSize?: number;
}

/** How drawShape draws a shape. */
export interface ShapeStyle {
  /** Default COLORS.a (amber); COLORS.b is the page's blue. */
  color?: THREE.ColorRepresentation;
  /** Opacity of the faces (default 0.42; 0 or `wireframe` draws edges only). */
  opacity?: number;
  /** Opacity of the edges (default 0.85). */
  edgeOpacity?: number;
  /** Edges only, no faces. */
  wireframe?: boolean;
  /** Points sampled on curved surfaces (default 1200, as the page). */
  samples?: number;
  /** World size of one "pixel" of the dots drawn for a point or the ends of a segment (default: shape size / 250). */
  markerSize?: number;
  /**
   * A plane (unbounded) is drawn as a square patch of its surface around these world points (the other shapes'
   * points, say): centred on the surface point nearest their box's centre, reaching past them. Default: a unit
   * patch around the surface point nearest the plane's position.
   */
  around?: Vec3Like[];
}

/** Options of drawResult. */
export interface ResultDrawOptions extends DrawOptions {
  /** The query that produced the result; default: told from the result's fields. */
  query?: Query;
  /** Raycast: the ray (origin + t·direction, 0 ≤ t ≤ maxT, maxT default 1), drawn up to the hit or to maxT. */
  ray?: { origin: Vec3Like; direction: Vec3Like; maxT?: number };
  /** Shapecast: the translations over the step; with `shapes`, the shapes are drawn where they touch. */
  motion?: { translationA?: Vec3Like; translationB?: Vec3Like };
  /** The shapes queried (A, B): set the scale; shapecast draws them moved; sat and chungwang draw the axis between them. */
  shapes?: PlacedShape[];
  /** Obb: which volumes (default ['obb'], the refined box). */
  bounds?: BoundsKind[];
  /** Length of normal arrows (default 0.45 · scale). */
  arrowLength?: number;
  /** Sat, chungwang: where the axis line passes (default: between the shapes' positions, else the origin). */
  at?: Vec3Like;
}

/** Options of drawTraceFrame. */
export interface TraceDrawOptions extends DrawOptions {
  /** The scene the trace was made from: gives `shapes`, `ray` and `motion` (a 2D scene's are drawn at z = 0). */
  scene?: Scene | Scene2D;
  /** The shapes (A, B; hull: none): set the drawing's scale and centre; shapecast frames need them. */
  shapes?: PlacedShape[];
  /** Raycast: the ray of the query (needed to draw it). */
  ray?: { origin: Vec3Like; direction: Vec3Like; maxT?: number };
  /** Shapecast: the translations of the query (needed, with `shapes`, to draw the moving shapes). */
  motion?: { translationA?: Vec3Like; translationB?: Vec3Like };
  /**
   * 'world' (default): the frame on the shapes, as the page's shapes view shows it (the ray cast: its right
   * view, which is world space too). 'minkowski': the page's other view, in the space of A − B around the
   * origin (Chung–Wang: the unit Gauss sphere); nothing for hull traces.
   */
  view?: 'world' | 'minkowski';
}

// ---- small conversions ----------------------------------------------------------------------------------

function bad(field: string, detail: string): never {
  throw new CollidoscopeError('invalid-argument', field, detail);
}

function isArrayLike(x: unknown): x is ArrayLike<number> {
  return Array.isArray(x) || (ArrayBuffer.isView(x) && !(x instanceof DataView));
}

function finite(values: number[], field: string): number[] {
  values.forEach((v, i) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${field}[${i}]`, `must be a finite number, got ${String(v)}`);
  });
  return values;
}

function vec(v: Vec3Like, field: string): Vec3 {
  if (isArrayLike(v)) {
    if (v.length !== 3) bad(field, `must have 3 numbers, got ${v.length}`);
    return finite(Array.from(v), field) as Vec3;
  }
  if (v && typeof v === 'object' && 'x' in v) return finite([v.x, v.y, v.z], field) as Vec3;
  return bad(field, 'must be [x, y, z] or {x, y, z}');
}

/** The pose as a position and a unit quaternion (read as the queries read it: poseNumbers). */
export function toPose(pose: PoseLike | undefined): { position: THREE.Vector3; quaternion: THREE.Quaternion } {
  let lib = pose as LibPoseLike | undefined;
  const euler = pose !== null && typeof pose === 'object' && !isArrayLike(pose) ? (pose as { rotation?: unknown; quaternion?: unknown }) : null;
  if (euler && euler.quaternion === undefined && euler.rotation instanceof THREE.Euler) {
    const { position } = pose as { position?: unknown };
    lib = { position, rotation: new THREE.Quaternion().setFromEuler(euler.rotation) } as LibPoseLike;
  }
  const n = finite(Array.from(poseNumbers(lib, 'pose')), 'pose');
  const quaternion = new THREE.Quaternion(n[3], n[4], n[5], n[6]);
  if (quaternion.lengthSq() === 0) bad('pose[3..6]', 'the rotation must not be the zero quaternion');
  return { position: new THREE.Vector3(n[0], n[1], n[2]), quaternion: quaternion.normalize() };
}

function specOf(shape: ShapeLike, field: string): Shape {
  if (shape && typeof (shape as { spec?: unknown }).spec === 'function') return (shape as { spec(): Shape }).spec();
  if (shape && typeof shape === 'object' && typeof (shape as Shape).type === 'string') return shape as Shape;
  return bad(field, 'must be a shape spec {type, ...} or have a spec() method');
}

/** The spec without its pose, and the pose (given, else the spec's own). */
function splitPose(shape: ShapeLike, pose: PoseLike | undefined, field: string): { local: Shape; pose: PoseLike | undefined } {
  const spec = specOf(shape, field);
  const local: Shape = { ...spec };
  delete local.position;
  delete local.rotation;
  return { local, pose: pose ?? { position: spec.position, rotation: spec.rotation } };
}

/** A placed shape as a scene-format spec in world space. */
function worldSpec(placed: PlacedShape, field: string): Shape {
  const inner = placed && typeof placed === 'object' && 'shape' in placed ? placed : { shape: placed as ShapeLike, pose: undefined };
  const { local, pose } = splitPose(inner.shape, inner.pose, field);
  const { position, quaternion } = toPose(pose);
  return { ...local, position: position.toArray() as Vec3, rotation: quaternion.toArray() as Quat };
}

// ---- groups: labels, dots, disposal ---------------------------------------------------------------------

/** Default world size of a dot "pixel" relative to the drawing's scale. */
const MARKER_PER_SCALE = 1 / 250;
/** Default length of normal arrows relative to the scale (the page's shapes view). */
const ARROW_PER_SCALE = 0.45;

/**
 * Removes `obj` from its parent and frees the geometries and materials of everything under it (a group
 * returned by drawShape, drawResult or drawTraceFrame; the same as its `userData.dispose()`).
 */
export function dispose(obj: THREE.Object3D): void {
  obj.removeFromParent();
  clearGroup(obj);
}

/** A new group named `name`, with `userData.dispose()`. */
function group(name: string): THREE.Group {
  const g = new THREE.Group();
  g.name = name;
  g.userData.dispose = () => dispose(g);
  return g;
}

/**
 * Finishes a drawing: dots get their world size (`unit` per pixel), labels are dropped unless wanted. Kept
 * labels get a readable inline style where they have none (white 12px text with a dark outline; labels the
 * page colours keep their colour); restyle them through `element.style`.
 */
function finish(g: THREE.Group, unit: number, labels: boolean | undefined): THREE.Group {
  const drop: THREE.Object3D[] = [];
  g.traverse((o) => {
    const px = o.userData.px as number | undefined;
    if (px) o.scale.setScalar(px * unit);
    if (o.userData.label !== undefined) {
      if (!labels) drop.push(o);
      else styleLabel(o);
    }
  });
  for (const o of drop) o.removeFromParent();
  return g;
}

function styleLabel(o: THREE.Object3D): void {
  const style = (o as THREE.Object3D & { element?: { style?: Record<string, string> } }).element?.style;
  if (!style) return;
  const defaults: Record<string, string> = {
    color: '#ffffff', font: '12px system-ui, sans-serif', textShadow: '0 0 3px #000', whiteSpace: 'nowrap', pointerEvents: 'none',
  };
  for (const [k, v] of Object.entries(defaults)) if (!style[k]) style[k] = v;
}

/**
 * Keeps the dots of `root` (contact points, support points …) a constant size on screen, as the page does:
 * call it before rendering (e.g. in your animation loop) with your camera and the canvas height in CSS pixels.
 */
export function scaleMarkers(root: THREE.Object3D, camera: THREE.Camera, viewportHeight: number): void {
  const h = Math.max(1, viewportHeight);
  const at = new THREE.Vector3();
  const eye = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
  root.traverse((o) => {
    const px = o.userData.px as number | undefined;
    if (!px) return;
    let perPixel: number;
    if (camera instanceof THREE.OrthographicCamera) {
      perPixel = (camera.top - camera.bottom) / camera.zoom / h;
    } else if (camera instanceof THREE.PerspectiveCamera) {
      const d = o.getWorldPosition(at).distanceTo(eye);
      perPixel = (2 * d * Math.tan(THREE.MathUtils.degToRad(camera.fov) / 2)) / camera.zoom / h;
    } else return;
    // The dot's parent may be scaled: undo it so that the dot's world size is what is asked.
    const parentScale = o.parent ? o.parent.getWorldScale(at).x || 1 : 1;
    o.scale.setScalar((px * perPixel) / parentScale);
  });
}

// ---- shapes ---------------------------------------------------------------------------------------------

/** Hulls with more vertices than this sample a curved surface: only creases are drawn as edges (as the page). */
const MAX_POLYHEDRAL_VERTICES = 64;
/** Dihedral angle in degrees above which an edge between sampled facets is a crease (a cylinder's rim). */
const CREASE_ANGLE = 35;

/** The library's hull result as the page's hull geometry: triangles, feature edges, extreme points. */
function hullGeometry(h: HullResult, creasesOnly: boolean): Hull {
  const V = h.vertices.map((p) => toV3(p));
  const dim = ({ point: 0, segment: 1, polygon: 2, polyhedron: 3 } as const)[h.kind];
  let faces: THREE.BufferGeometry | null = null;
  if (h.faces.length) {
    faces = new THREE.BufferGeometry().setFromPoints(h.faces.flatMap((f) => f.map((i) => V[i])));
    faces.computeVertexNormals();
  }
  let edges: THREE.BufferGeometry | null = null;
  if (dim === 1) edges = new THREE.BufferGeometry().setFromPoints([V[0], V[1]]);
  else if (faces && creasesOnly) edges = new THREE.EdgesGeometry(faces, CREASE_ANGLE);
  else if (h.polygons.length) {
    // Each edge once (two polygons share it).
    const seen = new Set<string>();
    const ends: THREE.Vector3[] = [];
    for (const poly of h.polygons) {
      poly.forEach((i, k) => {
        const j = poly[(k + 1) % poly.length];
        const key = i < j ? `${i},${j}` : `${j},${i}`;
        if (seen.has(key)) return;
        seen.add(key);
        ends.push(V[i], V[j]);
      });
    }
    edges = new THREE.BufferGeometry().setFromPoints(ends);
  }
  const sphere = enclosingSphere(V);
  return { dim, faces, edges, vertices: V, center: sphere.center, radius: dim === 0 ? 0 : sphere.radius };
}

/** A convex shape's drawing: the hull of its surface samples. */
function surfaceGeometry(local: Shape, samples: number | undefined): Hull {
  const h = convexHull(shapeSurface(local, samples));
  return hullGeometry(h, h.vertices.length > MAX_POLYHEDRAL_VERTICES);
}

/**
 * A shape as the library sees it: translucent faces and edges in the shape's frame, the group placed at
 * `pose` (default: the spec's own position and rotation). Built from the library's shapeSurface() and hull()
 * (call and await init() first); a point is a dot, a segment a line, a mesh or heightfield its own triangles and edges, a compound each child.
 */
export function drawShape(shape: ShapeLike, pose?: PoseLike, style: ShapeStyle = {}): THREE.Group {
  const { local, pose: p } = splitPose(shape, pose, 'shape');
  if (local.type === 'compound' && local.children) {
    // A compound is its children, each drawn at its pose in the compound's frame (their hull would be another shape).
    const g = group('collidoscope:shape:compound');
    for (const child of local.children) g.add(drawShape(child, undefined, style));
    const { position, quaternion } = toPose(p);
    g.position.copy(position);
    g.quaternion.copy(quaternion);
    return g;
  }
  if (local.type === 'plane') return drawPlaneShape(local, p, style);
  // A mesh or heightfield is drawn from its own triangles (its hull would be another shape).
  const surface = surfaceTriangles(local);
  const geometry = surface ? meshHull(surface.vertices, surface.triangles) : surfaceGeometry(local, style.samples);
  const g = group(`collidoscope:shape:${local.type}`);
  const opacity = style.opacity ?? 0.42;
  g.add(hullObject(geometry, {
    color: new THREE.Color(style.color ?? COLORS.a).getHex(), opacity, edgeOpacity: style.edgeOpacity ?? 0.85,
    pointSize: 5, wireOnly: style.wireframe || opacity <= 0,
  }));
  const { position, quaternion } = toPose(p);
  g.position.copy(position);
  g.quaternion.copy(quaternion);
  return finish(g, style.markerSize ?? (geometry.radius || 1) * MARKER_PER_SCALE, false);
}

/**
 * A plane as a patch of its surface (draw/plane.ts), built in the plane's own frame around `style.around` brought
 * into that frame, and placed at the pose like any shape: moving the group moves the plane.
 */
function drawPlaneShape(local: Shape, pose: PoseLike | undefined, style: ShapeStyle): THREE.Group {
  const { position, quaternion } = toPose(pose);
  const toLocal = new THREE.Matrix4().compose(position, quaternion, new THREE.Vector3(1, 1, 1)).invert();
  const around = (style.around ?? []).map((p, i) => vec(p, `style.around[${i}]`))
    .map((p) => new THREE.Vector3(p[0], p[1], p[2]).applyMatrix4(toLocal).toArray() as Vec3);
  const g = group('collidoscope:shape:plane');
  const opacity = style.wireframe ? 0 : (style.opacity ?? 0.42) * 0.5;
  g.add(planeObject(planePatch(localHalfSpace(local), around), { color: new THREE.Color(style.color ?? COLORS.a).getHex(), opacity }));
  g.position.copy(position);
  g.quaternion.copy(quaternion);
  return g;
}

// ---- meshes ---------------------------------------------------------------------------------------------

/**
 * A mesh() from a three.js BufferGeometry, in the geometry's local space: indexed or not (without an index,
 * every three vertices make a triangle), interleaved position attributes too. Positions and indices are read
 * once and copied into wasm memory; the geometry is not kept. Dispose the shape when done. (meshArrays() reads
 * the geometry; mesh() makes the shape.)
 */
export function meshFromGeometry(geometry: THREE.BufferGeometry): MeshShape {
  if (geometry === null || typeof geometry !== 'object' || typeof (geometry as { getAttribute?: unknown }).getAttribute !== 'function') {
    throw new CollidoscopeError('invalid-argument', 'geometry', 'must be a three.js BufferGeometry');
  }
  const { vertices, indices } = meshArrays(geometry);
  return mesh(vertices, indices);
}

/** Flat triangle arrays, as mesh() takes them. */
export interface MeshArrays {
  /** x0, y0, z0, x1, … */
  vertices: Float64Array;
  /** i0, j0, k0, i1, … (counter-clockwise seen from outside, as the geometry's front faces) */
  indices: Uint32Array;
}

/**
 * The triangles of a BufferGeometry (in its local space), or of every mesh under an Object3D (a loaded glTF's
 * `gltf.scene`, an OBJ group: each mesh placed by its world matrix, the meshes' vertices one after the other),
 * as the flat arrays mesh() takes. Each geometry is read as meshFromGeometry() reads it: indexed or not,
 * interleaved too. A mesh whose world matrix mirrors (negative determinant) has its triangles' order reversed,
 * so that they stay counter-clockwise seen from outside, as three.js draws them. An InstancedMesh gives one copy
 * of its geometry per instance (its `count`), each placed by its instance matrix. Lines, points and meshes
 * without positions are skipped; all of a geometry's triangles are read (its groups and draw range, which only
 * choose materials and what is drawn, are not). More than `maxTriangles` triangles (default 2 000 000, mesh()'s limit) throw
 * before anything is copied.
 */
export function meshArrays(source: THREE.BufferGeometry | THREE.Object3D, options: { maxTriangles?: number } = {}): MeshArrays {
  const max = options.maxTriangles ?? 2_000_000; // mesh()'s limit (kMaxMeshTriangles)
  const parts: { geometry: THREE.BufferGeometry; matrix: THREE.Matrix4 | null; field: string }[] = [];
  if ((source as THREE.BufferGeometry).isBufferGeometry) {
    parts.push({ geometry: source as THREE.BufferGeometry, matrix: null, field: 'geometry' });
  } else if ((source as THREE.Object3D).isObject3D) {
    const root = source as THREE.Object3D;
    root.updateWorldMatrix(true, true);
    root.traverse((o) => {
      const m = o as THREE.Mesh;
      if (!m.isMesh || !m.geometry?.getAttribute('position')) return;
      const field = `mesh "${m.name || m.uuid}"`;
      const instanced = o as THREE.InstancedMesh;
      if (!instanced.isInstancedMesh) {
        parts.push({ geometry: m.geometry, matrix: m.matrixWorld, field });
        return;
      }
      // An InstancedMesh draws its geometry once per instance, each placed by its own matrix within the mesh.
      for (let i = 0; i < instanced.count; i++) {
        const matrix = new THREE.Matrix4();
        instanced.getMatrixAt(i, matrix);
        parts.push({ geometry: m.geometry, matrix: matrix.premultiply(m.matrixWorld), field: `${field} instance ${i}` });
      }
    });
  } else {
    throw new CollidoscopeError('invalid-argument', 'geometry', 'must be a three.js BufferGeometry or Object3D');
  }
  // Counts first: a file too large is refused before its arrays are made.
  let vertexCount = 0;
  let indexCount = 0;
  for (const { geometry, field } of parts) {
    const pos = geometry.getAttribute('position') as THREE.BufferAttribute | THREE.InterleavedBufferAttribute | undefined;
    if (!pos) throw new CollidoscopeError('invalid-argument', `${field}.attributes.position`, 'is missing: the geometry has no vertex positions');
    if (pos.itemSize !== 3) throw new CollidoscopeError('invalid-argument', `${field}.attributes.position.itemSize`, `must be 3, got ${pos.itemSize}`);
    const index = geometry.getIndex();
    if (!index && pos.count % 3 !== 0) {
      throw new CollidoscopeError('invalid-argument', `${field}.attributes.position.count`, `must be a multiple of 3 for a geometry without an index (3 vertices per triangle), got ${pos.count}`);
    }
    if (index && index.count % 3 !== 0) {
      throw new CollidoscopeError('invalid-argument', `${field}.index.count`, `must be a multiple of 3 (3 indices per triangle), got ${index.count}`);
    }
    vertexCount += pos.count;
    indexCount += index ? index.count : pos.count;
    if (indexCount / 3 > max) throw new CollidoscopeError('invalid-argument', 'triangles', `has more than ${max} triangles (the limit)`);
  }
  const vertices = new Float64Array(3 * vertexCount);
  const indices = new Uint32Array(indexCount);
  const p = new THREE.Vector3();
  let v = 0;
  let k = 0;
  for (const { geometry, matrix } of parts) {
    const pos = geometry.getAttribute('position') as THREE.BufferAttribute | THREE.InterleavedBufferAttribute;
    const base = v;
    // getX/Y/Z read interleaved buffers through their stride and offset (and denormalize normalized ones).
    for (let i = 0; i < pos.count; i++, v++) {
      p.set(pos.getX(i), pos.getY(i), pos.getZ(i));
      if (matrix) p.applyMatrix4(matrix);
      vertices[3 * v] = p.x;
      vertices[3 * v + 1] = p.y;
      vertices[3 * v + 2] = p.z;
    }
    const index = geometry.getIndex();
    const n = index ? index.count : pos.count;
    // A mirror turns counter-clockwise into clockwise: swap each triangle's last two corners back.
    const mirrored = matrix !== null && matrix.determinant() < 0;
    for (let t = 0; t < n; t += 3, k += 3) {
      for (let c = 0; c < 3; c++) {
        const from = t + (mirrored && c > 0 ? 3 - c : c);
        indices[k + c] = base + (index ? index.getX(from) : from);
      }
    }
  }
  return { vertices, indices };
}

// ---- results --------------------------------------------------------------------------------------------

/** Which query a result answers, from its fields. */
function queryOf(r: Result): Query {
  if ('polygons' in r) return 'hull';
  if ('aabb' in r) return 'obb';
  if ('axisKind' in r) return 'sat';
  if ('separatingAxis' in r) return 'chungwang';
  if ('startedInside' in r) return 'raycast';
  if ('initiallyOverlapping' in r) return 'shapecast';
  if ('normal' in r && 'depth' in r) return 'penetration';
  if ('distance' in r) return 'distance';
  return 'intersect';
}

/** Bounding sphere of the placed shapes' surfaces (world space). */
function shapesSphere(specs: Shape[]): THREE.Sphere | null {
  if (!specs.length) return null;
  return enclosingSphere(specs.flatMap((s) => (surfaceTriangles(s) ? meshWorldVertices(s) : shapeSurface(s, 200))).map((p) => toV3(p)));
}

/** A mesh or heightfield spec's vertices placed by its position and rotation. */
function meshWorldVertices(s: Shape): Vec3[] {
  const { position, quaternion } = toPose({ position: s.position, rotation: s.rotation });
  return (surfaceTriangles(s)?.vertices ?? []).map((v) => new THREE.Vector3(v[0], v[1], v[2]).applyQuaternion(quaternion).add(position).toArray() as Vec3);
}

/** Radius of the points around their centre (0 for none or one). */
function spread(points: (readonly number[] | null | undefined)[]): number {
  const pts = points.filter((p): p is readonly number[] => !!p && p.every(Number.isFinite)).map((p) => toV3(p));
  return pts.length ? enclosingSphere(pts).radius : 0;
}

function pointsOfResult(r: Result, q: Query, ray: ResultDrawOptions['ray']): (readonly number[] | null)[] {
  const pts: (readonly number[] | null)[] = [];
  const any = r as Partial<PenetrationResult & RaycastResult & HullResult & ObbResult>;
  if (q === 'hull') pts.push(...(any.vertices ?? []));
  if (q === 'obb' && any.aabb) pts.push(any.aabb.min, any.aabb.max);
  pts.push(any.pointA ?? null, any.pointB ?? null, any.point ?? null);
  if (ray) {
    const o = vec(ray.origin, 'ray.origin');
    const d = vec(ray.direction, 'ray.direction');
    const t = (r as RaycastResult).t ?? (Number.isFinite(ray.maxT ?? 1) ? ray.maxT ?? 1 : 1);
    pts.push(o, o.map((x, i) => x + t * d[i]));
  }
  return pts;
}

/** A named dot at `p`. */
function dot(name: string, color: number, px: number, p: readonly number[]): THREE.Mesh {
  const m = marker(color, px, p);
  m.name = name;
  return m;
}

function named<T extends THREE.Object3D>(name: string, o: T): T {
  o.name = name;
  return o;
}

/**
 * A query's answer in world space:
 * - distance: the closest points (pointA, pointB) and the segment between them;
 * - penetration: the contact points, the depth segment between them and the normal (move B along it) from pointA;
 * - sat, chungwang: the (separating or least-overlap) axis as an arrowed line;
 * - raycast: the hit point and the surface normal, and the ray itself when `options.ray` is given;
 * - shapecast: the contact points and the normal; with `options.shapes` and `options.motion` also the motion
 *   arrows and the shapes where they touch;
 * - hull: the hull's faces and edges; obb: the refined box (and `options.bounds`) as lines;
 * - intersect: nothing (an empty group).
 * Parts are named ('pointA', 'pointB', 'segment', 'normal', 'axis', 'ray', 'hit', 'hull', 'bounds:obb' …).
 */
export function drawResult(result: Result, options: ResultDrawOptions = {}): THREE.Group {
  const q = options.query ?? queryOf(result);
  const g = group(`collidoscope:result:${q}`);
  const specs = (options.shapes ?? []).map((s, i) => worldSpec(s, `shapes[${i}]`));
  const scale = options.scale ?? (shapesSphere(specs)?.radius || spread(pointsOfResult(result, q, options.ray)) || 1);
  const arrowLength = options.arrowLength ?? scale * ARROW_PER_SCALE;
  const text = (s: string, at: readonly number[] | THREE.Vector3) => g.add(label(s, 'label-point label-contact', at));

  const contact = (pA: Vec3, pB: Vec3, color: number) => {
    g.add(dot('pointA', color, 5, pA), dot('pointB', color, 5, pB), named('segment', line([pA, pB], color, { opacity: 0.9 })));
    text('pA', pA);
    text('pB', pB);
  };
  const normalArrow = (from: readonly number[], n: readonly number[]) => {
    if (toV3(n).lengthSq() > 0) g.add(named('normal', arrow(from, n, arrowLength, COLORS.contact)));
  };
  const axisLine = (axis: Vec3) => {
    const center = options.at !== undefined ? toV3(vec(options.at, 'at'))
      : specs.length ? specs.reduce((c, s) => c.add(toV3(s.position ?? [0, 0, 0])), new THREE.Vector3()).multiplyScalar(1 / specs.length)
        : new THREE.Vector3();
    const L = toV3(axis).normalize();
    const half = scale * 0.9;
    const head = arrowLength * 0.4;
    const from = center.clone().addScaledVector(L, -half);
    g.add(named('axis', line([from, center.clone().addScaledVector(L, half - head)], COLORS.direction, { opacity: 0.85 })));
    g.add(named('axisHead', arrow(center.clone().addScaledVector(L, half - head), L, head, COLORS.direction)));
    text('axis', center.clone().addScaledVector(L, half));
  };

  switch (q) {
    case 'distance': {
      const r = result as DistanceResult;
      contact(r.pointA, r.pointB, COLORS.closest);
      break;
    }
    case 'penetration': {
      const r = result as PenetrationResult;
      contact(r.pointA, r.pointB, COLORS.contact);
      normalArrow(r.pointA, r.normal);
      break;
    }
    case 'sat': {
      axisLine((result as SatResult).axis);
      break;
    }
    case 'chungwang': {
      const axis = (result as ChungWangResult).separatingAxis;
      if (axis) axisLine(axis);
      break;
    }
    case 'raycast': {
      const r = result as RaycastResult;
      if (options.ray) g.add(rayObject(options.ray, r, scale));
      if (r.hit && r.point) {
        g.add(dot('hit', COLORS.contact, 6, r.point));
        text('hit', r.point);
        if (r.normal) normalArrow(r.point, r.normal);
      }
      break;
    }
    case 'shapecast': {
      const r = result as ShapecastResult;
      if (options.motion && specs.length >= 2) g.add(motionObject(specs, options.motion, r, arrowLength));
      if (r.hit && r.pointA && r.pointB) contact(r.pointA, r.pointB, COLORS.contact);
      if (r.hit && r.pointA && r.normal) normalArrow(r.pointA, r.normal);
      break;
    }
    case 'hull': {
      const h = hullGeometry(result as HullResult, false);
      g.add(named('hull', hullObject(h, { color: COLORS.polytope, opacity: 0.3, edgeOpacity: 0.95, pointSize: 4 })));
      break;
    }
    case 'obb': {
      const kinds = options.bounds ?? ['obb'];
      for (const kind of kinds) {
        const k = BOUND_KINDS.find((b) => b.id === kind);
        if (!k) bad('bounds', `unknown bounding volume '${String(kind)}' (one of ${BOUND_KINDS.map((b) => b.id).join(', ')})`);
        const o = boundObject(result as ObbResult, kind satisfies BoundKind, k.color);
        if (o) g.add(named(`bounds:${kind}`, o));
      }
      break;
    }
    case 'intersect':
      break;
    default:
      bad('query', `cannot draw a '${String(q)}' result`);
  }
  return finish(g, options.markerSize ?? scale * MARKER_PER_SCALE, options.labels);
}

/** The ray: solid up to the hit, dashed beyond (to maxT, or a few scales when maxT is infinite); all dashed on a miss. */
function rayObject(ray: NonNullable<ResultDrawOptions['ray']>, r: RaycastResult, scale: number): THREE.Group {
  const g = new THREE.Group();
  g.name = 'ray';
  const o = toV3(vec(ray.origin, 'ray.origin'));
  const d = toV3(vec(ray.direction, 'ray.direction'));
  const maxT = ray.maxT ?? 1;
  const at = (t: number) => o.clone().addScaledVector(d, t);
  const hitT = r.hit && r.t !== null ? r.t : null;
  const len = d.length();
  const endT = Number.isFinite(maxT) ? maxT : (hitT ?? 0) + (len > 0 ? (6 * scale) / len : 0);
  if (hitT !== null && hitT > 0) g.add(line([o, at(hitT)], COLORS.direction));
  if (endT > (hitT ?? 0)) g.add(line([at(hitT ?? 0), at(endT)], COLORS.direction, { dashed: Math.max(1e-3, scale * 0.025), opacity: 0.6 }));
  g.add(marker(COLORS.direction, 4, o));
  return g;
}

/** Shapecast: each shape's translation as an arrow from its start, and (on a hit) both shapes where they touch. */
function motionObject(specs: Shape[], motion: NonNullable<ResultDrawOptions['motion']>, r: ShapecastResult, arrowLength: number): THREE.Group {
  const g = new THREE.Group();
  g.name = 'motion';
  const t = [motion.translationA, motion.translationB].map((m, i) => (m === undefined ? [0, 0, 0] : vec(m, i ? 'motion.translationB' : 'motion.translationA')));
  specs.slice(0, 2).forEach((s, i) => {
    const color = i === 0 ? COLORS.a : COLORS.b;
    const move = toV3(t[i]);
    const start = toV3(s.position ?? [0, 0, 0]);
    if (move.lengthSq() > 0) g.add(named(i ? 'translationB' : 'translationA', arrow(start, move, move.length(), color)));
    if (r.hit && r.t !== null) {
      const at = start.clone().addScaledVector(move, r.t);
      const ghost = drawShape(s, { position: at, rotation: s.rotation }, { color, opacity: 0.15, edgeOpacity: 0.6, markerSize: arrowLength / 100 });
      ghost.name = i ? 'shapeB@t' : 'shapeA@t';
      g.add(ghost);
    }
  });
  return g;
}

// ---- trace frames ---------------------------------------------------------------------------------------

/** Keys of trace frames and results whose points are in world space (the rest live in A − B or are directions). */
const WORLD_KEYS = new Set(['closestA', 'closestB', 'a', 'b', 'pointA', 'pointB', 'point', 'face', 'edgeA', 'edgeB', 'p', 'q', 'pCore', 'qCore']);

/** The world points a trace mentions (for its scale when no shapes are given). */
function worldPointsOf(trace: Trace): THREE.Vector3[] {
  const out: THREE.Vector3[] = [];
  const isVec = (x: unknown): x is Vec3 => Array.isArray(x) && x.length === 3 && x.every((c) => typeof c === 'number' && Number.isFinite(c));
  const walk = (value: unknown, world: boolean): void => {
    if (isVec(value)) {
      if (world) out.push(toV3(value));
      return;
    }
    if (Array.isArray(value)) for (const v of value) walk(v, world);
    else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, world || WORLD_KEYS.has(k));
    }
  };
  walk(trace.frames, false);
  walk(trace.result, false);
  // The ray cast's x(λ) and support points lie in world space too (C = A).
  if (trace.query === 'raycast') for (const f of trace.frames) for (const p of [f.x, f.supportPoint]) if (isVec(p)) out.push(toV3(p));
  return out;
}

/**
 * A world's frame into `g`; returns the drawing's scale. Pairs: every shape's box, numbered, and the frame's pairs
 * (the page's pairs view), or ('minkowski') the seed's figure of the sorted intervals at z = 0. Simulate: with
 * `specs`, every shape at the frame's pose (static ones grey, bodies in the page's colours in turn: `moving`, else
 * all bodies; a plane as a patch under the others) and the step's contact points and normals, or ('minkowski')
 * each point's normal impulse as an arrow (the page's right view).
 */
function worldFrame(g: THREE.Group, trace: PairsTrace | SimulateTrace, index: number, drawing: FrameDrawing, specs: Shape[],
  moving: boolean[] | null, view: 'world' | 'minkowski', scaleOption: number | undefined): number {
  let sphere: THREE.Sphere;
  let draw = view === 'world' ? drawing.shapes : drawing.minkowski;
  if (isPairs(trace)) {
    const boxes = pairsBoxes(trace).filter((b) => !b.unbounded && b.min && b.max);
    sphere = view === 'minkowski' ? pairsFigureBounds(boxes.length)
      : enclosingSphere(boxes.flatMap((b) => [toV3(b.min!), toV3(b.max!)]));
  } else {
    const f = trace.frames[index];
    if (specs.length && specs.length !== f.poses.length) {
      bad('shapes', `the trace's frames place ${f.poses.length} shapes, got ${specs.length} (pass the scene the trace was made from)`);
    }
    const points = [...f.poses.map((p) => toV3(p)), ...f.contacts.flatMap((c) => [toV3(c.pointA), toV3(c.pointB)])];
    sphere = enclosingSphere(points);
    if (view === 'world' && specs.length) {
      const bodies = worldBodies(specs, f.poses, worldColors(moving ?? specs.map(() => true)));
      g.add(bodies.group);
      if (!bodies.box.isEmpty()) sphere = enclosingSphere([bodies.box.min, bodies.box.max, ...points]);
    }
  }
  const scale = scaleOption ?? (sphere.radius || 1);
  draw?.(g, { scale, arrowLength: scale * ARROW_PER_SCALE, center: sphere.center });
  return scale;
}

/**
 * A world's shapes at `poses` ([x, y, z, qx, qy, qz, qw] each), in `colors`: the others first, then each plane as a
 * patch under them. Returns the group (named 'collidoscope:bodies') and the box of the shapes but planes.
 */
function worldBodies(specs: Shape[], poses: readonly (readonly number[])[], colors: number[]): { group: THREE.Group; box: THREE.Box3 } {
  const out = group('collidoscope:bodies');
  const parts: THREE.Group[] = [];
  const box = new THREE.Box3();
  specs.forEach((s, i) => {
    if (s.type === 'plane') return;
    const part = drawShape(s, poses[i] as number[], { color: colors[i], opacity: 0.5 });
    part.updateMatrixWorld(true);
    box.expandByObject(part);
    parts[i] = part;
  });
  const around = box.isEmpty() ? [] : [box.min.toArray() as Vec3, box.max.toArray() as Vec3];
  specs.forEach((s, i) => {
    if (s.type === 'plane') parts[i] = drawShape(s, poses[i] as number[], { color: colors[i], opacity: 0.5, around });
    parts[i].userData.worldShape = i;
    out.add(parts[i]);
  });
  return { group: out, box };
}

/**
 * Frame `frameIndex` of a trace, drawn in world space on the shapes as the visualizer page draws it (the same
 * code): GJK — the support points a, b of this step and the current closest points closestA, closestB; EPA —
 * the support points and, at the end, the contact points and the normal; SAT — the candidate axis beside the
 * shapes with A's and B's intervals on it and the face or edges it comes from; ray cast — the ray, x(λ), the
 * simplex, the support point and its supporting plane, the hit and normal; shape cast — both shapes moved to
 * time λ, the support points on them, the contact and normal; Chung–Wang — the axis s, the support points p, q
 * and their planes; hull — the current faces, the conflict points, the eye, the horizon; a closed form (pairs of
 * points, spheres, segments, capsules) — the cores' closest points p, q and the segment between them, then the
 * closest points or the contact points and normal (view 'minkowski': v = p − q and the answer's point of A − B);
 * pairs (a world's broad phase) — every shape's box, numbered, white where the sweep passes, amber while open,
 * green for pairs found, a candidate green or red by intersect()'s answer (view 'minkowski': the seed's figure of
 * the sorted intervals, flat at z = 0); simulate — with `scene` (or `shapes`), every shape at the frame's pose
 * (static shapes grey, bodies in the page's colours, a plane as a patch under them) and the step's contact points
 * on A and B with their normals (view 'minkowski': each point's normal impulse as an arrow).
 * Pass `shapes` (or `scene`) for sizes that fit your scene; ray casts need `ray`, shape casts `shapes` and `motion`.
 */
export function drawTraceFrame(
  input: Trace | PairsTrace | SimulateTrace | Planar<Trace> | Planar<PlanarEpaTrace>, frameIndex: number, options: TraceDrawOptions = {},
): THREE.Group {
  // A 2D scene's trace (and its scene) is drawn as its twin in the plane z = 0.
  const planar = isPlanarTrace(input);
  const trace = planar ? liftTrace<Trace>(input) : input as Trace;
  if (options.scene && 'dimension' in options.scene && options.scene.dimension === 2) {
    options = { ...options, scene: liftScene(options.scene) };
  }
  const frames = trace.frames as unknown[];
  if (!Number.isInteger(frameIndex) || frameIndex < 0 || frameIndex >= frames.length) {
    bad('frameIndex', `must be an integer in [0, ${frames.length - 1}], got ${frameIndex}`);
  }
  const view = options.view ?? 'world';
  const g = group(`collidoscope:frame:${trace.query}:${frameIndex}`);
  const placed = options.shapes ?? (options.scene as Scene | undefined)?.shapes ?? [];
  const specs = placed.map((s, i) => worldSpec(s, `shapes[${i}]`));
  const ray = options.ray ?? (options.scene as Scene | undefined)?.ray;
  const motion = options.motion ?? (options.scene as Scene | undefined)?.motion;
  // The cast drawings read the ray or the motion from a scene: this one, built from the options.
  const scene = {
    version: 1, query: trace.query, shapes: specs,
    ray: ray && { origin: vec(ray.origin, 'ray.origin'), direction: vec(ray.direction, 'ray.direction'), maxT: ray.maxT },
    motion: motion && {
      translationA: motion.translationA === undefined ? undefined : vec(motion.translationA, 'motion.translationA'),
      translationB: motion.translationB === undefined ? undefined : vec(motion.translationB, 'motion.translationB'),
    },
  } as Scene;
  const drawer = frameDrawer(trace);
  const drawing = drawer?.draw(trace, frameIndex, scene);
  if (!drawer || !drawing) return g;
  if (isPairs(trace) || isSimulate(trace)) {
    const moving = options.scene && 'bodies' in options.scene && options.scene.bodies ? movingShapes(options.scene as Scene) : null;
    const scale = worldFrame(g, trace, frameIndex, drawing, specs, moving, view, options.scale);
    return finish(g, options.markerSize ?? scale * MARKER_PER_SCALE, options.labels);
  }

  let sphere: THREE.Sphere;
  let draw: ((g: THREE.Group, ctx: DrawContext) => void) | undefined;
  const cloud = drawer.space === 'cloud';
  if (cloud) {
    sphere = enclosingSphere(((trace as HullTrace).frames[0]?.points ?? []).map((p) => toV3(p)));
    draw = view === 'world' ? drawing.hull : undefined;
  } else if (view === 'minkowski' || drawer.minkowski === 'shape-a') {
    // The ray cast's "Minkowski" view is shape A itself, in world space.
    const world = drawer.minkowski === 'shape-a';
    sphere = world
      ? (shapesSphere(specs) ?? enclosingSphere(worldPointsOf(trace)))
      : specs.length >= 2
        ? enclosingSphere(minkowskiSurface(specs[0], specs[1], 200).points.map((p) => toV3(p)).concat(new THREE.Vector3()))
        : new THREE.Sphere(new THREE.Vector3(), 1);
    if (!world) sphere.center.set(0, 0, 0);
    draw = drawing.minkowski;
  } else {
    sphere = shapesSphere(specs) ?? enclosingSphere(worldPointsOf(trace));
    draw = drawing.shapes;
  }
  const scale = options.scale ?? (sphere.radius || 1);
  const ctx: DrawContext = { scale, arrowLength: scale * (cloud ? 0.4 : ARROW_PER_SCALE), center: sphere.center };
  draw?.(g, ctx);
  return finish(g, options.markerSize ?? scale * MARKER_PER_SCALE, options.labels);
}
