// The page's state (scene, trace, step) and every action that changes it. Views and panel only render.
import { round } from '../lib/draw/format';
import { drawnPlanes, type DrawnPlane } from '../lib/draw/plane';
import {
  CollidoscopeError, isClosedForm, run as runQuery, trace as runTrace, validateScene, type HullTrace, type Quat, type Scene, type Scene2D,
  type Shape, type Shape2D, type Trace, type Vec3,
} from '../lib/index';
import { defaultCloud } from './cloud';
import { CloudPanel } from './cloud-panel';
import { defaultScene } from './defaults';
import { cloudScene, type BoundsResult } from './hull-types';
import { HullView } from './hull-view';
import { MinkowskiView } from './minkowski-view';
import type { MinkowskiMode } from './query-view';
import { answeringChildren } from './compound-child';
import { CastEditor } from './cast-editor';
import { motionWithEnd, rayWithOrigin, rayWithTip } from './edit-math';
import { Banner, renderFrameText, renderPseudocode, renderStepper } from './panel';
import { HashWriter, linkFor, sceneFromHash } from './permalink';
import {
  PLANAR_QUERIES, isPlanar, liftScene, liftTrace, planarCast, planarOverlay, planarTitles, quatAngle, simplexKind,
} from './planar';
import { PlanarShapeEditor } from './planar-editor';
import { followShapes, overlayFor, viewOf, viewOfTrace } from './queries';
import { movingShapes } from './sandbox-view';
import { ShapeEditor } from './shape-editor';
import { ShapesView, type HandleKind } from './shapes-view';

/** The gizmo's hint under the shape buttons, for 3D scenes and for the plane (which pans instead of orbiting). */
const GIZMO_HINT = 'Click a shape to attach the gizmo; drag to orbit; Esc detaches.';
const PLANAR_GIZMO_HINT = 'Click a shape to attach the gizmo (move in x, y; turn about z); drag to pan, wheel to zoom; Esc detaches.';

/** Time between frames while playing at speed 1. */
const PLAY_INTERVAL_MS = 900;

export interface PublicState {
  scene: Scene | null;
  frameIndex: number;
  frameCount: number;
  /**
   * Kind of the frame shown ('support', 'expand', 'eye', 'done' ...; 'closed-form' for a closed form's one frame;
   * 'step' for a world's), null without a trace.
   */
  frameKind: string | null;
  /** The closed form that answered the pair ('segment-point' ...), null when an algorithm's steps are shown. */
  closedForm: string | null;
  result: Trace['result'] | null;
  /** Hull view: the "obb" query's answer for the cloud (AABB, sphere, both PCA boxes, the refined box). */
  bounds: BoundsResult | null;
  /** Hull view: the bounding volumes drawn. */
  boundsShown: string[];
  error: string | null;
  link: string;
  /** The casts' drag handles shown ('origin', 'tip', 'endA', 'endB'), where they are on the page in CSS pixels. */
  handles: Record<string, [number, number]>;
  /** Play speed, a multiple of one step per PLAY_INTERVAL_MS. */
  speed: number;
  playing: boolean;
  ready: boolean;
  /**
   * A 2D scene's drawing: the points whose hull is the A − B drawn ([x, y]), the GJK simplex of the frame shown (a
   * point, a segment, a triangle; null when W is empty or the frame is not GJK's). null for 3D scenes.
   */
  /**
   * A world ("simulate"): the frame's step, the poses the views draw the shapes at (read back from the drawn
   * objects, [x, y, z, qx, qy, qz, qw] each), its contact points, and where the dots a click picks are on the
   * page (CSS pixels); null for other queries.
   */
  world: { step: number; poses: number[][]; contacts: number; contactsOnScreen: { pair: [number, number]; at: [number, number] }[] } | null;
  /** The plane patches each view draws (world centre, unit normal, half side), read back from the drawn objects. */
  planes: { shapes: DrawnPlane[]; minkowski: DrawnPlane[] };
  planar: {
    difference: [number, number][];
    simplex: 'point' | 'segment' | 'triangle' | null;
    /** Where the shapes' positions are on the page (CSS pixels): where the gizmo attaches. */
    shapes: [number, number][];
  } | null;
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
  /** The scene shown, as given: for a 2D scene its own JSON ([x, y] vectors, "angle"), which links and exports keep. */
  scene: Scene = defaultScene();
  /** The trace of `scene` (a 2D scene's with [x, y] vectors: the values table and the captions read it). */
  trace: Trace | null = null;
  /** A 2D scene's 3D twin in the plane z = 0 and its trace lifted there: what the views draw. */
  private planar: { scene: Scene; trace: Trace } | null = null;
  /** Hull view: the bounding volumes of the cloud, or why they are missing. */
  bounds: BoundsResult | null = null;
  boundsError: string | null = null;
  /** The last two-shape scene and the last cloud, to come back to when the query changes family. */
  private lastPair: Scene | null = null;
  private lastCloud: Scene | null = null;
  /** What the right view shows (its camera was framed for it); null while the hull view is shown. */
  private rightContent: MinkowskiMode | null | undefined = null;
  private hullViewInst: HullView | null = null;
  frameIndex = 0;
  playing = false;
  /** Play speed: a multiple of one step per PLAY_INTERVAL_MS. */
  speed = 1;
  /** Called after every frame shown (a step, a new scene, an edit). */
  onFrame: ((index: number, count: number, caption: string) => void) | null = null;
  /** Called when the banner shows an error. */
  onError: ((message: string) => void) | null = null;
  /** Called after every frame shown, after onFrame (the explaining parts: plot, predict, result box). */
  readonly frameListeners: (() => void)[] = [];
  /** Asked before a single step forward to frame `to`; false holds the step (predict mode asks first). */
  beforeStep: ((to: number) => boolean) | null = null;
  private playTimer: ReturnType<typeof setInterval> | null = null;
  private pendingPose: Scene | null = null;
  /**
   * A link the page could not open stays in the address bar, to be fixed or reported, until the user changes
   * the scene or dismisses the message; until then the page's own link is not written over it.
   */
  private linkHeld = false;
  readonly banner = new Banner();
  readonly hash = new HashWriter();
  readonly shapesView: ShapesView;
  readonly minkView: MinkowskiView;
  readonly editors: [ShapeEditor, ShapeEditor];
  readonly planarEditors: [PlanarShapeEditor, PlanarShapeEditor];
  readonly castEditor: CastEditor;
  readonly cloudPanel: CloudPanel;
  readonly state: PublicState = {
    scene: null, frameIndex: 0, frameCount: 0, frameKind: null, closedForm: null, result: null, bounds: null, boundsShown: [],
    error: null, link: '', handles: {}, speed: 1, playing: false, ready: false, world: null, planes: { shapes: [], minkowski: [] }, planar: null,
  };

  constructor() {
    window.__collidoscope = this.state;
    this.banner.onChange = () => {
      this.publish();
      if (this.banner.message !== null) this.onError?.(this.banner.message);
    };
    this.banner.onDismiss = () => {
      if (!this.linkHeld) return;
      this.linkHeld = false;
      this.hash.write(linkFor(this.scene, this.frameIndex));
    };
    this.shapesView = new ShapesView(document.getElementById('view-shapes')!);
    this.minkView = new MinkowskiView(document.getElementById('view-minkowski')!);
    this.editors = [0, 1].map((i) => new ShapeEditor(
      document.getElementById(i === 0 ? 'editor-a' : 'editor-b')!, i as 0 | 1,
      (shape) => this.editShape(i as 0 | 1, shape),
    )) as [ShapeEditor, ShapeEditor];
    this.planarEditors = [0, 1].map((i) => new PlanarShapeEditor(
      document.getElementById(i === 0 ? 'editor-a' : 'editor-b')!, i as 0 | 1,
      (shape) => this.editShape(i as 0 | 1, shape as unknown as Shape),
    )) as [PlanarShapeEditor, PlanarShapeEditor];
    this.shapesView.onPoseChange = (i, p, q) => this.dragShape(i, p, q);
    this.shapesView.onHandleMove = (kind, p) => this.dragHandle(kind, p);
    this.castEditor = new CastEditor(document.getElementById('cast-editor')!,
      (scene) => this.apply(scene, { errorPrefix: scene.ray ? 'Ray: ' : scene.motion ? 'Motion: ' : 'Margin: ' }));
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

  get isCloud(): boolean { return viewOf(this.scene.query).family === 'cloud'; }

  /** Whether the scene shown is a world (the sandbox). */
  get isWorld(): boolean { return viewOf(this.scene.query).family === 'world'; }

  /** Whether the scene shown is a 2D scene. */
  get isPlanar(): boolean { return this.planar !== null; }

  /** The scene the views draw: the scene itself, or a 2D scene's 3D twin in the plane z = 0. */
  get drawn(): Scene { return this.planar?.scene ?? this.scene; }

  /** The query of a new cloud: the current one while it is a cloud query, else "hull". */
  private cloudQuery(): 'hull' | 'obb' {
    return this.isCloud ? this.scene.query as 'hull' | 'obb' : 'hull';
  }

  get frameCount(): number { return this.trace?.frames.length ?? 0; }

  /**
   * Validate and trace `candidate`; on success it becomes the scene and everything is redrawn.
   * On failure the banner shows the library's error and the current scene stays.
   */
  apply(candidate: unknown, opts: ApplyOptions = {}): boolean {
    let scene: Scene;
    let tr: Trace;
    try {
      validateScene(candidate);
      // The scene is kept as given, not as the library's normalized copy (which renormalizes quaternions,
      // changing last bits): a permalink then reopens exactly the scene that was encoded. The library
      // normalizes the same way inside every query, so the trace is the same either way.
      scene = JSON.parse(JSON.stringify(candidate)) as Scene;
      // A 2D scene runs as itself (every query it has is traced as it is); the views draw its twin at z = 0.
      tr = isPlanar(scene) ? runTrace(scene as unknown as Scene2D) as unknown as Trace : traceOf(scene);
    } catch (e) {
      this.banner.show((opts.errorPrefix ?? '') + explain(errorText(e), candidate));
      return false;
    }
    const { step, ...rest } = scene;
    const before = this.trace !== null ? this.scene.query : null;
    this.scene = rest as Scene;
    this.trace = tr;
    this.planar = isPlanar(rest) ? { scene: liftScene(rest as unknown as Scene2D), trace: liftTrace<Trace>(tr) } : null;
    const wanted = opts.step ?? (typeof step === 'number' ? step : this.frameIndex);
    this.frameIndex = clampStep(wanted, tr.frames.length);
    if (!opts.keepError) {
      this.banner.clear();
      this.linkHeld = false;
    }
    const view = viewOf(this.scene.query);
    document.getElementById('app')!.dataset.algorithm = viewOfTrace(tr).mode;
    let refit = opts.fit === true;
    if (view.family !== 'world') {
      this.shapesView.setWorld(null);
      this.minkView.setWorld(null);
    }
    if (view.family === 'world') {
      // Any number of shapes, at the poses of each frame (showFrame); the pair's editors and handles have nothing to edit.
      if (before !== this.scene.query) refit = true;
      this.rightContent = null;
      this.shapesView.setPlanar(false);
      this.minkView.setPlanar(false);
      const moving = movingShapes(this.scene);
      this.shapesView.setWorld(this.scene.shapes, moving);
      this.minkView.setWorld(this.scene.shapes, moving);
      const poses = view.poses?.(tr, this.frameIndex);
      if (poses) {
        this.shapesView.setWorldPoses(poses);
        this.minkView.setWorldPoses(poses);
      }
      for (const ed of [...this.editors, ...this.planarEditors]) ed.root.hidden = true;
      this.castEditor.show(this.scene);
      this.shapesView.setHandles(this.scene);
      setViewTitles(view.titles?.(this.scene.shapes.length));
    } else if (view.family === 'cloud') {
      this.rightContent = null;
      this.lastCloud = this.scene;
      const first = (tr as HullTrace).frames[0];
      const points = first?.points?.length ? first.points : (this.scene.shapes[0]?.points ?? []);
      this.computeBounds();
      if (view.boundsShown && before !== this.scene.query) this.cloudPanel.setShown(view.boundsShown);
      const a = this.scene.shapes[0];
      this.cloudPanel.show(points, a && a.type !== 'polytope' ? `the vertices of shape A (${a.type})` : '');
      this.cloudPanel.showBounds(this.bounds, this.boundsError);
      this.hullView.setPoints(points);
      this.hullView.setBounds(this.bounds, this.cloudPanel.shown);
    } else {
      if (this.scene.shapes.length >= 2) this.lastPair = withoutCast(this.scene);
      const margins = ('marginA' in tr && tr.marginA > 0) || ('marginB' in tr && tr.marginB > 0);
      const drawn = this.drawn;
      const flat = this.isPlanar;
      this.shapesView.setPlanar(flat);
      this.minkView.setPlanar(flat);
      this.shapesView.setShapes(drawn.shapes);
      // The trace's own views (a mesh's ray cast has its own titles and draws the mesh itself).
      const shown = viewOfTrace(tr);
      const right = shown.minkowski?.(drawn.shapes.length);
      // The right view's camera was aimed at what it showed: A − B, shape A in the world and the Gauss sphere
      // lie in different places, so a change of content frames the views again.
      if (right !== this.rightContent) refit = true;
      this.rightContent = right;
      // A plane shown alone is drawn around the query's point.
      this.minkView.setShapes(answeringChildren(drawn.shapes, tr), margins, right, drawn.point ? [drawn.point] : []);
      const count = this.scene.shapes.length;
      this.editors.forEach((ed, i) => {
        ed.root.hidden = flat || i >= count;
        if (!ed.root.hidden) ed.show(this.scene.shapes[i]);
      });
      this.planarEditors.forEach((ed, i) => {
        ed.root.hidden = !flat || i >= count;
        if (!ed.root.hidden) ed.show(this.scene.shapes[i] as unknown as Shape2D);
      });
      this.castEditor.show(this.scene);
      this.shapesView.setHandles(drawn);
      setViewTitles(flat ? planarTitles(count) : shown.titles?.(count));
      const hint = document.getElementById('gizmo-hint');
      if (hint) hint.textContent = flat ? PLANAR_GIZMO_HINT : GIZMO_HINT;
    }
    (document.getElementById('query') as HTMLSelectElement).value = this.scene.query;
    // The example list shows an example only while its scene is unchanged (the gallery sets it after this).
    (document.getElementById('gallery') as HTMLSelectElement).value = '';
    if (refit) this.fitViews();
    this.showFrame();
    return true;
  }

  /** Load the scene in the URL hash, or the default scene (with an error banner) when it is unusable. */
  loadFromHash(): void {
    let fromHash: Scene | Scene2D | null = null;
    try {
      fromHash = sceneFromHash();
    } catch (e) {
      // A link that cannot be read at all: say which parameter and how it starts. (A scene error names its field.)
      const unread = (e as { code?: string } | null)?.code === 'bad-link';
      this.loadDefault('Could not open this link: ' + errorText(e) + (unread ? badPart(location.hash) : ''));
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
    this.banner.show(sentence(message) + ' The address bar keeps the link as opened, to fix or to report.'
      + ' Showing the default scene instead.');
    this.linkHeld = true;
    this.apply(defaultScene(), { step: 0, fit: true, keepError: true });
    this.hash.hold();
  }

  setStep(i: number): void {
    const n = this.frameCount;
    const next = clampStep(i, n);
    if (next === this.frameIndex && n > 0) { this.publish(); return; }
    if (next === this.frameIndex + 1 && this.beforeStep && !this.beforeStep(next)) {
      if (this.playing) this.pause();
      return;
    }
    this.frameIndex = next;
    if (this.playing && this.frameIndex >= n - 1) this.pause();
    this.showFrame();
  }

  step(delta: number): void { this.setStep(this.frameIndex + delta); }

  play(): void {
    if (this.frameCount <= 1) return;
    if (this.frameIndex >= this.frameCount - 1) this.setStep(0);
    this.playing = true;
    this.playTimer = setInterval(() => this.step(1), this.playInterval() / this.speed);
    this.renderStepper();
    this.publish();
  }

  /** Sets the play speed (the caller checks the range); a running play goes on at the new pace. */
  setSpeed(speed: number): void {
    this.speed = speed;
    if (this.playing) {
      if (this.playTimer !== null) clearInterval(this.playTimer);
      this.playTimer = setInterval(() => this.step(1), this.playInterval() / this.speed);
    }
    this.renderStepper();
    this.publish();
  }

  /** Milliseconds between frames at speed 1: the query's own pace (the sandbox plays in real time), else the page's. */
  private playInterval(): number {
    const t = this.trace;
    return (t && viewOfTrace(t).playInterval?.(t)) || PLAY_INTERVAL_MS;
  }

  pause(): void {
    this.playing = false;
    if (this.playTimer !== null) clearInterval(this.playTimer);
    this.playTimer = null;
    this.renderStepper();
    this.publish();
  }

  togglePlay(): void { if (this.playing) this.pause(); else this.play(); }

  setQuery(q: Scene['query']): void {
    if (this.isPlanar) {
      this.setPlanarQuery(q);
      return;
    }
    const cloudNow = this.isCloud;
    const view = viewOf(q);
    if (view.family === 'cloud' || !view.fromPair) {
      if (cloudNow) this.apply({ ...this.scene, query: q });
      else this.apply({ ...(this.lastCloud ?? cloudScene(defaultCloud())), query: q }, { step: 0, fit: true });
      return;
    }
    // Between the point queries the scene stays as it is (its shape A and its point).
    if (this.scene.point && view.family === 'single' && (q === 'contains' || q === 'project')) {
      this.apply({ ...this.scene, query: q });
      (document.getElementById('query') as HTMLSelectElement).value = this.scene.query;
      return;
    }
    // The other queries start from the current pair (or the last one), without the fields of the casts; the
    // query's view makes its scene from it (a ray for shape A, a motion ...).
    const pair = cloudNow || this.isWorld || this.scene.shapes.length < 2 ? (this.lastPair ?? defaultScene()) : withoutCast(this.scene);
    const single = (query: Scene['query']) => viewOf(query).family === 'single';
    const { scene, note } = view.fromPair(pair, q);
    // A query that brings shapes of its own (the obbtree view's mesh) is framed for them.
    const reframe = cloudNow || this.isWorld || single(q) !== single(this.scene.query) || JSON.stringify(scene.shapes) !== JSON.stringify(pair.shapes);
    if (this.apply(scene, { fit: reframe, step: reframe ? 0 : undefined }) && note) this.banner.show(note);
    // A refused scene keeps the current one: the query list shows its query again.
    (document.getElementById('query') as HTMLSelectElement).value = this.scene.query;
  }

  /**
   * A 2D scene's query changed: the same shapes with the new query; a ray or a motion made as for a 3D scene, in
   * the plane. A query the plane does not run keeps the scene and says so.
   */
  private setPlanarQuery(q: Scene['query']): void {
    const select = document.getElementById('query') as HTMLSelectElement;
    if (!(PLANAR_QUERIES as readonly string[]).includes(q)) {
      this.banner.show(`2D scenes run ${PLANAR_QUERIES.join(', ')}; "${q}" needs a 3D scene (one without "dimension": 2).`);
      select.value = this.scene.query;
      return;
    }
    const pair = withoutCast(this.scene);
    const view = viewOf(q);
    const made = view.fromPair?.(liftScene(pair as unknown as Scene2D), q).scene;
    const next = { ...pair, query: q } as Scene;
    if (q === 'raycast') next.shapes = [pair.shapes[0]];
    if (made?.ray && q === 'raycast') next.ray = planarCast(made).ray as unknown as Scene['ray'];
    if (made?.motion && q === 'shapecast') next.motion = planarCast(made).motion as unknown as Scene['motion'];
    const single = (query: Scene['query']) => viewOf(query).family === 'single';
    const reframe = single(q) !== single(this.scene.query);
    this.apply(next, { fit: reframe, step: reframe ? 0 : undefined });
    select.value = this.scene.query;
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
    return this.apply(followShapes(this.scene, { ...this.scene, shapes }), { errorPrefix: `Shape ${i === 0 ? 'A' : 'B'}: ` });
  }

  /** Gizmo drags arrive at pointer rate; the trace is re-run at most once per animation frame. */
  private dragShape(i: 0 | 1, p: Vec3, q: Quat): void {
    const base = this.pendingPose ?? this.scene;
    if (this.isPlanar) {
      // In the plane: the position's x and y, and the turn about z as the shape's angle (a circle has none).
      const shapes = base.shapes.map((s, j) => {
        if (j !== i) return s;
        const flat = { ...(s as unknown as Shape2D), position: [round(p[0], 4), round(p[1], 4)] } as Shape2D;
        // A move leaves the angle as it was, to the last bit; a turn sets it (rounded as dragged poses are).
        const turned = 2 * Math.atan2(q[2], q[3]);
        if (flat.type !== 'circle' && Math.abs(turned - (flat.angle ?? 0)) > 1e-9) flat.angle = quatAngle(q);
        return flat as unknown as Shape;
      });
      this.dragTo({ ...base, shapes });
      return;
    }
    const shapes = base.shapes.map((s, j) => (j === i ? {
      ...s, position: p.map((x) => round(x, 4)) as Vec3, rotation: q.map((x) => round(x, 6)) as Quat,
    } : s));
    this.dragTo(followShapes(base, { ...base, shapes }));
  }

  /** A cast's handle dragged to `p`: the ray's origin or end, or where shape A or B ends its motion. */
  private dragHandle(kind: HandleKind, p: Vec3): void {
    const base = this.pendingPose ?? this.scene;
    if (this.isPlanar) {
      // The handle moved in the plane: the 3D twin's ray or motion follows it, and the 2D scene takes its x and y.
      const twin = liftScene(base as unknown as Scene2D);
      const ray = twin.ray && (kind === 'origin' || kind === 'tip')
        ? (kind === 'origin' ? rayWithOrigin(twin.ray, p) : rayWithTip(twin.ray, p)) : undefined;
      const i = kind === 'endA' ? 0 : 1;
      const motion = twin.motion && (kind === 'endA' || kind === 'endB')
        ? motionWithEnd(twin.motion, i, twin.shapes[i]?.position, p) : undefined;
      const flat = planarCast({ ...twin, ray, motion });
      if (flat.ray) this.dragTo({ ...base, ray: flat.ray as unknown as Scene['ray'] });
      if (flat.motion) this.dragTo({ ...base, motion: flat.motion as unknown as Scene['motion'] });
      return;
    }
    if (kind === 'point' && base.point) {
      this.dragTo({ ...base, point: p.map((x) => round(x, 4)) as Vec3 });
    } else if ((kind === 'origin' || kind === 'tip') && base.ray) {
      this.dragTo({ ...base, ray: kind === 'origin' ? rayWithOrigin(base.ray, p) : rayWithTip(base.ray, p) });
    } else if ((kind === 'endA' || kind === 'endB') && base.motion) {
      const i = kind === 'endA' ? 0 : 1;
      this.dragTo({ ...base, motion: motionWithEnd(base.motion, i, base.shapes[i]?.position, p) });
    }
  }

  private dragTo(next: Scene): void {
    const first = this.pendingPose === null;
    this.pendingPose = next;
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
    // What the query adds (the casts: the whole ray, and where the moving shapes end) in view too.
    viewOf(this.scene.query).frame?.(this.drawn, a, b, this.trace);
    this.shapesView.view.frame(a.center, a.radius);
    this.minkView.view.frame(b.center, b.radius);
    // The handles moved on the screen.
    this.publish();
  }

  private renderStepper(): void {
    renderStepper(this.frameIndex, this.frameCount, this.playing, this.speed, this.trace?.frames[this.frameIndex]?.caption ?? '',
      this.counterText() ?? undefined);
  }

  /** The step counter's words when the trace's view has its own (a world's steps), else null. */
  private counterText(): string | null {
    const tr = this.trace;
    return tr && this.frameCount ? viewOfTrace(tr).counter?.(tr, this.frameIndex) ?? null : null;
  }

  private showFrame(): void {
    const tr = this.trace;
    const frame = tr?.frames[this.frameIndex] ?? null;
    const overlay = this.planar && tr
      ? planarOverlay(tr, this.planar.trace, this.frameIndex, this.planar.scene)
      : overlayFor(tr, this.frameIndex, this.scene);
    this.renderStepper();
    renderPseudocode(tr?.pseudocode ?? [], tr && frame ? activeLine(tr, frame) : 0, tr ? endedLine(tr, this.frameIndex) : null);
    renderFrameText(overlay, frame?.caption ?? '', tr);
    const view = viewOf(this.scene.query);
    document.getElementById('app')!.dataset.algorithm = tr ? viewOfTrace(tr).mode : view.mode;
    const poses = tr ? viewOfTrace(tr).poses?.(tr, this.frameIndex) : null;
    if (poses) {
      // Before the overlay: its arrows are sized to the shapes where they are now.
      this.shapesView.setWorldPoses(poses);
      this.minkView.setWorldPoses(poses);
    }
    if (view.family === 'cloud') {
      this.hullView.setFrame(overlay);
    } else {
      this.shapesView.setFrame(overlay);
      this.minkView.setFrame(overlay);
    }
    this.describeViews();
    if (!this.linkHeld) this.hash.write(linkFor(this.scene, this.frameIndex));
    this.publish();
    this.onFrame?.(this.frameIndex, this.frameCount, frame?.caption ?? '');
    for (const f of this.frameListeners) f();
  }

  /** The canvases' accessible names: the view, what it is of, and the step (each adds the labels in sight). */
  private describeViews(): void {
    const step = this.frameCount ? this.counterText() ?? `step ${this.frameIndex + 1} of ${this.frameCount}` : 'no steps';
    if (this.isCloud) {
      const n = this.trace?.query === 'hull' ? this.trace.frames[0]?.points.length ?? 0 : 0;
      this.hullView.view.describe(`${this.hullView.view.title()}: ${n} points, ${step}`);
      return;
    }
    const many = this.scene.shapes.length > 2;
    const moving = movingShapes(this.scene).filter(Boolean).length;
    const shapes = this.isWorld ? `${this.scene.shapes.length} shapes, ${moving} of them moving`
      : this.scene.shapes.map((s, k) => `${many ? `shape ${k}` : 'AB'[k]} is a ${s.type}`).join(', ');
    for (const v of [this.shapesView.view, this.minkView.view]) v.describe(`${v.title()}: ${shapes}, ${step}`);
  }

  publish(): void {
    const s = this.state;
    s.scene = JSON.parse(JSON.stringify(this.scene)) as Scene;
    s.frameIndex = this.frameIndex;
    s.frameCount = this.frameCount;
    // A world's frames are steps of the simulation, all of one kind.
    s.frameKind = this.isWorld ? (this.frameCount ? 'step' : null) : frameKindOf(this.trace?.frames[this.frameIndex]);
    s.closedForm = this.trace && isClosedForm(this.trace) ? this.trace.closedForm : null;
    s.result = this.trace ? JSON.parse(JSON.stringify(this.trace.result)) : null;
    const cloud = this.isCloud;
    s.bounds = cloud && this.bounds ? JSON.parse(JSON.stringify(this.bounds)) : null;
    s.boundsShown = cloud ? [...this.cloudPanel.shown] : [];
    s.error = this.banner.message;
    s.handles = cloud ? {} : this.shapesView.handlesOnScreen();
    s.speed = this.speed;
    s.playing = this.playing;
    try {
      s.link = linkFor(this.scene, this.frameIndex);
    } catch {
      s.link = '';
    }
    s.planar = this.planar ? this.planarState() : null;
    s.world = this.isWorld ? this.worldState() : null;
    s.planes = { shapes: drawnPlanes(this.shapesView.view.scene), minkowski: drawnPlanes(this.minkView.view.scene) };
  }

  /** What the page draws of a world (PublicState.world). */
  private worldState(): NonNullable<PublicState['world']> {
    const frame = (this.trace?.frames[this.frameIndex] ?? null) as { step?: number; contacts?: unknown[] } | null;
    return {
      step: frame?.step ?? 0,
      poses: this.shapesView.world.drawnPoses(),
      contacts: frame?.contacts?.length ?? 0,
      contactsOnScreen: this.shapesView.contactsOnScreen(),
    };
  }

  /** What the page draws of a 2D scene (PublicState.planar). */
  private planarState(): NonNullable<PublicState['planar']> {
    const frame = this.trace?.frames[this.frameIndex] as { simplex?: unknown[] } | undefined;
    return {
      difference: this.minkView.differencePoints().map((v) => [v[0], v[1]]),
      simplex: Array.isArray(frame?.simplex) ? simplexKind(frame.simplex.length) : null,
      shapes: this.shapesView.shapesOnScreen(),
    };
  }
}

/** The two views' headings. */
function setViewTitles(titles: [string, string] | undefined): void {
  if (!titles) return;
  const left = document.querySelector('#view-shapes .view-title');
  const right = document.querySelector('#view-minkowski .view-title');
  if (left) left.textContent = titles[0];
  if (right) right.textContent = titles[1];
}

/** The scene without the fields only raycast, shapecast, the point queries and the contact queries use. */
function withoutCast(scene: Scene): Scene {
  const { ray, motion, point, margin, ...rest } = scene;
  void ray;
  void motion;
  void point;
  void margin;
  return rest as Scene;
}

/**
 * The library's refusals the page can say more about: a large cloud's trace (with the cloud's size and what to do
 * about it), and a plane's pair under a traced query (where the page shows it instead).
 */
function explain(message: string, candidate: unknown): string {
  if (/a plane's queries are closed forms with no trace/.test(message)) {
    return `${sentence(message)} The page steps through traces only: it shows a plane's pair under the query `
      + '"contact" (its distance or depth, normal and points, the same closed form) and planes in worlds ("pairs", "simulate").';
  }
  const m = /tracing is limited to (\d+) points/.exec(message);
  if (!m) return message;
  const pts = (candidate as { shapes?: { points?: unknown[] }[] } | null)?.shapes?.[0]?.points;
  const size = Array.isArray(pts) ? `This cloud has ${pts.length} points; the` : 'The';
  return `${size} page steps through quickhull only for clouds of up to ${m[1]} points (the library refuses `
    + `longer traces: "${message}"). Generate or paste fewer points; run() with query "hull" builds larger hulls without a trace.`;
}

/** Where a link that cannot be read goes wrong: its parameter, its length and how it starts. */
function badPart(hash: string): string {
  const eq = hash.indexOf('=');
  const name = eq > 1 ? hash.slice(1, eq) : hash.slice(1);
  const value = eq > 1 ? hash.slice(eq + 1) : '';
  if (!hash || hash === '#') return '';
  const start = value.length > 24 ? `${value.slice(0, 24)}…` : value;
  return ` (parameter "${printableShort(name)}"${eq > 1 ? `, ${value.length} characters: "${printableShort(start)}"` : ''})`;
}

/** Text from the address bar for the banner: control characters shown as \uXXXX, at most 40 characters. */
function printableShort(s: string): string {
  const t = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return t.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The trace the page steps through for a 3D scene: its view's one-frame answer (the point and contact queries have no library trace), or the library's trace. */
function traceOf(scene: Scene): Trace {
  const view = viewOf(scene.query);
  return view.answer?.(scene) ?? runTrace({ ...scene, query: view.traced });
}

/** The pseudocode line frame `frame` of `tr` highlights: its own `line`, or the one its view names. */
function activeLine(tr: Trace, frame: Trace['frames'][number]): number {
  const own = (frame as { line?: unknown }).line;
  if (typeof own === 'number') return own;
  return viewOfTrace(tr).line?.(frame, tr) ?? 0;
}

/** The kind of a frame for PublicState: its `kind`, or 'closed-form' for a closed form's frame (which has none). */
function frameKindOf(frame: Trace['frames'][number] | undefined): string | null {
  if (!frame) return null;
  return 'kind' in frame ? frame.kind : 'closed-form';
}

/**
 * On the last frame, the pseudocode line whose test ended the run, when it is not the frame's own line: the
 * nearest earlier frame stopped for the same reason (GJK's gap test on line 4, say, before the distance is
 * written on line 10). null elsewhere.
 */
export function endedLine(tr: Trace, index: number): number | null {
  const frames = tr.frames as { kind: string; reason?: string; line: number }[];
  const last = frames[index];
  if (!last || last.kind !== 'done' || index !== frames.length - 1 || !last.reason) return null;
  for (let i = index - 1; i >= 0; i--) {
    if (frames[i].reason === last.reason) return frames[i].line !== last.line ? frames[i].line : null;
  }
  return null;
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
