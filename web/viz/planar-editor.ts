// Editor of one shape of a 2D scene: type, parameters, margin, position [x, y] and angle (radians, as the scene
// file has it). Like the 3D editor it never validates: whatever is typed goes to the library, whose errors name
// the field; a field the library refuses is marked invalid.
import { round } from '../lib/draw/format';
import type { Shape2D, ShapeType2D, Vec2 } from '../lib/index';
import {
  clearInvalid, cloneKeepingNaN as clone, fieldRow, fillTypeSelect, numberField, refreshFields, smallButton, type BoundField,
} from './fields';

export const SHAPE_TYPES_2D: ShapeType2D[] = ['point', 'circle', 'box', 'capsule', 'segment', 'polygon'];

/** Parameters a 2D shape of `type` starts with when the user picks that type. */
export function defaultParams2D(type: ShapeType2D): Partial<Shape2D> {
  switch (type) {
    case 'point': return {};
    case 'circle': return { radius: 0.6 };
    case 'box': return { halfExtents: [0.6, 0.4] };
    case 'capsule': return { radius: 0.3, halfHeight: 0.5 };
    case 'segment': return { points: [[-0.6, -0.3], [0.6, 0.3]] };
    case 'polygon': return { points: [[-0.6, -0.5], [0.7, -0.4], [0.3, 0.6], [-0.5, 0.4]] };
  }
}

/** A 2D shape of a new type keeping the position, margin and (but for a circle) the angle of `old`. */
export function changeType2D(old: Shape2D, type: ShapeType2D): Shape2D {
  const s: Shape2D = { type, ...defaultParams2D(type) };
  if (old.margin !== undefined) s.margin = old.margin;
  if (old.position) s.position = [...old.position] as Vec2;
  if (old.angle !== undefined && type !== 'circle') s.angle = old.angle;
  return s;
}

type NumberField = (get: (s: Shape2D) => number | undefined, set: (s: Shape2D, v: number) => void, label: string, step?: number) => HTMLInputElement;

export class PlanarShapeEditor {
  readonly root: HTMLDetailsElement;
  private readonly body = document.createElement('div');
  private readonly typeSelect = document.createElement('select');
  private bound: BoundField<Shape2D>[] = [];
  private structure = '';
  private shape: Shape2D = { type: 'point' };
  private readonly name: string;

  /** `onChange` answers whether the library accepted the edited shape. */
  constructor(container: HTMLElement, index: 0 | 1, private readonly onChange: (shape: Shape2D) => boolean) {
    const name = index === 0 ? 'A' : 'B';
    this.name = name;
    this.root = document.createElement('details');
    this.root.open = true;
    this.root.hidden = true;
    this.root.className = `shape-editor planar-editor shape-${name.toLowerCase()}`;
    const summary = document.createElement('summary');
    summary.textContent = `Shape ${name} (2D)`;
    fillTypeSelect(this.typeSelect, `type2d-${name.toLowerCase()}`, `Type of 2D shape ${name}`, SHAPE_TYPES_2D,
      (type: ShapeType2D) => {
        const next = changeType2D(this.shape, type);
        this.emit(next);
        this.show(next);
      });
    this.root.append(summary, fieldRow('type', this.typeSelect), this.body);
    container.append(this.root);
  }

  /** Show `shape`: rebuild the fields when their layout changes, else refresh the values not being edited. */
  show(shape: Shape2D): void {
    this.shape = clone(shape);
    const structure = `${shape.type}:${shape.points?.length ?? 0}`;
    if (structure !== this.structure) {
      this.structure = structure;
      this.build();
    }
    this.typeSelect.value = shape.type;
    clearInvalid(this.root);
    refreshFields(this.bound, this.shape);
  }

  private emit(s: Shape2D): boolean {
    this.shape = s;
    return this.onChange(clone(s));
  }

  private build(): void {
    this.bound = [];
    this.body.replaceChildren();
    const who = `of 2D shape ${this.name}`;
    const num: NumberField = (get, set, label, step = 0.05) => {
      const input = numberField(`${label} ${who}`, step, (v) => {
        const next = clone(this.shape);
        set(next, v);
        return this.emit(next);
      });
      input.dataset.field = label;
      this.bound.push({ input, get });
      return input;
    };
    const pair = (name: string, key: 'halfExtents' | 'position') => this.body.append(fieldRow(name, ...[0, 1].map((k) => num(
      (x) => x[key]?.[k] ?? 0,
      (x, v) => { const a = (x[key] ?? [0, 0]).slice() as Vec2; a[k] = v; x[key] = a; },
      `${name} ${'xy'[k]}`))));
    const s = this.shape;
    switch (s.type) {
      case 'circle':
        this.body.append(fieldRow('radius', num((x) => x.radius, (x, v) => { x.radius = v; }, 'radius')));
        break;
      case 'box':
        pair('half extents', 'halfExtents');
        break;
      case 'capsule':
        this.body.append(fieldRow('radius', num((x) => x.radius, (x, v) => { x.radius = v; }, 'radius')));
        this.body.append(fieldRow('half height', num((x) => x.halfHeight, (x, v) => { x.halfHeight = v; }, 'half height')));
        break;
      case 'segment': case 'polygon':
        this.buildPoints(num);
        break;
      case 'point':
        break;
    }
    this.body.append(fieldRow('margin', num((x) => x.margin, (x, v) => {
      if (Number.isNaN(v)) delete x.margin; else x.margin = v;
    }, 'margin')));
    pair('position', 'position');
    // The scene's own unit (radians, counter-clockwise): the number typed is the number in the file and the link.
    if (s.type !== 'circle') {
      this.body.append(fieldRow('angle (rad)', num((x) => x.angle ?? 0, (x, v) => { x.angle = v; }, 'angle in radians', 0.05)));
    }
  }

  private buildPoints(num: NumberField): void {
    const pts = this.shape.points ?? [];
    const editable = this.shape.type === 'polygon';
    const list = document.createElement('div');
    list.className = 'points';
    pts.forEach((_, i) => {
      const row = fieldRow(`p${i + 1}`, ...[0, 1].map((k) => num(
        (x) => x.points?.[i]?.[k],
        (x, v) => { const p = (x.points ?? []).map((q) => q.slice() as Vec2); p[i][k] = v; x.points = p; },
        `point ${i + 1} ${'xy'[k]}`)));
      if (editable && pts.length > 1) {
        row.append(smallButton('−', `Remove point ${i + 1} of 2D shape ${this.name}`, () => {
          const next = clone(this.shape);
          next.points = next.points!.filter((_, j) => j !== i);
          this.emit(next);
          this.show(next);
        }));
      }
      list.append(row);
    });
    this.body.append(list);
    if (editable) {
      const bar = document.createElement('div');
      bar.className = 'buttons';
      bar.append(smallButton('+ point', `Add a point to 2D shape ${this.name}`, () => {
        const next = clone(this.shape);
        const last = next.points?.[next.points.length - 1] ?? [0, 0];
        next.points = [...(next.points ?? []), [round(last[0] + 0.2, 2), round(last[1] + 0.1, 2)]];
        this.emit(next);
        this.show(next);
      }));
      this.body.append(bar);
    }
  }
}
