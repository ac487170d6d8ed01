// The page's state (scene, trace, step) and every action that changes it. Views and panel only render.
import * as THREE from 'three';
import { CollidoscopeError, run as runQuery, trace as runTrace, validateScene, type Quat, type Scene, type Shape, type Vec3 } from '../lib/index';
import { defaultCloud } from './cloud';
import { CloudPanel } from './cloud-panel';
import { defaultScene } from './defaults';
import { round } from './format';
import { cloudScene, isCloudQuery, isHullTrace, type BoundsResult } from './hull-types';
import { HullView } from './hull-view';
import { MinkowskiView } from './minkowski-view';
import { algorithmMode, overlayFor, type AnyTrace } from './overlay';
import { Banner, renderFrameText, renderPseudocode, renderStepper } from './panel';
import { HashWriter, linkFor, sceneFromHash } from './permalink';
import { ShapeEditor } from './shape-editor';
import { ShapesView } from './shapes-view';

/** Time between frames while playing. */
const PLAY_INTERVAL_MS = 900;

export interface PublicState {
  scene: Scene | null;
  frameIndex: number;
  frameCount: number;
  /** Kind of the frame shown ('support', 'expand', 'eye', 'done' ...), null without a trace. */
  frameKind: string | null;
  result: AnyTrace['result'] | null;
  /** Hull view: the "obb" query's answer for the cloud (AABB, sphere, both PCA boxes, the refined box). */
  bounds: BoundsResult | null;
  /** Hull view: the bounding volumes drawn. */
  boundsShown: string[];
  error: string | null;
  link: string;
  ready: boolean;
}

declare global {
  interface Window { __collidoscope: PublicState }
}

/** A message for the banner from anything thrown by the library (or by us). */
export function errorText(e: unknown): string {
  if (e instanceof CollidoscopeError || (e && typeof e === 'object' && 'code' in e && 'message' in e)) {
    const err = e as CollidoscopeError;
    const field = err.field && !err.message.includes(err.field) ? ` (field: ${err.field})` : '';
    return `${err.message}${field}`;
  }
  if (e instanceof Error) return e.message;
  return String(e);
}

interface ApplyOptions {
  step?: number;
  /** Frame both cameras on the new scene. */
  fit?: boolean;
  /** Keep the banner's current message on success (used when falling back to the default scene). */
  keepError?: boolean;
  /** Prefix for the banner when the scene is rejected. */
  errorPrefix?: string;
}

export class App {
  scene: Scene = defaultScene();
  trace: AnyTrace | null = null;
  /** Hull view: the bounding volumes of the cloud, or why they are missing. */
  bounds: BoundsResult | null = null;
  boundsError: string | null = null;
  /** The last two-shape scene and the last cloud, to come back to when the query changes family. */
  private lastPair: Scene | null = null;
  private lastCloud: Scene | null = null;
  private hullViewInst: HullView | null = null;
  frameIndex = 0;
  playing = false;
  private playTimer: ReturnType<typeof setInterval> | null = null;
  private pendingPose: Scene | null = null;
  readonly banner = new Banner();
  readonly hash = new HashWriter();
  readonly shapesView: ShapesView;
  readonly minkView: MinkowskiView;
  readonly editors: [ShapeEditor, ShapeEditor];
  readonly cloudPanel: CloudPanel;
  readonly state: PublicState = {
    scene: null, frameIndex: 0, frameCount: 0, frameKind: null, result: null, bounds: null, boundsShown: [],
    error: null, link: '', ready: false,
  };

  constructor() {
    window.__collidoscope = this.state;
    this.banner.onChange = () => this.publish();
    this.shapesView = new ShapesView(document.getElementById('view-shapes')!);
    this.minkView = new MinkowskiView(document.getElementById('view-minkowski')!);
    this.editors = [0, 1].map((i) => new ShapeEditor(
      document.getElementById(i === 0 ? 'editor-a' : 'editor-b')!, i as 0 | 1,
      (shape) => this.editShape(i as 0 | 1, shape),
    )) as [ShapeEditor, ShapeEditor];
    this.shapesView.onPoseChange = (i, p, q) => this.dragShape(i, p, q);
    this.cloudPanel = new CloudPanel();
    this.cloudPanel.onPoints = (points) => this.apply(cloudScene(points, this.cloudQuery()), {
      step: 0, fit: true, errorPrefix: 'Point cloud: ',
    });
    this.cloudPanel.onError = (message) => this.banner.show(message);
    this.cloudPanel.onBoundsChange = () => {
      this.hullView.setBounds(this.bounds, this.cloudPanel.shown, true);
      this.publish();
    };
  }

  /** The hull view, created the first time a cloud is shown (one WebGL context less for GJK and EPA). */
  get hullView(): HullView {
    this.hullViewInst ??= new HullView(document.getElementById('view-hull')!);
    return this.hullViewInst;
  }

  get isCloud(): boolean { return isCloudQuery(this.scene.query as string); }

  private cloudQuery(): 'hull' | 'obb' {
    return (this.scene.query as string) === 'obb' ? 'obb' : 'hull';
  }

  get frameCount(): number { return this.trace?.frames.length ?? 0; }

  /**
   * Validate and trace `candidate`; on success it becomes the scene and everything is redrawn.
   * On failure the banner shows the library's error and the current scene stays.
   */
  apply(candidate: unknown, opts: ApplyOptions = {}): boolean {
    let scene: Scene;
    let tr: AnyTrace;
    try {
      validateScene(candidate);
      // The scene is kept as given, not as the library's normalized copy (which renormalizes quaternions,
      // changing last bits): a permalink then reopens exactly the scene that was encoded. The library
      // normalizes the same way inside every query, so the trace is the same either way.
      scene = JSON.parse(JSON.stringify(candidate)) as Scene;
      // The "obb" query has no steps of its own: its page shows quickhull's, with the boxes over them.
      const traced = (scene.query as string) === 'obb' ? { ...scene, query: 'hull' } : scene;
      tr = runTrace(traced as Scene) as unknown as AnyTrace;
    } catch (e) {
      this.banner.show((opts.errorPrefix ?? '') + explain(errorText(e), candidate));
      return false;
    }
    const { step, ...rest } = scene;
    const wasObb = (this.scene.query as string) === 'obb' && this.trace !== null;
    this.scene = rest as Scene;
    this.trace = tr;
    const wanted = opts.step ?? (typeof step === 'number' ? step : this.frameIndex);
    this.frameIndex = clampStep(wanted, tr.frames.length);
    if (!opts.keepError) this.banner.clear();
    const mode = algorithmMode(tr);
    document.getElementById('app')!.dataset.algorithm = mode;
    if (isHullTrace(tr)) {
      this.lastCloud = this.scene;
      const points = tr.frames[0]?.points?.length ? tr.frames[0].points : (this.scene.shapes[0]?.points ?? []);
      this.computeBounds();
      if ((this.scene.query as string) === 'obb' && !wasObb) this.cloudPanel.setShown(['aabb', 'obb']);
      const a = this.scene.shapes[0];
      this.cloudPanel.show(points, a && a.type !== 'polytope' ? `the vertices of shape A (${a.type})` : '');
      this.cloudPanel.showBounds(this.bounds, this.boundsError);
      this.hullView.setPoints(points);
      this.hullView.setBounds(this.bounds, this.cloudPanel.shown);
    } else {
      if (this.scene.shapes.length >= 2) this.lastPair = withoutCast(this.scene);
      const margins = ('marginA' in tr && tr.marginA > 0) || ('marginB' in tr && tr.marginB > 0);
      this.shapesView.setShapes(this.scene.shapes);
      this.minkView.setShapes(this.scene.shapes, margins,
        mode === 'cw' ? 'gauss' : this.scene.shapes.length === 1 ? 'single' : 'difference');
      this.scene.shapes.forEach((s, i) => this.editors[i]?.show(s));
      this.editors[1].root.hidden = this.scene.shapes.length < 2;
      setViewTitles(mode, this.scene.shapes.length);
    }
    (document.getElementById('query') as HTMLSelectElement).value = this.scene.query;
    // The example list shows an example only while its scene is unchanged (the gallery sets it after this).
    (document.getElementById('gallery') as HTMLSelectElement).value = '';
    if (opts.fit) this.fitViews();
    this.showFrame();
    return true;
  }

  /** Load the scene in the URL hash, or the default scene (with an error banner) when it is unusable. */
  loadFromHash(): void {
    let fromHash: Scene | null = null;
    try {
      fromHash = sceneFromHash();
    } catch (e) {
      this.loadDefault('Could not open this link: ' + errorText(e));
      return;
    }
    if (fromHash === null) {
      this.apply(defaultScene(), { step: 0, fit: true });
      return;
    }
    const step = typeof fromHash.step === 'number' ? fromHash.step : 0;
    if (!this.apply(fromHash, { step, fit: true, errorPrefix: 'Could not show the scene of this link: ' })) {
      this.loadDefault(this.banner.message ?? 'Could not open this link.');
    }
  }

  private loadDefault(message: string): void {
    this.banner.show(sentence(message) + ' Showing the default scene instead.');
    this.apply(defaultScene(), { step: 0, fit: true, keepError: true });
  }

  setStep(i: number): void {
    const n = this.frameCount;
    const next = clampStep(i, n);
    if (next === this.frameIndex && n > 0) { this.publish(); return; }
    this.frameIndex = next;
    if (this.playing && this.frameIndex >= n - 1) this.pause();
    this.showFrame();
  }

  step(delta: number): void { this.setStep(this.frameIndex + delta); }

  play(): void {
    if (this.frameCount <= 1) return;
    if (this.frameIndex >= this.frameCount - 1) this.setStep(0);
    this.playing = true;
    this.playTimer = setInterval(() => this.step(1), PLAY_INTERVAL_MS);
    this.renderStepper();
  }

  pause(): void {
    this.playing = false;
    if (this.playTimer !== null) clearInterval(this.playTimer);
    this.playTimer = null;
    this.renderStepper();
  }

  togglePlay(): void { if (this.playing) this.pause(); else this.play(); }

  setQuery(q: string): void {
    const cloudNow = this.isCloud;
    if (isCloudQuery(q)) {
      if (cloudNow) this.apply({ ...this.scene, query: q });
      else this.apply({ ...(this.lastCloud ?? cloudScene(defaultCloud())), query: q }, { step: 0, fit: true });
      return;
    }
    // Two-shape queries start from the current pair (or the last one); raycast keeps shape A and adds a ray
    // aimed at it; shapecast adds a motion that brings B to A. Fields a query does not use are dropped.
    const pair = cloudNow || this.scene.shapes.length < 2 ? (this.lastPair ?? defaultScene()) : withoutCast(this.scene);
    const reframe = cloudNow || (q === 'raycast') !== (this.scene.query === 'raycast');
    const opts = { fit: reframe, step: reframe ? 0 : undefined };
    if (q === 'raycast') {
      const a = pair.shapes[0];
      this.apply({ version: 1, query: q, shapes: [a], ray: defaultRay(a) }, opts);
    } else if (q === 'shapecast') {
      this.apply({ ...pair, query: q, motion: defaultMotion(pair) }, opts);
    } else if (q === 'sat') {
      // SAT needs shapes with vertices: a cylinder, cone or ellipsoid becomes its bounding box (same pose).
      const boxed = pair.shapes.map(boxIfCurved);
      const changed = ['A', 'B'].filter((_, i) => boxed[i] !== pair.shapes[i]);
      if (this.apply({ ...pair, shapes: boxed, query: q }, opts) && changed.length) {
        this.banner.show(`SAT works on shapes with vertices: the curved shape ${changed.join(' and ')} was replaced by its bounding box.`);
      }
    } else {
      this.apply({ ...pair, query: q as Scene['query'] }, opts);
    }
    // A refused scene keeps the current one: the query list shows its query again.
    (document.getElementById('query') as HTMLSelectElement).value = this.scene.query;
  }

  /** The bounding volumes of the cloud: the "obb" query's answer. */
  private computeBounds(): void {
    try {
      this.bounds = runQuery({ ...this.scene, query: 'obb' } as unknown as Scene) as unknown as BoundsResult;
      this.boundsError = null;
    } catch (e) {
      this.bounds = null;
      this.boundsError = errorText(e);
    }
  }

  editShape(i: 0 | 1, shape: Shape): boolean {
    const shapes = this.scene.shapes.map((s, j) => (j === i ? shape : s));
    return this.apply({ ...this.scene, shapes }, { errorPrefix: `Shape ${i === 0 ? 'A' : 'B'}: ` });
  }

  /** Gizmo drags arrive at pointer rate; the trace is re-run at most once per animation frame. */
  private dragShape(i: 0 | 1, p: Vec3, q: Quat): void {
    const base = this.pendingPose ?? this.scene;
    const shapes = base.shapes.map((s, j) => (j === i ? {
      ...s, position: p.map((x) => round(x, 4)) as Vec3, rotation: q.map((x) => round(x, 6)) as Quat,
    } : s));
    const first = this.pendingPose === null;
    this.pendingPose = { ...base, shapes };
    if (first) {
      requestAnimationFrame(() => {
        const s = this.pendingPose;
        this.pendingPose = null;
        if (s) this.apply(s);
      });
    }
  }

  fitViews(): void {
    if (this.isCloud) {
      this.hullView.fit();
      return;
    }
    this.shapesView.fitGround();
    const a = this.shapesView.bounds();
    const b = this.minkView.viewBounds();
    // The casts: the whole ray (up to maxT), and where the moving shapes end, in view too.
    const ray = this.scene.query === 'raycast' ? this.scene.ray : undefined;
    const motion = this.scene.query === 'shapecast' ? this.scene.motion : undefined;
    const grow = (s: THREE.Sphere, p: readonly number[]) => {
      if (p.every(Number.isFinite)) s.union(new THREE.Sphere(new THREE.Vector3(p[0], p[1], p[2]), 0));
    };
    if (ray) {
      // A very long ray (maxT far beyond the shape) would shrink the shape to a dot: at most 4 shape sizes.
      const t = Math.min(ray.maxT ?? 1, (4 * a.radius + Math.hypot(...ray.origin.map((x, i) => x - a.center.getComponent(i))))
        / Math.max(1e-300, Math.hypot(...ray.direction)));
      const end = ray.origin.map((x, i) => x + t * ray.direction[i]);
      for (const p of [ray.origin, end]) { grow(a, p); grow(b, p); }
    }
    if (motion) {
      const tA = motion.translationA ?? [0, 0, 0];
      const tB = motion.translationB ?? [0, 0, 0];
      this.scene.shapes.forEach((s, i) => {
        const p = s.position ?? [0, 0, 0];
        const t = i === 0 ? tA : tB;
        grow(a, p.map((x, k) => x + t[k]));
      });
      grow(b, tB.map((x, k) => x - tA[k]));
    }
    this.shapesView.view.frame(a.center, a.radius);
    this.minkView.view.frame(b.center, b.radius);
  }

  private renderStepper(): void {
    renderStepper(this.frameIndex, this.frameCount, this.playing);
  }

  private showFrame(): void {
    const tr = this.trace;
    const frame = tr?.frames[this.frameIndex] ?? null;
    const overlay = overlayFor(tr, this.frameIndex, this.scene);
    this.renderStepper();
    renderPseudocode(tr?.pseudocode ?? [], frame?.line ?? 0);
    renderFrameText(overlay, frame?.caption ?? '', tr);
    const mode = algorithmMode(tr);
    document.getElementById('app')!.dataset.algorithm = mode;
    if (mode === 'hull') {
      this.hullView.setFrame(overlay);
    } else {
      this.shapesView.setFrame(overlay);
      this.minkView.setFrame(overlay);
    }
    this.hash.write(linkFor(this.scene, this.frameIndex));
    this.publish();
  }

  publish(): void {
    const s = this.state;
    s.scene = JSON.parse(JSON.stringify(this.scene)) as Scene;
    s.frameIndex = this.frameIndex;
    s.frameCount = this.frameCount;
    s.frameKind = this.trace?.frames[this.frameIndex]?.kind ?? null;
    s.result = this.trace ? JSON.parse(JSON.stringify(this.trace.result)) : null;
    const cloud = this.isCloud;
    s.bounds = cloud && this.bounds ? JSON.parse(JSON.stringify(this.bounds)) : null;
    s.boundsShown = cloud ? [...this.cloudPanel.shown] : [];
    s.error = this.banner.message;
    try {
      s.link = linkFor(this.scene, this.frameIndex);
    } catch {
      s.link = '';
    }
  }
}

/** The two views' headings for the page's mode. */
function setViewTitles(mode: string, shapes: number): void {
  const left = document.querySelector('#view-shapes .view-title');
  const right = document.querySelector('#view-minkowski .view-title');
  if (left) left.textContent = shapes < 2 ? 'Shape A and the ray' : 'Shapes A and B';
  if (!right) return;
  right.textContent = mode === 'cw' ? 'Gauss sphere: directions r on the unit sphere'
    : shapes < 2 ? 'Shape A: the ray, x(λ) and the simplex'
      : mode === 'cast' ? 'Minkowski difference A − B: the relative motion from O'
        : 'Minkowski difference A − B  ·  O = origin';
}

/** The scene without the fields only raycast and shapecast use. */
function withoutCast(scene: Scene): Scene {
  const { ray, motion, ...rest } = scene;
  void ray;
  void motion;
  return rest as Scene;
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
  return Math.max(0.5, m);
}

/** The library's refusal to trace a large cloud, said with the cloud's size and what to do about it. */
function explain(message: string, candidate: unknown): string {
  const m = /tracing is limited to (\d+) points/.exec(message);
  if (!m) return message;
  const pts = (candidate as { shapes?: { points?: unknown[] }[] } | null)?.shapes?.[0]?.points;
  const size = Array.isArray(pts) ? `This cloud has ${pts.length} points; the` : 'The';
  return `${size} page steps through quickhull only for clouds of up to ${m[1]} points (the library refuses `
    + `longer traces: "${message}"). Generate or paste fewer points; run() with query "hull" builds larger hulls without a trace.`;
}

/** The message ending with a full stop, so that another sentence can follow it. */
function sentence(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : t + '.';
}

function clampStep(i: number, n: number): number {
  if (n <= 0 || Number.isNaN(i)) return 0;
  return Math.min(n - 1, Math.max(0, Math.floor(i)));
}
