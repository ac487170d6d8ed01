// The side panel's read-only parts: step counter, caption, pseudocode, values, result, error banner.
// Everything is written with textContent: captions, pseudocode and error messages are never parsed as HTML.
import { resultSentence } from '../lib/captions';
import type { Trace } from '../lib/index';
import { viewOfTrace } from './queries';
import type { FrameOverlay } from './query-view';

export function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (!el) throw new Error(`missing element #${id}`);
  return el;
}

export class Banner {
  private readonly box = $('banner');
  private readonly text = $('banner-text');
  /** The message shown, or null. */
  message: string | null = null;
  onChange: (() => void) | null = null;
  /** The user closed the message. */
  onDismiss: (() => void) | null = null;

  constructor() {
    $('banner-close').addEventListener('click', () => {
      this.clear();
      this.onDismiss?.();
    });
  }

  show(message: string): void {
    this.message = message;
    this.text.textContent = message;
    this.box.hidden = false;
    this.onChange?.();
  }

  clear(): void {
    if (this.message === null) return;
    this.message = null;
    this.text.textContent = '';
    this.box.hidden = true;
    this.onChange?.();
  }
}

/** The longest part of a caption the step slider reads out with its value. */
const STEP_WORDS = 80;

/** "step 3 of 9: <the caption's first sentence>": the step slider's value in words. */
export function stepValueText(index: number, count: number, caption: string, counter?: string): string {
  if (!count) return 'no steps';
  const first = caption.split(/(?<=\.)\s/)[0]?.trim() ?? '';
  const cut = first.lastIndexOf(' ', STEP_WORDS);
  const words = first.length > STEP_WORDS ? `${first.slice(0, cut > 0 ? cut : STEP_WORDS)}…` : first;
  return `${counter ?? `step ${index + 1} of ${count}`}${words ? `: ${words}` : ''}`;
}

/**
 * The step bar at frame `index` of `count`. `counter` replaces the counter's "step i / n" when the frames are not
 * the steps one by one (a world's: "step 630 of 5000"); the scrubber still moves frame by frame, so that it lands
 * on the steps the trace kept.
 */
export function renderStepper(index: number, count: number, playing: boolean, speed: number, caption: string, counter?: string): void {
  const scrub = $('scrubber') as HTMLInputElement;
  scrub.max = String(Math.max(0, count - 1));
  scrub.value = String(index);
  scrub.disabled = count <= 1;
  scrub.setAttribute('aria-valuetext', stepValueText(index, count, caption, counter));
  $('counter').textContent = count ? counter ?? `step ${index + 1} / ${count}` : 'step 0 / 0';
  const play = $('play') as HTMLButtonElement;
  play.textContent = playing ? '⏸ Pause' : '▶ Play';
  play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
  // One step (a closed form) has nothing to play.
  play.disabled = count <= 1 && !playing;
  ($('first') as HTMLButtonElement).disabled = index <= 0;
  ($('prev') as HTMLButtonElement).disabled = index <= 0;
  ($('next') as HTMLButtonElement).disabled = index >= count - 1;
  ($('last') as HTMLButtonElement).disabled = index >= count - 1;
  const speedSelect = $('speed') as HTMLSelectElement;
  const value = String(speed);
  // A speed from a link or a host that the list lacks gets its own entry, so the list never shows another.
  if (![...speedSelect.options].some((o) => o.value === value)) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = `${value}×`;
    const after = [...speedSelect.options].find((x) => Number(x.value) > speed);
    speedSelect.insertBefore(o, after ?? null);
  }
  speedSelect.value = value;
}

let shownCode: string[] | null = null;

/**
 * Highlight line `active` of the pseudocode; `ended`, when given, is the line whose test ended the run (the last
 * step's own line is where the answer is written, which need not be the test that stopped the loop).
 */
export function renderPseudocode(lines: string[], active: number, ended: number | null = null): void {
  const ol = $('pseudocode');
  if (shownCode !== lines) {
    shownCode = lines;
    ol.replaceChildren(...lines.map((text, i) => {
      const li = document.createElement('li');
      // "code   // comment": the column padding before the comment is for monospace terminals; here the
      // comment gets its own muted span and wraps under the code instead.
      const at = text.indexOf('//');
      const code = document.createElement('span');
      code.className = 'code';
      code.textContent = at >= 0 ? text.slice(0, at).trimEnd() : text;
      li.append(code);
      if (at >= 0) {
        const comment = document.createElement('span');
        comment.className = 'comment';
        comment.textContent = text.slice(at);
        li.append(' ', comment);
      }
      li.dataset.line = String(i + 1);
      return li;
    }));
  }
  for (const li of Array.from(ol.children) as HTMLElement[]) {
    const on = li.dataset.line === String(active);
    li.classList.toggle('active', on);
    const stop = ended !== null && li.dataset.line === String(ended);
    li.classList.toggle('ended', stop);
    if (stop) li.title = 'The test on this line ended the run';
    else li.removeAttribute('title');
    if (on) li.setAttribute('aria-current', 'step');
    else li.removeAttribute('aria-current');
  }
}

export function renderFrameText(overlay: FrameOverlay | null, caption: string, trace: Trace | null): void {
  const box = $('caption');
  box.textContent = caption;
  // A caption longer than its box scrolls: then it takes the keyboard focus too, so that keys can scroll it.
  if (box.scrollHeight > box.clientHeight) box.tabIndex = 0;
  else box.removeAttribute('tabindex');
  const rows = overlay ? overlay.values() : [];
  const tbody = $('values').querySelector('tbody')!;
  tbody.replaceChildren(...rows.map(([k, v, cls]) => {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = k;
    const td = document.createElement('td');
    td.textContent = v;
    if (cls) td.className = cls;
    tr.append(th, td);
    return tr;
  }));
  // Without a trace the heading stays the default scene's.
  const view = trace ? viewOfTrace(trace) : null;
  $('result').textContent = trace ? (view?.sentence?.(trace) ?? resultSentence(trace)) : '';
  $('algorithm').textContent = (trace && view?.heading?.(trace)) || (view?.algorithm ?? 'GJK');
}
