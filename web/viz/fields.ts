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

/** Fills `select` with `types` under an id and an accessible name; `onChange` gets the type chosen. */
export function fillTypeSelect<T extends string>(select: HTMLSelectElement, id: string, label: string, types: readonly T[],
  onChange: (type: T) => void): void {
  select.id = id;
  select.setAttribute('aria-label', label);
  for (const t of types) {
    const o = document.createElement('option');
    o.value = t;
    o.textContent = t;
    select.append(o);
  }
  select.addEventListener('change', () => onChange(select.value as T));
}

/** Shows in each bound field its value in `of` (empty when undefined or NaN), but for the field being edited. */
export function refreshFields<T>(bound: readonly BoundField<T>[], of: T): void {
  for (const b of bound) {
    if (document.activeElement === b.input) continue;
    const v = b.get(of);
    b.input.value = v === undefined || Number.isNaN(v) ? '' : String(v);
  }
}

/** Takes the invalid mark off every field under `root` (the library accepted the whole shape). */
export function clearInvalid(root: ParentNode): void {
  for (const el of root.querySelectorAll('.invalid')) {
    el.classList.remove('invalid');
    el.removeAttribute('aria-invalid');
  }
}
