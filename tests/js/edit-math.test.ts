// The page's editing arithmetic (web/viz/edit-math.ts): quaternion entry, the ray's and the motion's drag
// handles, and the scene file's text. References are written out by hand or computed another way.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, validateScene, type Scene } from '../../web/lib/index';
import {
  MAX_SCENE_TEXT, fileTooLarge, motionEnd, motionWithEnd, parseSceneText, rayTip, rayWithOrigin, rayWithTip, readQuaternion, sceneFileText,
} from '../../web/viz/edit-math';
import { fmt } from '../../web/lib/draw/format';
import { fmtVecPair } from '../../web/viz/vec-pair';

describe('readQuaternion', () => {
  it('divides by the length: [1, 2, 3, 4] / √30, and [0, 0, 0, 2] is the identity', () => {
    const r = readQuaternion(['1', '2', '3', '4']);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const l = Math.sqrt(30);
    [1, 2, 3, 4].forEach((v, k) => expect(r.q[k]).toBeCloseTo(v / l, 15));
    expect(readQuaternion(['0', '0', '0', '2'])).toEqual({ ok: true, q: [0, 0, 0, 1] });
    expect(readQuaternion([' -0.5 ', '0.5', '-0.5', '0.5'])).toEqual({ ok: true, q: [-0.5, 0.5, -0.5, 0.5] });
  });

  it('keeps its precision for tiny and huge entries (no underflow to 0, no overflow to ∞)', () => {
    const tiny = readQuaternion(['3e-200', '0', '0', '4e-200']);
    expect(tiny.ok).toBe(true);
    if (tiny.ok) [0.6, 0, 0, 0.8].forEach((v, k) => expect(tiny.q[k]).toBeCloseTo(v, 15));
    const huge = readQuaternion(['3e200', '0', '0', '4e200']);
    expect(huge.ok && huge.q.every(Number.isFinite)).toBe(true);
    if (huge.ok) expect(Math.hypot(...huge.q)).toBeCloseTo(1, 15);
  });

  it('names the component that is not a finite number, and refuses the zero quaternion', () => {
    expect(readQuaternion(['1', '', '0', '0'])).toEqual({ ok: false, component: 1, message: 'quaternion y must be a finite number, got nothing' });
    expect(readQuaternion(['1', '0', 'NaN', '0'])).toMatchObject({ ok: false, component: 2 });
    expect(readQuaternion(['1', '0', '0', 'Infinity'])).toMatchObject({ ok: false, component: 3 });
    expect(readQuaternion(['0', '0', '0', '0'])).toMatchObject({ ok: false, component: null, message: expect.stringMatching(/no length/) });
  });
});

describe('the ray handles', () => {
  const ray = { origin: [1, 2, 3] as [number, number, number], direction: [2, 0, 0] as [number, number, number], maxT: 3 };

  it('the end is origin + maxT·direction', () => {
    expect(rayTip(ray)).toEqual([7, 2, 3]);
    expect(rayTip({ origin: [0, 0, 0], direction: [0, 1, 0] })).toEqual([0, 1, 0]); // maxT defaults to 1
  });

  it('moving the end turns the ray and keeps the direction\'s length; maxT is the distance in its units', () => {
    // The tip moved to origin + (0, 6, 8): distance 10, direction (0, 0.6, 0.8) of length 2, maxT 5.
    const r = rayWithTip(ray, [1, 8, 11]);
    expect(r.origin).toEqual([1, 2, 3]);
    expect(r.direction).toEqual([0, 1.2, 1.6]);
    expect(r.maxT).toBe(5);
    expect(rayTip(r)).toEqual([1, 8, 11]);
    // A tip on the origin leaves the ray unchanged.
    expect(rayWithTip(ray, [1, 2, 3])).toBe(ray);
  });

  it('moving the origin keeps direction and maxT, rounded to 4 decimals as dragged shapes are', () => {
    expect(rayWithOrigin(ray, [0.123456, -1, 2.00004])).toEqual({ ...ray, origin: [0.1235, -1, 2] });
  });
});

describe('the motion handles', () => {
  const motion = { translationA: [0, 0, 0] as [number, number, number], translationB: [-2, 0.5, 0] as [number, number, number] };

  it('each shape ends at position + translation', () => {
    expect(motionEnd([1, 1, 1], motion, 1)).toEqual([-1, 1.5, 1]);
    expect(motionEnd(undefined, motion, 0)).toEqual([0, 0, 0]);
    expect(motionEnd([1, 2, 3], {}, 1)).toEqual([1, 2, 3]);
  });

  it('moving an end sets that shape\'s translation only', () => {
    expect(motionWithEnd(motion, 1, [1, 1, 1], [0, 0, 0])).toEqual({ translationA: [0, 0, 0], translationB: [-1, -1, -1] });
    expect(motionWithEnd(motion, 0, undefined, [0.5, 0, -0.25])).toEqual({ translationA: [0.5, 0, -0.25], translationB: [-2, 0.5, 0] });
  });
});

describe('scene file text', () => {
  beforeAll(async () => { await init(); });

  it('is the scene with its step; read back it is the same scene, bit for bit', () => {
    const scene: Scene = {
      version: 1, query: 'shapecast',
      shapes: [
        { type: 'sphere', radius: 0.1 + 0.2, position: [1 / 3, -2.5e-17, 1e-300] },
        { type: 'box', halfExtents: [0.5, 0.5, 0.5], rotation: [0.1, 0.2, 0.3, 0.9] },
      ],
      motion: { translationA: [0, 0, 0], translationB: [-2 / 7, 0, 0] },
    };
    const text = sceneFileText(scene, 3);
    const back = parseSceneText(text);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.value).toEqual({ ...scene, step: 3 });
    const v = back.value as Scene;
    expect(Object.is((v.shapes[0].position as number[])[0], 1 / 3)).toBe(true);
    expect(v.shapes[0].radius).toBe(0.30000000000000004);
    // The library reads it as a scene and answers the same.
    expect(() => validateScene(v)).not.toThrow();
    expect(run(v)).toEqual(run(scene));
  });

  it('says where text is not JSON', () => {
    expect(parseSceneText('  ')).toEqual({ ok: false, message: 'there is no JSON to read (the text is empty)' });
    // Cut after the colon of line 2 ('  "version":' is 12 characters): the text ends at column 13.
    const cut = parseSceneText('{\n  "version": \n');
    expect(cut).toEqual({ ok: false, message: 'it is not valid JSON: it ends before the JSON is complete, at line 2, column 13' });
    const r = parseSceneText('{\n  "a": 1,,\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(/^it is not valid JSON/);
  });

  it('writes the control and bidi characters the engine quotes from the text as \\uXXXX', () => {
    // The page fuzzer's find (seed 8, input 2153): a pasted NUL went into the status line as it was.
    for (const text of ['\u00000', '{"a":\u202e1}', '[1,\u0007]', '{\u0000}']) {
      const r = parseSceneText(text);
      expect(r.ok, JSON.stringify(text)).toBe(false);
      if (r.ok) continue;
      expect(r.message, JSON.stringify(text)).toMatch(/^it is not valid JSON/);
      expect(r.message, JSON.stringify(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028-\u202e\u2066-\u2069]/);
    }
    const nul = parseSceneText('\u00000');
    expect(!nul.ok && nul.message).toContain('\\u0000');
  });

  it('refuses text over MAX_SCENE_TEXT before reading it, saying its size and the limit', () => {
    // The page fuzzer's find: a pasted cloud of 10⁶ points (59 MB) held the tab for over 30 s.
    const big = `[${'0,'.repeat(MAX_SCENE_TEXT / 2)}0]`;
    expect(big.length).toBeGreaterThan(MAX_SCENE_TEXT);
    const r = parseSceneText(big);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('it is 5,000,003 characters long, and the page reads scenes of up to 5,000,000: a larger one would hold the page for many seconds (run() and the command-line tool take scenes of up to 96 MiB)');
    const justUnder = `[${'0,'.repeat(MAX_SCENE_TEXT / 2 - 2)}0]`;
    expect(justUnder.length).toBeLessThanOrEqual(MAX_SCENE_TEXT);
    expect(parseSceneText(justUnder).ok).toBe(true);
  });

  it('refuses a file over MAX_SCENE_TEXT bytes by its size, naming it, the size and the limit; one at the limit passes', () => {
    expect(fileTooLarge('scene.json', MAX_SCENE_TEXT)).toBeNull();
    expect(fileTooLarge('empty.json', 0)).toBeNull();
    expect(fileTooLarge('cloud.json', 59_328_682)).toBe('"cloud.json" was not read: it is 59,328,682 bytes, and the page reads files '
      + 'of up to 5,000,000 (a larger one would hold the tab for seconds; the library\'s run() and mesh() take more).');
    // A file's name is the user's text: control and bidi characters are written out, long names cut.
    const named = fileTooLarge('\u202eevil\u0000.json', MAX_SCENE_TEXT + 1)!;
    expect(named.startsWith('"\\u202eevil\\u0000.json" was not read: it is 5,000,001 bytes')).toBe(true);
    expect(fileTooLarge(`${'a'.repeat(500)}.obj`, MAX_SCENE_TEXT + 1)!.length).toBeLessThan(400);
  });
});

describe('fmtVecPair (the values table\'s closest points)', () => {
  it('writes coordinates that differ with the digits it takes to tell them apart, the others as fmt does', () => {
    // The large-coordinates example: 1e-6 apart along x near 1e4; y and z equal.
    const [a, b] = fmtVecPair([10001, 10000.2, 10000.1], [10001.000001, 10000.2, 10000.1]);
    expect(a).toBe('(10001, 10000.2, 10000.1)');
    expect(b).toBe('(10001.000001, 10000.2, 10000.1)');
    // Points that differ in the last bit only: 17 digits tell every pair of doubles apart.
    const next = 1 + 2 ** -52;
    expect(fmtVecPair([1, 0, 0], [next, 0, 0])).toEqual(['(1, 0, 0)', '(1.0000000000000002, 0, 0)']);
    expect(fmtVecPair([0.5, -2, 3], [0.25, -2, 3])).toEqual(['(0.5, -2, 3)', '(0.25, -2, 3)']);
  });

  it('fmt writes 10001 with 4 digits as 10000, not 1.000e+4', () => {
    expect(fmt(10001, 4)).toBe('10000');
    expect(fmt(123456.7, 6)).toBe('123457');
    expect(fmt(0.000123456, 3)).toBe('0.000123');
    expect(fmt(2.5e6, 3)).toBe('2.5e+6');
  });
});
