// collidoscope — the words of a trace: each query's pseudocode and one caption per frame, written from the
// frame's numbers and the names of its kind and reason. The C++ core records numbers only (as Box2D's
// b2ShapeDistance hands back its simplex history and leaves words to the caller); trace() in index.ts calls
// withText() on what the core returns, so the page, the CLI and collidoscope/three read the same sentences.
//
// Numbers are written as C's printf "%.6g" (printf.ts), -0 as 0; λ and t with more digits where a step moves
// them by less than 1e-6. Each query's answer is stated once, by resultSentence(): the page shows that sentence
// beside every step, and it is the caption of the trace's last ('done') frame. A pair answered by a closed form
// has one frame, whose caption states the formula with its numbers; the result sentence stays beside it.
import { formatG, formatPair } from './printf';
import { isClosedForm, isMeshRaycast, isPairs } from './types';
import type { MeshRayFrame, ObbAxisKind } from './generated-schema';
import type {
  CastFrame, ChungWangFrame, ChungWangTrace, ClosedFormFrame, ClosedFormName, ClosedFormTrace, EpaFrame, EpaTrace,
  GjkFrame, GjkTrace, HullFrame, HullResult,
  HullTrace, MeshRaycastTrace, ObbTreeFrame, ObbTreeResult, ObbTreeTrace, PairsFrame, PairsTrace, PenetrationResult, Planar, PlanarEpaFrame, PlanarEpaTrace, RaycastResult, RaycastTrace, SatFrame, SatResult, SatTrace, ShapecastTrace, SimulateFrame, SimulateTrace, Trace, Vec3,
} from './types';

// ---- pseudocode ---------------------------------------------------------------------------------------------
// Line i (1-based) of each list is the line a frame's `line` names; the numbering is the C++ core's
// (gjk_lines, epa_lines, hull_lines, sat_lines, ray_lines, chung_wang_lines).

const GJK_DISTANCE = [
  'v ← a point of A − B;  W ← {v}',
  'repeat (at most maxIterations times)',
  '  w ← s_A(−v) − s_B(v)                      // support point of A − B',
  '  if ‖v‖² − v·w ≤ max(ε‖v‖², rounding): stop  // error bound met',
  '  if w ∈ W: stall (line 9), else stop       // rounding hides progress (degenerate)',
  '  v ← point of conv(W ∪ {w}) nearest O;  W ← the vertices it needs',
  '  if |W| = 4 or v ≈ 0: return 0            // O inside A − B: overlap',
  '  if ‖v‖ grew by over τ = 64u·S, or did not shrink 5 times: stall (line 9), else stop  // rounding',
  '  stall: L ← max(0, best v·w/‖v‖ − τ); if ‖v‖² − L‖v‖ ≤ tolerance: stop (certified); if W is a segment: v ← v ⟂ W, go on (4 times)',
  'stop: iteration cap',
  'distance ← max(0, ‖v‖ − r_A − r_B); points from the weights of W',
];

const GJK_INTERSECT = [
  'v ← cached direction, or from B towards A;  W ← ∅',
  'repeat (at most maxIterations times)',
  '  w ← s_A(−v) − s_B(v)                      // support point of A − B',
  '  if v·w > (r_A + r_B)‖v‖: return separated   // v is a separating axis',
  '  if ‖v‖² − v·w ≤ tolerance or w ∈ W: return intersecting  // touching',
  '  v ← point of conv(W ∪ {w}) nearest O;  W ← the vertices it needs',
  '  if |W| = 4 or ‖v‖ ≤ r_A + r_B: return intersecting',
  '  if ‖v‖ grew by over τ, or did not shrink 5 times: return intersecting',
  'stop: iteration cap; no separating axis found: intersecting',
];

const EPA = [
  'run GJK on the cores; if they are apart: depth ← max(0, r_A + r_B − ‖v‖)',
  'grow GJK\'s simplex into a tetrahedron P around O (flat A − B: touching)',
  'repeat (at most maxIterations times)',
  '  f ← the face of P nearest O (normal n, distance d)',
  '  w ← s_A(n) − s_B(−n)                     // support point of A − B',
  '  if n·w − d ≤ max(ε·d, ε_abs·S): stop      // f lies on the boundary',
  '  remove the faces of P that w can see; keep their horizon edges',
  '  join w to every horizon edge with a new face',
  'if P filled up: walk n downhill on h(n) = n·w(n), w(n) as above, from its best faces; d ← h(n)',
  'depth ← d + r_A + r_B; normal ← n; points from f\'s weights',
];

const PLANAR_EPA = [
  'run GJK on the cores; if they are apart: depth ← max(0, r_A + r_B − ‖v‖)',
  'P ← hull of GJK\'s simplex and the support points along ±x, ±y (no area: touching)',
  'repeat (at most maxIterations times)',
  '  e ← the edge of P nearest O (outward normal n, distance d)',
  '  w ← s_A(n) − s_B(−n)                     // support point of A − B',
  '  if n·w − d ≤ max(ε·d, ε_abs·S): stop      // e lies on the boundary',
  '  P ← conv(P ∪ {w}): drop the vertices w sees, insert w',
  'depth ← d + r_A + r_B; normal ← n; points from e\'s weights',
];

const HULL = [
  'extremes ← the farthest pair of the x, y, z extreme points, the point farthest from their line, and from their plane',
  'if one of those distances is within tolerance: the hull is a point, a segment or a polygon (2D hull)',
  'build a tetrahedron from the four points',
  'give every other point to a face it lies strictly above, decided exactly (points above no face are inside)',
  'while some face has conflict points:',
  '  eye ← the farthest conflict point of that face',
  '  visible ← the faces the eye lies strictly above (exact test; search from that face over shared edges)',
  '  horizon ← the edges between visible and hidden faces, as one loop',
  '  replace the visible faces by a cone of new faces from the eye to the horizon',
  '  give the visible faces\' conflict points to the new faces (or drop them: inside)',
  'drop vertices within tolerance of their neighbours\' hull, merge faces within tolerance of one plane; report',
];

const SAT = [
  'hulls: face normals and edge directions of A and B (box: its 3 axes)',
  'for each face normal n of A: test(n)',
  'for each face normal n of B: test(n)',
  'for each edge a of A, edge b of B: L ← a × b',
  '  if |â × b̂| ≤ ε_parallel: skip            // parallel: faces cover it',
  'flat A − B, or touching in a plane n: test in-plane side normals n × e, the line\'s offset, and directions between touching corners',
  'test(L): [minA,maxA], [minB,maxB] ← projections; o ← min(maxA − minB, maxB − minA)',
  '  if o < 0: return separated, axis L, gap −o',
  '  if o < best: best ← (L, o)                 // least overlap so far',
  'return intersecting, axis of best, depth = best',
];

const RAY_LOOP = [
  'repeat (at most maxIterations times)',
  '  p ← s_C(v);  w ← x − p            // plane v·y = v·p + ρ‖v‖ bounds C ⊕ ρ',
  '  if v·w > ρ‖v‖:                    // x in front of the supporting plane',
  '    if v·r ≥ 0: return miss         // the rest of the ray stays in front',
  '    λ ← λ − (v·w − ρ‖v‖)/(v·r);  if λ > maxT or past C\'s box: return miss',
  '    x ← s + λr;  n ← v;  w_i ← x − p_i for p_i ∈ P   // P kept, re-expressed',
  '  if p ∈ P and x did not move: P ← {p} (a few times), then stop (degenerate)',
  '  v ← point of conv({x − p_i} ∪ {w}) nearest O;  P ← the points it needs',
  '  if |P| = 4 or ‖v‖ − ρ ≤ tolerance: return hit at λ   // x lies in C ⊕ ρ',
  '  if ‖v‖ did not decrease (x fixed): P ← {p} (a few times), then stop (degenerate)',
  'stop: iteration cap (hit at the lower bound λ)',
];

const RAYCAST = [
  'λ ← 0;  x ← s;  n ← 0;  v ← x − (a point of C);  P ← ∅',
  ...RAY_LOOP,
  'hit: t ← λ;  point ← x;  normal ← v̂ (ρ > 0), else n̂ or the weighted normal of P',
  'point cores: smaller root of |s + t r − c|² = ρ²',
];

const SHAPECAST = [
  's ← 0;  r ← t_B − t_A;  C ← A − B;  ρ ← ρ_A + ρ_B;  λ ← 0;  x ← s;  n ← 0;  v ← x − (a point of C);  P ← ∅',
  ...RAY_LOOP,
  'hit: t ← λ;  normal ← v̂, n̂ or P\'s weighted normal (A to B);  points from the weights of P',
  'spheres: smaller root of |(c_A − c_B) + t(t_A − t_B)|² = (ρ_A + ρ_B)²',
];

const CHUNG_WANG = [
  's ← cached axis, or from A\'s centre towards B\'s;  R ← ∅',
  'repeat (at most maxIterations times)',
  '  p ← S_A(s) + r_A s;  q ← S_B(−s) − r_B s     // rounded support points',
  '  if s·q − s·p > τ: return separated, axis s',
  '  r ← (q − p)/‖q − p‖   (‖q − p‖ ≤ τ: common point, return intersecting)',
  '  if r = r_prev: return separated, axis s       // eq. 19: s·r changed sign',
  '  if |R| > k and r ≈ some r_j ∈ R: s ← w; continue  // break the cycle',
  '  R ← R ∪ {r};  if no hemisphere holds R: return intersecting',
  '  s ← s − 2(r·s) r                             // reflect s in the plane ⊥ r',
  'stop: iteration cap; no separating axis found: intersecting',
  'hemisphere(R, r):  if w·r ≥ 0: return true      // old w still fits',
  '  M ← rotation with M r = z;  r_j\' ← (M r_j).xy for the older r_j',
  '  sweep a wedge [r_a, r_b] over the r_j\': inside | widen r_a | widen r_b',
  '    r_j\' in the opposite wedge: return false    // r_a, r_b, r_j, r surround O',
  '  w ← M⁻¹ (r_a + r_b)/‖r_a + r_b‖;  return true',
];

/** The pseudocode shown beside a trace of `query`, one string per line. */
export function pseudocodeOf(query: Trace['query'] | 'planarPenetration'): string[] {
  switch (query) {
    case 'planarPenetration': return [...PLANAR_EPA];
    case 'distance': return [...GJK_DISTANCE];
    case 'intersect': return [...GJK_INTERSECT];
    case 'penetration': return [...EPA];
    case 'hull': return [...HULL];
    case 'sat': return [...SAT];
    case 'raycast': return [...RAYCAST];
    case 'shapecast': return [...SHAPECAST];
    case 'chungwang': return [...CHUNG_WANG];
  }
}

/** A closed form's name as the page writes it, e.g. 'segment–point' (A's core first). */
export function closedFormTitle(form: ClosedFormName): string {
  return form.replace('-', '–');
}

/** How a closed form finds the closest points p of A's core and q of B's: the first line of its pseudocode. */
const CLOSED_FORM_CORES: { readonly [F in ClosedFormName]: string } = {
  'point-point': 'p ← A\'s centre;  q ← B\'s centre                 // both cores are points',
  'segment-point': 'q ← B\'s centre;  p ← the point of A\'s segment nearest q  // projection clamped to the ends',
  'point-segment': 'p ← A\'s centre;  q ← the point of B\'s segment nearest p  // projection clamped to the ends',
  'segment-segment': 'p, q ← the closest points of A\'s and B\'s segments  // the lines\' closest points, clamped to both',
  'point-box': 'p ← A\'s centre;  q ← p clamped into B\'s box, in B\'s frame  // inside: q on the nearest face',
  'box-point': 'q ← B\'s centre;  p ← q clamped into A\'s box, in A\'s frame  // inside: p on the nearest face',
  'box-box': 'for L in a_i, b_j, a_i × b_j (parallel pairs skipped):  overlap(L) ← h_A(L) + h_B(L) − |L·(c_B − c_A)|',
};

/** Penetration of a point in a box: the nearest face when the centre is inside. */
const POINT_BOX_PENETRATION =
  'depth ← r_A + r_B − d along n = (q − p)/d  // centre inside the box: r_A + r_B + its distance to the nearest face';

/** Box–box: the least overlap, then the query's answer from it. */
const BOX_BOX_LEAST = 'm ← the least overlap, along its L turned from A toward B  // an overlap below 0 separates the cores';
const BOX_BOX_ANSWER: { readonly [Q in ClosedFormTrace['query']]: string } = {
  intersect: 'return m ≥ 0  // cores apart by more than r_A + r_B + τ along an L: separated (else GJK decides)',
  distance: 'distance: not a separating-axis answer (GJK)',
  penetration: 'depth ← m + r_A + r_B along n = L;  contact: a vertex of the other box, or the two edges\' closest points',
};

/** The last line of a closed form's pseudocode: the query's answer from d, r_A and r_B. */
const CLOSED_FORM_ANSWER: { readonly [Q in ClosedFormTrace['query']]: string } = {
  intersect: 'return d ≤ r_A + r_B + τ                 // τ = 64u·S: touching counts as intersecting',
  distance: 'distance ← max(0, d − r_A − r_B);  points p + r_A·n, q − r_B·n on n = (q − p)/d',
  penetration: 'depth ← r_A + r_B − d along n = (q − p)/d  // cores meeting (d ≤ τ): r_A + r_B across them',
};

/**
 * The pseudocode of a pair answered by closed form `form`: three lines, the last one the query's answer. Its one
 * frame has no `line`: it is the whole formula, and the page highlights the last line.
 */
export function closedFormPseudocode(query: ClosedFormTrace['query'], form: ClosedFormName): string[] {
  if (form === 'box-box') return [CLOSED_FORM_CORES[form], BOX_BOX_LEAST, BOX_BOX_ANSWER[query]];
  const answer = query === 'penetration' && (form === 'point-box' || form === 'box-point') ? POINT_BOX_PENETRATION : CLOSED_FORM_ANSWER[query];
  return [CLOSED_FORM_CORES[form], 'd ← ‖q − p‖                             // the distance of the cores', answer];
}

// ---- numbers --------------------------------------------------------------------------------------------------

/** %.6g (or %.{digits}g) with −0 written as 0. */
const num = (x: number, digits = 6): string => formatG(x === 0 ? 0 : x, digits);
/** (x, y, z), or (x, y) for a 2D scene's vectors. */
const vec = (v: Vec3 | readonly number[]): string => `(${Array.from(v, (x) => num(x)).join(', ')})`;
/** Two points as vec() writes them, with more digits where they differ but would read alike (printf.ts). */
const vecPair = (a: Vec3 | readonly number[], b: Vec3 | readonly number[]): [string, string] => {
  const [pa, pb] = formatPair(Array.from(a), Array.from(b), 6, (x, d) => num(x, d));
  return [`(${pa.join(', ')})`, `(${pb.join(', ')})`];
};
/** "1 face", "3 faces". */
const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
const ZERO: Vec3 = [0, 0, 0];

// ---- GJK ------------------------------------------------------------------------------------------------------

/** `radius`: r_A + r_B, the radii the cores are rounded by; `result`: the trace's result sentence. */
export function gjkCaption(f: Omit<GjkFrame, 'caption'>, query: 'intersect' | 'distance', radius: number,
  result: string): string {
  const intersect = query === 'intersect';
  const vNorm = Math.sqrt(f.vv);
  const gap = f.gap ?? 0;
  const tol = f.tolerance;
  switch (f.kind) {
    case 'init':
      if (f.reason === 'start-from-cache') {
        return `Start from the cached direction v = ${vec(f.v)} kept from the previous query (warm start). W is empty.`;
      }
      if (intersect) {
        return `Start with the direction v = ${vec(f.v)}, from B's centre towards A's. W is empty until the first support point.`;
      }
      return `Start: v = ${vec(f.v)}, the support point of A − B in the direction from B's centre to A's, so v is a point of A − B. W = {v}, ‖v‖ = ${num(vNorm)}.`;
    case 'support': {
      const w = f.support ?? { w: ZERO, a: ZERO, b: ZERO };
      const s = `Support point w = s_A(−v) − s_B(v) = ${vec(w.w)}, from a = ${vec(w.a)} on A and b = ${vec(w.b)} on B. `;
      switch (f.reason) {
        case 'separated':
          return `${s}v·w = ${num(f.vw ?? 0)} exceeds (r_A + r_B)‖v‖ = ${num(radius * vNorm)}: the plane through w normal to v separates A − B from the origin. Separated.`;
        case 'gap-within-tolerance':
          if (intersect) {
            return `${s}Gap ‖v‖² − v·w = ${num(gap)} ≤ tolerance ${num(tol)}, yet v·w ≤ (r_A + r_B)‖v‖: no axis separates the shapes by more than rounding. They touch: intersecting.`;
          }
          return `${s}Gap ‖v‖² − v·w = ${num(gap)} ≤ tolerance ${num(tol)}: by the error bound ‖v‖ is within ${num(vNorm > 0 ? gap / vNorm : 0)} of the distance. Stop.`;
        case 'duplicate-support':
          return `${s}w is already in W, although the gap ${num(gap)} is above the tolerance ${num(tol)}: rounding hides any further progress. Stop with the best v (degenerate).`;
        case 'bounds-within-tolerance':
          return `${s}w is already in W, although the gap ${num(gap)} is above the tolerance ${num(tol)} (rounding). The distance lies between the best lower bound of the steps, L = ${num(f.lowerBound)}, and ‖v‖ = ${num(vNorm)}, and ‖v‖² − L‖v‖ = ${num(f.vv - f.lowerBound * vNorm)} ≤ tolerance: certified. Stop.`;
        case 'refine':
          return `${s}w is already in W, although the gap ${num(gap)} is above the tolerance ${num(tol)}, and ‖v‖ = ${num(vNorm)} is not within tolerance of the best lower bound L = ${num(f.lowerBound)}: rounding tilted v along the segment W. Re-solve v perpendicular to it.`;
        default:
          if (f.gap === null) return `${s}W is empty, so w starts the simplex.`;
          return `${s}Gap ‖v‖² − v·w = ${num(gap)} > tolerance ${num(tol)}: v is not yet optimal, add w to W.`;
      }
    }
    case 'simplex':
      switch (f.reason) {
        case 'origin-inside':
          return 'The tetrahedron W contains the origin: the cores of A and B overlap. Distance 0.';
        case 'origin-touching':
          return '‖v‖ fell below the rounding bound: the origin is on the boundary of A − B, the shapes touch.';
        case 'within-margins':
          return `‖v‖ = ${num(vNorm)} ≤ r_A + r_B = ${num(radius)}: the rounded shapes overlap.`;
        case 'no-progress':
          return 'The new v was not shorter than the old one (rounding limit): keep the previous v and stop (status degenerate).';
        case 'bounds-within-tolerance':
          return `The new v was not shorter than the old one (rounding limit): keep the previous v. The distance lies between the best lower bound of the steps, L = ${num(f.lowerBound)}, and ‖v‖ = ${num(vNorm)}, and ‖v‖² − L‖v‖ = ${num(f.vv - f.lowerBound * vNorm)} ≤ tolerance ${num(tol)}: certified. Stop.`;
        case 'refine':
          return `Rounding stalled the step, with v on the segment W tilted along it: v re-solved perpendicular to W is v = ${vec(f.v)}, ‖v‖ = ${num(vNorm)}. Go on from it (the lower bound so far is L = ${num(f.lowerBound)}).`;
        default: {
          const n = f.simplex.length;
          const weights = f.simplex.map((s, i) => `${i ? ', ' : ' '}${num(s.lambda)}`).join('');
          return `Nearest point of conv(W ∪ {w}) to the origin: v = ${vec(f.v)}, ‖v‖ = ${num(vNorm)}. W keeps ${n}${n === 1 ? ' vertex with weight' : ' vertices with weights'}${weights}.`;
        }
      }
    case 'done':
      return result;
  }
}

// ---- EPA ------------------------------------------------------------------------------------------------------

/** What the 3D EPA's polytope and the planar EPA's polygon are called where their steps read alike. */
interface EpaWords {
  /** What P is made of, whose nearest one is the candidate: 'face' or 'edge'. */
  part: string;
  /** P itself: 'polytope' or 'polygon'. */
  body: string;
  /** Why a support point already met stops the run. */
  notNew: string;
  /** Why A − B being flat means the shapes only touch. */
  flat: string;
}

const EPA_3D: EpaWords = {
  part: 'face', body: 'polytope', notNew: 'w is already a vertex', flat: 'A − B is flat (no volume)',
};
const EPA_2D: EpaWords = {
  part: 'edge', body: 'polygon', notNew: 'w does not lie outside the edge', flat: 'A − B is a segment or a point (no area)',
};

/** The frame fields both EPAs' shared steps read. */
type EpaStep = Pick<EpaFrame, 'reason' | 'tolerance' | 'gap' | 'depth'> & {
  normal: Vec3 | readonly number[];
  vertices: readonly unknown[];
  support?: { w: Vec3 | readonly number[] } | null;
};

/** The captions of the steps the two EPAs share. */
function epaSharedCaption(kind: 'closest' | 'support' | 'done', f: EpaStep, r: PenetrationResult, radius: number, result: string, w: EpaWords): string {
  switch (kind) {
    case 'closest':
      return `The ${w.part} of P nearest the origin is at distance d = ${num(f.depth)} along n = ${vec(f.normal)}: no point of the boundary of A − B is nearer than d, so the depth is at least d.`;
    case 'support': {
      const s = `Support point w = s_A(n) − s_B(−n) = ${vec((f.support ?? { w: ZERO }).w)} (a on A, b on B). Gap n·w − d = ${num(f.gap ?? 0)}`;
      switch (f.reason) {
        case 'gap-within-tolerance':
          return `${s} ≤ tolerance ${num(f.tolerance)}: the ${w.part} lies on the boundary of A − B. Stop.`;
        case 'duplicate-support':
          return `${s} > tolerance ${num(f.tolerance)}, but ${w.notNew}: rounding hides further progress. Stop with the best ${w.part} (degenerate).`;
        case 'capacity':
          // P stopped at its capacity, so its vertex count is that capacity.
          return `${s}: the ${w.body} is full (${f.vertices.length} vertices). Stop with the best ${w.part}.`;
        default:
          return `${s} > tolerance ${num(f.tolerance)}: A − B reaches beyond this ${w.part}, so P must grow towards w.`;
      }
    }
    case 'done':
      switch (f.reason) {
        case 'apart':
          return r.intersecting
            ? `GJK: the cores are apart by ${num(radius - r.depth)} < r_A + r_B = ${num(radius)}, so the rounded shapes overlap and the depth is exact without EPA. ${result}`
            : `GJK: the shapes are apart, so EPA does not run; the normal is the separating direction. ${result}`;
        case 'flat':
          return `${w.flat}: the origin lies on it, so the shapes only touch. ${result}`;
        case 'refined': {
          // EPA filled its polytope; f.depth is h(n) at the refined normal,
          // f.gap that minus the nearest face's distance (epa.h refineNormal).
          const gap = f.gap ?? 0;
          const verdict = gap <= f.tolerance
            ? `≤ tolerance ${num(f.tolerance)}: certified`
            : `> tolerance ${num(f.tolerance)}: not certified (max-iterations), the depth lies between the two`;
          return `The ${w.body} is full and its nearest ${w.part} is not yet on the boundary. From that ${w.part}'s normal, n was walked downhill on h(n) = n·s(n) (the support point is h's gradient): h(n) = ${num(f.depth)} bounds the depth from above, the nearest ${w.part}'s distance ${num(f.depth - gap)} from below; their gap ${num(gap)} ${verdict}.${radius > 0 ? ' The depth is h(n) + r_A + r_B.' : ''} ${result}`;
        }
        default:
          return radius > 0 ? `The depth is d + r_A + r_B. ${result}` : result;
      }
  }
}

/** `result`: the trace's result sentence. */
export function epaCaption(f: Omit<EpaFrame, 'caption'>, r: PenetrationResult, radius: number, result: string): string {
  switch (f.kind) {
    case 'seed':
      return `GJK found the origin inside A − B (the cores overlap). Its simplex, grown to a tetrahedron, is the first polytope P: ${f.vertices.length} vertices, ${f.faces.length} faces around the origin.`;
    case 'expand':
      return `w sees ${count(f.removed.length, 'face', 'faces')} (removed, red); their ${f.horizon.length} horizon edges are joined to w by ${f.added.length} new faces (green). P now has ${f.faces.length} faces.`;
    default:
      return epaSharedCaption(f.kind, f, r, radius, result, EPA_3D);
  }
}

/** The planar EPA's frames (a 2D scene's penetration); `result`: the trace's result sentence. */
export function planarEpaCaption(f: Omit<PlanarEpaFrame, 'caption'>, r: PenetrationResult, radius: number, result: string): string {
  switch (f.kind) {
    case 'seed':
      return `GJK found the origin inside A − B (the cores overlap). The first polygon P is the hull of its simplex and the support points along ±x and ±y: ${count(f.vertices.length, 'vertex', 'vertices')} around the origin.`;
    case 'expand':
      return f.removed.length === 0
        ? `w goes between the ends of the edge: P now has ${f.vertices.length} vertices.`
        : `w also sees ${count(f.removed.length, 'vertex', 'vertices')} of P, now inside conv(P ∪ {w}) and dropped: P now has ${f.vertices.length} vertices.`;
    default:
      return epaSharedCaption(f.kind, f, r, radius, result, EPA_2D);
  }
}

// ---- quickhull ------------------------------------------------------------------------------------------------

/** `inputCount`: the number of input points (the first frame's points); `result`: the trace's result sentence. */
export function hullCaption(f: Omit<HullFrame, 'caption'>, inputCount: number, result: string): string {
  const conflicts = f.faces.reduce((n, face) => n + face.conflicts.length, 0);
  switch (f.kind) {
    case 'extremes':
      return `The extreme points along x, y and z (${inputCount} input points): the farthest pair of them, the point farthest from their line and the point farthest from their plane will make the first tetrahedron.`;
    case 'tetrahedron':
      return `First tetrahedron: 4 faces. Every other point went to the face it lies farthest above (${conflicts} points outside; the rest are inside and done).`;
    case 'eye':
      return `Iteration ${f.iteration}: the eye is the farthest conflict point of a face, ${num(f.eyeDistance)} above it. ${conflicts} points are still outside.`;
    case 'visible':
      return `The eye lies above ${count(f.visible.length, 'face', 'faces')} (red): found by walking from the eye's face to neighbours it also sees.`;
    case 'horizon':
      return `The horizon: ${f.horizon.length} edges where a visible face meets a hidden one, forming one loop around the visible region.`;
    case 'cone':
      return `The visible faces are replaced by ${f.added.length} new faces (green) joining the eye to the horizon; their conflict points moved to the new faces they lie above, or were dropped as inside. ${f.faces.length} faces now.`;
    case 'done':
      return `No face has conflict points left. ${result}`;
    case 'degenerate':
      return result;
  }
}

// ---- separating axes ------------------------------------------------------------------------------------------

/** `result`: the trace's result sentence. */
export function satCaption(f: Omit<SatFrame, 'caption'>, result: string): string {
  switch (f.kind) {
    case 'prepare':
      return 'The candidate axes: face normals of A and of B, then cross products of an edge of A with an edge of B. Two convex shapes are apart exactly when one of these separates their projections.';
    case 'skip':
      if (f.axisKind === 'flat-side') return 'An edge is parallel to the flat shape\'s normal n: n × e has no direction. Skipped.';
      return 'An edge of A is parallel to an edge of B: their cross product has no direction, and the face axes already cover the case. Skipped.';
    case 'axis':
      if (f.separates) {
        return `Axis ${f.index + 1} (${f.axisKind}): the projections [${num(f.minA)}, ${num(f.maxA)}] and [${num(f.minB)}, ${num(f.maxB)}] leave a gap of ${num(-f.overlap)}. This axis separates A and B.`;
      }
      return `Axis ${f.index + 1} (${f.axisKind}): the projections overlap by ${num(f.overlap)}. Least overlap so far: ${num(f.bestOverlap)} (axis ${f.best + 1}).`;
    case 'done':
      return result;
  }
}

// ---- ray and shape casts --------------------------------------------------------------------------------------

/** `result`: the trace's result sentence. */
export function castCaption(f: Omit<CastFrame, 'caption'>, shapeCast: boolean, result: string): string {
  const set = shapeCast ? 'A − B' : 'the shape';
  const g = formatG;
  switch (f.kind) {
    case 'init':
      if (f.reason === 'analytic-sphere') {
        return shapeCast ? 'Both cores are points (spheres): the time of impact solves a quadratic, no iteration.'
          : 'A sphere: the hit solves a quadratic, no iteration.';
      }
      return `x starts at the ray's origin (λ = 0). v ← x − p for a first point p of ${set}.`;
    case 'support':
      if (f.updated) {
        const front = `x is in front of the supporting plane through p (v·w = ${g(f.vw, 6)} > ${g(f.threshold, 6)}): the ray cannot enter ${set} before that plane.`;
        if (!(f.newLambda > f.oldLambda)) {
          return `${front} λ stays at ${g(f.oldLambda, 9)}: the ray meets the plane at x itself, so the new λ is ${g(f.newLambda, 9)} too. The plane's normal becomes the hit normal and the simplex restarts around x.`;
        }
        // A step too small for 9 digits is written with all 17, so that it reads as a step.
        const d = g(f.newLambda, 9) === g(f.oldLambda, 9) ? 17 : 9;
        return `${front} λ advances from ${g(f.oldLambda, d)} to ${g(f.newLambda, d)}, the plane's normal becomes the hit normal, and the simplex restarts around the new x.`;
      }
      if (f.reason === 'points-away') {
        return `x is in front of the supporting plane and the ray points away from it (v·r = ${g(f.vr, 6)} ≥ 0): a miss.`;
      }
      if (f.reason === 'beyond-max-t') {
        return "The ray would reach the supporting plane only after maxT, or after it has left the shape's bounding box (grown by the radius), where no hit can lie: a miss.";
      }
      return `p = S(v) is not beyond x along v (v·w = ${g(f.vw, 6)}): λ stays at ${g(f.lambda, 9)}; p joins the simplex.`;
    case 'simplex':
      return `The simplex is reduced to the part nearest x: ‖v‖ = ${g(Math.sqrt(f.vv), 6)} (hit when ‖v‖ − ρ ≤ ${g(f.tolerance, 3)}).`;
    case 'done':
      return result;
  }
}

// ---- Chung–Wang -----------------------------------------------------------------------------------------------

/** `result`: the trace's result sentence. */
export function chungWangCaption(f: Omit<ChungWangFrame, 'caption'>, result: string): string {
  switch (f.kind) {
    case 'init':
      return f.reason === 'start-from-cache' ? 's starts from the cached axis of the last query.'
        : 's starts along the line from A\'s centre to B\'s.';
    case 'support':
      if (f.reason === 'separated') {
        return `p = S_A(s) and q = S_B(−s): B's nearest point along s lies ${formatG(f.gap ?? 0, 6)} beyond A's farthest. s separates A and B.`;
      }
      if (f.reason === 'common-point') return 'p and q coincide: a point common to A and B. They intersect.';
      if (f.reason === 'repeated-direction') {
        // Huotari, "Törmäyksen tunnistus 3D-ympäristössä", 2011, ch. 5.4.2: the reflection of s in the plane
        // ⊥ r flips the sign of s·r (eq. 19), so a repeated r means the projections on s only touch.
        return `p = S_A(s) and q = S_B(−s): s·(q − p) = ${formatG(f.gap ?? 0, 6)} is zero to rounding, and r = (q − p)/‖q − p‖ repeats the previous step's r: the reflection flipped the sign of s·r, so s separates A and B (their projections touch).`;
      }
      return `p = S_A(s) and q = S_B(−s): s·(q − p) = ${formatG(f.gap ?? 0, 6)} is not above τ, so s does not separate. r = (q − p)/‖q − p‖ is a new direction on the Gauss sphere.`;
    case 'switch':
      return 'r repeated an earlier direction: instead of reflecting, s switches to w, a direction inside the hemisphere that holds every r so far.';
    case 'hemisphere':
      if (!f.hemisphere) {
        return 'Rotated so that r is the z axis, the earlier r\'s projected on the plane cannot fit in one half-plane: no hemisphere holds all r\'s, so the origin lies in A − B. They intersect.';
      }
      if (f.plane === null) {
        return f.directions.length <= 1 ? 'r is the first direction: the hemisphere centred on it (w = r) holds R = {r}.'
          : 'w·r ≥ 0: the stored w still centres a hemisphere that holds every r, the new one included.';
      }
      return 'Rotated so that r is the z axis, the earlier r\'s projected on the plane still fit in the wedge from r_a to r_b: a hemisphere holds all r\'s (centre w).';
    case 'reflect':
      return 's is reflected in the plane perpendicular to r: s ← s − 2(r·s) r.';
    case 'done':
      return result;
  }
}

// ---- closed forms ---------------------------------------------------------------------------------------------

/** What the frame's core distance d measures, in words, for each closed form. */
function coresApart(form: ClosedFormName, d: string): string {
  switch (form) {
    case 'point-point': return `A's and B's centres are ${d} apart`;
    case 'segment-point': return `the closest point of A's core segment to B's centre is ${d} away`;
    case 'point-segment': return `the closest point of B's core segment to A's centre is ${d} away`;
    case 'segment-segment': return `the closest points of A's and B's core segments are ${d} apart`;
    case 'point-box': return `A's centre clamped into B's box is ${d} away`;
    case 'box-point': return `B's centre clamped into A's box is ${d} away`;
    case 'box-box': return `the boxes' contact points are ${d} apart`;
  }
}

/** The cores meeting (d within the rounding bound), in words. */
function coresMeet(form: ClosedFormName): string {
  switch (form) {
    case 'point-point': return 'A\'s and B\'s centres coincide';
    case 'segment-point': return 'B\'s centre lies on A\'s core segment';
    case 'point-segment': return 'A\'s centre lies on B\'s core segment';
    case 'segment-segment': return 'A\'s and B\'s core segments meet';
    case 'point-box': return 'A\'s centre lies in B\'s box';
    case 'box-point': return 'B\'s centre lies in A\'s box';
    case 'box-box': return 'the boxes\' cores meet';
  }
}

/** 'face 2 of A', 'edge 0 of A × edge 1 of B': the feature behind a box form's axis (local axes x, y, z). */
export function closedFormAxisName(f: Pick<ClosedFormFrame, 'axisKind' | 'featureA' | 'featureB'>): string {
  const axis = (i: number | null): string => ['x', 'y', 'z'][i ?? 0] ?? '?';
  switch (f.axisKind) {
    case 'face-a': return `A's ${axis(f.featureA)} face normal`;
    case 'face-b': return `B's ${axis(f.featureB)} face normal`;
    case 'edge-edge': return `A's ${axis(f.featureA)} edge × B's ${axis(f.featureB)} edge`;
    default: return 'none';
  }
}

/** A box–box frame's caption: the axis of least overlap (or the separating one) and the answer from it. */
function boxBoxCaption(f: Omit<ClosedFormFrame, 'caption'>, t: Raw<ClosedFormTrace>, head: string): string {
  const radii = `${num(f.radiusA)} + ${num(f.radiusB)}`;
  const overlap = f.overlap ?? 0;
  const along = `along ${closedFormAxisName(f)}, L = ${vec(f.axis ?? [0, 0, 0])}`;
  if (t.query === 'penetration') {
    const r = t.result;
    if (r.status === 'touching') return `${head}the least overlap of the 15 axes is ${along}: the boxes touch, depth 0.`;
    return `${head}the least overlap of the 15 axes, radii ${radii} included, is ${num(overlap, 9)} ${along}: the depth, with contact points pA = ${vec(r.pointA)}, pB = ${vec(r.pointB)}.`;
  }
  if (t.query === 'intersect' && !t.result.intersecting) {
    return `${head}${along} the cores are ${num(-(overlap - f.radiusA - f.radiusB))} apart, more than the radii ${radii}: separated.`;
  }
  return `${head}no axis separates the cores; the least overlap is ${num(overlap, 9)} ${along}: intersecting.`;
}

/**
 * The caption of a closed form's one frame: the form, the distance d of the cores' closest points, and the
 * formula that turns d and the radii into the answer, with the frame's and the result's numbers (the answer's
 * own number with 9 digits, as the result sentence writes it).
 */
export function closedFormCaption(f: Omit<ClosedFormFrame, 'caption'>, t: Raw<ClosedFormTrace>): string {
  const head = `Closed form (${closedFormTitle(f.form)}): `;
  if (f.form === 'box-box') return boxBoxCaption(f, t, head);
  const radius = f.radiusA + f.radiusB;
  const radii = `${num(f.radiusA)} + ${num(f.radiusB)}`;
  const d = num(f.coreDistance);
  if (f.axisKind !== null && f.axisKind !== undefined) {
    // A centre inside a box: the nearest face decides.
    const face = `${coresMeet(f.form)}, ${d} from its nearest face (${closedFormAxisName(f)})`;
    switch (t.query) {
      case 'intersect': return `${head}${face}: intersecting.`;
      case 'distance': return `${head}${face}: the shapes overlap, distance 0.`;
      case 'penetration': {
        const r = t.result;
        if (r.status === 'touching') return `${head}${face}: touching, depth 0.`;
        return `${head}${face}; depth = r_A + r_B + ${d} = ${num(r.depth, 9)} across that face, n = ${vec(r.normal)}.`;
      }
    }
  }
  const meet = f.coreDistance <= f.touching;
  const cores = meet ? `${coresMeet(f.form)} (d = ${d}, within the rounding bound ${num(f.touching, 3)})` : coresApart(f.form, d);
  switch (t.query) {
    case 'intersect': {
      if (!t.result.intersecting) return `${head}${cores}, more than the radii ${radii}: separated.`;
      if (meet || f.coreDistance <= radius) return `${head}${cores}, at most the radii ${radii}: intersecting.`;
      return `${head}${cores}, the radii ${radii} to within the rounding bound ${num(f.touching, 3)}: touching, so intersecting.`;
    }
    case 'distance': {
      const r = t.result;
      if (meet) return `${head}${cores}: the shapes overlap, distance 0.`;
      if (r.distance > 0) return `${head}${cores}; minus the radii ${radii}, the distance is ${num(r.distance, 9)}.`;
      return `${head}${cores}, within the radii ${radii}: the shapes overlap, distance 0 (one point splits the gap in the ratio r_A : r_B).`;
    }
    case 'penetration': {
      const r = t.result;
      const n = vec(r.normal);
      if (meet) return `${head}${cores}: any direction across the cores separates the shapes by r_A + r_B, so the depth is ${radii} = ${num(r.depth, 9)} across them, along n = ${n}.`;
      if (!r.intersecting) return `${head}${cores}, more than the radii ${radii}: separated, no penetration.`;
      if (r.status === 'touching') return `${head}${cores}, the radii ${radii} to within the rounding bound ${num(f.touching, 3)}: touching, depth 0.`;
      return `${head}${cores}; depth = r_A + r_B − d = ${radii} − ${d} = ${num(r.depth, 9)} along the line of the closest points, n = ${n}.`;
    }
  }
}

// ---- result sentences -----------------------------------------------------------------------------------------
// The answer's own number (distance, depth, gap) is written with 9 significant digits and a time of impact with
// 12 (as the cast captions write λ, whose last steps can move it by less than 1e-6), so that a reader can hold
// the sentence against run()'s result beyond the 6 digits of the steps. Vectors have 6; two closest points (or
// contact points of a penetration) more where the two would otherwise read alike. A cast's contact points are
// one point up to rounding: they keep 6.

type Raw<T extends Trace> = T extends Trace
  ? Omit<T, 'pseudocode' | 'frames'> & { frames: Omit<T['frames'][number], 'caption'>[] } : never;

/** A trace as the C++ core writes it: no pseudocode, no captions. */
export type RawTrace =
  | Raw<GjkTrace> | Raw<EpaTrace> | Raw<HullTrace> | Raw<SatTrace> | Raw<RaycastTrace> | Raw<ShapecastTrace>
  | Raw<ChungWangTrace> | Raw<ClosedFormTrace>;
/** A 2D scene's penetration trace as the C++ core writes it. */
type RawPlanarEpa = Omit<PlanarEpaTrace, 'pseudocode' | 'frames'> & { frames: Omit<PlanarEpaFrame, 'caption'>[] };

/** "(closed form segment–point)", "(closed form point–point, touching)": a closed form has no iterations. */
const closedTally = (form: ClosedFormName, status: string): string =>
  `(closed form ${closedFormTitle(form)}${status === 'converged' ? '' : `, ${status}`})`;

/** "(3 iterations, converged)", "(1 EPA iteration, touching)". */
const tally = (iterations: number, status: string, what = 'iteration'): string =>
  `(${count(iterations, what, `${what}s`)}, ${status})`;

/** Where a separating-axis candidate comes from, in words. */
export function axisKindName(kind: SatResult['axisKind']): string {
  switch (kind) {
    case 'face-a': return 'face normal of A';
    case 'face-b': return 'face normal of B';
    case 'edge-edge': return 'edge of A × edge of B';
    case 'flat-side': return 'in-plane side normal';
    case 'line': return 'line of A − B';
  }
}

/** The result sentence of a hull of `n` input points. */
function hullSentence(h: HullResult, n: number): string {
  const points = n === 1 ? 'The one point lies' : `The ${n} points lie`;
  const within = `within tolerance ${num(h.tolerance)} of`;
  const V = h.vertices.length;
  switch (h.kind) {
    case 'polyhedron': {
      const merged = h.polygons.length !== h.faces.length
        ? ` (${count(h.polygons.length, 'face', 'faces')} once coplanar triangles are merged)` : '';
      return `Convex hull of ${count(n, 'point', 'points')}: a polyhedron with ${count(V, 'vertex', 'vertices')} and ${count(h.faces.length, 'triangle', 'triangles')}${merged}.`;
    }
    case 'polygon': return `${points} ${within} a plane: the hull is a flat polygon with ${count(V, 'vertex', 'vertices')}.`;
    case 'segment': return `${points} ${within} a line: the hull is a segment.`;
    case 'point': return `${points} ${within} a single point: the hull is that point.`;
  }
}

/**
 * The answer of a trace in one sentence, e.g. for unit spheres 3 apart "Distance 1 between (1, 0, 0) on A and
 * (2, 0, 0) on B (1 iteration, converged)." The same words end the trace, as the caption of its last frame.
 */
export function resultSentence(t: Trace | RawTrace | Planar<Trace> | PairsTrace): string {
  // A "pairs" trace (not one of Trace's members) says how many pairs intersect.
  if (isPairs(t)) return pairsSentence(t);
  // A 2D scene's trace differs only in its [x, y] vectors, which vec() and the distance below read at any length.
  return sentence(t as Trace | RawTrace);
}

function sentence(t: Trace | RawTrace): string {
  switch (t.query) {
    case 'intersect':
    case 'distance': {
      const r = t.result;
      const tail = isClosedForm(t) ? closedTally(t.closedForm, r.status) : tally(r.iterations, r.status);
      if ('intersecting' in r) return `${r.intersecting ? 'Intersecting' : 'Separated'} ${tail}.`;
      const [pa, pb] = vecPair(r.pointA, r.pointB);
      return `Distance ${num(r.distance, 9)} between ${pa} on A and ${pb} on B ${tail}.`;
    }
    case 'penetration': {
      const r = t.result;
      const tail = isClosedForm(t) ? closedTally(t.closedForm, r.status) : tally(r.iterations, r.status, 'EPA iteration');
      const [pa, pb] = vecPair(r.pointA, r.pointB);
      if (!r.intersecting) {
        const d = Math.hypot(...Array.from(r.pointA, (x, i) => x - r.pointB[i]));
        return `Separated (distance ${num(d, 9)}): no penetration. Closest points ${pa} on A and ${pb} on B ${tail}.`;
      }
      return `Penetration depth ${num(r.depth, 9)} along n = ${vec(r.normal)} (move B by depth·n to separate); contact ${pa} on A, ${pb} on B ${tail}.`;
    }
    case 'hull':
      return hullSentence(t.result, t.frames[0]?.points.length ?? 0);
    case 'sat': {
      const r = t.result;
      const last = t.frames[t.frames.length - 1];
      const which = last && last.best >= 0 ? `axis ${last.best + 1}, ` : '';
      const tested = count(r.axesTested, 'axis', 'axes') + ' tested';
      if (!r.intersecting) {
        return `Separated: ${which}${axisKindName(r.axisKind)} ${vec(r.axis)} leaves a gap of ${num(r.gap, 9)} (a lower bound of the distance; ${tested}).`;
      }
      // Rounded shapes whose cores are apart: the finite axis set only bounds the answer (sat.h).
      const bound = r.status === 'rounded-bound'
        ? '; rounded shapes with cores apart: the depth is an upper bound, the overlap may be a false positive' : '';
      return `Intersecting: no axis separates; least overlap ${num(r.depth, 9)} along ${vec(r.axis)} (${which}${axisKindName(r.axisKind)}): moving B by depth·axis separates them (${tested}${bound}).`;
    }
    case 'raycast': {
      const r = t.result;
      const tail = tally(r.iterations, r.status);
      // A hit has a point, and a normal unless the ray starts inside A (types.ts).
      if (!r.hit || r.t === null || r.point === null) return `The ray misses shape A ${tail}.`;
      if (r.startedInside || r.normal === null) return `The ray starts inside shape A: hit at t = 0, no entry normal ${tail}.`;
      const bound = r.status === 'converged' ? '' : ' (a certified lower bound of the time)';
      return `The ray hits shape A at t = ${num(r.t, 12)}${bound}, point ${vec(r.point)}, normal ${vec(r.normal)} ${tail}.`;
    }
    case 'shapecast': {
      const r = t.result;
      const tail = tally(r.iterations, r.status);
      // A hit has contact points, and a normal unless A and B overlap at t = 0 (types.ts).
      if (!r.hit || r.t === null || r.pointA === null || r.pointB === null) return `A and B do not touch during the motion ${tail}.`;
      if (r.initiallyOverlapping || r.normal === null) return `A and B already overlap at t = 0: contact at ${vec(r.pointA)}, no normal ${tail}.`;
      const bound = r.status === 'converged' ? '' : ' (a certified lower bound of the time)';
      return `A and B first touch at t = ${num(r.t, 12)}${bound}: pointA ${vec(r.pointA)}, pointB ${vec(r.pointB)}, normal ${vec(r.normal)} from A to B ${tail}.`;
    }
    case 'chungwang': {
      const r = t.result;
      const tail = `${count(r.iterations, 'iteration', 'iterations')}, ${r.status}`;
      if (!r.intersecting && r.separatingAxis) {
        return `Separated: s = ${vec(r.separatingAxis)} is a separating axis (A lies on its −s side, B on its +s side; ${tail}).`;
      }
      if (r.status === 'max-iterations') return `No separating axis found within the iteration cap: reported intersecting (near touching; ${tail}).`;
      if (r.status === 'degenerate') return `A support point was not finite: reported intersecting (${tail}).`;
      if (t.frames[t.frames.length - 1]?.reason === 'common-point') {
        return `Intersecting: the support points p and q coincide, a point of both shapes (${tail}).`;
      }
      return `Intersecting: no hemisphere holds the directions r, so the origin lies in B − A (${tail}).`;
    }
  }
}

// ---- a whole trace --------------------------------------------------------------------------------------------

/** The frame with its caption (after `line` and `iteration` for hull frames, last for the others, as written before). */
function captioned<F extends object>(f: F, caption: string, afterIteration: boolean): F & { caption: string } {
  if (!afterIteration) return { ...f, caption };
  const { kind, line, iteration, ...rest } = f as F & { kind: unknown; line: unknown; iteration: unknown };
  return { kind, line, iteration, caption, ...rest } as unknown as F & { caption: string };
}

/** The steps of a ray cast on a mesh (mesh_raycast.h), as its one frame's pseudocode. */
export const MESH_RAY_PSEUDOCODE: readonly string[] = [
  'visit the box tree (axis-aligned) from the root, the nearer child box first',
  'skip a box the ray misses, or enters after the best hit so far',
  'leaf: watertight ray–triangle test (Woop et al. 2013), both sides',
  'hit ← the smallest t over the triangles hit (ties: smaller index)',
];

/** The caption of a mesh ray cast's one frame. */
export function meshRayCaption(f: Omit<MeshRayFrame, 'caption'>, result: RaycastResult): string {
  const work = `${count(f.boxTests, 'box test', 'box tests')} and ${count(f.triangleTests, 'triangle test', 'triangle tests')} (brute force: ${count(f.triangleCount, 'triangle', 'triangles')})`;
  if (!f.hit || result.t === null || !result.barycentric) return `Ray cast on the mesh's box tree: no triangle within maxT, after ${work}.`;
  return `Ray cast on the mesh's box tree: triangle ${f.triangle} is hit first, at t = ${num(result.t, 12)}, barycentric ${vec(result.barycentric)}, after ${work}.`;
}

/** The "obbtree" query: the build of an OBB tree, then the descent of a query through it (mesh_mesh.h). */
export const OBB_TREE_PSEUDOCODE: readonly string[] = [
  'fit an OBB to the node\'s triangles (their covariance, then refined)',
  'split along the box\'s longest axis at the mean of the centroids (the median if a side would be empty)',
  'recurse on both halves until a node holds one triangle (a leaf)',
  'test the node pair (a, b): spheres around the boxes apart → done',
  'the 15 axes: a\'s 3 faces, b\'s 3 faces, the 9 edge pairs a_i × b_j',
  'apart along an axis → the pair is done',
  'overlap → descend into the larger box: its two children against the other node',
  'two leaves → test their triangles (exact triangle–triangle test; a convex B: GJK on each triangle of the leaf)',
  'answer: intersecting when some triangle pair intersects',
];

/** The pseudocode line an "obbtree" frame highlights (1-based). */
function obbTreeLine(f: Omit<ObbTreeFrame, 'caption' | 'line'>): number {
  switch (f.kind) {
    case 'level': return f.level === 0 ? 1 : f.nodes.some((n) => n.split !== 'leaf') ? 2 : 3;
    case 'step':
      switch (f.event) {
        case 'sphere-apart': return 4;
        case 'box-apart': return 6;
        case 'descend-a':
        case 'descend-b': return 7;
        default: return 8;
      }
    default: return 9;
  }
}

const AXIS_WORDS: Readonly<Record<ObbAxisKind, string>> = {
  'face-a': 'a face normal of A\'s box',
  'face-b': 'a face normal of B\'s box',
  'edge-pair': 'the cross product of an edge of each box',
};

/** A triangle of A against a convex B: the intersect query's own test of that triangle (GJK). */
function convexTriangleCaption(f: Omit<ObbTreeFrame, 'caption' | 'line'>, work: string): string {
  const iterations = count(f.iterations ?? 0, 'iteration', 'iterations');
  const gjk = `GJK: ${iterations}`;
  const head = `Triangle ${f.triangleA} of A (in leaf ${f.nodeA}) against B:`;
  if (!f.hit) {
    return `${head} apart. GJK found a direction that separates them in ${iterations}; measured for the view (the test decides without it), the gap is ${num(f.distance ?? 0, 6)}, between the closest points drawn.${work}`;
  }
  if (f.firstHit) return `${head} touching (${gjk}). The first touching triangle: the intersect query stops here with it as its answer; the view goes on through the other candidates to count them all.${work}`;
  return `${head} touching too (${gjk}).${work}`;
}

/** The caption of one "obbtree" frame. */
export function obbTreeCaption(f: Omit<ObbTreeFrame, 'caption' | 'line'>, r: ObbTreeResult): string {
  const pairName = `node pair (A ${f.nodeA ?? '?'}, ${f.nodeB === null ? 'B\'s box' : `B ${f.nodeB}`})`;
  switch (f.kind) {
    case 'level': {
      const inner = f.nodes.filter((n) => n.split !== 'leaf');
      const mean = inner.filter((n) => n.split === 'mean').length;
      const head = f.level === 0
        ? `Level 0: the root box around all ${count(r.triangles, 'triangle', 'triangles')}.`
        : `Level ${f.level}: ${count(f.nodes.length, 'node', 'nodes')}, ${count(f.nodes.length - inner.length, 'leaf', 'leaves')}.`;
      const splits = inner.length === 0 ? ' No node here is split: each holds one triangle.'
        : ` ${count(inner.length, 'node is', 'nodes are')} split (the translucent planes): ${mean} at the mean, ${inner.length - mean} at the median.`;
      const cut = f.levelCut ? ` The view shows only the first ${f.nodes.length} nodes of this level (a cap of 511 nodes for the whole tree).` : '';
      return head + splits + cut;
    }
    case 'step': {
      const work = ` So far: ${count(f.nodePairs, 'node pair', 'node pairs')}, ${count(f.boxTests, 'box test', 'box tests')}, ${count(f.triangleTests, 'triangle test', 'triangle tests')}.`;
      switch (f.event) {
        case 'sphere-apart': return `The spheres around ${pairName} are apart: the pair is done without the 15-axis test.${work}`;
        case 'box-apart': return `Axis ${f.axis} (${AXIS_WORDS[f.axisKind ?? 'face-a']}) separates ${pairName}: the pair is done.${work}`;
        case 'descend-a': return `The boxes of ${pairName} overlap: descend into A's node, the larger box.${work}`;
        case 'descend-b': return `The boxes of ${pairName} overlap: descend into B's node, the larger box.${work}`;
        case 'leaves': return f.nodeB === null
          ? `A's node ${f.nodeA} is a leaf and its box overlaps B's box: its triangles are tested against B next.${work}`
          : `The boxes of ${pairName} overlap and both are leaves: their triangles are tested next.${work}`;
        default: return f.triangleB === null ? convexTriangleCaption(f, work)
          : `Triangle ${f.triangleA} of A against triangle ${f.triangleB} of B: ${f.hit ? 'they intersect' : 'apart'}.${work}`;
      }
    }
    default:
      if (r.mode === 'tree') return `The tree: ${count(r.nodes, 'node', 'nodes')} on ${count(r.depth, 'level', 'levels')}, ${count(r.leaves, 'leaf', 'leaves')}; ${r.meanSplits} mean and ${r.medianSplits} median splits.`;
      return `${r.intersecting ? 'A and B intersect' : 'A and B do not intersect'}: ${count(r.nodePairs ?? 0, 'node pair', 'node pairs')} tested against the seed's ${num(r.singleContactBound ?? 0, 3)} for one contact.`;
  }
}

/** What a step of a simulation did, in words. */
function simulateCaption(f: Omit<SimulateFrame, 'caption'>): string {
  if (f.step === 0) return 'The start: every shape at its pose; the bodies have their velocities.';
  const n = f.contacts.length;
  const touching = new Set(f.contacts.map((c) => `${c.a},${c.b}`)).size;
  const head = `Step ${f.step}: ${count(n, 'contact point', 'contact points')}${f.contactsTruncated ? ' (more not listed)' : ''} between ${count(touching, 'pair', 'pairs')} of shapes`;
  if (f.sleeping === 0) return `${head} held the bodies apart.`;
  // Sleeping pairs were not solved: their points (listed after the solved ones) are kept as the island fell asleep.
  const solved = Math.min(f.solvedPoints, n);
  const sleepers = count(f.sleeping, 'body sleeps', 'bodies sleep');
  if (solved === n) return `${head} held the awake bodies apart; ${sleepers}.`;
  if (solved === 0) return `${head}, none solved this step: ${sleepers}, and the points are as they were when their islands fell asleep.`;
  return `${head}: ${solved} held the awake bodies apart; ${sleepers}, and the other ${n - solved} points, not solved this step, are as they were when their islands fell asleep.`;
}

/** The "pairs" query: a world's broad phase, sweep and prune (Rasku 2003, §5, figure 6), then its narrow phase. */
export const PAIRS_PSEUDOCODE: readonly string[] = [
  'bound every shape by its axis-aligned box (a plane has none: it meets every shape)',
  'sort the boxes\' endpoints (min, max) on x, y and z: three lists (a world keeps the swept one only)',
  'sweep the list of the axis of widest spread; at a min, its interval opens:',
  '  test its box against the box of every open interval (from 32 shapes on, the open ones in its cells of a grid on the other two axes): overlap on all three axes → a candidate pair',
  'at a max, its interval closes (it leaves the active list)',
  'narrow phase: intersect() on each candidate pair (and each plane with every shape)',
  'answer: the pairs whose shapes intersect',
];

type RawPairsFrame = Omit<PairsFrame, 'caption' | 'line'>;
const AXIS_NAMES = ['x', 'y', 'z'];

/** The pseudocode line a "pairs" frame highlights (1-based). */
function pairsLine(f: RawPairsFrame, last: boolean): number {
  switch (f.kind) {
    case 'boxes': return 1;
    case 'sort': return 2;
    case 'sweep': return f.endpoint?.isMin ? (f.found.length ? 4 : 3) : 5;
    default: return last ? 7 : 6;
  }
}

const pairList = (pairs: readonly (readonly number[])[]): string => (pairs.length ? pairs.map((p) => `(${p[0]}, ${p[1]})`).join(', ') : 'none');

/** The caption of one "pairs" frame. */
export function pairsCaption(f: RawPairsFrame, t: Pick<PairsTrace, 'result' | 'boxPairs'>): string {
  switch (f.kind) {
    case 'boxes': {
      const planes = f.boxes.filter((b) => b.unbounded).length;
      return `The box of each of the ${count(f.boxes.length, 'shape', 'shapes')}: its extent along x, y and z.`
        + (planes ? ` ${count(planes, 'plane has', 'planes have')} no box: the narrow phase meets ${planes === 1 ? 'it' : 'them'} with every shape.` : '');
    }
    case 'sort': {
      const ends = f.lists[0].length;
      const axis = f.axis === null ? 'There is no sweep: fewer than two boxes.'
        : `The sweep runs along ${AXIS_NAMES[f.axis]}, where the box centres spread widest.`;
      return `The ${ends} endpoints sorted on each axis (2 per box; a min before a max of equal value, so touching boxes count). ${axis}`;
    }
    case 'sweep': {
      const e = f.endpoint!;
      const s = `S = ${num(e.value, 6)}:`;
      const active = `Active: ${f.active.length ? f.active.join(', ') : 'none'}.`;
      if (!e.isMin) return `${s} the max of shape ${e.shape}: its interval closes. ${active} Box pairs so far: ${f.pairs.length}.`;
      const open = f.active.length - 1;
      if (!open) return `${s} the min of shape ${e.shape}: its interval opens; no other is open, so there is nothing to test. ${active} Box pairs so far: ${f.pairs.length}.`;
      const found = f.found.length
        ? `overlap on all three axes with ${pairList(f.found)}`
        : 'none of their boxes overlaps its box on all three axes';
      return `${s} the min of shape ${e.shape}: its interval opens; its box is tested against the ${count(open, 'open interval', 'open intervals')}: ${found}. ${active} Box pairs so far: ${f.pairs.length}.`;
    }
    default: {
      const [i, j] = f.pair ?? [0, 0];
      const why = f.planePair ? 'a plane meets every shape' : 'their boxes overlap';
      return `Candidate ${(f.candidate ?? 0) + 1} of ${t.result.candidates}: shapes ${i} and ${j} (${why}). intersect(): ${f.intersecting ? 'they intersect' : 'apart'} (${f.iterations ? count(f.iterations, 'GJK iteration', 'GJK iterations') : 'no GJK iteration: a closed form or a plane'}). Pairs so far: ${pairList(f.pairs)}.`;
    }
  }
}

/** The sentence of a "pairs" answer. */
export function pairsSentence(t: Pick<PairsTrace, 'result' | 'boxPairs'>): string {
  const r = t.result;
  return `${count(r.pairs.length, 'pair intersects', 'pairs intersect')}: ${pairList(r.pairs)}; the narrow phase ran on ${count(r.candidates, 'candidate', 'candidates')} (${count(t.boxPairs, 'pair', 'pairs')} of overlapping boxes).`;
}

// Defined false by the build of the default package flavour, which has no meshes: the texts of the mesh
// queries' traces (the obbtree view, a mesh ray cast) are then left out of its bundle.
// (Written out at each use: the minifier folds the test to a constant only there.)
declare const __COLLIDOSCOPE_LEVEL_GEOMETRY__: boolean | undefined;

/** The trace with its pseudocode (after `query`) and a caption on every frame. */
export function withText(raw: RawTrace | RawPlanarEpa): Trace {
  if (raw.query === ('simulate' as string)) {
    const t = raw as unknown as Omit<SimulateTrace, 'frames'> & { frames: Omit<SimulateFrame, 'caption'>[] };
    const frames = t.frames.map((f) => ({ ...f, caption: simulateCaption(f) }));
    return { ...t, frames } as SimulateTrace as unknown as Trace;
  }
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) && raw.query === ('obbtree' as string)) {
    const t = raw as unknown as Omit<ObbTreeTrace, 'pseudocode' | 'frames'> & { frames: Omit<ObbTreeFrame, 'caption' | 'line'>[] };
    const frames = t.frames.map((f) => ({ ...f, line: obbTreeLine(f), caption: obbTreeCaption(f, t.result) }));
    return { query: t.query, pseudocode: [...OBB_TREE_PSEUDOCODE], frames, result: t.result, marginA: t.marginA } as ObbTreeTrace as unknown as Trace;
  }
  if (isPairs(raw)) {
    const t = raw as unknown as Omit<PairsTrace, 'pseudocode' | 'frames'> & { frames: RawPairsFrame[] };
    const n = t.frames.length;
    const frames = t.frames.map((f, k) => ({ ...f, line: pairsLine(f, k === n - 1), caption: pairsCaption(f, t) }));
    return { ...t, query: t.query, pseudocode: [...PAIRS_PSEUDOCODE], frames } as PairsTrace as unknown as Trace;
  }
  if ((typeof __COLLIDOSCOPE_LEVEL_GEOMETRY__ === 'undefined' || __COLLIDOSCOPE_LEVEL_GEOMETRY__) && isMeshRaycast(raw)) {
    const { query, ...rest } = raw as unknown as Omit<MeshRaycastTrace, 'pseudocode'>;
    const frames = rest.frames.map((f) => captioned(f, meshRayCaption(f, rest.result), false));
    return { query, pseudocode: [...MESH_RAY_PSEUDOCODE], ...rest, frames } as MeshRaycastTrace as unknown as Trace;
  }
  if (isClosedForm(raw)) {
    // A pair answered by a closed form (either dimension): its one frame is the formula.
    const { query, ...rest } = raw;
    const frames = raw.frames.map((f) => captioned(f, closedFormCaption(f, raw), false));
    return { query, pseudocode: closedFormPseudocode(query, raw.closedForm), ...rest, frames } as ClosedFormTrace;
  }
  if ('dimension' in raw) {
    const { query, ...rest } = raw;
    const radius = raw.marginA + raw.marginB;
    const result = resultSentence(raw as unknown as RawTrace);
    const frames = raw.frames.map((f) => captioned(f, planarEpaCaption(f, raw.result, radius, result), false));
    // Not one of Trace's members: trace()'s 2D overload gives it its own type, Planar<PlanarEpaTrace>.
    return { query, pseudocode: pseudocodeOf('planarPenetration'), ...rest, frames } as PlanarEpaTrace as unknown as Trace;
  }
  const { query, ...rest } = raw;
  const head = { query, pseudocode: pseudocodeOf(query) };
  const result = resultSentence(raw);
  switch (raw.query) {
    case 'intersect':
    case 'distance': {
      const radius = raw.marginA + raw.marginB;
      const frames = raw.frames.map((f) => captioned(f, gjkCaption(f, raw.query, radius, result), false));
      return { ...head, ...rest, frames } as GjkTrace;
    }
    case 'penetration': {
      const radius = raw.marginA + raw.marginB;
      return { ...head, ...rest, frames: raw.frames.map((f) => captioned(f, epaCaption(f, raw.result, radius, result), false)) } as EpaTrace;
    }
    case 'hull': {
      const inputCount = raw.frames[0]?.points.length ?? 0;
      return { ...head, ...rest, frames: raw.frames.map((f) => captioned(f, hullCaption(f, inputCount, result), true)) } as HullTrace;
    }
    case 'sat':
      return { ...head, ...rest, frames: raw.frames.map((f) => captioned(f, satCaption(f, result), false)) } as SatTrace;
    case 'raycast':
    case 'shapecast': {
      const shapeCast = raw.query === 'shapecast';
      const frames = (raw.frames as Omit<CastFrame, 'caption'>[]).map((f) => captioned(f, castCaption(f, shapeCast, result), false));
      return { ...head, ...rest, frames } as RaycastTrace | ShapecastTrace;
    }
    case 'chungwang':
      return { ...head, ...rest, frames: raw.frames.map((f) => captioned(f, chungWangCaption(f, result), false)) } as ChungWangTrace;
  }
}
