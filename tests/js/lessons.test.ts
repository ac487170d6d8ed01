// The gallery's manifest shared/lessons.json: every scene of shared/scenes listed exactly once, with a title
// and a sentence, in the lesson order of the page; and the checker the build runs names what is wrong.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLessons, galleryOrder, type LessonManifest } from '../../scripts/lessons.mjs';
import { root, sceneDir } from './vectors';

const manifest = JSON.parse(readFileSync(join(root, 'shared', 'lessons.json'), 'utf8')) as LessonManifest;
const files = readdirSync(sceneDir).filter((f) => f.endsWith('.json')).sort();

describe('shared/lessons.json', () => {
  it('lists every scene file exactly once, each existing, with a title and a sentence', () => {
    expect(checkLessons(manifest, files)).toEqual([]);
    const listed = manifest.lessons.flatMap((l) => l.scenes.map((e) => e.file));
    expect([...listed].sort()).toEqual(files);
    expect(new Set(listed).size).toBe(listed.length);
    for (const e of manifest.lessons.flatMap((l) => l.scenes)) {
      expect(e.title.trim().length, e.file).toBeGreaterThan(3);
      expect(e.sentence, e.file).toMatch(/^[A-Z].*[.:!?]$/);
    }
  });

  it('keeps the lesson order 2D GJK, 3D GJK, EPA, hulls, Chung–Wang, casts, SAT, point queries, broad phase, worlds', () => {
    expect(manifest.lessons.map((l) => l.lesson)).toEqual([
      'GJK in 2D', 'GJK in 3D', 'EPA: penetration depth', 'Convex hulls', 'Chung–Wang separating axes',
      'Ray casts and shape casts', 'Separating-axis test (SAT)', 'Point queries', 'Broad phase: sweep and prune',
      'A world: bodies and contacts',
    ]);
    // Each lesson holds the scenes of its queries.
    const queries = [/^(intersect|distance|penetration)$/, /^(intersect|distance)$/, /^penetration$/, /^(hull|obb)$/,
      /^chungwang$/, /^(raycast|shapecast)$/, /^sat$/, /^(contains|project)$/, /^pairs$/, /^simulate$/];
    manifest.lessons.forEach((l, i) => {
      for (const e of l.scenes) {
        const query = (JSON.parse(readFileSync(join(sceneDir, e.file), 'utf8')) as { query: string }).query;
        expect(query, `${e.file} in ${l.lesson}`).toMatch(queries[i]);
      }
    });
  });

  it('galleryOrder flattens the lessons in order, the title as the name', () => {
    const g = galleryOrder({ lessons: [
      { lesson: 'L1', scenes: [{ file: 'b.json', title: 'B', sentence: 'Bee.' }] },
      { lesson: 'L2', scenes: [] },
      { lesson: 'L3', scenes: [{ file: 'a.json', title: 'A', sentence: 'Ay.' }, { file: 'c.json', title: 'C', sentence: 'Cee.' }] },
    ] });
    expect(g.map((e) => [e.lesson, e.file, e.name])).toEqual([['L1', 'b.json', 'B'], ['L3', 'a.json', 'A'], ['L3', 'c.json', 'C']]);
  });
});

describe('checkLessons', () => {
  const ok = { lessons: [{ lesson: 'GJK', scenes: [{ file: 'a.json', title: 'A', sentence: 'Ay.' }] }] };

  it('accepts a manifest that lists each file once', () => {
    expect(checkLessons(ok, ['a.json'])).toEqual([]);
  });

  it('names a scene file the manifest lacks, with the line to add', () => {
    const errors = checkLessons(ok, ['a.json', '00-2d-gjk-first-lesson.json']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('shared/scenes/00-2d-gjk-first-lesson.json is not in shared/lessons.json');
    expect(errors[0]).toContain('{ "file": "00-2d-gjk-first-lesson.json"');
  });

  it('names an entry whose file does not exist, and a file listed twice', () => {
    const twice = { lessons: [
      { lesson: 'X', scenes: [{ file: 'a.json', title: 'A', sentence: 'Ay.' }, { file: 'gone.json', title: 'G', sentence: 'Gee.' }] },
      { lesson: 'Y', scenes: [{ file: 'a.json', title: 'A again', sentence: 'Ay.' }] },
    ] };
    const errors = checkLessons(twice, ['a.json']);
    expect(errors).toContain('lessons[0].scenes[1].file: shared/scenes/gone.json does not exist');
    expect(errors).toContain('lessons[1].scenes[0].file: a.json is listed twice (also at lessons[0].scenes[0])');
    expect(errors).toHaveLength(2);
  });

  it('refuses unknown fields, empty titles and sentences, and wrong shapes, naming the field', () => {
    expect(checkLessons({ lessons: [{ lesson: 'X', scenes: [{ file: 'a.json', title: '', sentence: 'S.', step: 2 }] }] }, ['a.json']))
      .toEqual([
        'lessons[0].scenes[0]: unknown field "step" (the fields are file, title, sentence)',
        'lessons[0].scenes[0].title: expected a non-empty string, got ""',
      ]);
    expect(checkLessons({ lessons: [{ lesson: 3, scenes: {} }] }, [])).toEqual([
      'lessons[0].lesson: expected a non-empty string, got 3',
      'lessons[0].scenes: expected an array, got {}',
    ]);
    expect(checkLessons({ lesson: [] }, [])).toEqual([
      'the manifest: unknown field "lesson" (the fields are lessons)',
      'lessons: expected an array, got undefined',
    ]);
    expect(checkLessons([], [])[0]).toMatch(/^expected an object/);
    expect(checkLessons({ lessons: [null] }, [])[0]).toMatch(/^lessons\[0\]: expected/);
    expect(checkLessons({ lessons: [{ lesson: 'X', scenes: [{ file: 'a.json', title: 'T', sentence: NaN }] }] }, ['a.json']))
      .toEqual(['lessons[0].scenes[0].sentence: expected a non-empty string, got null']);
  });
});
