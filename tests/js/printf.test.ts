// formatG is C's printf("%.Pg"): the expected strings below were printed by glibc's printf from the same doubles
// (a one-line C program reading each value's bits), not by the code under test.
import { describe, expect, it } from 'vitest';
import { formatG } from '../../web/lib/printf';

// [value, precision, glibc printf("%.*g", precision, value)]
const cases: [number, number, string][] = [
  [0, 6, '0'],
  [-0, 6, '-0'],
  [1, 6, '1'],
  [-1, 6, '-1'],
  [0.1, 6, '0.1'],
  [1 / 3, 6, '0.333333'],
  [-2 / 3, 6, '-0.666667'],
  // Exact ties round to even (toPrecision would round them up).
  [1234565, 6, '1.23456e+06'],
  [1234575, 6, '1.23458e+06'],
  [999999.5, 6, '1e+06'],
  [999998.5, 6, '999998'],
  [2.5, 0, '2'],
  [2.5, 1, '2'],
  [3.5, 1, '4'],
  [0.5, 6, '0.5'],
  // The style switches to an exponent below 1e-4 and from 10^precision on, after rounding.
  [123456, 6, '123456'],
  [1234567, 6, '1.23457e+06'],
  [100000, 6, '100000'],
  [1000000, 6, '1e+06'],
  [0.0001, 6, '0.0001'],
  [0.00001, 6, '1e-05'],
  [-0.00001, 6, '-1e-05'],
  [0.000123456789, 6, '0.000123457'],
  [123.456, 6, '123.456'],
  [1e15, 6, '1e+15'],
  [1e100, 6, '1e+100'],
  [-2.5e-7, 6, '-2.5e-07'],
  [0.30000000000000004, 6, '0.3'],
  [2.0000005, 6, '2'],
  [3.14159265, 6, '3.14159'],
  [5e-324, 6, '4.94066e-324'],
  [1.7976931348623157e308, 6, '1.79769e+308'],
  [Infinity, 6, 'inf'],
  [-Infinity, 6, '-inf'],
  [1 / 3, 9, '0.333333333'],
  [0.1, 9, '0.1'],
  [2.5, 9, '2.5'],
  [1234567.125, 9, '1234567.12'],
  [Math.PI, 12, '3.14159265359'],
  [0.1, 12, '0.1'],
  [1e-7, 12, '1e-07'],
  [0.0625, 3, '0.0625'],
  [1e-9, 3, '1e-09'],
  [2.5e-12, 3, '2.5e-12'],
  [0.1, 17, '0.10000000000000001'],
];

describe('formatG (printf %.Pg)', () => {
  for (const [x, p, want] of cases) {
    it(`%.${p}g of ${Object.is(x, -0) ? '-0' : x} is ${want}`, () => {
      expect(formatG(x, p)).toBe(want);
    });
  }
  it('writes NaN as nan', () => {
    expect(formatG(NaN)).toBe('nan');
  });
});
