// The page's editing arithmetic, kept free of the DOM and of three.js: quaternion entry, the ray's and the
// motion's drag handles, and reading a scene from pasted or imported JSON.
import { printable } from '../lib/errors';
import type { Quat, Scene, Vec3 } from '../lib/index';

export type QuaternionInput = { ok: true; q: Quat } | { ok: false; component: number | null; message: string };

/**
 * Four texts as a rotation quaternion [x, y, z, w], divided by its length; a message naming the component that
 * is not a finite number, or saying that the quaternion has no length to divide by.
 */
export function readQuaternion(texts: readonly string[]): QuaternionInput {
  const names = ['x', 'y', 'z', 'w'];
  const q: number[] = [];
  for (let k = 0; k < 4; k++) {
    const t = (texts[k] ?? '').trim();
    const v = t === '' ? NaN : Number(t);
    if (!Number.isFinite(v)) {
      return { ok: false, component: k, message: `quaternion ${names[k]} must be a finite number, got ${t === '' ? 'nothing' : JSON.stringify(t)}` };
    }
    q.push(v);
  }
  // Scaled by the largest component first, so that tiny or huge entries neither underflow nor overflow.
  const big = Math.max(...q.map(Math.abs));
  if (big === 0) return { ok: false, component: null, message: 'the quaternion [0, 0, 0, 0] has no length and cannot be normalized' };
  const s = q.map((v) => v / big);
  const len = Math.hypot(...s);
  return { ok: true, q: s.map((v) => v / len) as Quat };
}

// ---- the ray's and the motion's handles -----------------------------------------------------------------

export type Ray = NonNullable<Scene['ray']>;
export type Motion = NonNullable<Scene['motion']>;

/** Digits kept of a dragged coordinate (as for dragged shapes): links stay short, the drag's noise goes. */
const DRAG_DIGITS = 4;
const roundTo = (x: number, digits: number) => {
  const k = 10 ** digits;
  return Math.round(x * k) / k;
};

/** The end of the ray, origin + maxT·direction: the handle that turns and stretches it. */
export function rayTip(ray: Ray): Vec3 {
  const t = ray.maxT ?? 1;
  return [0, 1, 2].map((k) => ray.origin[k] + t * ray.direction[k]) as Vec3;
}

/**
 * The ray whose end is at `tip`, from the same origin: the direction turns towards the tip and keeps its length
 * (a unit direction stays unit), maxT becomes the tip's distance in units of that length. A tip on the origin
 * (no direction to take) leaves the ray as it is.
 */
export function rayWithTip(ray: Ray, tip: Vec3): Ray {
  const d = [0, 1, 2].map((k) => tip[k] - ray.origin[k]);
  const len = Math.hypot(d[0], d[1], d[2]);
  const dirLen = Math.hypot(ray.direction[0], ray.direction[1], ray.direction[2]);
  if (!(len > 0) || !(dirLen > 0) || !Number.isFinite(len)) return ray;
  return {
    ...ray,
    direction: d.map((x) => roundTo((x / len) * dirLen, 6)) as Vec3,
    maxT: roundTo(len / dirLen, DRAG_DIGITS),
  };
}

/** The ray moved so that it starts at `origin`; its end moves with it. */
export function rayWithOrigin(ray: Ray, origin: Vec3): Ray {
  return { ...ray, origin: origin.map((x) => roundTo(x, DRAG_DIGITS)) as Vec3 };
}

/** Where shape i ends its motion: its position plus its translation (the handle of that translation). */
export function motionEnd(position: Vec3 | undefined, motion: Motion, i: 0 | 1): Vec3 {
  const p = position ?? [0, 0, 0];
  const t = (i === 0 ? motion.translationA : motion.translationB) ?? [0, 0, 0];
  return [0, 1, 2].map((k) => p[k] + t[k]) as Vec3;
}

/** The motion in which shape i, starting at `position`, ends at `end`; the other shape's translation is kept. */
export function motionWithEnd(motion: Motion, i: 0 | 1, position: Vec3 | undefined, end: Vec3): Motion {
  const p = position ?? [0, 0, 0];
  const t = [0, 1, 2].map((k) => roundTo(end[k] - p[k], DRAG_DIGITS)) as Vec3;
  return i === 0 ? { ...motion, translationA: t } : { ...motion, translationB: t };
}

// ---- scene JSON (paste, import, export) ---------------------------------------------------------------------

/**
 * The scene file of `scene` at `step`: the JSON the CLI reads and sceneOf() builds, with the step shown, two
 * spaces of indentation. JSON.stringify writes each number's shortest round-trip decimal: reading the file
 * back gives the same doubles, so the same scene and the same permalink.
 */
export function sceneFileText(scene: Scene, step: number): string {
  return JSON.stringify({ ...scene, step }, null, 2) + '\n';
}

/**
 * Longest scene text the page reads (characters). The library reads about 2 MB of JSON a second in a browser (a
 * cloud of 10⁶ points is 59 MB: half a minute with the tab frozen); 5 MB holds a mesh of 10⁵ triangles, or
 * 80 000 points, and reads in a few seconds. Links are shorter still (MAX_PAYLOAD in web/lib/link.ts).
 */
export const MAX_SCENE_TEXT = 5_000_000;

/**
 * Why a file of `size` bytes is refused before it is read (null when it is not): larger than MAX_SCENE_TEXT bytes.
 * A file has at least as many bytes as its text has characters (UTF-8), so a file within the limit has text within
 * it too; one over it is not read at all, into the text box or a parser, which would hold the page as a paste of
 * that size would.
 */
export function fileTooLarge(name: string, size: number): string | null {
  if (size <= MAX_SCENE_TEXT) return null;
  const n = (x: number) => x.toLocaleString('en');
  return `"${printable(name, 80)}" was not read: it is ${n(size)} bytes, and the page reads files of up to ${n(MAX_SCENE_TEXT)} `
    + '(a larger one would hold the tab for seconds; the library\'s run() and mesh() take more).';
}

/**
 * Pasted or imported text as a JSON value, or a message saying where it is not JSON. Whether the value is a
 * scene is the library's to say (validateScene): its errors name the field.
 */
export function parseSceneText(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.length > MAX_SCENE_TEXT) {
    const n = (x: number) => x.toLocaleString('en');
    return {
      ok: false,
      message: `it is ${n(text.length)} characters long, and the page reads scenes of up to ${n(MAX_SCENE_TEXT)}: a larger one `
        + 'would hold the page for many seconds (run() and the command-line tool take scenes of up to 96 MiB)',
    };
  }
  if (text.trim() === '') return { ok: false, message: 'there is no JSON to read (the text is empty)' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    // The engine's message quotes the text around the error: control and bidi characters in it are written as
    // \uXXXX (printable), so that a pasted NUL or right-to-left override cannot garble the status line.
    const message = printable((e as Error).message, 200);
    const end = /end of JSON input/.test(message);
    const m = end ? ['', String(text.trimEnd().length)] : /position (\d+)/.exec(message);
    if (!m) return { ok: false, message: `it is not valid JSON (${message})` };
    const at = Number(m[1]);
    const before = text.slice(0, at);
    const line = before.split('\n').length;
    const column = at - before.lastIndexOf('\n');
    const what = end ? 'it ends before the JSON is complete' : message.replace(/ in JSON at position \d+.*$/, '');
    return { ok: false, message: `it is not valid JSON: ${what}, at line ${line}, column ${column}` };
  }
}
