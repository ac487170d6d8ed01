// The sandbox's part of the side panel: drop a body, remove the last one, and open a pair of shapes at the frame
// shown in the GJK/EPA stepper (or click one of their contact points in the view); after that jump, a button back
// to the sandbox at the same frame.
import type { Scene, SimulateFrame } from '../lib/index';
import type { App } from './app';
import { $ } from './panel';
import { contactPairs, pairScene, withDropped, withoutLastBody, type DropKind } from './sandbox-view';

/** Pairs listed at most (a world of many shapes has many pairs; the ones in contact come first). */
const MAX_PAIRS = 200;

export class SandboxPanel {
  /** The sandbox and frame the last jump left, and the pair scene it opened (the back button shows while it is shown). */
  private left: { scene: Scene; index: number; step: number; pair: string } | null = null;
  private readonly pairs = $('sandbox-pair') as HTMLSelectElement;
  private readonly back = $('sandbox-back') as HTMLButtonElement;
  private readonly remove = $('sandbox-remove') as HTMLButtonElement;
  private listed = '';

  constructor(private readonly app: App) {
    for (const kind of ['box', 'sphere', 'capsule'] as const) this.click(`sandbox-drop-${kind}`, () => this.drop(kind));
    this.click('sandbox-remove', () => {
      const next = withoutLastBody(app.scene);
      if (next) this.reapply(next, 'Remove the last body: ');
    });
    this.click('sandbox-open', () => {
      const [a, b] = this.pairs.value.split(',').map(Number);
      if (Number.isInteger(a) && Number.isInteger(b)) this.jump(a, b);
    });
    this.click('sandbox-back', () => {
      const left = this.left;
      if (!left) return;
      this.app.pause();
      this.app.apply(left.scene, { step: left.index, fit: true });
    });
    app.shapesView.onContactPick = (a, b) => this.jump(a, b);
    app.frameListeners.push(() => this.render());
    this.render();
  }

  private click(id: string, f: () => void): void {
    const b = $(id);
    b.addEventListener('click', f);
    // Buttons keep the keyboard's step shortcuts working (as the page's other buttons).
    b.addEventListener('mousedown', (e) => e.preventDefault());
  }

  /** A `kind` body dropped above the scene's highest point at the start; the scene is traced again. */
  private drop(kind: DropKind): void {
    if (!this.app.isWorld) return;
    const first = this.app.trace?.frames[0] as SimulateFrame | undefined;
    if (!first) return;
    // The top of what is drawn at the start (the shapes view draws the start's poses at frame 0).
    const top = this.app.shapesView.world.boundsAt(first.poses).max.y;
    this.reapply(withDropped(this.app.scene, kind, top), `Drop a ${kind}: `);
  }

  private reapply(next: Scene, errorPrefix: string): void {
    this.app.pause();
    this.app.apply(next, { step: this.app.frameIndex, fit: true, errorPrefix });
  }

  /** Shapes a and b at the frame shown, as a two-shape scene in the stepper (penetration or distance). */
  jump(a: number, b: number): void {
    const frame = this.app.trace?.frames[this.app.frameIndex] as SimulateFrame | undefined;
    if (!this.app.isWorld || !frame) return;
    let pair: Scene;
    try {
      pair = pairScene(this.app.scene, frame, a, b);
    } catch (e) {
      this.app.banner.show(`Shapes ${a} and ${b} at step ${frame.step}: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    this.app.pause();
    // Set before the pair is shown: showing it renders the back button.
    const before = this.left;
    this.left = { scene: { ...this.app.scene }, index: this.app.frameIndex, step: frame.step, pair: JSON.stringify(pair) };
    if (!this.app.apply(pair, { step: 0, fit: true, errorPrefix: `Shapes ${a} and ${b} at step ${frame.step}: ` })) this.left = before;
  }

  /** The pair list of the frame shown, the remove button's state, and the back button while a jump's pair is shown. */
  private render(): void {
    const app = this.app;
    this.back.hidden = !this.left || JSON.stringify(app.scene) !== this.left.pair;
    if (this.left && !this.back.hidden) this.back.textContent = `Back to the sandbox (step ${this.left.step})`;
    if (!app.isWorld) return;
    this.remove.disabled = withoutLastBody(app.scene) === null;
    const frame = app.trace?.frames[app.frameIndex] as SimulateFrame | undefined;
    if (!frame) return;
    const touching = contactPairs(frame);
    const key = JSON.stringify([app.scene.shapes.map((sh) => sh.type), touching.map((p) => [p.a, p.b, p.points])]);
    if (key === this.listed) return;
    this.listed = key;
    const chosen = this.pairs.value;
    const options: HTMLOptionElement[] = [];
    const seen = new Set<string>();
    const add = (a: number, b: number, text: string) => {
      const value = `${a},${b}`;
      if (seen.has(value) || options.length >= MAX_PAIRS) return;
      seen.add(value);
      const o = document.createElement('option');
      o.value = value;
      o.textContent = text;
      options.push(o);
    };
    const name = (i: number) => `${i} ${app.scene.shapes[i]?.type ?? ''}`;
    for (const p of touching) add(p.a, p.b, `${name(p.a)} – ${name(p.b)}: ${p.points} contact point${p.points === 1 ? '' : 's'}`);
    const n = app.scene.shapes.length;
    for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) add(a, b, `${name(a)} – ${name(b)}`);
    this.pairs.replaceChildren(...options);
    if (seen.has(chosen)) this.pairs.value = chosen;
  }
}
