// PLACEHOLDER on branch 'pack' only, so that the 'collidoscope/three' bundle builds here; the real three.js
// adapter comes from the 'three' branch and replaces this file when the branches are merged.
import { Vector3 } from 'three';
import type { Object3D } from 'three';
import type { Shape } from './index';

/** The world position of an object as a scene-format position. */
export function worldPositionOf(object: Object3D): [number, number, number] {
  const v = object.getWorldPosition(new Vector3());
  return [v.x, v.y, v.z];
}

/** A sphere spec with the object's world position (exercises a type import from the library). */
export function sphereAt(object: Object3D, radius: number): Shape {
  return { type: 'sphere', radius, position: worldPositionOf(object) } as Shape;
}
