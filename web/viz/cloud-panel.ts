// The side panel of the hull view: point-cloud generators, the pasted list of points, and the bounding
// volumes (checkboxes and volumes). Everything is written with textContent.
import { BOUND_KINDS, obbVolume, type BoundKind } from '../lib/draw/bounds';
import { fmt } from '../lib/draw/format';
import type { Vec3 } from '../lib/index';
import { GENERATORS, GEOMETRIES, PointsParseError, formatPoints, generate, parsePoints, type Generator } from './cloud';
import type { BoundsResult } from './hull-types';
import { $ } from './panel';

export class CloudPanel {
  private readonly gen = $('cloud-generator') as HTMLSelectElement;
  private readonly count = $('cloud-count-input') as HTMLInputElement;
  private readonly countLabel = $('cloud-count-label');
  private readonly countField = $('cloud-count-field');
  private readonly geometry = $('cloud-geometry') as HTMLSelectElement;
  private readonly geometryField = $('cloud-geometry-field');
  private readonly text = $('cloud-points') as HTMLTextAreaElement;
  private readonly info = $('cloud-count');
  private readonly boundsBody = $('bounds').querySelector('tbody')!;
  private readonly boundsNote = $('bounds-note');
  private shownText = '';
  /** Bounding volumes drawn in the view. */
  readonly shown = new Set<BoundKind>();
  /** Called with a new cloud; answers whether the page accepted it. */
  onPoints: ((points: Vec3[]) => boolean) | null = null;
  /** Called with a parse error of the pasted list. */
  onError: ((message: string) => void) | null = null;
  onBoundsChange: (() => void) | null = null;

  constructor() {
    this.gen.replaceChildren(...GENERATORS.map((g) => option(g.id, g.name)));
    this.geometry.replaceChildren(...GEOMETRIES.map((g) => option(g.id, g.name)));
    this.gen.addEventListener('change', () => {
      this.syncFields(true);
      this.generate();
    });
    this.geometry.addEventListener('change', () => this.generate());
    this.count.addEventListener('change', () => this.generate());
    this.count.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.generate(); } });
    $('cloud-generate').addEventListener('click', () => this.generate());
    $('cloud-apply').addEventListener('click', () => this.applyText());
    this.text.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        this.applyText();
      }
    });
    this.text.addEventListener('input', () => {
      this.info.textContent = this.text.value === this.shownText ? this.info.textContent : 'edited: press “Use these points” (Ctrl+Enter)';
    });
    this.syncFields(true);
    this.buildBoundsRows();
  }

  private syncFields(resetCount: boolean): void {
    const g = GENERATORS.find((x) => x.id === this.gen.value) ?? GENERATORS[0];
    const geometry = g.id === 'geometry';
    this.countField.hidden = geometry;
    this.geometryField.hidden = !geometry;
    this.countLabel.textContent = g.unit === 'n' ? 'n (n×n×n points)' : 'points';
    this.count.min = String(g.min);
    this.count.max = String(g.max);
    if (resetCount) this.count.value = String(g.count);
  }

  generate(): boolean {
    const g = (this.gen.value as Generator) || 'ball';
    const spec = GENERATORS.find((x) => x.id === g) ?? GENERATORS[0];
    let n = Math.floor(this.count.valueAsNumber);
    if (!Number.isFinite(n)) n = spec.count;
    n = Math.max(spec.min, Math.min(spec.max, n));
    if (g !== 'geometry') this.count.value = String(n);
    const seed = (Math.random() * 2 ** 32) >>> 0;
    return this.onPoints?.(generate(g, n, { seed, geometry: this.geometry.value })) ?? false;
  }

  applyText(): boolean {
    let pts: Vec3[];
    try {
      pts = parsePoints(this.text.value);
    } catch (e) {
      const msg = e instanceof PointsParseError ? e.message : String(e);
      this.onError?.(msg);
      this.text.classList.add('invalid');
      this.text.setAttribute('aria-invalid', 'true');
      return false;
    }
    const ok = this.onPoints?.(pts) ?? false;
    this.text.classList.toggle('invalid', !ok);
    this.text.setAttribute('aria-invalid', String(!ok));
    return ok;
  }

  /** Show the cloud of the current scene (the list is left alone while being edited). */
  show(points: readonly Vec3[], note = ''): void {
    const text = formatPoints(points);
    if (document.activeElement !== this.text || this.text.value === this.shownText) {
      this.text.value = text;
      this.text.classList.remove('invalid');
      this.text.removeAttribute('aria-invalid');
    }
    this.shownText = text;
    this.info.textContent = `${points.length} point${points.length === 1 ? '' : 's'}${note ? ' · ' + note : ''}`;
    // The generator's count says the size of the cloud shown (an example, a pasted list), not the last one asked for.
    const g = GENERATORS.find((x) => x.id === this.gen.value);
    if (g && document.activeElement !== this.count) {
      const n = g.unit === 'n' ? Math.round(Math.cbrt(points.length)) : points.length;
      const fits = g.unit === 'n' ? n ** 3 === points.length : true;
      if (fits && n >= g.min && n <= g.max) {
        this.count.value = String(n);
      } else if (g.unit === 'n') {
        // Not an n×n×n grid: the count is a number of points.
        this.gen.value = 'ball';
        this.syncFields(false);
        this.count.value = String(points.length);
      }
    }
  }

  private buildBoundsRows(): void {
    this.boundsBody.replaceChildren(...BOUND_KINDS.map((k) => {
      const tr = document.createElement('tr');
      tr.dataset.bound = k.id;
      const th = document.createElement('th');
      const lab = document.createElement('label');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `bound-${k.id}`;
      box.addEventListener('change', () => {
        if (box.checked) this.shown.add(k.id); else this.shown.delete(k.id);
        this.onBoundsChange?.();
      });
      const sw = document.createElement('span');
      sw.className = 'swatch swatch-line';
      sw.style.background = '#' + k.color.toString(16).padStart(6, '0');
      lab.append(box, sw, document.createTextNode(k.name));
      th.append(lab);
      const td = document.createElement('td');
      td.className = 'volume';
      td.textContent = '—';
      tr.append(th, td);
      return tr;
    }));
  }

  /** Switch on exactly these bounding volumes (checkboxes follow). */
  setShown(kinds: BoundKind[]): void {
    this.shown.clear();
    for (const k of kinds) this.shown.add(k);
    for (const k of BOUND_KINDS) ($(`bound-${k.id}`) as HTMLInputElement).checked = this.shown.has(k.id);
  }

  /** The volumes of the bounding volumes (or why there are none). */
  showBounds(b: BoundsResult | null, error: string | null): void {
    const vol: Record<BoundKind, number | null> = {
      aabb: b?.aabb?.volume ?? null,
      sphere: b?.sphere?.volume ?? null,
      obbPoints: b?.fits?.points ? obbVolume(b.fits.points) : null,
      obbTriangles: b?.fits?.triangles ? obbVolume(b.fits.triangles) : null,
      obb: b ? obbVolume(b) : null,
    };
    const ref = vol.aabb;
    for (const tr of Array.from(this.boundsBody.children) as HTMLElement[]) {
      const id = tr.dataset.bound as BoundKind;
      const td = tr.querySelector('td')!;
      const v = vol[id];
      td.dataset.volume = v === null ? '' : String(v);
      td.textContent = v === null ? '—' : fmt(v, 5);
      if (v !== null && ref && id !== 'aabb') {
        const share = document.createElement('span');
        share.className = 'share';
        share.title = 'of the AABB volume';
        share.textContent = `${Math.round((100 * v) / ref)}%`;
        td.append(share);
      }
      tr.querySelector('input')!.disabled = v === null;
    }
    if (error) this.boundsNote.textContent = 'Not available: ' + error;
    else if (b) this.boundsNote.textContent = `The "obb" query returns the refined box (method: ${b.method}); it is never larger than the AABB.`;
    else this.boundsNote.textContent = '';
  }
}

function option(value: string, text: string): HTMLOptionElement {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}
