// Two closest points for the values table: the library's rule for telling a pair apart (printf.ts), written with
// the table's number format.
import { fmt } from '../lib/draw/format';
import { formatPair } from '../lib/printf';

/** "(x, y, z)" twice, each coordinate with `digits` significant digits or more where the two would read alike. */
export function fmtVecPair(a: readonly number[], b: readonly number[], digits = 6): [string, string] {
  const [pa, pb] = formatPair(a, b, digits, fmt);
  return [`(${pa.join(', ')})`, `(${pb.join(', ')})`];
}
