// Entry point: builds the page, loads the WebAssembly library, wires buttons, keys, gallery and the URL hash.
import { MAX_SPEED, MIN_SPEED, parseEmbedOptions } from '../lib/embed';
import { init, type Scene } from '../lib/index';
import { App, errorText } from './app';
import { AnswerBox } from './answer-box';
import { EmbedHost, layoutEmbed } from './embed';
import { loadGallery } from './lessons';
import { wireMeshLoading } from './mesh-loader';
import { $ } from './panel';
import { linkTooLong } from './permalink';
import { ConvergencePlot } from './plot';
import { Predict } from './predict';
import { SandboxPanel } from './sandbox-panel';
import { wireSceneJson } from './scene-json';

/** The page's .wasm file, beside main.js under a content-hashed name (scripts/build.mjs defines it). */
declare const COLLIDOSCOPE_WASM_FILE: string;

async function main(): Promise<void> {
  const { options, errors } = parseEmbedOptions(location.search);
  if (options.embed) layoutEmbed(options);
  const app = new App();
  app.shapesView.locked = options.locked;
  app.setSpeed(options.speed);
  wireControls(app);
  wireExplaining(app, options.predict);
  const embed = options.embed ? new EmbedHost(app, options) : null;
  try {
    await init({ wasm: new URL(COLLIDOSCOPE_WASM_FILE, import.meta.url) });
  } catch (e) {
    app.banner.show('Could not load the collidoscope WebAssembly module: ' + errorText(e));
    app.state.ready = true;
    return;
  }
  app.loadFromHash();
  window.addEventListener('hashchange', () => {
    const own = location.hash === app.hash.written; // the scene the page shows already
    app.hash.adopt();
    if (!own) app.loadFromHash();
  });
  // An embed has no example list (the side panel is hidden): it starts on its own scene at once.
  if (embed) embed.start(errors);
  else await loadGallery(app, $('gallery') as HTMLSelectElement, $('gallery-sentence'));
  app.publish();
  app.state.ready = true;
}

/** The convergence plot, predict mode and the result box that waits for the last step. */
function wireExplaining(app: App, predict: boolean): void {
  new ConvergencePlot(app, $('plot'));
  new Predict(app, $('quiz'), $('predict') as HTMLButtonElement).setOn(predict);
  new AnswerBox(app, $('result'), $('result-cover'), $('show-answer') as HTMLButtonElement);
}

function wireControls(app: App): void {
  const click = (id: string, f: () => void) => {
    const b = $(id);
    b.addEventListener('click', f);
    // Buttons do not take focus on mouse clicks, so the keyboard shortcuts keep working afterwards.
    b.addEventListener('mousedown', (e) => e.preventDefault());
  };
  click('first', () => app.setStep(0));
  click('prev', () => app.step(-1));
  click('play', () => app.togglePlay());
  click('next', () => app.step(1));
  click('last', () => app.setStep(Infinity));
  click('reset-view', () => app.fitViews());
  click('mode-translate', () => setMode(app, 'translate'));
  click('mode-rotate', () => setMode(app, 'rotate'));
  click('select-a', () => app.shapesView.select(app.shapesView.selection === 0 ? null : 0));
  click('select-b', () => app.shapesView.select(app.shapesView.selection === 1 ? null : 1));
  click('copy-link', () => copyLink(app));
  new SandboxPanel(app);
  wireMeshLoading(app, $('mesh-builtin') as HTMLSelectElement, $('mesh-file') as HTMLInputElement, $('mesh-status'));
  app.shapesView.onSelect = () => renderGizmoButtons(app);
  renderGizmoButtons(app);
  wireSceneJson({
    current: () => ({ scene: app.scene, step: app.frameIndex }),
    load: (value, source) => {
      app.pause();
      const raw = (value as { step?: unknown } | null)?.step;
      return app.apply(value, { step: typeof raw === 'number' ? raw : 0, fit: true, errorPrefix: `${source}: ` });
    },
    refuse: (message) => app.banner.show(message),
  });

  const scrub = $('scrubber') as HTMLInputElement;
  scrub.addEventListener('input', () => app.setStep(scrub.valueAsNumber));
  const speed = $('speed') as HTMLSelectElement;
  speed.addEventListener('change', () => {
    const x = Number(speed.value);
    if (x >= MIN_SPEED && x <= MAX_SPEED) app.setSpeed(x);
    speed.blur();
  });
  swipeToStep(app, $('caption'));
  swipeToStep(app, $('stepbar'));
  const query = $('query') as HTMLSelectElement;
  query.addEventListener('change', () => {
    app.setQuery(query.value as Scene['query']);
    query.blur();
  });

  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target as HTMLElement | null;
    const tag = t?.tagName;
    // The scrubber handles arrows, Home and End itself; Space still plays from it.
    const range = tag === 'INPUT' && (t as HTMLInputElement).type === 'range';
    if (range && e.key !== ' ') return;
    if ((tag === 'INPUT' && !range) || tag === 'SELECT' || tag === 'TEXTAREA' || t?.isContentEditable) return;
    // A focused button answers Space and Enter itself.
    if ((tag === 'BUTTON' || tag === 'SUMMARY') && (e.key === ' ' || e.key === 'Enter')) return;
    let handled = true;
    switch (e.key) {
      case 'ArrowLeft': app.step(-1); break;
      case 'ArrowRight': app.step(1); break;
      case 'Home': app.setStep(0); break;
      case 'End': app.setStep(Infinity); break;
      case ' ': app.togglePlay(); break;
      case 't': case 'T': setMode(app, 'translate'); break;
      case 'r': case 'R': setMode(app, 'rotate'); break;
      case 'Escape': app.shapesView.select(null); break;
      default: handled = false;
    }
    if (handled) e.preventDefault();
  });
}

/** A horizontal swipe on `el` (touch or pen) steps: right to left goes forward, as when turning a page. */
function swipeToStep(app: App, el: HTMLElement): void {
  let start: { x: number; y: number; id: number } | null = null;
  el.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' || (e.target as HTMLElement).closest('input, select, button')) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
  });
  el.addEventListener('pointercancel', () => { start = null; });
  el.addEventListener('pointerup', (e) => {
    if (!start || e.pointerId !== start.id) return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    start = null;
    // Long enough and mostly sideways, so that a vertical scroll of the page is not taken for a swipe.
    if (Math.abs(dx) >= 40 && Math.abs(dx) > 2 * Math.abs(dy)) app.step(dx < 0 ? 1 : -1);
  });
}

function setMode(app: App, mode: 'translate' | 'rotate'): void {
  app.shapesView.setMode(mode);
  renderGizmoButtons(app);
}

function renderGizmoButtons(app: App): void {
  const v = app.shapesView;
  $('mode-translate').classList.toggle('on', v.mode === 'translate');
  $('mode-rotate').classList.toggle('on', v.mode === 'rotate');
  $('select-a').classList.toggle('on', v.selection === 0);
  $('select-b').classList.toggle('on', v.selection === 1);
}

async function copyLink(app: App): Promise<void> {
  const link = app.state.link;
  const status = $('copy-status');
  const tooLong = linkTooLong(app.scene, app.frameIndex);
  if (tooLong !== null) {
    // Kept until the scene changes: the user has to read it.
    status.textContent = tooLong;
    return;
  }
  try {
    await navigator.clipboard.writeText(link);
    status.textContent = 'Link copied.';
  } catch {
    // No clipboard permission (e.g. plain http): the address bar holds the same link.
    status.textContent = 'Copy the address bar: it holds this scene and step.';
  }
  setTimeout(() => { status.textContent = ''; }, 2500);
}

main().catch((e) => {
  // Last resort: never leave an uncaught error; show it.
  const box = document.getElementById('banner');
  const text = document.getElementById('banner-text');
  if (box && text) { text.textContent = 'Unexpected error: ' + errorText(e); box.hidden = false; }
  if (window.__collidoscope) { window.__collidoscope.error = text?.textContent ?? String(e); window.__collidoscope.ready = true; }
});
