// The URL hash holds the scene, the query and the step (encodeLink/decodeLink of the library).
import { decodeLink, encodeLink, type Scene } from '../lib/index';

/** The scene in the current URL's hash, null when there is no hash. Throws the library's 'bad-link' error. */
export function sceneFromHash(): Scene | null {
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
  /** The hash most recently written by this page, to tell our own writes from the user's. */
  written = '';

  write(url: string): void {
    this.pending = url;
    const now = performance.now();
    if (this.timer !== null) return;
    const wait = this.last + MIN_INTERVAL_MS - now;
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => { this.timer = null; this.flush(); }, wait);
  }

  private flush(): void {
    if (this.pending === null) return;
    const url = this.pending;
    this.pending = null;
    this.last = performance.now();
    if (url !== location.href) history.replaceState(history.state, '', url);
    this.written = location.hash;
  }
}
