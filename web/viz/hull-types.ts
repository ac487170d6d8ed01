// The hull view's names for the library's "obb" result, and the scene of a point cloud.
import type { ObbResult, Scene, Vec3 } from '../lib/index';

/** The "obb" query's answer: the refined box, the AABB, the sphere and both PCA fits. */
export type BoundsResult = ObbResult;

/** A hull scene: one polytope, the cloud. */
export function cloudScene(points: Vec3[], query: 'hull' | 'obb' = 'hull'): Scene {
  return { version: 1, query, shapes: [{ type: 'polytope', points }] } as unknown as Scene;
}
