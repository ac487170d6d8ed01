// Meshes for the "obbtree" view: the built-in ones (builtin-meshes.ts) from a menu, and a .glb, .gltf or .obj
// file dropped on the page or picked with the file input (touch devices have no drag and drop). A file is read
// with three.js's loaders and its triangles taken by the library's meshArrays() (collidoscope/three: the reading
// meshFromGeometry() does, every mesh placed by its world matrix) into one mesh shape A; B is a sphere in the
// middle of it. Problems are said in #mesh-status: not a mesh file, no triangles, too many triangles, a parse
// error; a file over the page's size limit is refused unread, in the banner too.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { CollidoscopeError, type Scene, type Shape, type Vec3 } from '../lib/index';
import { meshArrays } from '../lib/three';
import type { App } from './app';
import { BUILTIN_MESHES, builtinScene, type BuiltinMesh } from './builtin-meshes';
import { fileTooLarge } from './edit-math';

/**
 * Most triangles the page takes from a file: the scene goes to the library as JSON and every triangle is drawn, so
 * a larger mesh would stall the page for seconds (the library itself takes up to 2 000 000 through mesh()).
 */
export const MAX_FILE_TRIANGLES = 100_000;

type Tri = [number, number, number];

/** Thrown for a file the page cannot use; the message is shown as it is. */
export class MeshFileError extends Error {}

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6 + 0;

/**
 * Every triangle mesh under `root`, in world coordinates, as one mesh shape of the scene format (a link carries
 * it): meshArrays()' vertices rounded to 1e-6 and its triangles.
 */
export function mergeMeshes(root: THREE.Object3D): Shape {
  let arrays;
  try {
    arrays = meshArrays(root, { maxTriangles: MAX_FILE_TRIANGLES });
  } catch (e) {
    if (e instanceof CollidoscopeError && e.field === 'triangles') {
      throw new MeshFileError(`The file has more than ${MAX_FILE_TRIANGLES.toLocaleString('en')} triangles: the page takes at most that many (every triangle is drawn and sent as JSON). Use the library's mesh() for larger meshes.`);
    }
    throw new MeshFileError(`The file's meshes could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
  const { vertices: v, indices: ix } = arrays;
  if (ix.length === 0) throw new MeshFileError('The file holds no triangle mesh (no mesh with positions and triangles was found in it).');
  const vertices: Vec3[] = [];
  for (let i = 0; i < v.length; i += 3) vertices.push([round6(v[i]), round6(v[i + 1]), round6(v[i + 2])]);
  const triangles: Tri[] = [];
  for (let t = 0; t < ix.length; t += 3) triangles.push([ix[t], ix[t + 1], ix[t + 2]]);
  return { type: 'mesh', vertices, triangles };
}

/** The scene of a loaded mesh: "obbtree" with a sphere for B at the middle of the mesh's box, a sixth of its size. */
export function sceneOfMesh(mesh: Shape): Scene {
  const box = new THREE.Box3();
  for (const v of mesh.vertices ?? []) box.expandByPoint(new THREE.Vector3(...v));
  const c = box.getCenter(new THREE.Vector3());
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  return {
    version: 1, query: 'obbtree',
    shapes: [mesh, { type: 'sphere', radius: round6(size / 6), position: [round6(c.x), round6(c.y), round6(c.z)] }],
  };
}

/** The parsed file's root object. */
async function parseFile(file: File): Promise<THREE.Object3D> {
  const name = file.name.toLowerCase();
  const ext = name.slice(name.lastIndexOf('.') + 1);
  if (ext !== 'obj' && ext !== 'gltf' && ext !== 'glb') {
    throw new MeshFileError(`"${file.name}" is not a mesh file the page reads: drop a .glb, .gltf or .obj file.`);
  }
  try {
    if (ext === 'obj') return new OBJLoader().parse(await file.text());
    const data = ext === 'glb' ? await file.arrayBuffer() : await file.text();
    const gltf = await new GLTFLoader().parseAsync(data, '');
    return gltf.scene;
  } catch (e) {
    throw new MeshFileError(`"${file.name}" could not be read as ${ext === 'obj' ? 'OBJ' : 'glTF'}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Reads `file` and shows its mesh; says what went wrong in `status` otherwise. */
export async function loadMeshFile(app: App, file: File, status: HTMLElement): Promise<boolean> {
  const say = (text: string, error: boolean) => {
    status.textContent = text;
    status.hidden = false;
    status.classList.toggle('error', error);
  };
  const tooLarge = fileTooLarge(file.name, file.size);
  if (tooLarge) {
    say(tooLarge, true);
    app.banner.show(tooLarge);
    return false;
  }
  say(`Reading ${file.name}…`, false);
  try {
    const mesh = mergeMeshes(await parseFile(file));
    app.pause();
    if (!app.apply(sceneOfMesh(mesh), { step: 0, fit: true, errorPrefix: `${file.name}: ` })) {
      say(`${file.name} was read, but its mesh was refused (the message above says why).`, true);
      return false;
    }
    const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
    say(`${file.name}: ${n(mesh.triangles?.length ?? 0, 'triangle', 'triangles')}, ${n(mesh.vertices?.length ?? 0, 'vertex', 'vertices')}.`, false);
    return true;
  } catch (e) {
    say(e instanceof MeshFileError ? e.message : `${file.name}: ${e instanceof Error ? e.message : String(e)}`, true);
    return false;
  }
}

/** The menu of built-in meshes, the file input, and dropping a file anywhere on the page. */
export function wireMeshLoading(app: App, menu: HTMLSelectElement, input: HTMLInputElement, status: HTMLElement): void {
  for (const [key, m] of Object.entries(BUILTIN_MESHES)) {
    const o = document.createElement('option');
    o.value = key;
    o.textContent = m.title;
    menu.append(o);
  }
  menu.addEventListener('change', () => {
    if (!menu.value) return;
    app.pause();
    app.apply(builtinScene(menu.value as BuiltinMesh), { step: 0, fit: true });
    status.hidden = true;
    menu.value = '';
  });
  input.addEventListener('change', () => {
    const f = input.files?.[0];
    if (f) void loadMeshFile(app, f, status).finally(() => { input.value = ''; });
  });
  document.addEventListener('dragover', (e) => {
    if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
  });
  document.addEventListener('drop', (e) => {
    const f = e.dataTransfer?.files[0];
    if (!f) return;
    e.preventDefault();
    void loadMeshFile(app, f, status);
  });
}
