// The questions of predict mode, made from a GJK trace before its next frame is shown. Pure: no DOM.
//   Support question (before a 'support' frame): which point of A − B is w = s(d), the support point in the
//   search direction d? The answer is the frame's own w; the wrong choices are points of A − B (the cores'
//   surface samples and the trace's other support points) that lie clearly less far along d: the point
//   furthest along −d (the sign slip, searching towards v instead of −v) and points furthest along
//   directions turned away from d.
//   Region question (before a 'simplex' frame): which vertices of W ∪ {w} does GJK keep, the smallest set
//   whose hull holds the point nearest the origin? The answer is the frame's simplex; the wrong choices are
//   other subsets, those of the same size first.

export type V3 = readonly [number, number, number] | readonly number[];

export interface SupportChoice { point: number[]; correct: boolean }
export interface RegionChoice { members: number[]; label: string; correct: boolean }

export interface SupportQuestion {
  kind: 'support';
  /** The step the question stands before. */
  frame: number;
  direction: number[];
  choices: SupportChoice[];
}

export interface RegionQuestion {
  kind: 'region';
  frame: number;
  /** The vertices to choose from: the new support point w first, then the simplex before it. */
  vertices: { name: string; w: number[] }[];
  choices: RegionChoice[];
}

export interface FaceChoice { id: number; centroid: number[]; distance: number; correct: boolean }

export interface FaceQuestion {
  kind: 'face';
  frame: number;
  choices: FaceChoice[];
}

export type Question = SupportQuestion | RegionQuestion | FaceQuestion;

interface Vertex { w: V3 }
interface GjkFrameLike {
  kind: string;
  iteration: number;
  direction?: V3;
  simplex?: readonly Vertex[];
  support?: Vertex | null;
}

interface EpaFrameLike {
  kind: string;
  vertices?: readonly Vertex[];
  faces?: readonly { id: number; v: readonly number[]; distance: number }[];
  closest?: number | null;
}

/** Wrong choices offered besides the answer. */
export const WRONG_CHOICES = 3;
/** A wrong support choice must fall short of the answer along d by this share of A − B's size. */
const SHORT_BY = 0.05;
/** Choices must be this share of A − B's size apart, so that their markers are told apart. */
const APART = 0.1;
/** Angles (degrees) the directions of the wrong support choices are turned from d. */
const TURNS = [75, -75, 110, -110, 45, -45];

const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const sub = (a: V3, b: V3) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const norm = (a: V3) => Math.sqrt(dot(a, a));
const cross = (a: V3, b: V3) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** `d` turned by `deg` degrees towards `u` (u ⟂ d, both unit). */
function turn(d: V3, u: V3, deg: number): number[] {
  const t = (deg * Math.PI) / 180;
  return [0, 1, 2].map((k) => Math.cos(t) * d[k] + Math.sin(t) * u[k]);
}

/** Two unit vectors perpendicular to unit `d` and to each other. */
function perpendiculars(d: V3): [number[], number[]] {
  const helper = Math.abs(d[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
  const u = cross(d, helper);
  const un = norm(u);
  const u1 = u.map((x) => x / un);
  return [u1, cross(d, u1)];
}

/** Puts the answer at a place that changes with the step, so that it is not always the first button. */
function placeAnswer<T extends { correct: boolean }>(choices: T[], frame: number): T[] {
  const answer = choices.find((c) => c.correct)!;
  const others = choices.filter((c) => !c.correct);
  const at = (frame * 7 + 3) % choices.length;
  others.splice(at, 0, answer);
  return others;
}

/**
 * The support question before frame `index` (a GJK 'support' frame), with wrong choices from `pool`
 * (points of A − B on the cores); null when A − B offers no wrong choice clearly worse than the answer.
 */
export function supportQuestion(frames: readonly GjkFrameLike[], index: number, pool: readonly V3[]): SupportQuestion | null {
  const f = frames[index];
  if (!f || f.kind !== 'support' || !f.support || !f.direction) return null;
  const dn = norm(f.direction);
  if (!(dn > 0)) return null;
  const d = f.direction.map((x) => x / dn);
  const answer = [...f.support.w];
  const points = [...pool, ...frames.flatMap((g) => (g.support ? [g.support.w] : []))];
  if (points.length < 2) return null;
  let size = 0;
  for (const p of points) size = Math.max(size, norm(sub(p, answer)));
  if (!(size > 0)) return null;
  const reach = dot(d, answer);
  const chosen: number[][] = [answer];
  const [u1, u2] = perpendiculars(d);
  const directions = [d.map((x) => -x), ...TURNS.flatMap((t) => [turn(d, u1, t), turn(d, u2, t)])];
  for (const dir of directions) {
    if (chosen.length > WRONG_CHOICES) break;
    let best: V3 | null = null;
    for (const p of points) {
      if (dot(d, p) > reach - SHORT_BY * size) continue;
      if (chosen.some((c) => norm(sub(c, p)) < APART * size)) continue;
      if (best === null || dot(dir, p) > dot(dir, best)) best = p;
    }
    if (best) chosen.push([...best]);
  }
  if (chosen.length < 2) return null;
  const choices = chosen.map((point, i) => ({ point, correct: i === 0 }));
  return { kind: 'support', frame: index, direction: [...f.direction], choices: placeAnswer(choices, index) };
}

const SHAPE_OF = ['', 'point', 'segment', 'triangle', 'tetrahedron'];

function same(a: V3, b: V3): boolean {
  return a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/**
 * The region question before frame `index` (a GJK 'simplex' frame that follows its 'support' frame): the
 * subsets of W ∪ {w} to choose from; null when there is nothing to choose (a single vertex).
 */
export function regionQuestion(frames: readonly GjkFrameLike[], index: number): RegionQuestion | null {
  const f = frames[index];
  const before = frames[index - 1];
  if (!f || f.kind !== 'simplex' || !before || before.kind !== 'support' || !before.support || !f.simplex) return null;
  const vertices = [{ name: 'w', w: [...before.support.w] }, ...(before.simplex ?? []).map((v, i) => ({ name: String(i + 1), w: [...v.w] }))];
  if (vertices.length < 2 || vertices.length > 4) return null;
  const kept: number[] = [];
  for (const v of f.simplex) {
    const k = vertices.findIndex((x) => same(x.w, v.w));
    if (k < 0 || kept.includes(k)) return null;
    kept.push(k);
  }
  kept.sort((a, b) => a - b);
  const key = kept.join(',');
  const subsets: number[][] = [];
  for (let mask = 1; mask < 1 << vertices.length; mask++) {
    subsets.push(vertices.map((_, i) => i).filter((i) => mask & (1 << i)));
  }
  // Same size as the answer first, then those holding w, then the others; by size, then by members.
  const rank = (s: number[]) => [Math.abs(s.length - kept.length), s.includes(0) ? 0 : 1, s.length];
  const wrong = subsets.filter((s) => s.join(',') !== key).sort((a, b) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let k = 0; k < ra.length; k++) if (ra[k] !== rb[k]) return ra[k] - rb[k];
    return a.join(',').localeCompare(b.join(','));
  }).slice(0, WRONG_CHOICES);
  if (wrong.length === 0) return null;
  const label = (s: number[]) => `${SHAPE_OF[s.length]} ${s.map((i) => vertices[i].name).join('–')}`;
  const choices = [kept, ...wrong].map((members, i) => ({ members, label: label(members), correct: i === 0 }));
  return { kind: 'region', frame: index, vertices, choices: placeAnswer(choices, index) };
}

/** Faces within this share of the polytope's size of the answer's distance tie with it: not offered as wrong. */
const TIE = 1e-6;

/**
 * The face question before frame `index` of an EPA trace (a 'closest' frame): which face of the polytope is
 * nearest the origin, the one EPA expands next? The answer is the frame's closest face; the wrong choices
 * are the next nearest faces that do not tie with it. null when there is no choice.
 */
export function faceQuestion(frames: readonly EpaFrameLike[], index: number): FaceQuestion | null {
  const f = frames[index];
  if (!f || f.kind !== 'closest' || f.closest === null || f.closest === undefined || !f.faces || !f.vertices) return null;
  const verts = f.vertices;
  const answer = f.faces.find((x) => x.id === f.closest);
  if (!answer) return null;
  let size = 0;
  for (const v of verts) size = Math.max(size, norm(v.w));
  const centroid = (face: { v: readonly number[] }) => [0, 1, 2].map((k) => face.v.reduce((acc, i) => acc + verts[i].w[k], 0) / face.v.length);
  const wrong = f.faces
    .filter((x) => x.id !== answer.id && x.distance > answer.distance + TIE * size)
    .sort((a, b) => a.distance - b.distance || a.id - b.id)
    .slice(0, WRONG_CHOICES);
  if (wrong.length === 0) return null;
  const choices = [answer, ...wrong].map((x, i) => ({ id: x.id, centroid: centroid(x), distance: x.distance, correct: i === 0 }));
  return { kind: 'face', frame: index, choices: placeAnswer(choices, index) };
}

/** The question to ask before showing frame `index` of a GJK trace, or null. */
export function questionFor(frames: readonly GjkFrameLike[], index: number, pool: readonly V3[]): Question | null {
  const f = frames[index];
  if (!f) return null;
  if (f.kind === 'support') return supportQuestion(frames, index, pool);
  if (f.kind === 'simplex') return regionQuestion(frames, index);
  return null;
}
