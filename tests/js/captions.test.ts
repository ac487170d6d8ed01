// The words of a trace (web/lib/captions.ts), checked against the trace itself rather than against a copy of
// earlier output. Over the gallery, hand-placed touching and degenerate scenes and seeded random scenes of
// every query and shape type:
//  - every frame has a caption, and no text holds "undefined", "NaN" or "[object";
//  - the numbers a caption names are the frame's own (read back out of the text and compared with the frame's
//    fields to the digits printed), in the order the sentence names them;
//  - a caption says what the frame's reason says (a phrase per query, kind and reason), and the pseudocode
//    line a frame names is the step of the algorithm that the frame's kind and reason describe;
//  - the last frame's caption is the result sentence, which names run()'s answer and status;
//  - a pair answered by a closed form has one frame: its caption names the form, the cores' distance d, the radii
//    and the answer, which follows from them by the formula the last pseudocode line states.
// Then a few scenes whose answers are worked out by hand, sentence by sentence.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  box as convexBox, init, isClosedForm, resultSentence, run, trace, World, type CastFrame, type ChungWangFrame, type ClosedFormTrace,
  type EpaFrame, type GjkFrame, type GjkTrace, type HullFrame, type SatFrame, type Scene, type Shape, type SimulateTrace, type Trace,
  type Vec3,
} from '../../web/lib/index';
import { castCaption } from '../../web/lib/captions';
import { stepsOf } from './helpers';
import { galleryFiles, sceneDir } from './vectors';

/** A trace of an algorithm's steps (not a closed form's one frame). */
type StepTrace = Exclude<Trace, ClosedFormTrace>;

beforeAll(async () => {
  await init();
});

// ---- the scenes ---------------------------------------------------------------------------------------------

/** A small seeded generator (a 32-bit linear congruential step, Numerical Recipes' constants), in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const SHAPE_TYPES: Shape['type'][] = ['point', 'sphere', 'box', 'capsule', 'cylinder', 'cone', 'ellipsoid', 'segment', 'triangle', 'polytope'];
/** The types the separating-axis test takes. */
const SAT_TYPES: Shape['type'][] = ['point', 'sphere', 'box', 'capsule', 'segment', 'triangle', 'polytope'];

function randomScenes(count: number, seed: number): Scene[] {
  const rand = lcg(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)];
  const vec = (spread: number): Vec3 => [(rand() - 0.5) * spread, (rand() - 0.5) * spread, (rand() - 0.5) * spread];
  const size = () => 0.2 + rand();
  const shape = (type: Shape['type']): Shape => {
    const s: Shape = { type };
    if (type === 'sphere') s.radius = size();
    if (type === 'box') s.halfExtents = [size(), size(), size()];
    if (type === 'capsule' || type === 'cylinder' || type === 'cone') { s.radius = size(); s.halfHeight = size(); }
    if (type === 'ellipsoid') s.radii = [size(), size(), size()];
    if (type === 'segment') s.points = [vec(2), vec(2)];
    if (type === 'triangle') s.points = [vec(2), vec(2), vec(2)];
    if (type === 'polytope') s.points = Array.from({ length: 4 + Math.floor(rand() * 8) }, () => vec(2));
    if (rand() < 0.2) s.margin = 0.1 * rand();
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
    const n = Math.hypot(...q);
    s.position = vec(pick([1.5, 3, 5]));
    s.rotation = q.map((c) => c / n) as Shape['rotation'];
    return s;
  };
  const cloud = (): Shape => {
    const n = 1 + Math.floor(rand() * 40);
    const k = rand();
    const points = Array.from({ length: n }, (): Vec3 => {
      const p = vec(4);
      if (k < 0.2) return [p[0], p[1], 0];             // flat
      if (k < 0.3) return [p[0], p[0], 2 * p[0]];       // collinear
      if (k < 0.35) return [1, 2, 3];                   // one point
      return p;
    });
    return { type: 'polytope', points };
  };
  const scenes: Scene[] = [];
  for (let i = 0; i < count; i++) {
    const query = pick(['intersect', 'distance', 'penetration', 'chungwang', 'sat', 'raycast', 'shapecast', 'hull'] as const);
    const types = query === 'sat' ? SAT_TYPES : SHAPE_TYPES;
    const a = shape(pick(types));
    const b = shape(pick(types));
    if (query === 'raycast') scenes.push({ version: 1, query, shapes: [a], ray: { origin: vec(8), direction: vec(2), maxT: 3 * rand() } });
    else if (query === 'shapecast') scenes.push({ version: 1, query, shapes: [a, b], motion: { translationA: vec(6), translationB: vec(6) } });
    else if (query === 'hull') scenes.push({ version: 1, query, shapes: [cloud()] });
    // Every other pair runs the general algorithms even where a closed form exists (points and boxes), so that
    // both the closed forms and every GJK/EPA step on such pairs are reached.
    else scenes.push({ version: 1, query, shapes: [a, b], ...(i % 2 === 0 ? { closedForms: false } : {}) });
  }
  return scenes;
}

/** Touching, flat, coincident and starting-inside cases, where the rarer reasons come from. */
function placedScenes(): Scene[] {
  const box = (p: Vec3): Shape => ({ type: 'box', halfExtents: [1, 1, 1], position: p });
  const tri = (dx: number): Shape => ({ type: 'triangle', points: [[dx, 0, 0], [dx + 2, 0, 0], [dx, 2, 0]] });
  const scenes: Scene[] = [];
  for (const query of ['intersect', 'distance', 'penetration', 'chungwang', 'sat'] as const) {
    for (const closedForms of [true, false]) {
      const key = closedForms ? {} : { closedForms };
      scenes.push({ version: 1, query, shapes: [box([0, 0, 0]), box([2, 0, 0])], ...key });
      scenes.push({ version: 1, query, shapes: [box([0, 0, 0]), box([2, 2, 0])], ...key });
      scenes.push({ version: 1, query, shapes: [{ type: 'sphere', radius: 0.5, position: [1.5, 0, 0] }, box([0, 0, 0])], ...key });
      scenes.push({ version: 1, query, shapes: [box([0, 0, 0]), { type: 'sphere', radius: 0.5, position: [0.5, 0.2, 0] }], ...key });
      scenes.push({ version: 1, query, shapes: [box([0, 0, 0]), box([3, 0.5, 0])], ...key });
    }
    scenes.push({ version: 1, query, shapes: [tri(0), tri(0.5)] });
    scenes.push({ version: 1, query, shapes: [{ type: 'point', position: [1, 2, 3] }, { type: 'point', position: [1, 2, 3] }] });
    scenes.push({ version: 1, query, shapes: [{ type: 'point' }, { type: 'segment', points: [[-1, 0, 0], [1, 0, 0]] }] });
  }
  // Identical cylinders at one pose: every direction across the axis is as deep, EPA's polytope fills up and the
  // normal is refined on the support function.
  const cylinder: Shape = { type: 'cylinder', radius: 0.5, halfHeight: 0.7 };
  scenes.push({ version: 1, query: 'penetration', shapes: [cylinder, cylinder] });
  scenes.push({ version: 1, query: 'raycast', shapes: [box([0, 0, 0])], ray: { origin: [0.2, 0.1, 0], direction: [1, 0, 0] } });
  scenes.push({ version: 1, query: 'raycast', shapes: [box([0, 0, 0])], ray: { origin: [-3, 1, 0], direction: [1, 0, 0], maxT: 10 } });
  scenes.push({ version: 1, query: 'shapecast', shapes: [box([0, 0, 0]), box([1, 0.5, 0])], motion: { translationB: [1, 0, 0] } });
  scenes.push({ version: 1, query: 'shapecast', shapes: [box([0, 0, 0]), box([4, 2, 0])], motion: { translationB: [-4, 0, 0] } });
  return scenes;
}

/**
 * The gallery's 3D scenes; an "obb" scene (not traced) gives the hull of its cloud. (The readers below take
 * [x, y, z]; the captions of the 2D scenes, which read (x, y), are checked in planar.test.ts; contains and project
 * have no trace in the library: the page's caption of their one step is checked in e2e/point-views.test.ts.)
 */
function galleryScenes(): Scene[] {
  return galleryFiles().flatMap((f) => {
    const scene = JSON.parse(readFileSync(join(sceneDir, f), 'utf8')) as Scene & { dimension?: number };
    // A world's "pairs" trace has frames of its own kinds (boxes, sort, sweep, narrow): pairs-trace.test.ts; a
    // "simulate" trace's frames are steps of a simulation, not of an algorithm (below).
    if (scene.dimension === 2 || scene.query === 'contains' || scene.query === 'project' || scene.query === 'pairs' || scene.query === 'simulate') return [];
    return [scene.query === 'obb' ? { ...scene, query: 'hull' } : scene];
  });
}

// ---- reading numbers back ------------------------------------------------------------------------------------

/** A number the text must name, and the significant digits it is written with. */
interface Named { value: number; digits: number }
const n = (value: number, digits = 6): Named => ({ value, digits });
const v3 = (v: Vec3 | readonly number[]): Named[] => [n(v[0]), n(v[1]), n(v[2])];
const len = (v: readonly number[]): number => Math.hypot(v[0], v[1], v[2]);

/** The decimal numbers written in `text`, in order ("-0.5", "2e-10", "12"; not the 2 of "r_2" or "x²"). */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?!\w|\.\d)/g)].map((m) => Number(m[0]));
}

/** `shown` is `value` written with `digits` significant digits (half a unit in the last place, and a hair). */
function writes(shown: number, value: number, digits: number): boolean {
  if (value === 0) return shown === 0;
  const halfUlp = 0.5 * 10 ** (Math.floor(Math.log10(Math.abs(value))) - digits + 1);
  return Math.abs(shown - value) <= halfUlp * (1 + 1e-9);
}

/** Every number of `named` is written in `text`, in that order (other numbers may stand between them). */
function expectNames(text: string, named: Named[], where: string): void {
  const shown = numbersIn(text);
  let at = 0;
  for (const want of named) {
    while (at < shown.length && !writes(shown[at], want.value, want.digits)) at++;
    expect(at < shown.length, `${where}: "${text}" should name ${want.value} (%.${want.digits}g) after ${JSON.stringify(shown.slice(0, at))}`).toBe(true);
    at++;
  }
}

// ---- what each frame must say --------------------------------------------------------------------------------

/** The numbers of the result sentence: run()'s answer and the iteration count (a closed form has none). */
function resultNumbers(t: Trace): Named[] {
  const tally = (iterations: number): Named[] => (isClosedForm(t) ? [] : [n(iterations)]);
  switch (t.query) {
    case 'intersect':
    case 'distance': {
      const r = t.result;
      if ('distance' in r) return [n(r.distance, 9), ...v3(r.pointA), ...v3(r.pointB), ...tally(r.iterations)];
      return tally(r.iterations);
    }
    case 'penetration': {
      const r = t.result;
      if (!r.intersecting) return [n(len(r.pointA.map((x, i) => x - r.pointB[i])), 9), ...v3(r.pointA), ...v3(r.pointB), ...tally(r.iterations)];
      return [n(r.depth, 9), ...v3(r.normal), ...v3(r.pointA), ...v3(r.pointB), ...tally(r.iterations)];
    }
    case 'hull': {
      const r = t.result;
      const points = t.frames[0].points.length;
      if (r.kind === 'polyhedron') {
        const merged = r.polygons.length !== r.faces.length ? [n(r.polygons.length)] : [];
        return [n(points), n(r.vertices.length), n(r.faces.length), ...merged];
      }
      return [...(points > 1 ? [n(points)] : []), n(r.tolerance), ...(r.kind === 'polygon' ? [n(r.vertices.length)] : [])];
    }
    case 'sat': {
      const r = t.result;
      const best = t.frames[t.frames.length - 1].best;
      const which = best >= 0 ? [n(best + 1)] : [];
      if (!r.intersecting) return [...which, ...v3(r.axis), n(r.gap, 9), n(r.axesTested)];
      return [n(r.depth, 9), ...v3(r.axis), ...which, n(r.axesTested)];
    }
    case 'raycast': {
      const r = t.result;
      if (!r.hit) return [n(r.iterations)];
      if (r.startedInside) return [n(0), n(r.iterations)];
      return [n(r.t!, 12), ...v3(r.point!), ...v3(r.normal!), n(r.iterations)];
    }
    case 'shapecast': {
      const r = t.result;
      if (!r.hit) return [n(r.iterations)];
      if (r.initiallyOverlapping) return [n(0), ...v3(r.pointA!), n(r.iterations)];
      return [n(r.t!, 12), ...v3(r.pointA!), ...v3(r.pointB!), ...v3(r.normal!), n(r.iterations)];
    }
    case 'chungwang': {
      const r = t.result;
      return [...(r.separatingAxis && !r.intersecting ? v3(r.separatingAxis) : []), n(r.iterations)];
    }
  }
}

function gjkNumbers(f: GjkFrame, t: StepTrace & { marginA: number; marginB: number }): Named[] {
  const radius = t.marginA + t.marginB;
  const vNorm = len(f.v);
  switch (f.kind) {
    case 'init': return t.query === 'distance' ? [...v3(f.v), n(vNorm)] : v3(f.v);
    case 'support': {
      expect(f.support, 'a support frame has its support point').not.toBeNull();
      const s = f.support!;
      const head = [...v3(s.w), ...v3(s.a), ...v3(s.b)];
      if (f.reason === 'separated') return [...head, n(f.vw!), n(radius * vNorm)];
      if (f.gap === null) return head;
      if (f.reason === 'gap-within-tolerance' && t.query === 'distance') {
        return [...head, n(f.gap), n(f.tolerance), n(vNorm > 0 ? f.gap / vNorm : 0)];
      }
      if (f.reason === 'bounds-within-tolerance') {
        return [...head, n(f.gap), n(f.tolerance), n(f.lowerBound), n(vNorm), n(f.vv - f.lowerBound * vNorm)];
      }
      if (f.reason === 'refine') return [...head, n(f.gap), n(f.tolerance), n(vNorm), n(f.lowerBound)];
      return [...head, n(f.gap), n(f.tolerance)];
    }
    case 'simplex':
      if (f.reason === 'within-margins') return [n(vNorm), n(radius)];
      if (f.reason === 'bounds-within-tolerance') {
        return [n(f.lowerBound), n(vNorm), n(f.vv - f.lowerBound * vNorm), n(f.tolerance)];
      }
      if (f.reason === 'refine') return [...v3(f.v), n(vNorm), n(f.lowerBound)];
      if (f.reason !== 'progress') return [];
      return [...v3(f.v), n(vNorm), n(f.simplex.length), ...f.simplex.map((s) => n(s.lambda))];
    case 'done': return resultNumbers(t);
  }
}

function epaNumbers(f: EpaFrame, t: StepTrace & { query: 'penetration' }): Named[] {
  const radius = t.marginA + t.marginB;
  switch (f.kind) {
    case 'seed': return [n(f.vertices.length), n(f.faces.length)];
    case 'closest': return [n(f.depth), ...v3(f.normal)];
    case 'support': {
      const head = [...v3(f.support!.w), n(f.gap!)];
      return f.reason === 'capacity' ? [...head, n(f.vertices.length)] : [...head, n(f.tolerance)];
    }
    case 'expand': return [n(f.removed.length), n(f.horizon.length), n(f.added.length), n(f.faces.length)];
    case 'done': {
      const rounded = f.reason === 'apart' && t.result.intersecting ? [n(radius - t.result.depth), n(radius)] : [];
      return [...rounded, ...resultNumbers(t)];
    }
  }
}

function hullNumbers(f: HullFrame, t: Trace & { query: 'hull' }): Named[] {
  const outside = f.faces.reduce((sum, face) => sum + face.conflicts.length, 0);
  switch (f.kind) {
    case 'extremes': return [n(t.frames[0].points.length)];
    case 'tetrahedron': return [n(4), n(outside)];
    case 'eye': return [n(f.iteration), n(f.eyeDistance), n(outside)];
    case 'visible': return [n(f.visible.length)];
    case 'horizon': return [n(f.horizon.length)];
    case 'cone': return [n(f.added.length), n(f.faces.length)];
    case 'done':
    case 'degenerate': return resultNumbers(t);
  }
}

function satNumbers(f: SatFrame, t: Trace & { query: 'sat' }): Named[] {
  switch (f.kind) {
    case 'prepare':
    case 'skip': return [];
    case 'axis':
      if (f.separates) return [n(f.index + 1), n(f.minA), n(f.maxA), n(f.minB), n(f.maxB), n(-f.overlap)];
      return [n(f.index + 1), n(f.overlap), n(f.bestOverlap), n(f.best + 1)];
    case 'done': return resultNumbers(t);
  }
}

function castNumbers(f: CastFrame, t: Trace & { query: 'raycast' | 'shapecast' }): Named[] {
  switch (f.kind) {
    case 'init': return f.reason === 'start' ? [n(f.lambda)] : [];
    case 'support':
      if (f.updated) return [n(f.vw), n(f.threshold), n(f.oldLambda, 9), n(f.newLambda, 9)];
      if (f.reason === 'points-away') return [n(f.vr)];
      if (f.reason === 'beyond-max-t') return [];
      return [n(f.vw), n(f.lambda, 9)];
    case 'simplex': return [n(len(f.v)), n(f.tolerance, 3)];
    case 'done': return resultNumbers(t);
  }
}

function chungWangNumbers(f: ChungWangFrame, t: Trace & { query: 'chungwang' }): Named[] {
  if (f.kind === 'done') return resultNumbers(t);
  if (f.kind === 'support' && f.reason !== 'common-point') return [n(f.gap!)];
  return [];
}

function frameNumbers(t: StepTrace, i: number): Named[] {
  switch (t.query) {
    case 'intersect':
    case 'distance': return gjkNumbers(t.frames[i], t);
    case 'penetration': return epaNumbers(t.frames[i], t);
    case 'hull': return hullNumbers(t.frames[i], t);
    case 'sat': return satNumbers(t.frames[i], t);
    case 'raycast':
    case 'shapecast': return castNumbers(t.frames[i], t);
    case 'chungwang': return chungWangNumbers(t.frames[i], t);
  }
}

/**
 * Per query, frame kind and reason (SAT: how the axis came out): what the caption says, and what the pseudocode
 * line the frame names does. A key seen in a trace but missing here fails the test, so a new reason gets words.
 */
const STEPS: Record<string, { says: RegExp; line: RegExp }> = {
  'distance init start-from-point': { says: /^Start: v = .* a point of A − B/, line: /v ← a point of A − B/ },
  'distance support progress': { says: /Support point w = .*> tolerance .*add w to W/, line: /w ← s_A\(−v\) − s_B\(v\)/ },
  'distance support gap-within-tolerance': { says: /≤ tolerance .*error bound/, line: /‖v‖² − v·w ≤/ },
  'distance support duplicate-support': { says: /already in W/, line: /w ∈ W/ },
  'distance simplex progress': { says: /^Nearest point of conv/, line: /point of conv\(W ∪ \{w\}\) nearest O/ },
  'distance simplex origin-inside': { says: /contains the origin.*overlap/, line: /\|W\| = 4 or v ≈ 0/ },
  'distance simplex origin-touching': { says: /boundary of A − B.*touch/, line: /\|W\| = 4 or v ≈ 0/ },
  'distance simplex no-progress': { says: /not shorter/, line: /grew .* did not shrink/ },
  'distance support bounds-within-tolerance': { says: /already in W.*best lower bound .*certified/, line: /^  stall: .*certified/ },
  'distance support refine': { says: /already in W.*Re-solve v perpendicular/, line: /^  stall: .*v ⟂ W/ },
  'distance simplex bounds-within-tolerance': { says: /not shorter.*best lower bound .*certified/, line: /^  stall: .*certified/ },
  'distance simplex refine': { says: /re-solved perpendicular to W/, line: /^  stall: .*v ⟂ W/ },
  'distance done bounds-within-tolerance': { says: /^Distance /, line: /^  stall: .*certified|distance ← max/ },
  'distance done gap-within-tolerance': { says: /^Distance /, line: /distance ← max|‖v‖² − v·w ≤/ },
  'distance done no-progress': { says: /^Distance /, line: /grew .* did not shrink/ },
  'distance done origin-inside': { says: /^Distance 0 /, line: /\|W\| = 4 or v ≈ 0/ },
  'distance done origin-touching': { says: /^Distance /, line: /\|W\| = 4 or v ≈ 0/ },
  'intersect init start-from-point': { says: /^Start with the direction v = .*from B's centre towards A's/, line: /from B towards A/ },
  'intersect support progress': { says: /Support point w = /, line: /w ← s_A\(−v\) − s_B\(v\)/ },
  'intersect support separated': { says: /separates A − B from the origin\. Separated\./, line: /return separated/ },
  'intersect support gap-within-tolerance': { says: /touch: intersecting/, line: /≤ tolerance .*return intersecting/ },
  'intersect simplex progress': { says: /^Nearest point of conv/, line: /point of conv\(W ∪ \{w\}\) nearest O/ },
  'intersect simplex origin-inside': { says: /contains the origin/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'intersect simplex origin-touching': { says: /touch/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'intersect simplex within-margins': { says: /≤ r_A \+ r_B = .*overlap/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'intersect done separated': { says: /^Separated \(/, line: /return separated/ },
  'intersect done gap-within-tolerance': { says: /^Intersecting \(/, line: /≤ tolerance .*return intersecting/ },
  'intersect done origin-inside': { says: /^Intersecting \(/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'intersect done origin-touching': { says: /^Intersecting \(/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'intersect done within-margins': { says: /^Intersecting \(/, line: /\|W\| = 4 or ‖v‖ ≤ r_A \+ r_B/ },
  'penetration seed tetrahedron': { says: /grown to a tetrahedron/, line: /into a tetrahedron/ },
  'penetration closest nearest-face': { says: /nearest the origin is at distance d = /, line: /f ← the face of P nearest O/ },
  'penetration support progress': { says: /> tolerance .*must grow/, line: /w ← s_A\(n\) − s_B\(−n\)/ },
  'penetration support gap-within-tolerance': { says: /≤ tolerance .*boundary/, line: /n·w − d ≤/ },
  'penetration support duplicate-support': { says: /already a vertex/, line: /n·w − d ≤/ },
  'penetration expand progress': { says: /horizon edges are joined to w/, line: /join w to every horizon edge/ },
  'penetration done apart': { says: /^GJK: the (cores|shapes) are apart/, line: /run GJK on the cores/ },
  'penetration done refined': { says: /walked downhill on h\(n\) = n·s\(n\)/, line: /^if P filled up: walk n downhill on h\(n\)/ },
  'penetration done flat': { says: /flat .*only touch/, line: /flat A − B: touching/ },
  'penetration done gap-within-tolerance': { says: /(^|\. )(Penetration depth|Separated) /, line: /depth ← d \+ r_A \+ r_B/ },
  'hull extremes': { says: /extreme points/, line: /^extremes ←/ },
  'hull degenerate': { says: /lies? within tolerance .* of a (plane|line|single point): the hull is/, line: /point, a segment or a polygon/ },
  'hull tetrahedron': { says: /^First tetrahedron/, line: /build a tetrahedron/ },
  'hull eye': { says: /the eye is the farthest conflict point/, line: /eye ← the farthest conflict point/ },
  'hull visible': { says: /The eye lies above/, line: /visible ← the faces the eye lies strictly above/ },
  'hull horizon': { says: /^The horizon: /, line: /horizon ← the edges/ },
  'hull cone': { says: /replaced by .* new faces/, line: /replace the visible faces by a cone/ },
  'hull done': { says: /^No face has conflict points left\. Convex hull of /, line: /merge faces within tolerance of one plane/ },
  'sat prepare': { says: /^The candidate axes/, line: /^hulls: face normals and edge directions/ },
  'sat skip': { says: /parallel .*Skipped\./, line: /skip|in-plane side normals/ },
  'sat axis separating': { says: /leave a gap of .*separates A and B/, line: /return separated, axis L/ },
  'sat axis best': { says: /overlap by .*Least overlap so far/, line: /best ← \(L, o\)/ },
  'sat axis face-a': { says: /\(face-a\): the projections overlap by/, line: /face normal n of A/ },
  'sat axis face-b': { says: /\(face-b\): the projections overlap by/, line: /face normal n of B/ },
  'sat axis edge-edge': { says: /\(edge-edge\): the projections overlap by/, line: /L ← a × b/ },
  'sat axis flat-side': { says: /\(flat-side\): the projections overlap by/, line: /in-plane side normals/ },
  'sat axis line': { says: /\(line\): the projections overlap by/, line: /the line's offset/ },
  'sat done separated': { says: /^Separated: /, line: /return separated/ },
  'sat done intersecting': { says: /^Intersecting: no axis separates/, line: /return intersecting/ },
  'cast init start': { says: /starts at the ray's origin \(λ = /, line: /λ ← 0;/ },
  'cast init analytic-sphere': { says: /quadratic, no iteration/, line: /smaller root/ },
  'cast support progress': { says: /is not beyond x .*λ stays at/, line: /p ← s_C\(v\)/ },
  'cast support advanced': { says: /λ advances from .* to |λ stays at .*the new λ is /, line: /x ← s \+ λr/ },
  'cast support points-away': { says: /points away .*a miss/, line: /v·r ≥ 0: return miss/ },
  'cast support beyond-max-t': { says: /only after maxT, or after it has left the shape's bounding box.*: a miss/, line: /λ > maxT or past C's box: return miss/ },
  'cast simplex progress': { says: /^The simplex is reduced/, line: /v ← point of conv/ },
  'cast simplex within-tolerance': { says: /^The simplex is reduced/, line: /‖v‖ − ρ ≤ tolerance: return hit/ },
  'cast simplex point-inside': { says: /^The simplex is reduced/, line: /\|P\| = 4 or ‖v‖ − ρ ≤ tolerance: return hit/ },
  'cast done within-tolerance': { says: /(hits shape A|first touch) at t = |already overlap at t = 0/, line: /^hit: t ← λ/ },
  'cast done point-inside': { says: /starts inside shape A|already overlap at t = 0/, line: /^hit: t ← λ/ },
  'cast done points-away': { says: /misses shape A|do not touch/, line: /v·r ≥ 0: return miss/ },
  'cast done beyond-max-t': { says: /misses shape A|do not touch/, line: /λ > maxT or past C's box: return miss/ },
  'cast done analytic-sphere': { says: /^(The ray|A and B)/, line: /smaller root/ },
  'chungwang init start-from-centres': { says: /from A's centre to B's/, line: /from A's centre towards B's/ },
  'chungwang support progress': { says: /is not above τ, so s does not separate/, line: /p ← S_A\(s\)/ },
  'chungwang support separated': { says: /s separates A and B/, line: /s·q − s·p > τ: return separated/ },
  'chungwang support common-point': { says: /p and q coincide/, line: /common point, return intersecting/ },
  'chungwang support repeated-direction': { says: /repeats the previous step's r.*s separates A and B/, line: /r = r_prev: return separated/ },
  'chungwang switch switch-to-w': { says: /switches to w/, line: /s ← w; continue/ },
  'chungwang hemisphere hemisphere-fits': { says: /holds/, line: /^hemisphere\(R, r\)|return true/ },
  'chungwang hemisphere no-hemisphere': { says: /cannot fit in one half-plane/, line: /return false/ },
  'chungwang reflect progress': { says: /reflected in the plane perpendicular to r/, line: /reflect s in the plane ⊥ r/ },
  'chungwang done separated': { says: /^Separated: s = /, line: /s·q − s·p > τ: return separated/ },
  'chungwang done repeated-direction': { says: /^Separated: s = /, line: /r = r_prev: return separated/ },
  'chungwang done common-point': { says: /^Intersecting: the support points p and q coincide/, line: /common point, return intersecting/ },
  'chungwang done no-hemisphere': { says: /^Intersecting: no hemisphere holds/, line: /no hemisphere holds R: return intersecting/ },
  'chungwang done iteration-cap': { says: /iteration cap: reported intersecting/, line: /stop: iteration cap/ },
};

/** The key of STEPS for frame i of t. */
function stepKey(t: StepTrace, i: number): string {
  const f = t.frames[i];
  switch (t.query) {
    case 'hull': return `hull ${f.kind}`;
    case 'sat': {
      const s = f as SatFrame;
      if (s.kind === 'axis') return `sat axis ${s.separates ? 'separating' : s.best === s.index ? 'best' : s.axisKind}`;
      if (s.kind === 'done') return `sat done ${t.result.intersecting ? 'intersecting' : 'separated'}`;
      return `sat ${s.kind}`;
    }
    case 'raycast':
    case 'shapecast': return `cast ${f.kind} ${(f as CastFrame).reason}`;
    default: return `${t.query} ${f.kind} ${(f as { reason: string }).reason}`;
  }
}

// ---- closed forms --------------------------------------------------------------------------------------------

/**
 * Per query and outcome of a closed form: what its caption says after the form's name. The outcome is read off
 * the frame and the result (cores meeting: d within the rounding bound τ; touching: d beyond r_A + r_B by at most τ).
 */
const CLOSED_STEPS: Record<string, RegExp> = {
  'closed intersect separated': /, more than the radii \S+ \+ \S+: separated\.$/,
  'closed intersect overlap': /, at most the radii \S+ \+ \S+: intersecting\.$/,
  'closed intersect touching': /to within the rounding bound \S+: touching, so intersecting\.$/,
  'closed intersect meet': /(coincide|lies on .* core segment|segments meet) \(d = \S+, within the rounding bound \S+\), at most the radii .*: intersecting\.$/,
  'closed distance apart': /; minus the radii \S+ \+ \S+, the distance is \S+\.$/,
  'closed distance overlap': /, within the radii \S+ \+ \S+: the shapes overlap, distance 0 /,
  'closed distance meet': /\(d = \S+, within the rounding bound \S+\): the shapes overlap, distance 0\.$/,
  'closed penetration separated': /, more than the radii \S+ \+ \S+: separated, no penetration\.$/,
  'closed penetration depth': /; depth = r_A \+ r_B − d = \S+ \+ \S+ − \S+ = \S+ along the line of the closest points, n = \(.*\)\.$/,
  'closed penetration touching': /to within the rounding bound \S+: touching, depth 0\.$/,
  'closed penetration meet': /: any direction across the cores separates the shapes by r_A \+ r_B, so the depth is \S+ \+ \S+ = \S+ across them, along n = /,
};

/** The last pseudocode line of each query's closed form: the formula of the answer. */
const CLOSED_ANSWER: Record<ClosedFormTrace['query'], RegExp> = {
  intersect: /^return d ≤ r_A \+ r_B \+ τ/,
  distance: /^distance ← max\(0, d − r_A − r_B\)/,
  penetration: /^depth ← r_A \+ r_B − d along n = \(q − p\)\/d/,
};

function closedOutcome(t: ClosedFormTrace): string {
  const f = t.frames[0];
  const radius = f.radiusA + f.radiusB;
  const meet = f.coreDistance <= f.touching;
  switch (t.query) {
    case 'intersect':
      if (!t.result.intersecting) return 'separated';
      return meet ? 'meet' : f.coreDistance <= radius ? 'overlap' : 'touching';
    case 'distance':
      return meet ? 'meet' : t.result.distance > 0 ? 'apart' : 'overlap';
    case 'penetration':
      if (meet) return 'meet';
      if (!t.result.intersecting) return 'separated';
      return t.result.status === 'touching' ? 'touching' : 'depth';
  }
}

/** The numbers a closed form's caption names, in order. */
function closedNumbers(t: ClosedFormTrace, outcome: string): Named[] {
  const f = t.frames[0];
  const cores = outcome === 'meet' ? [n(f.coreDistance), n(f.touching, 3)] : [n(f.coreDistance)];
  const radii = [n(f.radiusA), n(f.radiusB)];
  const r = t.result;
  switch (`${t.query} ${outcome}`) {
    case 'distance apart': return [...cores, ...radii, n((r as { distance: number }).distance, 9)];
    case 'distance meet': return cores;
    case 'intersect touching':
    case 'penetration touching': return [...cores, ...radii, n(f.touching, 3)];
    case 'penetration depth': {
      const p = r as { depth: number; normal: Vec3 };
      return [...cores, ...radii, n(f.coreDistance), n(p.depth, 9), ...v3(p.normal)];
    }
    case 'penetration meet': {
      const p = r as { depth: number; normal: Vec3 };
      return [...cores, ...radii, n(p.depth, 9), ...v3(p.normal)];
    }
    default: return [...cores, ...radii];
  }
}

/**
 * A closed form's trace: one frame whose caption names the form and the numbers, pseudocode of three lines ending
 * with the formula, a result sentence that names the form instead of iterations; and the answer follows from the
 * frame's numbers by that formula (d recomputed from p and q).
 */
function checkClosedForm(t: ClosedFormTrace, name: string, seen: Set<string>): number {
  expect(t.frames, name).toHaveLength(1);
  if (t.frames[0].axisKind !== null) return checkBoxAxis(t, name, seen);
  const f = t.frames[0];
  expect(f.form, name).toBe(t.closedForm);
  seen.add(`closed form ${f.form}`);
  expect(t.pseudocode, name).toHaveLength(3);
  expect(t.pseudocode[2], name).toMatch(CLOSED_ANSWER[t.query]);
  const outcome = closedOutcome(t);
  const key = `closed ${t.query} ${outcome}`;
  seen.add(key);
  const title = f.form.replace('-', '–');
  expect(f.caption, name).toMatch(new RegExp(`^Closed form \\(${title}\\): `));
  expect(f.caption, name).not.toMatch(BROKEN);
  expect(f.caption, `${name} [${key}]`).toMatch(CLOSED_STEPS[key]);
  expectNames(f.caption, closedNumbers(t, outcome), `${name} [${key}]`);
  const sentence = resultSentence(t);
  expect(sentence, name).toContain(`(closed form ${title}`);
  expectNames(sentence, resultNumbers(t), `${name}, result`);

  // The formula, from the frame's numbers: d = ‖p − q‖, and the answer from d and r = r_A + r_B.
  const scale = Math.max(1, ...f.coreA.map(Math.abs), ...f.coreB.map(Math.abs));
  expect(Math.abs(len(f.coreA.map((x, i) => x - f.coreB[i])) - f.coreDistance), name).toBeLessThanOrEqual(1e-15 * scale);
  const d = f.coreDistance;
  const radius = f.radiusA + f.radiusB;
  expect(t.marginA + t.marginB, name).toBe(radius);
  if (t.query === 'intersect') expect(t.result.intersecting, name).toBe(d <= radius + f.touching);
  if (t.query === 'distance') expect(Math.abs(t.result.distance - Math.max(0, d - radius)), name).toBeLessThanOrEqual(4e-16 * scale);
  if (t.query === 'penetration' && t.result.intersecting) {
    expect(Math.abs(t.result.depth - (outcome === 'touching' ? 0 : outcome === 'meet' ? radius : radius - d)), name).toBeLessThanOrEqual(4e-16 * scale);
  }
  return 1;
}

/** Box forms decided by an axis (two boxes; a centre inside a box): what the caption says per query and outcome. */
const BOX_STEPS: Record<string, RegExp> = {
  'box-box intersect separated': /along .+, L = \(.*\) the cores are \S+ apart, more than the radii \S+ \+ \S+: separated\.$/,
  'box-box intersect overlap': /: no axis separates the cores; the least overlap is \S+ along .+, L = \(.*\): intersecting\.$/,
  'box-box penetration depth': /: the least overlap of the 15 axes, radii \S+ \+ \S+ included, is \S+ along .+: the depth, with contact points pA = \(.*\), pB = \(.*\)\.$/,
  'box-box penetration touching': /: the least overlap of the 15 axes is along .+: the boxes touch, depth 0\.$/,
  'inside intersect overlap': /lies in [AB]'s box, \S+ from its nearest face \(.+\): intersecting\.$/,
  'inside distance overlap': /lies in [AB]'s box, \S+ from its nearest face \(.+\): the shapes overlap, distance 0\.$/,
  'inside penetration depth': /lies in [AB]'s box, \S+ from its nearest face \(.+\); depth = r_A \+ r_B \+ \S+ = \S+ across that face, n = \(.*\)\.$/,
  'inside penetration touching': /lies in [AB]'s box, \S+ from its nearest face \(.+\): touching, depth 0\.$/,
};

/**
 * A box form's trace decided by an axis: its caption per outcome, pseudocode of three lines, the result sentence
 * naming the form; and the answer from the frame's numbers (the overlap along the axis, radii included, is the
 * depth; a centre inside a box is r_A + r_B + its distance to the nearest face deep).
 */
function checkBoxAxis(t: ClosedFormTrace, name: string, seen: Set<string>): number {
  const f = t.frames[0];
  expect(f.form, name).toBe(t.closedForm);
  seen.add(`closed form ${f.form}`);
  expect(t.pseudocode, name).toHaveLength(3);
  const title = f.form.replace('-', '–');
  expect(f.caption, name).toMatch(new RegExp(`^Closed form \\(${title}\\): `));
  expect(f.caption, name).not.toMatch(BROKEN);
  expect(resultSentence(t), name).toContain(`(closed form ${title}`);
  expect(Math.abs(len(f.axis!) - 1), name).toBeLessThan(1e-15);
  const radius = f.radiusA + f.radiusB;
  const kind = f.form === 'box-box' ? 'box-box' : 'inside';
  let outcome: string;
  switch (t.query) {
    case 'intersect':
      outcome = t.result.intersecting ? 'overlap' : 'separated';
      expect(t.result.intersecting, name).toBe(f.overlap! >= 0);
      break;
    case 'distance':
      outcome = 'overlap';
      expect(t.result.distance, name).toBe(0);
      break;
    case 'penetration': {
      outcome = t.result.status === 'touching' ? 'touching' : 'depth';
      const depth = f.form === 'box-box' ? f.overlap! : radius + f.coreDistance;
      expect(Math.abs(t.result.depth - (outcome === 'touching' ? 0 : depth)), name).toBeLessThanOrEqual(1e-15 * Math.max(1, depth));
      expect(t.result.normal, name).toEqual(f.axis);
      break;
    }
  }
  const key = `${kind} ${t.query} ${outcome}`;
  seen.add(key);
  expect(BOX_STEPS[key], `${name}: no words expected for "${key}"`).toBeDefined();
  expect(f.caption, `${name} [${key}]`).toMatch(BOX_STEPS[key]);
  return 1;
}

// ---- every frame of many scenes ------------------------------------------------------------------------------

/** Text a number or a field should never turn into. */
const BROKEN = /undefined|NaN|\[object|null/;

function checkTrace(t: Trace, name: string, seen: Set<string>): number {
  for (const text of [...t.pseudocode, resultSentence(t)]) expect(text, name).not.toMatch(BROKEN);
  if (isClosedForm(t)) return checkClosedForm(t, name, seen);
  expect(t.frames.length, name).toBeGreaterThan(0);
  expect(t.frames[t.frames.length - 1].kind, name).toMatch(/^(done|degenerate)$/);
  t.frames.forEach((f, i) => {
    const where = `${name}, frame ${i} (${f.kind})`;
    expect(f.caption.length, where).toBeGreaterThan(0);
    expect(f.caption, where).not.toMatch(BROKEN);
    expectNames(f.caption, frameNumbers(t, i), where);
    const key = stepKey(t, i);
    seen.add(key);
    const step = STEPS[key];
    expect(step, `${where}: no words expected for "${key}"`).toBeDefined();
    expect(f.caption, `${where} [${key}]`).toMatch(step.says);
    expect(f.line, where).toBeGreaterThanOrEqual(1);
    expect(f.line, where).toBeLessThanOrEqual(t.pseudocode.length);
    expect(t.pseudocode[f.line - 1], `${where} [${key}]: line ${f.line}`).toMatch(step.line);
  });
  // The last frame says the result, in the words the page shows beside every step.
  const sentence = resultSentence(t);
  expect(t.frames[t.frames.length - 1].caption.endsWith(sentence), name).toBe(true);
  expectNames(sentence, resultNumbers(t), `${name}, result`);
  const status = (t.result as { status?: string }).status;
  if (t.query !== 'hull' && t.query !== 'sat') expect(sentence, name).toContain(`${status})`);
  return t.frames.length;
}

describe('every caption of a trace names its frame', () => {
  const seen = new Set<string>();

  it('over the gallery', () => {
    let frames = 0;
    for (const scene of galleryScenes()) frames += checkTrace(trace(scene), `gallery ${scene.query}`, seen);
    expect(frames).toBeGreaterThan(300);
  });

  it('over the gallery\'s worlds: each step counts its contact points and the pairs they join', () => {
    let frames = 0;
    for (const f of galleryFiles()) {
      const scene = JSON.parse(readFileSync(join(sceneDir, f), 'utf8')) as Scene;
      if (scene.query !== 'simulate') continue;
      for (const frame of (trace(scene as Scene & { query: 'simulate' }) as SimulateTrace).frames) {
        const where = `${f}, step ${frame.step}`;
        expect(frame.caption, where).not.toMatch(BROKEN);
        frames++;
        if (frame.step === 0) {
          expect(frame.caption, where).toMatch(/^The start/);
          continue;
        }
        const points = frame.contacts.length;
        const pairs = new Set(frame.contacts.map((c) => `${c.a},${c.b}`)).size;
        expect(frame.caption, where).toContain(`Step ${frame.step}: ${points} contact point${points === 1 ? '' : 's'} between ${pairs} pair${pairs === 1 ? '' : 's'}`);
      }
    }
    expect(frames).toBeGreaterThan(400);
  });

  it('a box asleep on a floor: the step says so and that its points were not solved, as World.step() counts them', () => {
    // With sleeping (sleepTime 0.5 s) the box is asleep by step 120; without, its four corners are solved every step.
    const cube = convexBox([0.5, 0.5, 0.5]), floor = convexBox([5, 0.5, 5]);
    for (const sleep of [true, false]) {
      const scene = {
        version: 1, query: 'simulate', steps: 120, ...(sleep ? {} : { sleep: false }),
        shapes: [{ type: 'box', halfExtents: [0.5, 0.5, 0.5], position: [0.1, 0.52, -0.2] },
          { type: 'box', halfExtents: [5, 0.5, 5], position: [0, -0.5, 0] }],
        bodies: [{ shape: 0, mass: 1 }],
      } as Scene & { query: 'simulate' };
      const t = trace(scene) as SimulateTrace;
      const last = t.frames[t.frames.length - 1];
      const world = new World();
      world.add(cube, { position: [0.1, 0.52, -0.2] }, { mass: 1 });
      world.add(floor, { position: [0, -0.5, 0] });
      let counts = world.step({ sleep });
      for (let i = 1; i < 120; i++) counts = world.step({ sleep });
      world.dispose();
      expect(last.sleeping).toBe(counts.sleeping);
      expect(last.solvedPoints).toBe(counts.points);
      expect(last.contacts.length).toBe(4);
      expect(last.caption).toBe(sleep
        ? 'Step 120: 4 contact points between 1 pair of shapes, none solved this step: 1 body sleeps, and the points are as they were when their islands fell asleep.'
        : 'Step 120: 4 contact points between 1 pair of shapes held the bodies apart.');
    }
    cube.dispose();
    floor.dispose();
  });

  it('over touching, flat and coincident shapes and rays from inside', () => {
    placedScenes().forEach((scene, i) => checkTrace(trace(scene), `placed scene ${i} (${scene.query})`, seen));
  });

  it('over 1 200 random scenes of every query and shape type', () => {
    let traced = 0;
    randomScenes(1200, 20261125).forEach((scene, i) => {
      traced++;
      checkTrace(trace(scene), `random scene ${i} (${scene.query}): ${JSON.stringify(scene)}`, seen);
    });
    expect(traced).toBe(1200);
  });

  it('and those scenes reach every kind of step but the rare stops', () => {
    // Stops that need shapes touching to rounding, rounding trouble or a long cycle: no scene here reaches them.
    const rare = new Set([
      'distance support duplicate-support', 'distance simplex no-progress', 'penetration support duplicate-support',
      // GJK's stalls, certified or re-solved: shapes touching to rounding.
      'distance done no-progress', 'distance support bounds-within-tolerance', 'distance support refine', 'distance simplex bounds-within-tolerance',
      'distance simplex refine', 'distance done bounds-within-tolerance',
      'chungwang done iteration-cap', 'intersect support gap-within-tolerance', 'intersect done gap-within-tolerance',
    ]);
    // A closed form is touching only when d lands within τ beyond r_A + r_B.
    for (const q of ['intersect', 'penetration']) rare.add(`closed ${q} touching`);
    // A centre exactly on a box's face, or boxes touching exactly along their least-overlap axis.
    rare.add('inside penetration touching');
    const forms = ['point-point', 'point-segment', 'segment-point', 'segment-segment', 'point-box', 'box-point', 'box-box']
      .map((f) => `closed form ${f}`);
    const missing = [...Object.keys(STEPS), ...Object.keys(CLOSED_STEPS), ...Object.keys(BOX_STEPS), ...forms]
      .filter((k) => !seen.has(k) && !rare.has(k));
    expect(missing).toEqual([]);
  });
});

// ---- scenes worked out by hand -------------------------------------------------------------------------------

const sphere = (radius: number, position: Vec3 = [0, 0, 0]): Shape => ({ type: 'sphere', radius, position });
const box = (position: Vec3 = [0, 0, 0]): Shape => ({ type: 'box', halfExtents: [1, 1, 1], position });
const tally = (k: number, word = 'iteration') => `${k} ${word}${k === 1 ? '' : 's'}`;

describe('result sentences of scenes worked out by hand', () => {
  it('a unit sphere and a unit box with centres 3 apart: distance 1 between (1, 0, 0) and (2, 0, 0)', () => {
    const t = stepsOf(trace({ version: 1, query: 'distance', shapes: [sphere(1), box([3, 0, 0])], closedForms: false }));
    const k = t.result.iterations;
    expect(t.frames.at(-1)!.caption).toBe(`Distance 1 between (1, 0, 0) on A and (2, 0, 0) on B (${tally(k)}, converged).`);
    // GJK runs on the sphere's centre (a point core): A − B starts at (0, 0, 0) − s_B(x), a corner of B's face x = 4.
    expect(t.frames[0].caption).toMatch(/^Start: v = \(-4, -?1, -?1\), .* ‖v‖ = 4\.24264\.$/);
    expect(resultSentence(t)).toBe(t.frames.at(-1)!.caption);
  });

  it('the same pair: separated; with centres 1.5 apart: intersecting', () => {
    const apart = trace({ version: 1, query: 'intersect', shapes: [sphere(1), box([3, 0, 0])], closedForms: false });
    expect(resultSentence(apart)).toBe(`Separated (${tally(apart.result.iterations)}, converged).`);
    const overlapping = trace({ version: 1, query: 'intersect', shapes: [sphere(1), box([1.5, 0, 0])], closedForms: false });
    expect(resultSentence(overlapping)).toBe(`Intersecting (${tally(overlapping.result.iterations)}, converged).`);
    // By default the pair has a closed form: the clamp of the sphere's centre into the box.
    expect(resultSentence(trace({ version: 1, query: 'intersect', shapes: [sphere(1), box([3, 0, 0])] }))).toBe('Separated (closed form point–box).');
  });

  it('a unit sphere and a box of half-size 0.5 rounded by 0.5, centres 1.75 apart: the cores 1.25 apart, depth 1.5 − 1.25 = 0.25 without EPA', () => {
    const rounded: Shape = { type: 'box', halfExtents: [0.5, 0.5, 0.5], margin: 0.5, position: [1.75, 0, 0] };
    const t = trace({ version: 1, query: 'penetration', shapes: [sphere(1), rounded], closedForms: false });
    expect(t.frames.at(-1)!.caption).toBe('GJK: the cores are apart by 1.25 < r_A + r_B = 1.5, so the rounded shapes overlap and the depth is exact without EPA. '
      + 'Penetration depth 0.25 along n = (1, 0, 0) (move B by depth·n to separate); contact (1, 0, 0) on A, (0.75, 0, 0) on B (0 EPA iterations, converged).');
  });

  it('unit boxes 3 apart along x: no penetration, 1 between the facing faces', () => {
    const t = trace({ version: 1, query: 'penetration', shapes: [box(), box([3, 0, 0])] });
    expect(resultSentence(t)).toMatch(/^Separated \(distance 1\): no penetration\. Closest points \(1, [^)]*\) on A and \(2, [^)]*\) on B \(0 EPA iterations, converged\)\.$/);
  });

  it('the 8 corners of a cube: 8 vertices, 12 triangles, 6 square faces', () => {
    const corners: Vec3[] = [];
    for (const x of [-1, 1]) for (const y of [-1, 1]) for (const z of [-1, 1]) corners.push([x, y, z]);
    const t = trace({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points: corners }] });
    expect(t.frames.at(-1)!.caption).toBe('No face has conflict points left. Convex hull of 8 points: a polyhedron with 8 vertices and 12 triangles (6 faces once coplanar triangles are merged).');
  });

  it('a square, three points on a line, a point repeated: a polygon, a segment, a point', () => {
    const hullOf = (points: Vec3[]) => trace({ version: 1, query: 'hull', shapes: [{ type: 'polytope', points }] });
    const square = hullOf([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0.5, 0.5, 0]]);
    const flat = resultSentence(square);
    expect(flat).toMatch(/^The 5 points lie within tolerance \S+ of a plane: the hull is a flat polygon with 4 vertices\.$/);
    expect(writes(numbersIn(flat)[1], square.result.tolerance, 6)).toBe(true);
    expect(resultSentence(hullOf([[0, 0, 0], [1, 1, 1], [3, 3, 3]]))).toMatch(/^The 3 points lie within tolerance \S+ of a line: the hull is a segment\.$/);
    expect(resultSentence(hullOf([[1, 2, 3], [1, 2, 3]]))).toMatch(/^The 2 points lie within tolerance \S+ of a single point: the hull is that point\.$/);
  });

  it('unit boxes 3 apart along x: the first axis, x, leaves a gap of 1', () => {
    const t = trace({ version: 1, query: 'sat', shapes: [box(), box([3, 0, 0])] });
    expect(resultSentence(t)).toBe('Separated: axis 1, face normal of A (1, 0, 0) leaves a gap of 1 (a lower bound of the distance; 1 axis tested).');
  });

  it('unit boxes 1.5 apart along x: least overlap 0.5 along x', () => {
    const t = trace({ version: 1, query: 'sat', shapes: [box(), box([1.5, 0, 0])] });
    expect(resultSentence(t)).toMatch(/^Intersecting: no axis separates; least overlap 0\.5 along \(1, 0, 0\) \(axis 1, face normal of A\): moving B by depth·axis separates them \(\d+ axes tested\)\.$/);
  });

  it('a ray along x from (−3, 0, 0) onto the unit sphere: hit at t = 2 at (−1, 0, 0); from (−3, 2, 0): a miss; from the centre: inside', () => {
    const cast = (origin: Vec3) => trace({ version: 1, query: 'raycast', shapes: [sphere(1)], ray: { origin, direction: [1, 0, 0], maxT: 10 } });
    expect(resultSentence(cast([-3, 0, 0]))).toBe('The ray hits shape A at t = 2, point (-1, 0, 0), normal (-1, 0, 0) (0 iterations, converged).');
    expect(resultSentence(cast([-3, 2, 0]))).toBe('The ray misses shape A (0 iterations, converged).');
    expect(resultSentence(cast([0, 0, 0]))).toBe('The ray starts inside shape A: hit at t = 0, no entry normal (0 iterations, converged).');
  });

  it('a unit sphere moving by −4 along x onto one 5 away: they touch at t = 3/4, at (1, 0, 0)', () => {
    const t = trace({ version: 1, query: 'shapecast', shapes: [sphere(1), sphere(1, [5, 0, 0])], motion: { translationB: [-4, 0, 0] } });
    expect(resultSentence(t)).toBe('A and B first touch at t = 0.75: pointA (1, 0, 0), pointB (1, 0, 0), normal (1, 0, 0) from A to B (0 iterations, converged).');
    expect(run({ version: 1, query: 'shapecast', shapes: [sphere(1), sphere(1, [5, 0, 0])], motion: { translationB: [-4, 0, 0] } })).toMatchObject({ t: 0.75 });
  });

  it('Chung–Wang on unit spheres 3 apart: the first axis, x, separates them by 1', () => {
    const t = trace({ version: 1, query: 'chungwang', shapes: [sphere(1), sphere(1, [3, 0, 0])] });
    const support = t.frames.find((f) => f.kind === 'support')!;
    expect(support.caption).toBe('p = S_A(s) and q = S_B(−s): B\'s nearest point along s lies 1 beyond A\'s farthest. s separates A and B.');
    expect(resultSentence(t)).toBe(`Separated: s = (1, 0, 0) is a separating axis (A lies on its −s side, B on its +s side; ${tally(t.result.iterations)}, separated).`);
  });
});

describe('GJK on a point a hair from a box\'s edge', () => {
  // A point 1.8e-8 and 2.7e-10 from a box's edge (built touching in the C++ test test_gjk_touching.cpp): A − B's
  // nearest feature is an edge. Rounding used to tilt v along it and stall GJK (a re-solve or the bounds' certificate
  // then finished the run); with a segment's v made perpendicular to it (simplex.h) neither stalls now.
  const point = (position: Vec3): Shape => ({ type: 'point', position });
  const edgeBox = (halfExtents: Vec3, position: Vec3, rotation: [number, number, number, number]): Shape =>
    ({ type: 'box', halfExtents, position, rotation });
  const reasons = (t: Trace) => (t as GjkTrace).frames.map((f) => `${f.kind} ${f.reason}`);
  const scenes: Scene[] = [
    {
      version: 1, query: 'distance', closedForms: false,
      shapes: [point([-1.9353585204985018, 0.087722663542036727, 2.3210651645812379]),
        edgeBox([0.14277202021982768, 0.79290233032650947, 0.45075649776276783],
          [-1.3829728672914667, 0.70118855857913576, 2.4160416091382988],
          [0.21984105449704047, 0.56747316635223255, -0.10850472355071804, 0.78604760746088587])],
    },
    {
      version: 1, query: 'distance', closedForms: false,
      shapes: [point([-12.545331477512191, -1.5416527261644255, 16.960967883128212]),
        edgeBox([3.5189333188869227, 5.0492180328373681, 6.4017337441693076],
          [-16.990963874316002, 1.4838706962388684, 12.285921667597318],
          [0.29669338631372705, 0.17880601806993093, -0.84803279805876253, 0.40105088933487659])],
    },
  ];

  it('converges by the gap test, its captions naming every step', () => {
    scenes.forEach((scene, i) => {
      const t = trace(scene);
      checkTrace(t, `point near a box edge ${i}`, new Set());
      expect((t as GjkTrace).result.status).toBe('converged');
      const last = reasons(t)[reasons(t).length - 1];
      expect(last).toMatch(/gap-within-tolerance|bounds-within-tolerance/);
      expect(reasons(t).filter((r) => /duplicate-support|no-progress/.test(r))).toEqual([]);
    });
  });
});

describe('closed forms worked out by hand', () => {
  // A capsule of radius 0.5 and half-height 1 at the origin: its core is the segment from (0, −1, 0) to (0, 1, 0).
  // A ball of radius 0.25 at (2, 0.5, 0) projects onto the core at p = (0, 0.5, 0): d = 2, distance
  // 2 − 0.5 − 0.25 = 1.25 between p + 0.5·x = (0.5, 0.5, 0) and q − 0.25·x = (1.75, 0.5, 0).
  const capsule: Shape = { type: 'capsule', radius: 0.5, halfHeight: 1 };
  const ball = (position: Vec3): Shape => ({ type: 'sphere', radius: 0.25, position });
  const pair = (query: 'intersect' | 'distance' | 'penetration', a: Shape, b: Shape): Scene => ({ version: 1, query, shapes: [a, b] });

  it('capsule and ball apart: d = 2, distance 1.25', () => {
    const t = trace(pair('distance', capsule, ball([2, 0.5, 0])));
    if (!isClosedForm(t)) throw new Error('expected a closed form');
    expect(t.closedForm).toBe('segment-point');
    expect(t.frames).toHaveLength(1);
    expect(t.frames[0]).toMatchObject({ coreA: [0, 0.5, 0], coreB: [2, 0.5, 0], coreDistance: 2, radiusA: 0.5, radiusB: 0.25 });
    expect(t.frames[0].caption).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 2 away; minus the radii 0.5 + 0.25, the distance is 1.25.');
    expect(resultSentence(t)).toBe('Distance 1.25 between (0.5, 0.5, 0) on A and (1.75, 0.5, 0) on B (closed form segment–point).');
    expect(t.pseudocode).toHaveLength(3);
    expect(t.pseudocode[0]).toMatch(/^q ← B's centre;  p ← the point of A's segment nearest q/);
    expect(t.result).toEqual(run(pair('distance', capsule, ball([2, 0.5, 0]))));
  });

  it('the same pair: separated (2 > 0.75); as penetration: separated, the closest points', () => {
    const t = trace(pair('intersect', capsule, ball([2, 0.5, 0])));
    expect(t.frames[0].caption).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 2 away, more than the radii 0.5 + 0.25: separated.');
    expect(resultSentence(t)).toBe('Separated (closed form segment–point).');
    const p = trace(pair('penetration', capsule, ball([2, 0.5, 0])));
    expect(p.frames[0].caption).toMatch(/is 2 away, more than the radii 0\.5 \+ 0\.25: separated, no penetration\.$/);
    expect(resultSentence(p)).toBe('Separated (distance 1.25): no penetration. Closest points (0.5, 0.5, 0) on A and (1.75, 0.5, 0) on B (closed form segment–point).');
  });

  it('the ball at (0.5, 0.5, 0): d = 0.5, depth 0.75 − 0.5 = 0.25 along x; B first: the form is point–segment', () => {
    const t = trace(pair('penetration', capsule, ball([0.5, 0.5, 0])));
    expect(t.frames[0].caption).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 0.5 away; '
      + 'depth = r_A + r_B − d = 0.5 + 0.25 − 0.5 = 0.25 along the line of the closest points, n = (1, 0, 0).');
    expect(resultSentence(t)).toBe('Penetration depth 0.25 along n = (1, 0, 0) (move B by depth·n to separate); contact (0.5, 0.5, 0) on A, (0.25, 0.5, 0) on B (closed form segment–point).');
    const i = trace(pair('intersect', capsule, ball([0.5, 0.5, 0])));
    expect(i.frames[0].caption).toMatch(/is 0\.5 away, at most the radii 0\.5 \+ 0\.25: intersecting\.$/);
    const swapped = trace(pair('distance', ball([2, 0.5, 0]), capsule));
    expect(swapped.frames[0].caption).toBe('Closed form (point–segment): the closest point of B\'s core segment to A\'s centre is 2 away; minus the radii 0.25 + 0.5, the distance is 1.25.');
  });

  it('two unit spheres 3 apart: point–point, distance 1; two capsules crossing at the origin: depth r_A + r_B across the cores', () => {
    const spheres = trace(pair('distance', sphere(1), sphere(1, [3, 0, 0])));
    expect(spheres.frames[0].caption).toBe('Closed form (point–point): A\'s and B\'s centres are 3 apart; minus the radii 1 + 1, the distance is 1.');
    expect(resultSentence(spheres)).toBe('Distance 1 between (1, 0, 0) on A and (2, 0, 0) on B (closed form point–point).');
    // B turned 90° about x lies along z: the cores (along y and z) cross at O, whose common normal is ±x.
    const crossing: Shape = { type: 'capsule', radius: 0.25, halfHeight: 1, rotation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2] };
    const t = trace(pair('penetration', capsule, crossing));
    if (!isClosedForm(t) || t.query !== 'penetration') throw new Error('expected a closed-form penetration');
    expect(t.closedForm).toBe('segment-segment');
    expect(t.result.depth).toBe(0.75);
    expect(Math.abs(t.result.normal[0])).toBe(1);
    expect(t.frames[0].caption).toMatch(/^Closed form \(segment–segment\): A's and B's core segments meet \(d = 0, within the rounding bound \S+\): any direction across the cores separates the shapes by r_A \+ r_B, so the depth is 0\.5 \+ 0\.25 = 0\.75 across them, along n = \(-?1, 0, 0\)\.$/);
  });

  it('in the plane: a capsule and a circle, the caption reads (x, y)', () => {
    const t = trace({ version: 1, dimension: 2, query: 'penetration', shapes: [
      { type: 'capsule', radius: 0.5, halfHeight: 1 }, { type: 'circle', radius: 0.25, position: [0.5, 0.5] }] });
    if (!isClosedForm(t)) throw new Error('expected a closed form');
    expect(t.frames[0].coreA).toEqual([0, 0.5]);
    expect(t.frames[0].caption).toBe('Closed form (segment–point): the closest point of A\'s core segment to B\'s centre is 0.5 away; '
      + 'depth = r_A + r_B − d = 0.5 + 0.25 − 0.5 = 0.25 along the line of the closest points, n = (1, 0).');
  });
});

describe('trace() keeps the shape of the JSON', () => {
  it('puts pseudocode after query and the caption last (hull: after iteration)', () => {
    const gjk = trace({ version: 1, query: 'distance', shapes: [sphere(1), box([3, 0, 0])], closedForms: false });
    expect(Object.keys(gjk).slice(0, 3)).toEqual(['query', 'pseudocode', 'frames']);
    expect(Object.keys(gjk.frames[0]).at(-1)).toBe('caption');
    // A closed form's trace: its name after the pseudocode, then the frames, the result and the radii.
    const closed = trace({ version: 1, query: 'distance', shapes: [sphere(1), sphere(1, [3, 0, 0])] });
    expect(Object.keys(closed)).toEqual(['query', 'pseudocode', 'closedForm', 'frames', 'result', 'marginA', 'marginB']);
    expect(Object.keys(closed.frames[0])).toEqual(['form', 'coreA', 'coreB', 'coreDistance', 'radiusA', 'radiusB', 'touching',
      'axisKind', 'featureA', 'featureB', 'axis', 'overlap', 'caption']);
    const hull = trace({ version: 1, query: 'hull', shapes: [{ type: 'box', halfExtents: [1, 2, 3] }] });
    expect(Object.keys(hull.frames[0]).slice(0, 4)).toEqual(['kind', 'line', 'iteration', 'caption']);
  });
});

describe('a cast caption says λ advanced only when it did', () => {
  const support = { kind: 'support', reason: 'advanced', updated: true, vw: 0.5, threshold: 0, vr: -1 } as const;

  it('a λ that did not move is said to stay', () => {
    const text = castCaption({ ...support, oldLambda: 0.75, newLambda: 0.75 } as never, false, '');
    expect(text).toMatch(/λ stays at 0\.75: the ray meets the plane at x itself/);
    expect(text).not.toMatch(/advances/);
  });

  it('a step below 9 digits is written with 17, so the two values differ on the page', () => {
    const old = 1.1785712755351867;
    const next = 1.1785712756861122;
    const text = castCaption({ ...support, oldLambda: old, newLambda: next } as never, false, '');
    const m = /λ advances from (\S+) to (\S+),/.exec(text);
    expect(m).not.toBeNull();
    expect(m![1]).not.toBe(m![2]);
    expect(Number(m![1])).toBe(old);
    expect(Number(m![2])).toBe(next);
  });

  it('a step that 9 digits show is written with 9', () => {
    const text = castCaption({ ...support, oldLambda: 0, newLambda: 0.8083977281922216 } as never, false, '');
    expect(text).toMatch(/λ advances from 0 to 0\.808397728,/);
  });
});

describe('a result sentence tells two close points apart', () => {
  /** The "(x, y, z)" triples a sentence names, as written. */
  const triples = (text: string) => [...text.matchAll(/\(([-\d.e+]+), ([-\d.e+]+), ([-\d.e+]+)\)/g)].map((m) => m.slice(1, 4));

  for (const file of ['06-large-coordinates-tiny-gap.json', '15-large-coordinates-tiny-overlap.json']) {
    it(file, () => {
      const scene = JSON.parse(readFileSync(join(sceneDir, file), 'utf8')) as Scene;
      const t = trace(scene);
      const r = t.result as { pointA: Vec3; pointB: Vec3 };
      expect(r.pointA).not.toEqual(r.pointB);
      const [a, b] = triples(resultSentence(t)).slice(-2); // the points come last (a penetration names n first)
      expect(a.join(', '), 'the two points are written differently').not.toBe(b.join(', '));
      for (let k = 0; k < 3; k++) {
        // A coordinate where the points differ is written with enough digits to show it; one where they agree
        // keeps the six digits of every vector.
        if (r.pointA[k] === r.pointB[k]) expect(a[k]).toBe(b[k]);
        else expect(a[k]).not.toBe(b[k]);
        expect(Math.abs(Number(a[k]) - r.pointA[k])).toBeLessThanOrEqual(Math.abs(r.pointA[k]) * 5e-6);
        expect(Math.abs(Number(b[k]) - r.pointB[k])).toBeLessThanOrEqual(Math.abs(r.pointB[k]) * 5e-6);
      }
    });
  }

  it('points that six digits tell apart keep six', () => {
    const t = trace({ version: 1, query: 'distance', shapes: [
      { type: 'sphere', radius: 1, position: [0, 0, 0] }, { type: 'sphere', radius: 1, position: [3, 0, 0] }] });
    expect(resultSentence(t)).toMatch(/^Distance 1 between \(1, 0, 0\) on A and \(2, 0, 0\) on B /);
  });
});
