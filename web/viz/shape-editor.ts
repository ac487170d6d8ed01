// Editor of one shape: type, parameters, optional margin, position and rotation (as Euler angles in degrees, or
// as an exact quaternion). The editor never validates a shape: whatever the user types goes to the library,
// whose errors name the field. Only the quaternion is checked here, because the editor normalizes it.
import * as THREE from 'three';
import { round } from '../lib/draw/format';
import type { Quat, Shape, ShapeType, Vec3 } from '../lib/index';
import { SHAPE_TYPES, changeType, randomPolytopePoints } from './defaults';
import { readQuaternion } from './edit-math';
import {
  clearInvalid, cloneKeepingNaN as clone, fieldRow, fillTypeSelect, numberField, refreshFields, smallButton, type BoundField,
} from './fields';

export class ShapeEditor {
  readonly root: HTMLDetailsElement;
  private readonly body = document.createElement('div');
  private readonly typeSelect = document.createElement('select');
  private bound: BoundField<Shape>[] = [];
  private structure = '';
  private shape: Shape = { type: 'point' };
  private readonly name: string;
  /** The quaternion fields (x, y, z, w), applied together by the button or Enter; and their message. */
  private quat: HTMLInputElement[] = [];
  private quatNote = document.createElement('p');

  /** `onChange` answers whether the library accepted the edited shape. */
  constructor(container: HTMLElement, index: 0 | 1, private readonly onChange: (shape: Shape) => boolean) {
    const name = index === 0 ? 'A' : 'B';
    this.name = name;
    this.root = document.createElement('details');
    this.root.open = true;
    this.root.className = `shape-editor shape-${name.toLowerCase()}`;
    const summary = document.createElement('summary');
    summary.textContent = `Shape ${name}`;
    this.root.append(summary);

    fillTypeSelect(this.typeSelect, `type-${name.toLowerCase()}`, `Type of shape ${name}`, SHAPE_TYPES,
      (type: ShapeType) => { this.emit(changeType(this.shape, type)); });
    this.root.append(fieldRow('type', this.typeSelect), this.body);
    container.append(this.root);
  }

  /** Show `shape`: rebuild the fields when their layout changes, else refresh the values not being edited. */
  show(shape: Shape): void {
    this.shape = clone(shape);
    const structure = `${shape.type}:${shape.points?.length ?? 0}`;
    if (structure !== this.structure) {
      this.structure = structure;
      this.build();
    }
    if (![...this.typeSelect.options].some((o) => o.value === shape.type)) {
      // A type the picker does not offer (a mesh from a link or a scene file): shown, not offered.
      const o = document.createElement('option');
      o.value = shape.type;
      o.textContent = `${shape.type} (from the scene)`;
      o.disabled = true;
      this.typeSelect.append(o);
    }
    this.typeSelect.value = shape.type;
    clearInvalid(this.root);
    refreshFields(this.bound, this.shape);
    if (!this.quat.some((q) => q === document.activeElement)) {
      const q = this.shape.rotation ?? [0, 0, 0, 1];
      this.quat.forEach((input, k) => { input.value = String(q[k]); });
    }
  }

  /** Apply the four quaternion fields: normalized, or a message naming the field that is wrong. */
  applyQuaternion(): boolean {
    const read = readQuaternion(this.quat.map((q) => q.value));
    this.quat.forEach((q, k) => {
      const bad = !read.ok && read.component === k;
      q.classList.toggle('invalid', bad);
      q.setAttribute('aria-invalid', String(bad));
    });
    if (!read.ok) {
      this.quatNote.textContent = `Shape ${this.name} rotation: ${read.message}`;
      this.quatNote.classList.add('error');
      return false;
    }
    const next = clone(this.shape);
    next.rotation = read.q;
    const ok = this.emit(next);
    this.quatNote.classList.toggle('error', !ok);
    this.quatNote.textContent = ok ? `normalized: [${read.q.join(', ')}]` : `Shape ${this.name} rotation: refused (see the message above the views)`;
    if (ok) this.quat.forEach((q, k) => { q.value = String(read.q[k]); });
    return ok;
  }

  private emit(s: Shape): boolean {
    this.shape = s;
    const ok = this.onChange(clone(s));
    if (ok) clearInvalid(this.root);
    return ok;
  }

  private build(): void {
    this.bound = [];
    this.body.replaceChildren();
    const s = this.shape;
    const num = (get: (s: Shape) => number | undefined, set: (s: Shape, v: number) => void, step: number, label: string) => {
      const input = numberField(`shape ${this.name} ${label}`, step, (v) => {
        const next = clone(this.shape);
        set(next, v);
        return this.emit(next);
      });
      this.bound.push({ input, get });
      return input;
    };
    const vec = (name: string, key: 'halfExtents' | 'radii' | 'normal' | 'position' | 'scale', unset = 0) =>
      this.body.append(fieldRow(name, ...[0, 1, 2].map((k) => num(
        (x) => (x[key] as Vec3 | undefined)?.[k] ?? unset,
        (x, v) => { const a = ((x[key] as Vec3 | undefined) ?? [unset, unset, unset]).slice() as Vec3; a[k] = v; x[key] = a; },
        0.05, `${name} ${'xyz'[k]}`))));

    switch (s.type) {
      case 'sphere':
        this.body.append(fieldRow('radius', num((x) => x.radius, (x, v) => { x.radius = v; }, 0.05, 'radius')));
        break;
      case 'box':
        vec('half extents', 'halfExtents');
        break;
      case 'capsule': case 'cylinder': case 'cone':
        this.body.append(fieldRow('radius', num((x) => x.radius, (x, v) => { x.radius = v; }, 0.05, 'radius')));
        this.body.append(fieldRow('half height', num((x) => x.halfHeight, (x, v) => { x.halfHeight = v; }, 0.05, 'half height')));
        break;
      case 'ellipsoid':
        vec('radii', 'radii');
        break;
      case 'segment': case 'triangle': case 'polytope':
        this.buildPoints(num);
        break;
      case 'point':
        break;
      case 'plane':
        // The half-space normal·x ≤ offset in the shape's frame (its position and rotation move it).
        vec('normal', 'normal');
        this.body.append(fieldRow('offset', num((x) => x.offset, (x, v) => { x.offset = v; }, 0.05, 'offset')));
        break;
      case 'mesh': {
        // Its vertices and triangles are edited as scene JSON; a mesh takes no margin.
        const size = document.createElement('span');
        size.textContent = `${s.vertices?.length ?? 0} vertices, ${s.triangles?.length ?? 0} triangles (edit them as scene JSON)`;
        this.body.append(fieldRow('mesh', size));
        break;
      }
      case 'heightfield': {
        // Its heights are edited as scene JSON; a heightfield takes no margin.
        const size = document.createElement('span');
        const rows = s.heights?.length ?? 0, cols = s.heights?.[0]?.length ?? 0;
        size.textContent = `${rows} × ${cols} heights, cells ${s.cellSize?.join(' × ') ?? '?'} (edit them as scene JSON)`;
        this.body.append(fieldRow('heightfield', size));
        break;
      }
    }
    if (s.type === 'compound') {
      // Its children are edited as scene JSON; a compound takes no margin (its children do).
      const size = document.createElement('span');
      size.textContent = `${s.children?.length ?? 0} children: ${(s.children ?? []).map((c) => c.type).join(', ')} (edit them as scene JSON)`;
      this.body.append(fieldRow('children', size));
    }
    if (s.type !== 'mesh' && s.type !== 'heightfield' && s.type !== 'compound') {
      this.body.append(fieldRow('margin', num((x) => x.margin, (x, v) => {
        if (Number.isNaN(v)) delete x.margin; else x.margin = v;
      }, 0.05, 'margin')));
    }
    // Only shapes that carry a scale (from a link or a scene) show it: most scenes have none.
    if (s.scale) vec('scale', 'scale', 1);
    vec('position', 'position');
    this.body.append(fieldRow('rotation °', ...[0, 1, 2].map((k) => num(
      (x) => round(toEulerDeg(x.rotation)[k], 2),
      (x, v) => {
        const e = toEulerDeg(x.rotation);
        e[k] = v;
        x.rotation = fromEulerDeg(e);
      }, 5, `rotation ${'xyz'[k]} in degrees`))));
    this.buildQuaternion();
  }

  private buildQuaternion(): void {
    const id = `quat-${this.name.toLowerCase()}`;
    this.quat = ['x', 'y', 'z', 'w'].map((c) => {
      const input = document.createElement('input');
      input.type = 'text';
      input.inputMode = 'decimal';
      input.spellcheck = false;
      input.className = 'quat';
      input.id = `${id}-${c}`;
      input.setAttribute('aria-label', `rotation quaternion ${c} of shape ${this.name}`);
      input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); this.applyQuaternion(); } });
      return input;
    });
    const apply = smallButton('Apply', `Set the rotation of shape ${this.name} to this quaternion, normalized (Enter)`, () => this.applyQuaternion());
    apply.id = `${id}-apply`;
    this.quatNote = document.createElement('p');
    this.quatNote.className = 'hint quat-note';
    this.quatNote.id = `${id}-note`;
    this.quatNote.setAttribute('aria-live', 'polite');
    const row = fieldRow('quaternion', ...this.quat, apply);
    row.classList.add('quat-row');
    this.body.append(row, this.quatNote);
  }

  private buildPoints(num: (get: (s: Shape) => number | undefined, set: (s: Shape, v: number) => void, step: number, label: string) => HTMLInputElement): void {
    const s = this.shape;
    const pts = s.points ?? [];
    const editable = s.type === 'polytope';
    const list = document.createElement('div');
    list.className = 'points';
    pts.forEach((_, i) => {
      const inputs = [0, 1, 2].map((k) => num(
        (x) => x.points?.[i]?.[k],
        (x, v) => { const p = (x.points ?? []).map((q) => q.slice() as Vec3); p[i][k] = v; x.points = p; },
        0.05, `point ${i + 1} ${'xyz'[k]}`));
      const row = fieldRow(`p${i + 1}`, ...inputs);
      if (editable && pts.length > 1) {
        const del = smallButton('−', `Remove point ${i + 1}`, () => {
          const next = clone(this.shape);
          next.points = next.points!.filter((_, j) => j !== i);
          this.emit(next);
          this.show(next);
        });
        row.append(del);
      }
      list.append(row);
    });
    this.body.append(list);
    if (editable) {
      const bar = document.createElement('div');
      bar.className = 'buttons';
      bar.append(
        smallButton('+ point', 'Add a point', () => {
          const next = clone(this.shape);
          const last = next.points?.[next.points.length - 1] ?? [0, 0, 0];
          next.points = [...(next.points ?? []), [round(last[0] + 0.2, 2), round(last[1] + 0.1, 2), round(last[2] - 0.1, 2)]];
          this.emit(next);
          this.show(next);
        }),
        smallButton('Random polytope', 'Replace the points with a random set', () => {
          const next = clone(this.shape);
          next.points = randomPolytopePoints();
          this.emit(next);
          this.show(next);
        }),
      );
      this.body.append(bar);
    }
  }
}

function toEulerDeg(q: Quat | undefined): [number, number, number] {
  const [x, y, z, w] = q ?? [0, 0, 0, 1];
  const e = new THREE.Euler().setFromQuaternion(new THREE.Quaternion(x, y, z, w).normalize(), 'XYZ');
  return [e.x, e.y, e.z].map((r) => THREE.MathUtils.radToDeg(r)) as [number, number, number];
}

function fromEulerDeg(e: [number, number, number]): Quat {
  if (!e.every(Number.isFinite)) return [NaN, NaN, NaN, NaN];
  const q = new THREE.Quaternion().setFromEuler(new THREE.Euler(...e.map((d) => THREE.MathUtils.degToRad(d)) as [number, number, number], 'XYZ'));
  return [q.x, q.y, q.z, q.w].map((c) => round(c, 6)) as Quat;
}
