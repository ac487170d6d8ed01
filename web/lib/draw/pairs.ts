// The "pairs" query's frames: a world's broad phase, sweep and prune, and its narrow phase. In the shapes' space
// (world) every shape's box as a wireframe, numbered; the boxes whose intervals are open on the swept axis amber,
// the shape whose endpoint the sweep passes white, the pairs found green; a narrow-phase frame's candidate pair
// green when intersect() says they intersect, red when apart. In the other view, the seed's figure 6 laid out flat
// (z = 0): per axis x, y, z a panel of the boxes' intervals as bars, one row per shape (numbered on the left) in the
// order of their mins in that axis's sorted list, the endpoints as ticks on the axis; on the swept axis the sweep line S. Everything
// drawn comes from the frames (the boxes frame's boxes, the sort frame's lists): nothing is recomputed.
import * as THREE from 'three';
import type { PairsFrame, PairsTrace } from '../index';
import { COLORS, label, line, triangles } from './primitives';
import type { FrameDrawing } from './types';

const IDLE = 0x8a93a6;
const OPEN = COLORS.a;
const PASSED = 0xffffff;
const FOUND = COLORS.simplex;
const APART = 0xff4d4d;
const AXIS_NAMES = ['x', 'y', 'z'];

/** The figure's width (units of the flat view); each panel about a third of it high, whatever the shapes' number. */
export const PAIRS_FIGURE_WIDTH = 10;
const PANEL_HEIGHT = 3;
const PANEL_GAP = 1.1;

/** The spacing of the rows of a panel of `rows` shapes: the panel's height shared, within readable limits. */
function rowSpacing(rows: number): number {
  return Math.min(0.6, Math.max(0.22, PANEL_HEIGHT / (rows + 1)));
}

type Box = PairsFrame['boxes'][number];

/** What a frame marks: shapes by state, and the pairs to show. */
interface Marks {
  open: Set<number>;
  passed: number | null;
  /** Shapes of the pairs found so far (sweep: box pairs; narrow: intersecting pairs). */
  paired: Set<number>;
  /** Narrow phase: the candidate pair and intersect()'s answer. */
  candidate: { pair: [number, number]; hit: boolean } | null;
}

function marksOf(f: PairsFrame): Marks {
  const paired = new Set<number>();
  for (const p of f.pairs) { paired.add(p[0]); paired.add(p[1]); }
  return {
    open: new Set(f.kind === 'sweep' ? f.active : []),
    passed: f.kind === 'sweep' ? f.endpoint?.shape ?? null : null,
    paired,
    candidate: f.kind === 'narrow' && f.pair ? { pair: f.pair, hit: f.intersecting === true } : null,
  };
}

function colorOf(shape: number, m: Marks): number {
  if (m.candidate && m.candidate.pair.includes(shape)) return m.candidate.hit ? FOUND : APART;
  if (m.passed === shape) return PASSED;
  if (m.open.has(shape)) return OPEN;
  if (m.paired.has(shape)) return FOUND;
  return IDLE;
}

/** The boxes of the trace (its first frame's), and the sorted lists (its sort frame's), when they are shown. */
export function pairsBoxes(t: PairsTrace): Box[] {
  return t.frames.find((f) => f.kind === 'boxes')?.boxes ?? [];
}
function sortedLists(t: PairsTrace): PairsFrame['lists'] | null {
  return t.frames.find((f) => f.kind === 'sort')?.lists ?? null;
}

function boxEdges(b: Box, color: number, opacity: number): THREE.LineSegments {
  const lo = b.min!;
  const hi = b.max!;
  const c = (i: number) => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
  const pts: THREE.Vector3[] = [];
  for (let i = 0; i < 8; ++i) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) pts.push(new THREE.Vector3(...c(i)), new THREE.Vector3(...c(i | bit)));
  }
  const m = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(pts),
    new THREE.LineBasicMaterial({ color, transparent: true, opacity, depthTest: false }));
  m.renderOrder = 5;
  return m;
}

function drawWorld(g: THREE.Group, boxes: Box[], m: Marks): void {
  for (const b of boxes) {
    if (b.unbounded || !b.min || !b.max) continue;
    const color = colorOf(b.shape, m);
    g.add(boxEdges(b, color, color === IDLE ? 0.55 : 1));
    const top = [(b.min[0] + b.max[0]) / 2, b.max[1], (b.min[2] + b.max[2]) / 2];
    const tag = label(String(b.shape), 'label-pairs', top);
    (tag.element as HTMLElement).style.color = `#${color.toString(16).padStart(6, '0')}`;
    g.add(tag);
  }
}

/** The rows of an axis's panel: shapes in the order of their mins in the sorted list (by index before the sort). */
function rowOrder(boxes: Box[], lists: PairsFrame['lists'] | null, axis: number): number[] {
  if (lists) return lists[axis].filter((e) => e.isMin).map((e) => e.shape);
  return boxes.filter((b) => !b.unbounded).map((b) => b.shape);
}

/** The y of panel `axis`'s axis line (panels stacked downward from y = 0, each `rows + 1` rows tall). */
function panelBase(axis: number, rows: number): number {
  return -(axis + 1) * ((rows + 1) * rowSpacing(rows) + PANEL_GAP) + PANEL_GAP;
}

/**
 * Where the figure lies (z = 0) for `rows` bounded shapes, for framing the view: a circle whose diameter is the
 * figure's larger side, so that the flat view (which fits a circle to its shorter side) shows the whole figure
 * at its largest in a wide view and in a tall one.
 */
export function pairsFigureBounds(rows: number): THREE.Sphere {
  const box = new THREE.Box3(new THREE.Vector3(-2.8, panelBase(2, rows) - 0.6, 0), new THREE.Vector3(PAIRS_FIGURE_WIDTH + 0.6, 0.5, 0));
  const size = box.getSize(new THREE.Vector3());
  return new THREE.Sphere(box.getCenter(new THREE.Vector3()), Math.max(size.x, size.y) / 2);
}

function drawFigure(g: THREE.Group, f: PairsFrame, t: PairsTrace, m: Marks): void {
  const boxes = pairsBoxes(t).filter((b) => !b.unbounded && b.min && b.max);
  if (!boxes.length) return;
  const lists = f.kind === 'boxes' ? null : sortedLists(t);
  const byShape = new Map(boxes.map((b) => [b.shape, b]));
  for (let axis = 0; axis < 3; ++axis) {
    const lo = Math.min(...boxes.map((b) => b.min![axis]));
    const hi = Math.max(...boxes.map((b) => b.max![axis]));
    const span = hi - lo > 0 ? hi - lo : 1;
    const x = (v: number) => ((v - lo) / span) * PAIRS_FIGURE_WIDTH;
    const order = rowOrder(boxes, lists, axis);
    const base = panelBase(axis, order.length);
    const row = rowSpacing(order.length);
    const bar = 0.6 * row;
    const swept = t.sweepAxis === axis && f.kind !== 'boxes';
    g.add(line([[0, base, 0], [PAIRS_FIGURE_WIDTH, base, 0]], swept ? COLORS.direction : IDLE, { opacity: 0.9 }));
    g.add(label(AXIS_NAMES[axis], 'label-pairs-axis', [-1.5, base + 0.3, 0]));
    // Starting at the figure's left end: the word is wider than the room left of the axis in a narrow view.
    if (swept) g.add(anchored(label('swept', 'label-pairs-tick', [-2.5, base - 0.1, 0]), 0));
    // The end labels start and end at the axis's ends: centred there, they would stick out of a narrow view.
    g.add(anchored(label(num(lo), 'label-pairs-tick', [0, base - 0.35, 0]), 0));
    g.add(anchored(label(num(hi), 'label-pairs-tick', [PAIRS_FIGURE_WIDTH, base - 0.35, 0]), 1));
    // The sorted list: one tick per endpoint on the axis line (a min up, a max down).
    if (lists) {
      const ticks: number[][] = [];
      for (const e of lists[axis]) ticks.push([x(e.value), base, 0], [x(e.value), base + (e.isMin ? 0.14 : -0.14), 0]);
      const segs = new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(ticks.map((p) => new THREE.Vector3(...p))),
        new THREE.LineBasicMaterial({ color: IDLE, transparent: true, opacity: 0.9 }));
      segs.renderOrder = 4;
      g.add(segs);
    }
    order.forEach((shape, k) => {
      const b = byShape.get(shape);
      if (!b) return;
      const y = base + (k + 1) * row;
      const x0 = x(b.min![axis]);
      const x1 = Math.max(x(b.max![axis]), x0 + 0.02);
      const color = colorOf(shape, m);
      g.add(triangles([[[x0, y - bar / 2, 0], [x1, y - bar / 2, 0], [x1, y + bar / 2, 0]],
        [[x0, y - bar / 2, 0], [x1, y + bar / 2, 0], [x0, y + bar / 2, 0]]], color, color === IDLE ? 0.45 : 0.9));
      // Left of the panel, in two staggered columns (rows can be closer than a label is tall): labels beside the
      // bars would cover one another.
      const tag = label(String(shape), 'label-pairs', [k % 2 ? -0.85 : -0.35, y, 0]);
      (tag.element as HTMLElement).style.color = `#${color.toString(16).padStart(6, '0')}`;
      g.add(tag);
    });
    // The sweep line S at the endpoint passed.
    if (swept && f.kind === 'sweep' && f.endpoint) {
      const sx = x(f.endpoint.value);
      const top = base + (order.length + 0.8) * row;
      g.add(line([[sx, base - 0.2, 0], [sx, top, 0]], COLORS.direction, { dashed: 0.12 }));
      g.add(anchored(label(`S = ${num(f.endpoint.value)}`, 'label-pairs-sweep', [sx, top, 0]), sx / PAIRS_FIGURE_WIDTH));
    }
  }
}

/** Anchor a label at the fraction `x` of its width (0: its left edge at the point, 1: its right edge). */
function anchored(o: ReturnType<typeof label>, x: number): ReturnType<typeof label> {
  // Outside a browser, label() gives a stand-in without `center`.
  if (o.center) o.center.set(Math.min(1, Math.max(0, x)), 0.5);
  return o;
}

/** A short number for the figure's labels. */
function num(v: number): string {
  return Number.isFinite(v) ? String(Number(v.toPrecision(4))) : String(v);
}

/** Frame `f` of a "pairs" trace: boxes in the world, the seed's figure in the flat view. */
export function pairsDrawing(f: PairsFrame, t: PairsTrace): FrameDrawing {
  const m = marksOf(f);
  return {
    shapes: (g) => drawWorld(g, pairsBoxes(t), m),
    minkowski: (g) => drawFigure(g, f, t, m),
  };
}
