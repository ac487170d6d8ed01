// The scene as JSON in the side panel: paste or import a scene file (the format of the CLI and of sceneOf()),
// export the scene shown (download or copy). The library's scene parser judges what is read, so its errors
// name the field; this file only reads text and says where it is not JSON.
import type { Scene } from '../lib/index';
import { fileTooLarge, parseSceneText, sceneFileText } from './edit-math';
import { $ } from './panel';

export interface SceneJsonHost {
  /** The scene shown and its step. */
  current(): { scene: Scene; step: number };
  /** Show `value` at its own "step" (0 without one); false (and the banner says why) when the library refuses it. */
  load(value: unknown, source: string): boolean;
  /** Say in the banner why a file was not read. */
  refuse(message: string): void;
}

export function wireSceneJson(host: SceneJsonHost): void {
  const text = $('scene-json') as HTMLTextAreaElement;
  const status = $('scene-json-status');
  const file = $('scene-json-file') as HTMLInputElement;
  const say = (message: string, error = false) => {
    status.textContent = message;
    status.classList.toggle('error', error);
  };
  const read = (t: string, source: string) => {
    const parsed = parseSceneText(t);
    if (!parsed.ok) {
      say(`${source}: ${parsed.message}.`, true);
      return;
    }
    if (host.load(parsed.value, source)) say(`${source}: scene loaded.`);
    else say(`${source}: not loaded (the message above the views says why).`, true);
  };
  const fileName = () => `collidoscope-${host.current().scene.query}.json`;

  $('scene-json-show').addEventListener('click', () => {
    const { scene, step } = host.current();
    text.value = sceneFileText(scene, step);
    say('The scene shown, at this step.');
  });
  $('scene-json-load').addEventListener('click', () => read(text.value, 'Pasted JSON'));
  text.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      read(text.value, 'Pasted JSON');
    }
  });
  $('scene-json-import').addEventListener('click', () => file.click());
  file.addEventListener('change', async () => {
    const f = file.files?.[0];
    file.value = '';
    if (!f) return;
    const tooLarge = fileTooLarge(f.name, f.size);
    if (tooLarge) {
      say(`File ${tooLarge}`, true);
      host.refuse(`File ${tooLarge}`);
      return;
    }
    let t: string;
    try {
      t = await f.text();
    } catch (e) {
      say(`File "${f.name}": could not be read (${(e as Error).message}).`, true);
      return;
    }
    text.value = t;
    read(t, `File "${f.name}"`);
  });
  $('scene-json-download').addEventListener('click', () => {
    const { scene, step } = host.current();
    const url = URL.createObjectURL(new Blob([sceneFileText(scene, step)], { type: 'application/json' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName();
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say(`Saved as ${a.download}.`);
  });
  $('scene-json-copy').addEventListener('click', async () => {
    const { scene, step } = host.current();
    const t = sceneFileText(scene, step);
    text.value = t;
    try {
      await navigator.clipboard.writeText(t);
      say('Scene JSON copied.');
    } catch {
      // No clipboard permission (e.g. plain http): the text box holds the same JSON.
      say('The box holds the scene JSON: select it and copy.');
    }
  });
}
