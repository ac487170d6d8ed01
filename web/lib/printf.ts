// C's printf "%.Pg" for doubles, digit for digit, so that captions read the same wherever they are written.
//
// The C standard (ISO/IEC 9899:2018, 7.21.6.1, the g conversion) rounds the exact binary value to P significant
// digits; glibc rounds a tie to even (the default rounding mode). Number.prototype.toPrecision rounds a tie up,
// so the rounding here works on the exact decimal expansion of the double instead: a double is m·2^e with an
// integer m, which is m·5^−e·10^e when e < 0, an integer times a power of ten either way.

/** Decimal digits d (no leading zeros) and the exponent k with |x| = d·10^k exactly; x finite, non-zero. */
function exactDecimal(x: number): { digits: string; exp10: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  // Normal numbers carry the hidden bit; subnormals have the exponent of the smallest normal.
  const m = biased === 0 ? fraction : fraction | (1n << 52n);
  const e = (biased === 0 ? 1 : biased) - 1075;
  if (e >= 0) return { digits: (m << BigInt(e)).toString(), exp10: 0 };
  return { digits: (m * 5n ** BigInt(-e)).toString(), exp10: e };
}

/** `digits` rounded to p significant digits, ties to even; `carry` when the rounding added a digit (9…9 → 10…0). */
function roundDigits(digits: string, p: number): { head: string; carry: boolean } {
  if (digits.length <= p) return { head: digits.padEnd(p, '0'), carry: false };
  const head = digits.slice(0, p);
  const first = digits.charCodeAt(p) - 48;
  const restNonZero = /[1-9]/.test(digits.slice(p + 1));
  const odd = (head.charCodeAt(p - 1) - 48) % 2 === 1;
  const up = first > 5 || (first === 5 && (restNonZero || odd));
  if (!up) return { head, carry: false };
  const bumped = (BigInt(head) + 1n).toString();
  return bumped.length > p ? { head: bumped.slice(0, p), carry: true } : { head: bumped, carry: false };
}

/** printf("%.{precision}g", x) as glibc writes it (nan, inf and -0 included). */
export function formatG(x: number, precision = 6): string {
  if (Number.isNaN(x)) return 'nan';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  if (!Number.isFinite(x)) return `${sign}inf`;
  if (x === 0) return `${sign}0`;
  const p = precision === 0 ? 1 : precision;
  const { digits, exp10 } = exactDecimal(x);
  const { head, carry } = roundDigits(digits, p);
  // The exponent of the rounded value in d.ddd × 10^X form decides between the two styles.
  const X = digits.length - 1 + exp10 + (carry ? 1 : 0);
  const trim = (s: string) => s.replace(/0+$/, '');
  if (X < -4 || X >= p) {
    const frac = trim(head.slice(1));
    const mantissa = frac ? `${head[0]}.${frac}` : head[0];
    return `${sign}${mantissa}e${X < 0 ? '-' : '+'}${String(Math.abs(X)).padStart(2, '0')}`;
  }
  const intPart = X >= 0 ? head.slice(0, X + 1) : '0';
  const frac = trim(X >= 0 ? head.slice(X + 1) : '0'.repeat(-X - 1) + head);
  return frac ? `${sign}${intPart}.${frac}` : `${sign}${intPart}`;
}

/**
 * Two vectors written coordinate by coordinate with `format(x, digits)`, each coordinate with `digits`
 * significant digits, or more (up to 17, where every double is written exactly) where the two differ but would
 * be written alike: closest points 1e-6 apart near 1e4 stay two points.
 */
export function formatPair(a: readonly number[], b: readonly number[], digits: number,
  format: (x: number, digits: number) => string): [string[], string[]] {
  const pa: string[] = [];
  const pb: string[] = [];
  a.forEach((x, k) => {
    let d = digits;
    while (d < 17 && x !== b[k] && format(x, d) === format(b[k], d)) d++;
    pa.push(format(x, d));
    pb.push(format(b[k], d));
  });
  return [pa, pb];
}
