#!/usr/bin/env node
// Hook-free copies of the library headers, for the NoTrace-cost benchmark
// (bench/notrace_*.cpp): the same code as if the trace hooks had never been
// written.
//
//   node bench/strip_trace.mjs <src include/collidoscope> <out include/collidoscope> [--deep]
//
// Mechanical (always): every `if constexpr (Trace::enabled) S` is deleted,
// S being a braced block or a single statement (found by matching braces and
// parentheses, skipping comments and string/character literals); with an
// `else S2` the whole statement becomes S2, the code NoTrace compiles. Any
// other use of `Trace::enabled` (a condition such as `Trace::enabled && n >
// cap`) becomes `false`. Deleted text is replaced by as many newlines as it
// held, so line numbers stay those of the original headers.
//
// --deep (review-based, on top): code outside `if constexpr` that only feeds
// the traces — found by reading the headers and by the set-but-unused
// warnings the mechanical copy produces — is deleted too, each by an exact
// pattern listed in DEEP below with the reason. A pattern that no longer
// matches is reported ("missing"), not guessed at.
//
// The copies may leave variables set but unused (e.g. gjk.h's `reason` and
// `line`, which only fed frames) and unused `trace` parameters. That is the
// point — they are what remains when the hooks are gone — so each stripped
// header is wrapped in `#pragma GCC diagnostic` push/ignored/pop for those
// warnings instead of editing the code (diagnostic pragmas do not change
// code generation).
//
// Writes <out>/strip_report.json: per file, the removed hooks (original
// line numbers) and the deep edits.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Review-based deletions for --deep. Each: file, the exact text to find
// (must occur `count` times), its replacement, and why it is trace-only.
// Found by reading the headers, and by compiling the mechanical copy without
// the diagnostic pragmas: -Wunused-but-set-variable then names what only the
// hooks read (gjk.h, epa.h, chung_wang.h: `reason`, `line`; epa.h: `lastGap`,
// `added`; raycast.h: `oldLambda`, `line`). Scalars like those are deleted by
// the compiler anyway (the machine-code comparison shows it); arrays, struct
// fields and arguments built at call sites may not be, so those are listed here.
export const DEEP = [
  {
    file: 'epa.h',
    find: `  int added[kEpaMaxFaces];\n`,
    replace: '',
    why: 'added[] (the new faces\' slots) is read only by the Expand frame',
  },
  {
    file: 'epa.h',
    find: `    int addedCount = 0;\n`,
    replace: '',
    why: 'addedCount, the count of added[]',
  },
  {
    file: 'epa.h',
    find: `      if (slot >= 0) added[addedCount++] = slot;\n`,
    replace: `      (void)slot;`,
    why: 'the stores into added[]',
  },
  {
    file: 'epa.h',
    find: `    f.id = nextId++;\n`,
    replace: '',
    why: 'EpaFace::id (a creation number, "stable name for traces") is read only by the frames',
  },
  {
    file: 'chung_wang.h',
    find: `  bool add(const Vec3& r, HemisphereLog* log = nullptr) {`,
    replace: `  bool add(const Vec3& r) { constexpr HemisphereLog* log = nullptr;`,
    why: 'the hemisphere sub-algorithm fills a HemisphereLog behind run-time `if (log)` tests; hook-free it has no log at all',
  },
  {
    file: 'hull.h',
    find: `    f.id = nextId_++;\n`,
    replace: '',
    why: 'QhFace::id (a creation number) is read only by trace snapshots',
  },
  {
    file: 'hull.h',
    find: /^( *)recordDegenerate\(trace, out->kind, [^;]*\);\n/gm,
    count: 4,
    replace: '',
    why: 'recordDegenerate takes a std::vector<int> by value, built at each call site outside `if constexpr`',
  },
];

// (-Wnonnull: the deep copy's constant null HemisphereLog* behind `if (log)` tests.)
const SET_BUT_UNUSED = ['-Wunused-but-set-variable', '-Wunused-variable', '-Wunused-parameter', '-Wunused-function', '-Wnonnull'];

// Index just past the comment or literal starting at i, or i if none.
function skipTrivia(s, i) {
  if (s.startsWith('//', i)) {
    const e = s.indexOf('\n', i);
    return e < 0 ? s.length : e;
  }
  if (s.startsWith('/*', i)) return s.indexOf('*/', i + 2) + 2;
  if (s[i] === '"' || s[i] === "'") {
    // (No raw strings in these headers; checked below.)
    const q = s[i];
    let j = i + 1;
    while (s[j] !== q) j += s[j] === '\\' ? 2 : 1;
    return j + 1;
  }
  return i;
}

// Skips white space and comments (not literals).
function skipSpace(s, i) {
  for (;;) {
    while (i < s.length && /\s/.test(s[i])) ++i;
    if (!s.startsWith('//', i) && !s.startsWith('/*', i)) return i;
    i = skipTrivia(s, i);
  }
}

// End (exclusive) of the statement starting at i: a braced block, or up to
// the `;` at nesting depth 0 (an `if`/`for` without braces is followed
// through its own statement, and an `else` after it is included).
function statementEnd(s, i) {
  i = skipSpace(s, i);
  if (s[i] === '{') return matchClose(s, i);
  if (/^(if|for|while)\b/.test(s.slice(i, i + 6))) {
    const open = s.indexOf('(', i);
    const close = matchClose(s, open);
    let end = statementEnd(s, close);
    const k = skipSpace(s, end);
    if (s.startsWith('else', k) && !/\w/.test(s[k + 4])) end = statementEnd(s, k + 4);
    return end;
  }
  let depth = 0;
  for (let j = i; j < s.length; ) {
    const k = skipTrivia(s, j);
    if (k !== j) {
      j = k;
      continue;
    }
    const c = s[j];
    if (c === '(' || c === '[' || c === '{') ++depth;
    else if (c === ')' || c === ']' || c === '}') --depth;
    else if (c === ';' && depth === 0) return j + 1;
    ++j;
  }
  throw new Error(`no end of statement from offset ${i}`);
}

// Index just past the bracket matching the one at i.
function matchClose(s, i) {
  const open = s[i];
  const close = { '(': ')', '{': '}', '[': ']' }[open];
  let depth = 0;
  for (let j = i; j < s.length; ) {
    const k = skipTrivia(s, j);
    if (k !== j) {
      j = k;
      continue;
    }
    if (s[j] === open) ++depth;
    else if (s[j] === close && --depth === 0) return j + 1;
    ++j;
  }
  throw new Error(`unbalanced ${open} at offset ${i}`);
}

const lineOf = (s, i) => s.slice(0, i).split('\n').length;
const blankOut = (t) => t.replace(/[^\n]/g, '');

// Mechanical strip of one header's text. Returns { text, hooks, enabledToFalse }.
export function stripHooks(src) {
  if (/\bR"/.test(src)) throw new Error('raw string literal: the scanner does not handle it');
  const hooks = [];
  let out = '';
  let i = 0;
  const re = /if\s+constexpr\s*\(\s*Trace::enabled\s*\)/g;
  for (;;) {
    re.lastIndex = i;
    let m;
    // Next match outside comments/literals.
    for (;;) {
      m = re.exec(src);
      if (!m) break;
      // Is m.index inside a comment or literal? Scan from i.
      let j = i;
      let inside = false;
      while (j < m.index) {
        const k = skipTrivia(src, j);
        if (k !== j) {
          if (k > m.index) {
            inside = true;
            break;
          }
          j = k;
        } else ++j;
      }
      if (!inside) break;
      re.lastIndex = m.index + 1;
    }
    if (!m) break;
    const start = m.index;
    const thenEnd = statementEnd(src, start + m[0].length);
    const k = skipSpace(src, thenEnd);
    let replacement;
    let kind;
    if (src.startsWith('else', k) && !/\w/.test(src[k + 4])) {
      const elseEnd = statementEnd(src, k + 4);
      // Keep the else branch (what NoTrace compiles), on its original lines.
      replacement = blankOut(src.slice(start, k + 4)) + src.slice(k + 4, elseEnd);
      kind = 'if-else: else kept';
      hooks.push({ line: lineOf(src, start), lines: lineOf(src, elseEnd) - lineOf(src, start) + 1, kind });
      out += src.slice(i, start) + replacement;
      i = elseEnd;
    } else {
      kind = src[skipSpace(src, start + m[0].length)] === '{' ? 'block' : 'statement';
      hooks.push({ line: lineOf(src, start), lines: lineOf(src, thenEnd) - lineOf(src, start) + 1, kind });
      out += src.slice(i, start) + blankOut(src.slice(start, thenEnd));
      i = thenEnd;
    }
  }
  out += src.slice(i);
  // Remaining uses of the flag in code (conditions) are constant false for NoTrace.
  let enabledToFalse = 0;
  let code = '';
  for (let j = 0, seg = 0; ; ) {
    const k = j < out.length ? skipTrivia(out, j) : j;
    if (j >= out.length || k !== j) {
      code += out.slice(seg, j).replace(/\bTrace::enabled\b/g, () => (++enabledToFalse, 'false'));
      if (j >= out.length) break;
      code += out.slice(j, k);
      seg = j = k;
    } else ++j;
  }
  return { text: code, hooks, enabledToFalse };
}

function applyDeep(file, text) {
  const edits = [];
  for (const d of DEEP.filter((x) => x.file === file)) {
    if (d.find instanceof RegExp) {
      const hits = [...text.matchAll(d.find)];
      const lines = hits.map((h) => lineOf(text, h.index));
      if (hits.length !== (d.count ?? 1)) {
        edits.push({ why: d.why, applied: false, missing: true, found: hits.length });
        continue;
      }
      // Keep line numbers: replace each hit by its newlines.
      text = text.replace(d.find, (w) => blankOut(w));
      edits.push({ why: d.why, applied: true, lines });
    } else {
      const at = text.indexOf(d.find);
      if (at < 0 || text.indexOf(d.find, at + 1) >= 0) {
        edits.push({ why: d.why, applied: false, missing: true, found: at < 0 ? 0 : 2 });
        continue;
      }
      const line = lineOf(text, at);
      const repl = d.replace + '\n'.repeat(Math.max(0, d.find.split('\n').length - d.replace.split('\n').length));
      text = text.slice(0, at) + repl + text.slice(at + d.find.length);
      edits.push({ why: d.why, applied: true, lines: [line] });
    }
  }
  return { text, edits };
}

export function stripDirectory(srcDir, outDir, { deep = false } = {}) {
  mkdirSync(outDir, { recursive: true });
  const report = { deep, files: {} };
  for (const name of readdirSync(srcDir).filter((f) => f.endsWith('.h')).sort()) {
    const src = readFileSync(path.join(srcDir, name), 'utf8');
    const { text, hooks, enabledToFalse } = stripHooks(src);
    let body = text;
    let edits = [];
    if (deep) ({ text: body, edits } = applyDeep(name, body));
    // The pragmas go before the first line's text (a comment in every header), so
    // line numbers are kept; the pop after the last line.
    if (!body.startsWith('//')) throw new Error(`${name}: expected a comment on the first line`);
    const push = ['_Pragma("GCC diagnostic push")', ...SET_BUT_UNUSED.map((w) => `_Pragma("GCC diagnostic ignored \\"${w}\\"")`)];
    body = `${push.join(' ')} ${body}${body.endsWith('\n') ? '' : '\n'}_Pragma("GCC diagnostic pop")\n`;
    writeFileSync(path.join(outDir, name), body);
    if (hooks.length || enabledToFalse || edits.length)
      report.files[name] = { hooks, enabledToFalse, ...(deep ? { deep: edits } : {}) };
  }
  report.hookCount = Object.values(report.files).reduce((n, f) => n + f.hooks.length, 0);
  report.deepMissing = Object.values(report.files).flatMap((f) => (f.deep ?? []).filter((e) => e.missing));
  writeFileSync(path.join(outDir, 'strip_report.json'), JSON.stringify(report, null, 1));
  return report;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [src, out, ...flags] = process.argv.slice(2);
  if (!src || !out) {
    console.error('usage: node bench/strip_trace.mjs <src include/collidoscope> <out include/collidoscope> [--deep]');
    process.exit(2);
  }
  const r = stripDirectory(src, out, { deep: flags.includes('--deep') });
  console.log(`strip_trace: ${r.hookCount} hook(s) removed from ${Object.keys(r.files).length} header(s)${r.deep ? ' (deep)' : ''} -> ${out}`);
  if (r.deepMissing.length) {
    console.error(`strip_trace: ${r.deepMissing.length} deep pattern(s) no longer match: ${r.deepMissing.map((e) => e.why).join('; ')}`);
  }
}
