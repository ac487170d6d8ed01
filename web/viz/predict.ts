// Predict mode: before a GJK step is shown, the student chooses what comes next (the support point, or the
// vertices the simplex keeps), and before EPA's choice of a face, the face nearest the origin, among a few
// choices drawn numbered in the A − B view; a right choice shows the
// step, a wrong one says so and lets them try again; "Reveal" shows the answer. Off by default; buttons, the
// keys 1–4 and touch all answer.
import * as THREE from 'three';
import { fmt, fmtVec } from '../lib/draw/format';
import { COLORS, arrow, clearGroup, label, marker } from '../lib/draw/primitives';
import { isClosedForm, minkowskiSurface, type Scene, type Trace } from '../lib/index';
import type { App } from './app';
import { faceQuestion, questionFor, type Question } from './predict-questions';

/** The queries whose traces are GJK's, and EPA's: the ones asked about. */
const GJK_QUERIES = new Set(['intersect', 'distance']);
const ASKED = new Set([...GJK_QUERIES, 'penetration']);

export class Predict {
  on = false;
  private question: Question | null = null;
  /** After an answer: the step it opened, shown with its feedback until the student moves on. */
  private solvedAt: number | null = null;
  /** Steps answered (or revealed) in this trace: stepping back and forth does not ask again. */
  private answered = new Set<number>();
  private trace: Trace | null = null;
  private pool: number[][] | null = null;
  private readonly markers = new THREE.Group();
  private readonly text: HTMLElement;
  private readonly choicesBox: HTMLElement;
  private readonly feedback: HTMLElement;
  private readonly reveal: HTMLButtonElement;

  constructor(private readonly app: App, private readonly box: HTMLElement, private readonly toggle: HTMLButtonElement) {
    this.text = box.querySelector('.quiz-question')!;
    this.choicesBox = box.querySelector('.quiz-choices')!;
    this.feedback = box.querySelector('.quiz-feedback')!;
    this.reveal = box.querySelector('.quiz-reveal')!;
    app.minkView.view.scene.add(this.markers);
    app.beforeStep = (to) => this.allow(to);
    app.frameListeners.push(() => this.onFrame());
    toggle.addEventListener('click', () => this.setOn(!this.on));
    toggle.addEventListener('mousedown', (e) => e.preventDefault());
    this.reveal.addEventListener('click', () => this.answer(null));
    this.reveal.addEventListener('mousedown', (e) => e.preventDefault());
    window.addEventListener('keydown', (e) => {
      if (!this.question || this.solvedAt !== null || e.ctrlKey || e.metaKey || e.altKey) return;
      const tag = (e.target as HTMLElement | null)?.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA') return;
      const k = Number(e.key);
      if (Number.isInteger(k) && k >= 1 && k <= this.question.choices.length) {
        e.preventDefault();
        this.answer(k - 1);
      }
    });
    this.render();
  }

  setOn(on: boolean): void {
    this.on = on;
    this.toggle.setAttribute('aria-pressed', String(on));
    this.toggle.classList.toggle('on', on);
    if (!on) this.close();
    this.render();
  }

  /** Whether the step forward to `to` may be shown now; if not, the question about it is asked. */
  private allow(to: number): boolean {
    const tr = this.app.trace;
    if (!this.on || !tr || !ASKED.has(tr.query) || isClosedForm(tr) || this.answered.has(to)) return true;
    if (this.question && this.question.frame === to && this.solvedAt === null) return false;
    const q = GJK_QUERIES.has(tr.query) ? questionFor(tr.frames as never, to, this.poolFor(this.app.scene))
      : faceQuestion(tr.frames as never, to);
    if (!q) return true;
    this.question = q;
    this.solvedAt = null;
    this.feedback.textContent = '';
    this.render();
    return false;
  }

  /** Points of A − B on the cores (the space GJK runs in), the wrong support choices' source. */
  private poolFor(scene: Scene): number[][] {
    if (this.pool) return this.pool;
    try {
      this.pool = scene.shapes.length >= 2 ? minkowskiSurface(scene.shapes[0], scene.shapes[1], 400).corePoints.map((p) => [...p]) : [];
    } catch {
      this.pool = [];
    }
    return this.pool;
  }

  private onFrame(): void {
    if (this.app.trace !== this.trace) {
      this.trace = this.app.trace;
      this.pool = null;
      this.answered.clear();
      this.close();
      this.render();
      return;
    }
    const q = this.question;
    if (!q) return;
    // Moving anywhere else than where the question stands (before its step) or the step it opened closes it.
    const here = this.app.frameIndex;
    if (this.solvedAt !== null ? here !== this.solvedAt : here !== q.frame - 1) {
      this.close();
      this.render();
    }
  }

  /** The student's choice `i`, or null to reveal the answer. */
  private answer(i: number | null): void {
    const q = this.question;
    if (!q || this.solvedAt !== null) return;
    const buttons = [...this.choicesBox.querySelectorAll('button')];
    const right = q.choices.findIndex((c) => c.correct);
    if (i !== null && !q.choices[i].correct) {
      buttons[i]?.classList.add('wrong');
      buttons[i]?.setAttribute('aria-disabled', 'true');
      this.feedback.className = 'quiz-feedback wrong';
      this.feedback.textContent = q.kind === 'support'
        ? `Not ${i + 1}: it reaches less far along d than another point of A − B. Try again.`
        : q.kind === 'face' ? `Not face ${i + 1}: its plane is ${fmt(q.choices[i].distance, 4)} from O; another face is nearer. Try again.`
          : `Not "${q.choices[i].label}": the point nearest O needs other vertices. Try again.`;
      return;
    }
    buttons[right]?.classList.add('right');
    this.feedback.className = `quiz-feedback ${i === null ? 'revealed' : 'right'}`;
    const c = q.choices[right];
    const what = q.kind === 'support'
      ? `w = ${fmtVec((c as { point: number[] }).point, 4)}, the point of A − B furthest along d`
      : q.kind === 'face' ? `face ${right + 1}, whose plane is ${fmt((c as { distance: number }).distance, 6)} from O, the nearest; EPA expands it`
        : `W keeps the ${(c as { label: string }).label}: the nearest point of W ∪ {w} to O lies on it`;
    this.feedback.textContent = `${i === null ? 'The answer' : 'Right'}: ${what}.`;
    this.answered.add(q.frame);
    this.solvedAt = q.frame;
    this.box.dataset.state = 'solved';
    // The step shown next draws the answer itself; the numbered choices would only hide it.
    clearGroup(this.markers);
    this.app.setStep(q.frame);
  }

  private close(): void {
    this.question = null;
    this.solvedAt = null;
    this.feedback.textContent = '';
    this.feedback.className = 'quiz-feedback';
  }

  private render(): void {
    const q = this.question;
    this.box.hidden = !this.on;
    this.box.dataset.state = !q ? 'idle' : this.solvedAt !== null ? 'solved' : 'asking';
    clearGroup(this.markers);
    if (!q) {
      const tr = this.app.trace;
      const query = tr?.query ?? '';
      this.text.textContent = tr && isClosedForm(tr)
        ? 'A closed form answers this pair in one step: there is nothing to predict. Turn a shape into a box or a cone to step through GJK.'
        : GJK_QUERIES.has(query)
        ? 'Step forward (→): before each support point and each simplex update you choose what comes next.'
        : query === 'penetration' ? 'Step forward (→): before EPA picks the face nearest O you choose it.'
          : 'Predict mode asks about GJK and EPA steps: choose an intersect, distance or penetration example.';
      this.choicesBox.replaceChildren();
      this.reveal.hidden = true;
      this.app.minkView.view.requestRender();
      return;
    }
    this.reveal.hidden = false;
    if (q.kind === 'support') {
      this.text.textContent = `Which numbered point of A − B is the next support point w, furthest along d = ${fmtVec(q.direction, 3)}?`;
      q.choices.forEach((c, i) => this.markers.add(marker(COLORS.support, 7, c.point), label(String(i + 1), 'label-point label-quiz', c.point)));
      // d drawn from the origin, as long as the choices are far from it, so that "furthest along d" can be judged.
      const len = 0.4 * Math.max(...q.choices.map((c) => Math.hypot(c.point[0], c.point[1], c.point[2])));
      if (len > 0) {
        const n = Math.hypot(q.direction[0], q.direction[1], q.direction[2]);
        const tip = q.direction.map((x) => (x / n) * len);
        this.markers.add(arrow([0, 0, 0], q.direction, len, COLORS.direction), label('d', 'label-direction', tip));
      }
    } else if (q.kind === 'face') {
      this.text.textContent = 'Which numbered face of the polytope is nearest O, the one EPA expands next?';
      q.choices.forEach((c, i) => this.markers.add(label(String(i + 1), 'label-point label-quiz', c.centroid)));
    } else {
      this.text.textContent = 'Which vertices does the simplex keep: the smallest set holding the point nearest O?';
      for (const v of q.vertices) this.markers.add(marker(COLORS.support, 6, v.w), label(v.name, 'label-point label-quiz', v.w));
    }
    this.choicesBox.replaceChildren(...q.choices.map((c, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'quiz-choice';
      b.textContent = q.kind === 'region' ? `${i + 1}: ${(c as { label: string }).label}` : `${i + 1}`;
      b.setAttribute('aria-label', q.kind === 'support' ? `Point ${i + 1}` : q.kind === 'face' ? `Face ${i + 1}`
        : `Choice ${i + 1}: ${(c as { label: string }).label}`);
      if (q.kind === 'support') b.dataset.point = JSON.stringify((c as { point: number[] }).point);
      else if (q.kind === 'face') b.dataset.face = String((c as { id: number }).id);
      else b.dataset.members = JSON.stringify((c as { members: number[] }).members.map((k) => q.vertices[k].name));
      b.addEventListener('click', () => this.answer(i));
      b.addEventListener('mousedown', (e) => e.preventDefault());
      return b;
    }));
    this.app.minkView.view.requestRender();
  }
}
