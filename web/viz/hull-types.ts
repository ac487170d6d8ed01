// The hull view's names for the library's hull trace and "obb" result, and small helpers on them.
import type { BoxFit, HullFrame, HullTrace, ObbResult, Scene, Trace, Vec3 } from '../lib/index';

export type { HullFrame, HullResult, HullTrace } from '../lib/index';
export type HullFace = HullFrame['faces'][number];
/** A box fit: the refined box, or one of the PCA fits (volume optional: computed when missing). */
export type Obb = Omit<BoxFit, 'volume'> & { volume?: number };
/** The "obb" query's answer: the refined box, the AABB, the sphere and both PCA fits. */
export type BoundsResult = ObbResult;

/** Queries drawn by the hull view: the cloud, quickhull's steps and the bounding volumes. */
export function isCloudQuery(q: string | undefined): boolean {
  return q === 'hull' || q === 'obb';
}

export function isHullTrace(t: Trace | null | undefined): t is HullTrace {
  return !!t && (t as { query: string }).query === 'hull';
}

/** Volume of a box given by its half extents (when the library leaves it out). */
export function obbVolume(b: Obb): number {
  return b.volume ?? 8 * b.halfExtents[0] * b.halfExtents[1] * b.halfExtents[2];
}

/** A hull scene: one polytope, the cloud. */
export function cloudScene(points: Vec3[], query: 'hull' | 'obb' = 'hull'): Scene {
  return { version: 1, query, shapes: [{ type: 'polytope', points }] } as unknown as Scene;
}
