// The URL hash holds the scene, the query and the step (encodeLink/decodeLink of the library).
import { decodeLink, encodeLink, type Scene, type Scene2D } from '../lib/index';

/** The scene in the current URL's hash, null when there is no hash. Throws the library's 'bad-link' error. */
export function sceneFromHash(): Scene | Scene2D | null {
  const h = location.hash;
  if (!h || h === '#') return null;
  return decodeLink(h);
}

/** The permalink of `scene` at `step`, on this page's URL. */
export function linkFor(scene: Scene, step: number): string {
  return encodeLink({ ...scene, step }, location.href.split('#')[0]);
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
