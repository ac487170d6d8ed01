// A compound scene in a real browser: a distance query between a compound and a cylinder opens from a permalink,
// draws each child in the shapes view (amber) and the answering child's GJK steps (its own trace, compound.h),
// shows the library's answer (run() on the same scene) with the child named, the editor lists the children with
// no margin field, and the link reopens the same scene. project, which the library answers without steps, opens
// as the page's one step of the point query, naming the answering child.
import { beforeAll, describe, expect, it } from 'vitest';
import { init, run, type Scene } from '../../web/lib/index';
import { encodeLink } from '../../web/lib/link';
import { useServerAndBrowser } from './harness';
import { AMBER_A, colourPixels, expectLinkReopensSame, expectSceneShapeEditor, openPage, state } from './page-helpers';

const env = useServerAndBrowser();

beforeAll(async () => {
  await init();
});

const scene: Scene = {
  version: 1, query: 'distance',
  shapes: [
    { type: 'compound', children: [{ type: 'box', halfExtents: [0.5, 0.2, 0.3], position: [-0.6, 0, 0] }, { type: 'sphere', radius: 0.4, position: [0.7, 0.3, 0] }],
      position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    { type: 'cylinder', radius: 0.4, halfHeight: 0.3, position: [2.2, 0, 0], rotation: [0, 0, 0, 1] },
  ],
};

describe('a compound on the page', () => {
  it('draws each child and the answering child\'s steps, with the library\'s answer and a link that reopens it', async () => {
    const expected = run(scene);
    expect(expected).toMatchObject({ child: 1 });
    const opened = await openPage(env.browser, encodeLink(scene, env.url));
    const { page, errors } = opened;
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameCount).toBeGreaterThan(1);
      expect(s.result).toEqual(expected);
      expect((await colourPixels(page, '#canvas-shapes', AMBER_A)).count).toBeGreaterThan(500);
      await expectSceneShapeEditor(page, 'compound', '2 children: box, sphere');
      await expectLinkReopensSame(env.browser, opened);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows project on a compound in one step, with the answering child', async () => {
    const project: Scene = { version: 1, query: 'project', shapes: [scene.shapes[0]], point: [0, 0, 0] };
    const expected = run(project) as unknown as { child: number };
    expect(expected).toHaveProperty('child');
    const { page, errors } = await openPage(env.browser, encodeLink(project, env.url));
    try {
      const s = await state(page);
      expect(s.error).toBeNull();
      expect(s.frameCount).toBe(1);
      expect(s.result).toEqual(expected);
      const child = await page.$$eval('#values tbody tr', (rows) => rows.find((r) => r.querySelector('th')!.textContent === 'child')?.querySelector('td')!.textContent);
      expect(child).toBe(String(expected.child));
      expect(await page.locator('#caption').innerText()).toContain(`child ${expected.child} answers`);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
