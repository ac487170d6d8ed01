// The URL hash holds the scene, the query and the step (encodeLink/decodeLink of the library).
import { decodeLink, encodeLink, type Scene, type Scene2D } from '../lib/index';

/** The scene in the current URL's hash, null when there is no hash. Throws the library's 'bad-link' error. */
export function sceneFromHash(): Scene | Scene2D | null {
  const h = location.hash;
  if (!h || h === '#') return null;
  return decodeLink(h);
}

/**
 * Longest link the page makes (characters). A link carries the whole scene, so a loaded mesh makes it long: past
 * about 100 000 characters, messaging and mail tools cut links or refuse them and address bars slow down. The
 * built-in meshes stay under it (the torus knot's link is about 40 000); a scene over it gets no link.
 */
export const MAX_LINK_LENGTH = 100_000;

/** The permalink of `scene` at `step`, on this page's URL; the bare page URL when the link would be too long. */
export function linkFor(scene: Scene, step: number): string {
  const base = location.href.split('#')[0];
  const link = encodeLink({ ...scene, step }, base);
  return link.length <= MAX_LINK_LENGTH ? link : base;
}

/** Why `scene` has no link (its link is over MAX_LINK_LENGTH), or null when it has one. */
export function linkTooLong(scene: Scene, step: number): string | null {
  const n = encodeLink({ ...scene, step }, location.href.split('#')[0]).length;
  if (n <= MAX_LINK_LENGTH) return null;
  return `This scene is too large for a link: it would be ${n.toLocaleString('en')} characters, and the page makes links of at most ${MAX_LINK_LENGTH.toLocaleString('en')} (longer ones get cut by chat and mail tools). Save its JSON from "Scene JSON" instead.`;
}

/**
 * Writes the hash with history.replaceState (no history entry per step, no hashchange event).
 * Browsers throttle replaceState when it is called at mouse-drag rates, so calls closer than
 * MIN_INTERVAL_MS apart are coalesced into one trailing write.
 */
const MIN_INTERVAL_MS = 200;

export class HashWriter {
  private last = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pending: string | null = null;
  /**
   * The hash of what the page shows, written or still waiting to be: a hashchange to it is nothing new.
   * (Set when the write is asked for, not when it happens: a link pasted while the page's own write waited
   * must not be taken for the page's own.)
   */
  written = '';
  /** The hash the page last put in the address bar, or took from it; anything else there is the user's. */
  private inBar = location.hash;

  write(url: string): void {
    this.pending = url;
    const at = url.indexOf('#');
    this.written = at >= 0 ? url.slice(at) : '';
    const now = performance.now();
    if (this.timer !== null) return;
    const wait = this.last + MIN_INTERVAL_MS - now;
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => { this.timer = null; this.flush(); }, wait);
  }

  /** The user navigated to a hash (hashchange): drop the write waiting; what the page shows next comes from it. */
  adopt(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
    this.inBar = location.hash;
  }

  /**
   * Keep the address bar as it is (a link the page could not open): drop the write waiting, and take the
   * address as the page's own, so that a hashchange back to it is not reopened while another one is.
   */
  hold(): void {
    this.adopt();
    this.written = location.hash;
  }

  private flush(): void {
    if (this.pending === null) return;
    const url = this.pending;
    this.pending = null;
    // The address changed since the page last wrote it: a link was pasted and its hashchange is still to
    // come. Overwriting it would lose it; the hashchange handler takes it from here.
    if (location.hash !== this.inBar) return;
    this.last = performance.now();
    if (url !== location.href) history.replaceState(history.state, '', url);
    this.inBar = location.hash;
  }
}
