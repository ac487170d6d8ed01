// The numbers of the convergence plot, read from a trace's frames (no geometry is recomputed): one point per
// iteration, taken from that iteration's support frame, where the algorithm compares its two bounds.
//   GJK (intersect, distance): upper bound ‖v‖ = √(v·v) and lower bound v·w/‖v‖ of the cores' distance.
//   EPA (penetration): lower bound d, the nearest face's distance, and upper bound n·w = d + gap.
//   Casts (raycast, shapecast): λ, the hit parameter so far (it only grows).
// A closed form's trace (one frame, no iterations) has no plot.
// Pure: no DOM, so that it is unit-tested against the frames directly.

export interface Series {
  /** 'upper' | 'lower' | 'lambda' */
  id: string;
  /** The legend's words. */
  label: string;
  /** One value per point; null where the iteration gives no bound (v·w ≤ 0 says nothing about a distance). */
  values: (number | null)[];
}

export interface Convergence {
  algorithm: 'gjk' | 'epa' | 'cast';
  /** The iteration of each point (1, 2, ...). */
  iterations: number[];
  /** The frame index each point goes to when clicked: that iteration's support frame. */
  frames: number[];
  series: Series[];
  /** The y axis in powers of ten: every value positive and spanning more than two decades. */
  log: boolean;
  /** What the y axis measures. */
  quantity: string;
}

interface FrameFields {
  kind: string;
  iteration?: number;
  vv?: number;
  vw?: number | null;
  depth?: number;
  gap?: number | null;
  newLambda?: number;
}

interface TraceLike {
  query: string;
  frames: readonly FrameFields[];
}

/** Decades a positive range must span for a log axis. */
const LOG_DECADES = 2;

/** A closed form's trace: one frame without iterations. */
interface ClosedFormLike {
  closedForm: string;
}

/** The plot's points for `trace`, or null for queries without iterations to plot (hull, SAT, Chung–Wang, closed forms). */
export function convergence(trace: TraceLike | ClosedFormLike | null): Convergence | null {
  if (!trace || 'closedForm' in trace) return null;
  const algorithm = trace.query === 'intersect' || trace.query === 'distance' ? 'gjk'
    : trace.query === 'penetration' ? 'epa'
      : trace.query === 'raycast' || trace.query === 'shapecast' ? 'cast' : null;
  if (!algorithm) return null;
  const iterations: number[] = [];
  const frames: number[] = [];
  const a: (number | null)[] = [];
  const b: (number | null)[] = [];
  trace.frames.forEach((f, i) => {
    if (f.kind !== 'support') return;
    iterations.push(f.iteration ?? iterations.length + 1);
    frames.push(i);
    if (algorithm === 'gjk') {
      const norm = Math.sqrt(f.vv ?? NaN);
      a.push(Number.isFinite(norm) ? norm : null);
      const lower = typeof f.vw === 'number' && norm > 0 ? f.vw / norm : null;
      b.push(lower !== null && lower > 0 ? lower : null);
    } else if (algorithm === 'epa') {
      const d = typeof f.depth === 'number' ? f.depth : null;
      a.push(d !== null && typeof f.gap === 'number' ? d + f.gap : null);
      b.push(d);
    } else {
      a.push(typeof f.newLambda === 'number' ? f.newLambda : null);
    }
  });
  if (iterations.length === 0) return null;
  const series: Series[] = algorithm === 'gjk'
    ? [{ id: 'upper', label: '‖v‖ (upper bound)', values: a }, { id: 'lower', label: 'v·w/‖v‖ (lower bound)', values: b }]
    : algorithm === 'epa'
      ? [{ id: 'upper', label: 'n·w (upper bound)', values: a }, { id: 'lower', label: 'd, nearest face (lower bound)', values: b }]
      : [{ id: 'lambda', label: 'λ (hit parameter so far)', values: a }];
  const all = series.flatMap((s) => s.values).filter((x): x is number => x !== null);
  const positive = all.filter((x) => x > 0);
  const log = all.length > 0 && positive.length === all.length
    && Math.log10(Math.max(...positive) / Math.min(...positive)) > LOG_DECADES;
  const quantity = algorithm === 'gjk' ? 'distance of the cores' : algorithm === 'epa' ? 'depth of the cores' : 'λ';
  return { algorithm, iterations, frames, series, log, quantity };
}

/** The point to mark for frame `index`: the last point at or before it, or -1 before the first. */
export function pointAt(c: Convergence, index: number): number {
  let k = -1;
  for (let i = 0; i < c.frames.length; i++) if (c.frames[i] <= index) k = i;
  return k;
}

/** Nice tick values for a linear axis over [lo, hi] (about `count` of them). */
export function linearTicks(lo: number, hi: number, count = 4): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  return ticks;
}
