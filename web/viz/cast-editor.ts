// Editor of what the casts, the point queries and the contact queries add to the shapes: the ray (origin,
// direction, maxT) of the ray cast, the two translations of the shape cast, the point of contains and project,
// and the margin of contact and contacts. Like the shape editors it never validates: each edit goes to the library,
// whose errors name the field ("ray.maxT" ...).
import type { Scene, Vec3 } from '../lib/index';
import type { Motion, Ray } from './edit-math';
import { fieldRow, numberField, type BoundField } from './fields';

export class CastEditor {
  readonly root: HTMLElement;
  private readonly rayBox = document.createElement('div');
  private readonly motionBox = document.createElement('div');
  private readonly pointBox = document.createElement('div');
  private readonly marginBox = document.createElement('div');
  private readonly bound: BoundField<Scene>[] = [];
  /** The z fields, hidden for a 2D scene (whose rays and translations are [x, y]). */
  private readonly zFields: HTMLInputElement[] = [];
  private scene: Scene | null = null;
  private readonly hint = document.createElement('p');

  /** `onChange` gets the scene with the edited ray or motion and answers whether the library accepted it. */
  constructor(root: HTMLElement, private readonly onChange: (scene: Scene) => boolean) {
    this.root = root;
    const rayField = (name: string, get: (r: Ray) => number | undefined, set: (r: Ray, v: number) => void, label: string, id: string) =>
      this.num(id, label, (s) => (s.ray ? get(s.ray) : undefined), (s, v) => {
        const ray = { ...s.ray!, origin: [...s.ray!.origin] as Vec3, direction: [...s.ray!.direction] as Vec3 };
        set(ray, v);
        return { ...s, ray };
      });
    const vec = (key: 'origin' | 'direction', k: number) => rayField(key, (r) => r[key][k], (r, v) => { r[key][k] = v; },
      `ray ${key} ${'xyz'[k]}`, `ray-${key}-${'xyz'[k]}`);
    this.rayBox.append(
      heading('Ray (from origin along direction, 0 ≤ t ≤ maxT)'),
      fieldRow('origin', ...[0, 1, 2].map((k) => vec('origin', k))),
      fieldRow('direction', ...[0, 1, 2].map((k) => vec('direction', k))),
      fieldRow('maxT', rayField('maxT', (r) => r.maxT ?? 1, (r, v) => { r.maxT = v; }, 'ray maxT', 'ray-maxT')),
    );
    const tr = (key: 'translationA' | 'translationB', k: number) => this.num(`motion-${key}-${'xyz'[k]}`, `motion ${key} ${'xyz'[k]}`,
      (s) => s.motion ? (s.motion[key] ?? [0, 0, 0])[k] : undefined,
      (s, v) => {
        const m: Motion = { ...s.motion };
        const t = [...(m[key] ?? (dimensionOf(s) === 2 ? [0, 0] : [0, 0, 0]))] as Vec3;
        t[k] = v;
        m[key] = t;
        return { ...s, motion: m };
      });
    this.motionBox.append(
      heading('Motion (each shape moves by its translation over the cast)'),
      fieldRow('A moves by', ...[0, 1, 2].map((k) => tr('translationA', k))),
      fieldRow('B moves by', ...[0, 1, 2].map((k) => tr('translationB', k))),
    );
    const pt = (k: number) => this.num(`point-${'xyz'[k]}`, `point ${'xyz'[k]}`, (s) => s.point?.[k],
      (s, v) => {
        const point = [...s.point!] as Vec3;
        point[k] = v;
        return { ...s, point };
      });
    this.pointBox.append(heading('Point p (against shape A)'), fieldRow('p', ...[0, 1, 2].map(pt)));
    this.marginBox.append(
      heading('Margin (a contact when A and B are at most this far apart)'),
      fieldRow('margin', this.num('contact-margin', 'contact margin', (s) => (s.margin ?? 0), (s, v) => ({ ...s, margin: v }))),
    );
    this.hint.className = 'hint';
    this.hint.textContent = 'Or drag the handles in the left view: click one to attach the gizmo.';
    root.append(this.rayBox, this.motionBox, this.pointBox, this.marginBox, this.hint);
  }

  private num(id: string, label: string, get: (s: Scene) => number | undefined, set: (s: Scene, v: number) => Scene): HTMLInputElement {
    const input = numberField(label, 0.05, (v) => !this.scene || this.onChange(set(this.scene, v)), id);
    this.bound.push({ input, get });
    if (id.endsWith('-z')) this.zFields.push(input);
    return input;
  }

  /** Show the ray, the motion, the point or the margin of `scene` (the editor hides itself for the other queries). */
  show(scene: Scene): void {
    this.scene = scene;
    const contact = scene.query === 'contact' || scene.query === 'contacts';
    this.root.hidden = !scene.ray && !scene.motion && !scene.point && !contact;
    this.rayBox.hidden = !scene.ray;
    this.motionBox.hidden = !scene.motion;
    this.pointBox.hidden = !scene.point;
    this.marginBox.hidden = !contact;
    // The handles are the ray's, the motion's and the point's.
    this.hint.hidden = !scene.ray && !scene.motion && !scene.point;
    for (const z of this.zFields) z.hidden = dimensionOf(scene) === 2;
    for (const b of this.bound) {
      if (document.activeElement === b.input) continue;
      b.input.classList.remove('invalid');
      b.input.removeAttribute('aria-invalid');
      const v = b.get(scene);
      b.input.value = v === undefined || Number.isNaN(v) ? '' : String(v);
    }
  }
}

/** 2 for a 2D scene ("dimension": 2, vectors [x, y]), else 3. */
function dimensionOf(scene: Scene): 2 | 3 {
  return (scene as { dimension?: number }).dimension === 2 ? 2 : 3;
}

function heading(text: string): HTMLElement {
  const h = document.createElement('h3');
  h.className = 'sub';
  h.textContent = text;
  return h;
}
