// The result box keeps the answer for the end: it shows at the last step, or when the student asks for it
// ("Show answer"), until another scene is traced. The sentence stays in #result (hidden), as panel.ts writes it.
import type { App } from './app';

export class AnswerBox {
  private asked = false;
  private trace: unknown = null;

  constructor(private readonly app: App, private readonly result: HTMLElement, private readonly cover: HTMLElement,
    button: HTMLButtonElement) {
    button.addEventListener('click', () => {
      this.asked = true;
      this.update();
    });
    app.frameListeners.push(() => this.update());
  }

  /** Whether the answer shows now. */
  get shown(): boolean {
    const n = this.app.frameCount;
    return this.asked || n === 0 || this.app.frameIndex >= n - 1;
  }

  private update(): void {
    if (this.app.trace !== this.trace) {
      this.trace = this.app.trace;
      this.asked = false;
    }
    const shown = this.shown;
    this.result.hidden = !shown;
    this.cover.hidden = shown;
  }
}
