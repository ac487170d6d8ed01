// Number and vector formatting for labels and the page's panel. Plain text only.
import type { Vec2, Vec3 } from '../index';

/** A number with `digits` significant digits, without trailing zeros; exponent form when tiny or huge. */
export function fmt(x: number | null | undefined, digits = 6): string {
  if (x === null || x === undefined) return '—';
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  const a = Math.abs(x);
  if (a < 1e-4 || a >= 1e6) return x.toExponential(Math.max(0, digits - 1)).replace(/\.?0+e/, 'e');
  // Rounded to `digits`, then written plainly: toPrecision alone writes 10001 with 4 digits as "1.000e+4".
  return String(Number(x.toPrecision(digits)));
}

export function fmtVec(v: readonly number[] | null | undefined, digits = 4): string {
  if (!v) return '—';
  return '(' + v.map((x) => fmt(x, digits)).join(', ') + ')';
}

/** Round to a fixed number of decimals, for coordinates coming from mouse drags (shorter permalinks). */
export function round(x: number, decimals = 4): number {
  const f = 10 ** decimals;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** Dot product of two 3-vectors, or of two [x, y] vectors of a 2D trace (the same sum as for [x, y, 0]). */
export const dot3 = (a: Vec3 | Vec2, b: Vec3 | Vec2): number => {
  const x: readonly number[] = a;
  const y: readonly number[] = b;
  return x[0] * y[0] + x[1] * y[1] + (x.length > 2 ? x[2] * y[2] : 0);
};
export const len3 = (a: Vec3 | Vec2): number => Math.sqrt(dot3(a, a));
