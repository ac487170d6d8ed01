// Embed mode ("?embed"): the views, the caption and the step bar without the side panel, the options of
// the URL's query string, and the postMessage API a host page drives the embedded page with.
import {
  envelope, parseHostMessage, type EmbedEvent, type EmbedOptions, type HostMessage,
} from '../lib/embed';
import { decodeLinkPayload, encodeLink } from '../lib/index';
import { errorText, type App } from './app';

/** Lays the page out for embedding; call before the views are created, so that they size to the layout. */
export function layoutEmbed(options: EmbedOptions): void {
  const root = document.getElementById('app')!;
  root.dataset.embed = options.locked ? 'fixed' : 'on';
  if (options.views) {
    const shown = new Set(options.views);
    for (const name of ['shapes', 'minkowski'] as const) {
      document.getElementById(`view-${name}`)!.toggleAttribute('data-off', !shown.has(name));
    }
  }
}

/**
 * The host side of an embed: messages from the parent window are queued until `start` (the library is
 * loaded and a scene shown), then applied; events go to the parent (any origin: they carry only what the
 * page shows).
 */
export class EmbedHost {
  private started = false;
  private readonly queue: HostMessage[] = [];
  private readonly parent: Window | null = window.parent !== window ? window.parent : null;

  constructor(private readonly app: App, private readonly options: EmbedOptions) {
    app.onError = (message) => this.post({ type: 'error', message });
    window.addEventListener('message', (e) => {
      if (this.parent === null || e.source !== this.parent) return;
      let msg: HostMessage | null;
      try {
        msg = parseHostMessage(e.data);
      } catch (err) {
        this.app.banner.show(`Message from the host page: ${(err as Error).message}`);
        return;
      }
      if (msg === null) return;
      if (this.started) this.handle(msg);
      else this.queue.push(msg);
    });
  }

  /** Called once the first scene is shown: applies the start options, announces readiness, runs queued messages. */
  start(optionErrors: string[]): void {
    const app = this.app;
    if (this.options.step !== null) app.setStep(this.options.step === 'last' ? Infinity : this.options.step);
    if (optionErrors.length) app.banner.show(`This embed's address has ${optionErrors.length === 1 ? 'an error' : 'errors'}:\n${optionErrors.join('\n')}`);
    app.onFrame = (index, count, caption) => {
      this.updateOpenLink();
      this.post({ type: 'step', step: index, frames: count, caption });
    };
    this.updateOpenLink();
    this.post({ type: 'ready', frames: app.frameCount });
    this.post({ type: 'step', step: app.frameIndex, frames: app.frameCount, caption: this.caption() });
    this.started = true;
    for (const m of this.queue.splice(0)) this.handle(m);
    if (this.options.autoplay) app.play();
  }

  private handle(msg: HostMessage): void {
    const app = this.app;
    switch (msg.type) {
      case 'load': {
        let scene: unknown = msg.scene;
        if (typeof scene === 'string') {
          try {
            scene = /^\s*[{[]/.test(scene) ? JSON.parse(scene) : decodeLinkPayload(scene);
          } catch (e) {
            app.banner.show(`Message from the host page: scene: ${errorText(e)}`);
            return;
          }
        }
        const raw = (scene as { step?: unknown } | null)?.step;
        app.pause();
        app.apply(scene, { step: typeof raw === 'number' ? raw : 0, fit: true, errorPrefix: 'Scene from the host page: ' });
        return;
      }
      case 'goto': {
        const before = app.frameIndex;
        app.setStep(msg.step === 'last' ? Infinity : msg.step);
        // A goto is always answered, also when the page shows that step already.
        if (app.frameIndex === before) this.post({ type: 'step', step: before, frames: app.frameCount, caption: this.caption() });
        return;
      }
      case 'play': app.play(); return;
      case 'pause': app.pause(); return;
      case 'speed': app.setSpeed(msg.value); return;
    }
  }

  private caption(): string {
    return this.app.trace?.frames[this.app.frameIndex]?.caption ?? '';
  }

  private post(event: EmbedEvent): void {
    this.parent?.postMessage(envelope(event), '*');
  }

  /** "Open ↗" leads to the full page (without the embed options) at this scene and step. */
  private updateOpenLink(): void {
    const a = document.getElementById('open-page') as HTMLAnchorElement | null;
    if (!a) return;
    try {
      a.href = encodeLink({ ...this.app.scene, step: this.app.frameIndex }, location.origin + location.pathname);
    } catch {
      a.removeAttribute('href');
    }
  }
}
