// The convergence plot beside the stepper: the bounds of GJK and EPA, or the cast's λ, per iteration (numbers
// from convergence.ts), the current step marked; a click or tap on an iteration's column goes to its step.
// Hidden for queries without iterations to plot.
import type { App } from './app';
import { convergence, linearTicks, pointAt, type Convergence } from './convergence';
import { fmt } from '../lib/draw/format';

const SVG = 'http://www.w3.org/2000/svg';
const HEIGHT = 80;
/** Room for the y labels on the left, the legend on top and the iteration numbers below. */
const PAD = { left: 52, right: 10, top: 18, bottom: 16 };

function el<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

export class ConvergencePlot {
  private readonly box: HTMLElement;
  private readonly svg: SVGSVGElement;
  private data: Convergence | null = null;
  private traceShown: unknown = null;
  private width = 0;

  constructor(private readonly app: App, box: HTMLElement) {
    this.box = box;
    this.svg = el('svg', { class: 'plot-svg', height: HEIGHT, role: 'img' });
    box.append(this.svg);
    app.frameListeners.push(() => this.update());
    new ResizeObserver(() => {
      const w = Math.round(this.box.clientWidth);
      if (w !== this.width && w > 0) { this.width = w; this.draw(); }
    }).observe(box);
    this.svg.addEventListener('click', (e) => {
      const col = (e.target as Element).closest('[data-frame]');
      if (col) this.app.setStep(Number(col.getAttribute('data-frame')));
    });
    // A plot click must not take the keys' focus away from the step shortcuts.
    this.svg.addEventListener('mousedown', (e) => e.preventDefault());
  }

  private update(): void {
    if (this.app.trace !== this.traceShown) {
      this.traceShown = this.app.trace;
      this.data = convergence(this.app.trace);
      this.box.hidden = this.data === null;
      this.width = Math.round(this.box.clientWidth);
    }
    this.draw();
  }

  private draw(): void {
    const c = this.data;
    this.svg.replaceChildren();
    if (!c || this.box.hidden) return;
    const w = Math.max(160, this.width || 320);
    this.svg.setAttribute('width', String(w));
    this.svg.setAttribute('viewBox', `0 0 ${w} ${HEIGHT}`);
    const n = c.iterations.length;
    const values = c.series.flatMap((s) => s.values).filter((x): x is number => x !== null);
    const toY = this.yScale(c, values);
    const x0 = PAD.left;
    const x1 = w - PAD.right;
    const colW = (x1 - x0) / n;
    const xAt = (i: number) => x0 + colW * (i + 0.5);
    const current = pointAt(c, this.app.frameIndex);
    this.svg.setAttribute('aria-label', `Convergence: ${c.series.map((s) => s.label).join(' and ')} over ${n} iteration${n === 1 ? '' : 's'}`
      + (current >= 0 ? `; iteration ${c.iterations[current]} marked` : ''));

    // Axis ticks and labels.
    for (const t of toY.ticks) {
      const y = toY.y(t);
      this.svg.append(el('line', { class: 'plot-grid', x1: x0, x2: x1, y1: y, y2: y }));
      this.svg.append(el('text', { class: 'plot-tick', x: x0 - 4, y: y + 3, 'text-anchor': 'end' }, toY.text(t)));
    }
    // The current iteration's column, then one clickable column per iteration.
    if (current >= 0) this.svg.append(el('rect', { class: 'plot-current', x: x0 + colW * current, y: PAD.top, width: colW, height: HEIGHT - PAD.top - PAD.bottom }));
    c.iterations.forEach((it, i) => {
      const col = el('rect', {
        class: 'plot-col', x: x0 + colW * i, y: PAD.top, width: colW, height: HEIGHT - PAD.top,
        'data-frame': c.frames[i], 'data-iteration': it,
      });
      col.append(el('title', {}, `Iteration ${it}: go to step ${c.frames[i] + 1}`));
      this.svg.append(col);
      const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor((x1 - x0) / 22))));
      if (i % every === 0 || i === n - 1) {
        this.svg.append(el('text', { class: 'plot-tick', x: xAt(i), y: HEIGHT - 4, 'text-anchor': 'middle' }, String(it)));
      }
    });
    // The series: a line through the known values and a dot per value.
    c.series.forEach((s, k) => {
      const pts = s.values.map((v, i) => (v === null || !toY.ok(v) ? null : [xAt(i), toY.y(v)] as const));
      let path = '';
      let pen = false;
      for (const p of pts) {
        if (!p) { pen = false; continue; }
        path += `${pen ? 'L' : 'M'}${p[0].toFixed(1)},${p[1].toFixed(1)}`;
        pen = true;
      }
      this.svg.append(el('path', { class: `plot-line plot-${s.id}`, d: path }));
      pts.forEach((p, i) => {
        if (!p) return;
        const dot = el('circle', {
          class: `plot-dot plot-${s.id}${i === current ? ' current' : i > current ? ' future' : ''}`, cx: p[0], cy: p[1], r: i === current ? 4.5 : 3,
          'data-series': s.id, 'data-iteration': c.iterations[i], 'data-frame': c.frames[i], 'data-value': JSON.stringify(s.values[i]),
        });
        dot.append(el('title', {}, `${s.label}, iteration ${c.iterations[i]}: ${fmt(s.values[i] as number, 6)}`));
        this.svg.append(dot);
      });
      this.svg.append(el('text', { class: `plot-legend plot-${s.id}`, x: x0 + 4 + k * Math.min(190, (x1 - x0) / 2), y: 11 }, `● ${s.label}`));
    });
    this.svg.append(el('text', { class: 'plot-tick', x: 4, y: 11 }, c.log ? 'log' : ''));
  }

  /** The y mapping: log10 when the values span decades, else linear with a little headroom. */
  private yScale(c: Convergence, values: number[]): { y: (v: number) => number; ok: (v: number) => boolean; ticks: number[]; text: (v: number) => string } {
    const top = PAD.top + 3;
    const bottom = HEIGHT - PAD.bottom - 3;
    if (values.length === 0) return { y: () => bottom, ok: () => false, ticks: [], text: String };
    if (c.log) {
      const lo = Math.floor(Math.log10(Math.min(...values)));
      const hi = Math.ceil(Math.log10(Math.max(...values)));
      const span = Math.max(1, hi - lo);
      const stride = Math.ceil(span / 3);
      const ticks: number[] = [];
      for (let e = hi; e >= lo; e -= stride) ticks.push(10 ** e);
      return {
        y: (v) => bottom - ((Math.log10(v) - lo) / span) * (bottom - top),
        ok: (v) => v > 0,
        ticks,
        text: (v) => `1e${Math.round(Math.log10(v))}`,
      };
    }
    // From zero, unless every value sits far above it (then zero would squash the lines together).
    let hi = Math.max(...values);
    let lo = Math.min(...values);
    if (!(lo > 0.2 * hi)) lo = Math.min(0, lo);
    if (!(hi > lo)) { hi = lo + 1; }
    const ticks = linearTicks(lo, hi, 3);
    lo = Math.min(lo, ticks[0]);
    hi = Math.max(hi, ticks[ticks.length - 1]);
    return {
      y: (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top),
      ok: () => true,
      ticks,
      text: (v) => fmt(v, 3),
    };
  }
}
