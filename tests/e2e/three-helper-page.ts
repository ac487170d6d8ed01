// The page of tests/e2e/three-helper.test.ts: a user's own three.js scene (its own renderer, camera, lights)
// with collidoscope/three drawings in it. Bundled by the test with esbuild; window.threeHelper runs one case.
import * as THREE from 'three';
import { CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { init, run, trace, type SatTrace, type Scene, type Shape, type Vec3 } from '../../web/lib/index';
import { COLORS, dispose, drawResult, drawShape, drawTraceFrame, scaleMarkers } from '../../web/lib/three';

const WIDTH = 400;
const HEIGHT = 300;

/** Pixels of each colour class in the rendered image, and whether one is seen near given points. */
export interface RenderStats {
  amber: number;
  blue: number;
  white: number;
  /** For each probe point: a near-white pixel within 2 px of its projection. */
  whiteAt: boolean[];
  geometries: number;
  geometriesAfterDispose: number;
  /** Texts of the label elements in the document. */
  labels: string[];
}

export type Case = 'result' | 'sat-frame';

const A: Shape = { type: 'box', halfExtents: [1, 1, 1], rotation: [0, 0.2588190451, 0, 0.9659258263] };
const B: Shape = { type: 'sphere', radius: 0.8, position: [3, 0.6, 0] };

function classify(r: number, g: number, b: number): 'amber' | 'blue' | 'white' | null {
  if (r > 225 && g > 225 && b > 225) return 'white';
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  if (max < 60 || max - min < 0.35 * max) return null;
  let hue: number;
  if (max === r) hue = (60 * ((g - b) / (max - min)) + 360) % 360;
  else if (max === g) hue = 60 * ((b - r) / (max - min)) + 120;
  else hue = 60 * ((r - g) / (max - min)) + 240;
  if (hue >= 31 && hue <= 40) return 'amber'; // COLORS.a: hue 37° (COLORS.face, yellow: 42°)
  if (hue >= 195 && hue <= 225) return 'blue'; // COLORS.b: hue 212°
  return null;
}

async function render(which: Case, labels: boolean): Promise<RenderStats> {
  await init();
  const canvas = document.createElement('canvas');
  document.body.appendChild(canvas);
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
  renderer.setPixelRatio(1);
  renderer.setSize(WIDTH, HEIGHT, false);
  renderer.setClearColor(0x14171f, 1);
  const css = new CSS2DRenderer();
  css.setSize(WIDTH, HEIGHT);
  document.body.appendChild(css.domElement);

  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x303040, 1.6));
  const key = new THREE.DirectionalLight(0xffffff, 1.6);
  key.position.set(2, 3, 4);
  scene.add(key);
  const camera = new THREE.PerspectiveCamera(40, WIDTH / HEIGHT, 0.1, 100);
  camera.position.set(1.5, 1.5, 9);
  camera.lookAt(1.5, 0, 0);
  camera.updateMatrixWorld();

  const drawings: THREE.Object3D[] = [];
  const probes: Vec3[] = [];
  if (which === 'result') {
    const r = run({ version: 1, query: 'distance', shapes: [A, B] } as Scene);
    if (!('pointA' in r)) throw new Error('not a distance result');
    drawings.push(drawShape(A), drawShape(B, undefined, { color: COLORS.b }), drawResult(r, { shapes: [A, B], labels }));
    // The closest points, and (a control) a point of empty space below the shapes.
    probes.push(r.pointA as Vec3, r.pointB as Vec3, [1.5, -2.2, 0]);
  } else {
    const boxB: Shape = { type: 'box', halfExtents: [0.6, 0.6, 0.6], position: [3, 0.4, 0] };
    const t = trace({ version: 1, query: 'sat', shapes: [A, boxB] } as Scene & { query: 'sat' }) as SatTrace;
    const i = t.frames.findIndex((f) => f.kind === 'axis');
    drawings.push(drawTraceFrame(t, i, { shapes: [A, boxB], labels }));
  }
  scene.add(...drawings);
  scaleMarkers(scene, camera, HEIGHT);
  renderer.render(scene, camera);
  css.render(scene, camera);

  const gl = renderer.getContext();
  const px = new Uint8Array(WIDTH * HEIGHT * 4);
  gl.readPixels(0, 0, WIDTH, HEIGHT, gl.RGBA, gl.UNSIGNED_BYTE, px);
  const stats: RenderStats = {
    amber: 0, blue: 0, white: 0, whiteAt: [], geometries: renderer.info.memory.geometries, geometriesAfterDispose: -1,
    labels: [...document.querySelectorAll('.label')].map((e) => e.textContent ?? ''),
  };
  for (let i = 0; i < px.length; i += 4) {
    const c = classify(px[i], px[i + 1], px[i + 2]);
    if (c) stats[c]++;
  }
  for (const p of probes) {
    const ndc = new THREE.Vector3(p[0], p[1], p[2]).project(camera);
    const x = Math.round(((ndc.x + 1) / 2) * WIDTH), y = Math.round(((ndc.y + 1) / 2) * HEIGHT); // readPixels: y up
    let found = false;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
      const k = 4 * ((y + dy) * WIDTH + (x + dx));
      if (classify(px[k], px[k + 1], px[k + 2]) === 'white') found = true;
    }
    stats.whiteAt.push(found);
  }

  for (const d of drawings) dispose(d);
  renderer.render(scene, camera);
  stats.geometriesAfterDispose = renderer.info.memory.geometries;
  renderer.dispose();
  return stats;
}

(window as unknown as { threeHelper: typeof render }).threeHelper = render;
(window as unknown as { threeHelperReady: boolean }).threeHelperReady = true;
