// collidoscope/element — <collidoscope-view>, the stepping page embedded in any web page.
//
//   <script type="module" src=".../collidoscope/web/dist/lib/element.mjs"></script>
//   <collidoscope-view scene='{"version":1,"query":"distance","shapes":[...]}' autoplay speed="2"></collidoscope-view>
//
// The element wraps an <iframe> of the page in embed mode ("?embed") and talks to it with the page's
// postMessage API (./embed). An iframe, not the views themselves: the page is three.js, the WebAssembly
// library and a few thousand lines of viewer (1.6 MB of JavaScript); an iframe loads it only where an
// element is used, keeps its styles, keys and WebGL contexts apart from the host's, and is the very page
// the browser tests check. This module itself is a few kilobytes with no imports outside ./embed.
import {
  embedSearch, parseEmbedEvent, parseSpeed, parseStep, parseViews, envelope, MESSAGE_SOURCE,
  type EmbedEvent, type HostMessage, type StepTarget, type ViewName,
} from './embed';

/** The page shipped in the package (web/dist/viz), relative to this module (web/dist/lib/element.mjs). */
const SHIPPED_PAGE = '../viz/index.html';

/**
 * Where the page is when the element has no "src": the copy shipped in the package, beside this module.
 * (A bundler moves this module away from that copy: then "src" names where the host serves the page.)
 */
export function defaultPageUrl(): string {
  return new URL(SHIPPED_PAGE, import.meta.url).href;
}

/** How long the page may take to say it is ready before the element reports an error. */
const READY_TIMEOUT_MS = 30_000;

const ATTRIBUTES = ['src', 'scene', 'step', 'autoplay', 'speed', 'views', 'locked', 'predict'] as const;

export interface StepDetail { step: number; frames: number; caption: string }
export interface ReadyDetail { frames: number }
export interface ErrorDetail { message: string }

/** A scene given as an object, its JSON text or a permalink ("…#v1=…"), as the URL hash of the page. */
function sceneHash(scene: object | string): string {
  if (typeof scene === 'string') {
    const at = scene.indexOf('#v1=');
    if (at >= 0) return scene.slice(at);
    if (scene.startsWith('v1=')) return '#' + scene;
  }
  const json = typeof scene === 'string' ? scene : JSON.stringify(scene);
  const bytes = new TextEncoder().encode(json);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return '#v1=' + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// HTMLElement does not exist in Node: the class is defined on a stand-in there, so that importing this
// module (e.g. for its types, or in server-side rendering) does not throw; it registers only in a browser.
const Base: typeof HTMLElement = typeof HTMLElement === 'undefined' ? (class {} as typeof HTMLElement) : HTMLElement;

/**
 * <collidoscope-view>: attributes src, scene, step, autoplay, speed, views, locked, predict; the same as properties;
 * methods play(), pause(), goTo(step), load(scene); events 'ready', 'step' and 'error' (CustomEvent detail).
 */
export class CollidoscopeView extends Base {
  static readonly observedAttributes = ATTRIBUTES;
  private frame: HTMLIFrameElement | null = null;
  private ready = false;
  private readonly queue: HostMessage[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private builtUrl = '';
  /** The scene the page was last given (by attribute or load()): a "scene" attribute equal to it is not new. */
  private sceneGiven: string | null = null;
  private readonly onMessage = (e: MessageEvent) => this.receive(e);
  /** The last step event's detail: what the page shows. */
  current: StepDetail | null = null;

  connectedCallback(): void {
    if (!this.shadowRoot) {
      const root = this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = ':host{display:block;position:relative;width:100%;height:500px;min-height:240px}'
        + ':host([hidden]){display:none}iframe{display:block;border:0;width:100%;height:100%}';
      root.append(style);
    }
    window.addEventListener('message', this.onMessage);
    this.rebuild();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.frame?.remove();
    this.frame = null;
    this.builtUrl = '';
    this.ready = false;
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (!this.isConnected || before === after) return;
    // A running page takes a new scene, step, speed or play state by message; the rest reloads it.
    if (this.ready && name === 'scene' && after !== null) {
      if (after !== this.sceneGiven) this.load(after);
    } else if (this.ready && name === 'step' && after !== null) {
      try { this.goTo(parseStep('step', after)); } catch (e) { this.fail((e as Error).message); }
    } else if (this.ready && name === 'speed' && after !== null) {
      try { this.send({ type: 'speed', value: parseSpeed('speed', after) }); } catch (e) { this.fail((e as Error).message); }
    } else if (this.ready && name === 'autoplay') {
      this.send({ type: after === null ? 'pause' : 'play' });
    } else {
      this.rebuild();
    }
  }

  // ---- properties mirroring the attributes ----
  get src(): string { return this.getAttribute('src') ?? defaultPageUrl(); }
  set src(v: string) { this.setAttribute('src', v); }
  get scene(): string | null { return this.getAttribute('scene'); }
  /** A scene object, its JSON text or a permalink. */
  set scene(v: object | string | null) {
    if (v === null) this.removeAttribute('scene');
    else this.setAttribute('scene', typeof v === 'string' ? v : JSON.stringify(v));
  }
  get step(): number | null { return this.current?.step ?? null; }
  set step(v: StepTarget) { this.setAttribute('step', String(v)); }
  get autoplay(): boolean { return this.hasAttribute('autoplay'); }
  set autoplay(v: boolean) { this.toggleAttribute('autoplay', v); }
  get speed(): number { return Number(this.getAttribute('speed') ?? 1); }
  set speed(v: number) { this.setAttribute('speed', String(v)); }
  get views(): ViewName[] | null {
    const v = this.getAttribute('views');
    try { return v === null ? null : parseViews('views', v); } catch { return null; }
  }
  set views(v: ViewName[] | string | null) {
    if (v === null) this.removeAttribute('views');
    else this.setAttribute('views', Array.isArray(v) ? v.join(',') : v);
  }
  get locked(): boolean { return this.hasAttribute('locked'); }
  set locked(v: boolean) { this.toggleAttribute('locked', v); }
  /** Predict mode: before each GJK or EPA step the viewer chooses what comes next. */
  get predict(): boolean { return this.hasAttribute('predict'); }
  set predict(v: boolean) { this.toggleAttribute('predict', v); }
  /** The frame count of the scene shown (0 before 'ready'). */
  get frames(): number { return this.current?.frames ?? 0; }

  // ---- methods ----
  play(): void { this.send({ type: 'play' }); }
  pause(): void { this.send({ type: 'pause' }); }
  /** Shows step `step` (0 is the first; 'last' the last; past the last shows the last). */
  goTo(step: StepTarget): void { this.send({ type: 'goto', step }); }
  /** Shows a new scene: an object, its JSON text or a permalink. */
  load(scene: object | string): void {
    this.sceneGiven = typeof scene === 'string' ? scene : JSON.stringify(scene);
    this.send({ type: 'load', scene });
  }

  /** Messages wait until the page is ready (they would be lost in a page still loading). */
  private send(msg: HostMessage): void {
    if (this.ready && this.frame?.contentWindow) this.frame.contentWindow.postMessage(envelope(msg), '*');
    else this.queue.push(msg);
  }

  /** (Re)creates the iframe for the current attributes; a bad attribute is an 'error' event naming it. */
  private rebuild(): void {
    if (!this.shadowRoot) return;
    let url: URL;
    try {
      const opts: Parameters<typeof embedSearch>[0] = { locked: this.locked, autoplay: this.autoplay, predict: this.predict };
      const step = this.getAttribute('step');
      if (step !== null) opts.step = parseStep('step', step);
      const speed = this.getAttribute('speed');
      if (speed !== null) opts.speed = parseSpeed('speed', speed);
      const views = this.getAttribute('views');
      if (views !== null) opts.views = parseViews('views', views);
      try {
        url = new URL(this.src, document.baseURI);
      } catch {
        throw new Error(`src: not a URL: ${JSON.stringify(this.src)}`);
      }
      url.search = embedSearch(opts);
      const scene = this.getAttribute('scene');
      this.sceneGiven = scene;
      url.hash = scene === null ? '' : sceneHash(scene);
    } catch (e) {
      this.fail((e as Error).message);
      return;
    }
    if (url.href === this.builtUrl && this.frame) return;
    this.builtUrl = url.href;
    this.ready = false;
    this.current = null;
    this.frame?.remove();
    const frame = document.createElement('iframe');
    frame.title = this.getAttribute('aria-label') ?? 'collidoscope: collision detection, one step at a time';
    frame.src = url.href;
    this.frame = frame;
    this.shadowRoot.append(frame);
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (!this.ready) this.fail(`src: the page at ${url.origin}${url.pathname} did not answer within ${READY_TIMEOUT_MS / 1000} s (is it the collidoscope page, served over http?)`);
    }, READY_TIMEOUT_MS);
  }

  private receive(e: MessageEvent): void {
    if (!this.frame || e.source !== this.frame.contentWindow) return;
    if ((e.data as { source?: unknown } | null)?.source !== MESSAGE_SOURCE) return;
    const ev: EmbedEvent | null = parseEmbedEvent(e.data);
    if (!ev) return;
    if (ev.type === 'ready') {
      this.ready = true;
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      this.current = { step: 0, frames: ev.frames, caption: '' };
      for (const m of this.queue.splice(0)) this.send(m);
      this.dispatchEvent(new CustomEvent<ReadyDetail>('ready', { detail: { frames: ev.frames } }));
    } else if (ev.type === 'step') {
      this.current = { step: ev.step, frames: ev.frames, caption: ev.caption };
      this.dispatchEvent(new CustomEvent<StepDetail>('step', { detail: { ...this.current } }));
    } else {
      this.dispatchEvent(new CustomEvent<ErrorDetail>('error', { detail: { message: ev.message } }));
    }
  }

  private fail(message: string): void {
    this.dispatchEvent(new CustomEvent<ErrorDetail>('error', { detail: { message } }));
  }
}

declare global {
  interface HTMLElementTagNameMap { 'collidoscope-view': CollidoscopeView }
}

if (typeof customElements !== 'undefined' && !customElements.get('collidoscope-view')) {
  customElements.define('collidoscope-view', CollidoscopeView);
}
