// The editors' building blocks: a row of controls under a name, and a number field whose every edit goes to
// the library (the field is marked invalid while the library refuses it).

/** A row: the name, then the controls. */
export function fieldRow(name: string, ...controls: HTMLElement[]): HTMLDivElement {
  const row = document.createElement('div');
  row.className = 'field-row';
  const l = document.createElement('span');
  l.className = 'field-name';
  l.textContent = name;
  row.append(l, ...controls);
  return row;
}

/**
 * A number field named `label` (its accessible name: the row's name is not a label element). `onInput` gets the
 * value typed (NaN when empty or not a number) and answers whether the library accepted it.
 */
export function numberField(label: string, step: number, onInput: (value: number) => boolean, id?: string): HTMLInputElement {
  const input = document.createElement('input');
  input.type = 'number';
  input.step = String(step);
  if (id) input.id = id;
  input.setAttribute('aria-label', label);
  input.addEventListener('input', () => {
    const ok = onInput(input.valueAsNumber);
    input.classList.toggle('invalid', !ok);
    input.setAttribute('aria-invalid', String(!ok));
  });
  return input;
}

/** A number field and where its value comes from in what the editor shows (a scene, a shape). */
export interface BoundField<T> {
  input: HTMLInputElement;
  /** The value to display, undefined for an empty field. */
  get: (of: T) => number | undefined;
}

/** A small button (add or remove a point). */
export function smallButton(text: string, title: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'small';
  b.textContent = text;
  b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

/** A deep copy of a shape that keeps NaN (typed into an emptied field), so that the library names the field. */
export function cloneKeepingNaN<T>(s: T): T {
  return JSON.parse(JSON.stringify(s, (_k, v) => (typeof v === 'number' && Number.isNaN(v) ? '__NaN__' : v)),
    (_k, v) => (v === '__NaN__' ? NaN : v)) as T;
}
