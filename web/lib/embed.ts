// collidoscope — the embedding contract shared by the page (web/viz, opened with "?embed") and the
// <collidoscope-view> element: the URL options of an embed and the postMessage protocol between a host
// page and the embedded page. Pure data and validation: no DOM, no WebAssembly.

/** Every message either way carries these two fields, so that hosts can tell ours from other frames'. */
export const MESSAGE_SOURCE = 'collidoscope';
export const MESSAGE_VERSION = 1;

/** The views an embed may show (two-shape queries; a point-cloud query has its one hull view). */
export const VIEW_NAMES = ['shapes', 'minkowski'] as const;
export type ViewName = (typeof VIEW_NAMES)[number];

/** Play speeds accepted, as multiples of the page's normal pace (one step every 0.9 s). */
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 8;

/** A start step: a frame index, or the last frame. */
export type StepTarget = number | 'last';

export interface EmbedOptions {
  /** The page shows only the views, the caption and the step bar. */
  embed: boolean;
  /** The viewer cannot edit the scene (no gizmo); the host can still load scenes. */
  locked: boolean;
  /** The step shown first, overriding the link's "step"; null keeps the link's. */
  step: StepTarget | null;
  autoplay: boolean;
  speed: number;
  /** The views shown, in any order; null shows every view of the query. */
  views: ViewName[] | null;
  /** Predict mode on: before each GJK or EPA step the viewer chooses what comes next. */
  predict: boolean;
}

export const DEFAULT_EMBED_OPTIONS: Readonly<EmbedOptions> = {
  embed: false, locked: false, step: null, autoplay: false, speed: 1, views: null, predict: false,
};

const PARAMETERS = ['embed', 'locked', 'step', 'autoplay', 'speed', 'views', 'predict'] as const;

/** Text quoted from the input for a message, short and without control characters. */
function quote(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '?');
  return JSON.stringify(clean.length > 40 ? clean.slice(0, 40) + '…' : clean);
}

/** A flag parameter: present without a value, or "true" / "false". */
function flag(name: string, value: string): boolean {
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new Error(`${name}: expected no value, "true" or "false", got ${quote(value)}`);
}

/** A step given as text: a whole number ≥ 0 (the first step is 0) or "last". */
export function parseStep(name: string, value: string): StepTarget {
  if (value === 'last') return 'last';
  if (!/^\d{1,9}$/.test(value)) throw new Error(`${name}: expected a whole number ≥ 0 (the first step is 0) or "last", got ${quote(value)}`);
  return Number(value);
}

/** A play speed given as text: a decimal number from MIN_SPEED to MAX_SPEED. */
export function parseSpeed(name: string, value: string): number {
  const x = /^\d*\.?\d+$/.test(value) ? Number(value) : NaN;
  if (!(x >= MIN_SPEED && x <= MAX_SPEED)) {
    throw new Error(`${name}: expected a number from ${MIN_SPEED} to ${MAX_SPEED} (1 = one step every 0.9 s), got ${quote(value)}`);
  }
  return x;
}

/** A list of views given as text: names from VIEW_NAMES separated by commas, each at most once. */
export function parseViews(name: string, value: string): ViewName[] {
  const parts = value.split(',').map((s) => s.trim());
  if (value.trim() === '') throw new Error(`${name}: expected one or more of ${VIEW_NAMES.join(', ')} separated by commas, got nothing`);
  const views: ViewName[] = [];
  for (const p of parts) {
    if (!(VIEW_NAMES as readonly string[]).includes(p)) {
      throw new Error(`${name}: unknown view ${quote(p)} (the views are ${VIEW_NAMES.join(', ')})`);
    }
    if (views.includes(p as ViewName)) throw new Error(`${name}: the view ${quote(p)} is listed twice`);
    views.push(p as ViewName);
  }
  return views;
}

/**
 * The embed options of a URL's query string ("?embed&step=3&speed=2"). Every bad or unknown parameter is
 * an error naming it (that option keeps its default); parameters are only read when "embed" is present.
 */
export function parseEmbedOptions(search: string): { options: EmbedOptions; errors: string[] } {
  const options: EmbedOptions = { ...DEFAULT_EMBED_OPTIONS };
  const errors: string[] = [];
  const params = new URLSearchParams(search);
  if (!params.has('embed')) return { options, errors };
  const seen = new Set<string>();
  for (const [name, value] of params) {
    try {
      if (seen.has(name)) throw new Error(`${name}: given more than once`);
      seen.add(name);
      switch (name) {
        case 'embed':
          options.embed = true;
          if (value !== '' && value !== 'fixed') throw new Error(`embed: expected no value or "fixed", got ${quote(value)}`);
          if (value === 'fixed') options.locked = true;
          break;
        case 'locked': options.locked = flag(name, value) || options.locked; break;
        case 'autoplay': options.autoplay = flag(name, value); break;
        case 'step': options.step = parseStep(name, value); break;
        case 'speed': options.speed = parseSpeed(name, value); break;
        case 'views': options.views = parseViews(name, value); break;
        case 'predict': options.predict = flag(name, value); break;
        default:
          throw new Error(`unknown parameter ${quote(name)} (an embed takes ${PARAMETERS.join(', ')})`);
      }
    } catch (e) {
      errors.push((e as Error).message);
    }
  }
  return { options, errors };
}

/** The query string of `options` (without "?"): the inverse of parseEmbedOptions for what differs from the defaults. */
export function embedSearch(options: Partial<EmbedOptions>): string {
  const parts = [options.locked ? 'embed=fixed' : 'embed'];
  if (options.step !== undefined && options.step !== null) parts.push(`step=${options.step}`);
  if (options.autoplay) parts.push('autoplay');
  if (options.speed !== undefined && options.speed !== 1) parts.push(`speed=${options.speed}`);
  if (options.views) parts.push(`views=${options.views.join(',')}`);
  if (options.predict) parts.push('predict');
  return parts.join('&');
}

// ---- postMessage protocol ------------------------------------------------------------------------------

/** Messages a host posts to the embedded page. */
export type HostMessage =
  | { type: 'load'; scene: object | string }
  | { type: 'goto'; step: StepTarget }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'speed'; value: number };

/** Events the embedded page posts to its host. */
export type EmbedEvent =
  | { type: 'ready'; frames: number }
  | { type: 'step'; step: number; frames: number; caption: string }
  | { type: 'error'; message: string };

export type Envelope<T> = T & { source: typeof MESSAGE_SOURCE; version: typeof MESSAGE_VERSION };

export const HOST_MESSAGE_TYPES = ['load', 'goto', 'play', 'pause', 'speed'] as const;

/** `body` with the source and version fields. */
export function envelope<T extends object>(body: T): Envelope<T> {
  return { source: MESSAGE_SOURCE, version: MESSAGE_VERSION, ...body };
}

function described(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${quote(v)}`;
  if (typeof v === 'number') return String(v);
  return typeof v;
}

/**
 * A host's message, checked. Returns null for data that is not ours (no source "collidoscope": other
 * scripts post messages too); throws an Error naming the field for one of ours that is wrong.
 */
export function parseHostMessage(data: unknown): HostMessage | null {
  if (data === null || typeof data !== 'object' || (data as { source?: unknown }).source !== MESSAGE_SOURCE) return null;
  const m = data as Record<string, unknown>;
  if (m.version !== MESSAGE_VERSION) {
    throw new Error(`version: this page speaks version ${MESSAGE_VERSION} of the collidoscope messages, got ${described(m.version)}`);
  }
  const extra = (allowed: string[]) => {
    const unknown = Object.keys(m).filter((k) => !['source', 'version', 'type', ...allowed].includes(k));
    if (unknown.length) throw new Error(`${quote(unknown[0])}: unknown field in a "${String(m.type)}" message`);
  };
  switch (m.type) {
    case 'load':
      extra(['scene']);
      if (typeof m.scene !== 'string' && (m.scene === null || typeof m.scene !== 'object' || Array.isArray(m.scene))) {
        throw new Error(`scene: expected a scene object, its JSON text or a permalink, got ${described(m.scene)}`);
      }
      return { type: 'load', scene: m.scene as object | string };
    case 'goto': {
      extra(['step']);
      const s = m.step;
      if (s !== 'last' && !(typeof s === 'number' && Number.isInteger(s) && s >= 0)) {
        throw new Error(`step: expected a whole number ≥ 0 (the first step is 0) or "last", got ${described(s)}`);
      }
      return { type: 'goto', step: s as StepTarget };
    }
    case 'play':
    case 'pause':
      extra([]);
      return { type: m.type };
    case 'speed':
      extra(['value']);
      if (!(typeof m.value === 'number' && m.value >= MIN_SPEED && m.value <= MAX_SPEED)) {
        throw new Error(`value: expected a play speed from ${MIN_SPEED} to ${MAX_SPEED}, got ${described(m.value)}`);
      }
      return { type: 'speed', value: m.value };
    default:
      throw new Error(`type: unknown message type ${typeof m.type === 'string' ? quote(m.type) : described(m.type)} `
        + `(the types are ${HOST_MESSAGE_TYPES.join(', ')})`);
  }
}

/** An event from the embedded page, checked; null for data that is not a collidoscope event of this version. */
export function parseEmbedEvent(data: unknown): EmbedEvent | null {
  if (data === null || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  if (m.source !== MESSAGE_SOURCE || m.version !== MESSAGE_VERSION) return null;
  if (m.type === 'ready' && typeof m.frames === 'number') return { type: 'ready', frames: m.frames };
  if (m.type === 'step' && typeof m.step === 'number' && typeof m.frames === 'number' && typeof m.caption === 'string') {
    return { type: 'step', step: m.step, frames: m.frames, caption: m.caption };
  }
  if (m.type === 'error' && typeof m.message === 'string') return { type: 'error', message: m.message };
  return null;
}
