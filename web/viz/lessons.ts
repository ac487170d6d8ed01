// The example list in lesson order (web/dist/viz/gallery.json, written by scripts/build.mjs from
// shared/lessons.json): one group per lesson, each example's title, and its sentence under the list once chosen.
import type { Scene } from '../lib/index';
import type { App } from './app';

export interface GalleryEntry {
  lesson: string;
  title: string;
  sentence: string;
  name: string;
  file: string;
  scene: Scene;
}

function isEntry(e: unknown): e is GalleryEntry {
  const x = e as Partial<GalleryEntry> | null;
  return !!x && typeof x === 'object' && typeof x.title === 'string' && typeof x.lesson === 'string'
    && typeof x.sentence === 'string' && !!x.scene && typeof x.scene === 'object';
}

/** The entries grouped by lesson, in order (entries of one lesson are adjacent in gallery.json). */
export function byLesson(entries: readonly GalleryEntry[]): { lesson: string; items: { entry: GalleryEntry; index: number }[] }[] {
  const groups: { lesson: string; items: { entry: GalleryEntry; index: number }[] }[] = [];
  entries.forEach((entry, index) => {
    const last = groups[groups.length - 1];
    if (last && last.lesson === entry.lesson) last.items.push({ entry, index });
    else groups.push({ lesson: entry.lesson, items: [{ entry, index }] });
  });
  return groups;
}

export async function loadGallery(app: App, select: HTMLSelectElement, sentence: HTMLElement): Promise<void> {
  let entries: GalleryEntry[] = [];
  try {
    const res = await fetch('gallery.json');
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const data: unknown = await res.json();
    if (!Array.isArray(data)) throw new Error('gallery.json is not an array');
    entries = data.filter(isEntry);
  } catch (e) {
    const o = document.createElement('option');
    o.value = '';
    o.textContent = 'No examples available';
    select.replaceChildren(o);
    select.disabled = true;
    console.warn('collidoscope: gallery not loaded:', e);
    return;
  }
  const head = document.createElement('option');
  head.value = '';
  head.textContent = entries.length ? `Choose an example (${entries.length})…` : 'No examples';
  select.replaceChildren(head, ...byLesson(entries).map((g, k) => {
    const group = document.createElement('optgroup');
    group.label = `${k + 1}. ${g.lesson}`;
    group.append(...g.items.map(({ entry, index }) => {
      const o = document.createElement('option');
      o.value = String(index);
      o.textContent = entry.title;
      return o;
    }));
    return group;
  }));
  // The sentence belongs to the example while it is shown unchanged (App.apply empties the list's value).
  const showSentence = () => {
    const entry = select.value === '' ? undefined : entries[Number(select.value)];
    sentence.textContent = entry?.sentence ?? '';
    sentence.hidden = !entry;
  };
  app.frameListeners.push(showSentence);
  select.addEventListener('change', () => {
    const entry = entries[Number(select.value)];
    if (!entry || select.value === '') return;
    app.pause();
    const raw = (entry.scene as { step?: unknown } | null)?.step;
    const step = typeof raw === 'number' ? raw : 0;
    const chosen = select.value;
    if (app.apply(entry.scene, { step, fit: true, errorPrefix: `Example "${entry.title}": ` })) select.value = chosen;
    showSentence();
    select.blur(); // give the step shortcuts back to the page
  });
  showSentence();
}
