// What the page needs to know about one query to show it: the contract of the registry in queries.ts.
import type * as THREE from 'three';
import type { BoundKind } from '../lib/draw/bounds';
import type { FrameDrawer } from '../lib/draw/frames';
import type { FrameDrawing } from '../lib/draw/types';
import type { Query, Scene, Trace } from '../lib/index';

/** A row of the values table: name, value, and optionally a class ('ok' or 'pending'). */
export type Row = [string, string, string?];

/** A frame as the page shows it: drawn by the library's drawing layer, listed in the values table. */
export interface FrameOverlay extends FrameDrawing {
  /** The values table. */
  values(): Row[];
}

/** The page's mode (data-algorithm on #app): which views, panels and legend entries are shown. */
export type AlgorithmMode = 'gjk' | 'epa' | 'hull' | 'sat' | 'cast' | 'cw' | 'closed' | 'point' | 'contact' | 'pairs' | 'world';

/**
 * What the right view shows: A − B, shape A alone in world space, the unit sphere of directions, or a flat figure
 * the frames draw by themselves (the pairs view's sorted intervals).
 */
export type MinkowskiMode = 'difference' | 'single' | 'gauss' | 'figure';

/**
 * One query's drawing, panel and view hooks. T is the trace the page steps through (the "obb" query shows
 * quickhull's).
 */
export interface QueryView<T extends Trace = Trace> {
  /** Heading of the pseudocode panel. */
  algorithm: string;
  /** The heading for one trace, when it says more than `algorithm` (which closed form answered). */
  heading?(trace: T): string;
  mode: AlgorithmMode;
  /**
   * The scenes it takes: 'cloud' — one point cloud, shown in the hull view with its side panel; 'pair' — the
   * shapes A and B in the shapes view and the right view; 'single' — shape A and a ray or a query point; 'world' —
   * any number of shapes, moved to each frame's poses (the sandbox).
   */
  family: 'cloud' | 'pair' | 'single' | 'world';
  /** The query whose trace the page steps through. */
  traced: T['query'];
  /** How that trace's frames are drawn (the library's drawing layer). */
  drawer: FrameDrawer<T>;
  /** The bounding volumes switched on when the page comes to this query from another. */
  boundsShown?: BoundKind[];
  /** Pair and single queries: the right view's content, for a scene with `shapes` shapes. */
  minkowski?(shapes: number): MinkowskiMode;
  /** Pair and single queries: headings of the shapes view and the right view, for a scene with `shapes` shapes. */
  titles?(shapes: number): [string, string];
  /** The values table of a frame. */
  rows(frame: T['frames'][number], trace: T): Row[];
  /** The pseudocode line a frame highlights, when its frames have no `line` of their own. */
  line?(frame: T['frames'][number], trace: T): number;
  /**
   * Pair and single queries: the scene of this query made from the current pair of shapes (`pair` has neither
   * a ray nor a motion), when the user picks the query; `note` tells the user what was changed.
   */
  fromPair?(pair: Scene, query: Query): { scene: Scene; note?: string };
  /**
   * A query the library has no trace of (the point and contact queries): its one frame (the answer) made from
   * run() on the scene, which the page shows instead of a trace of `traced`.
   */
  answer?(scene: Scene): T;
  /** The result sentence, for a query whose answer the library's captions do not describe. */
  sentence?(trace: T): string;
  /**
   * Grows the spheres framed by the shapes view (`shapes`) and the right view (`right`) to what the scene adds
   * (and its trace, when it has one, draws).
   */
  frame?(scene: Scene, shapes: THREE.Sphere, right: THREE.Sphere, trace: Trace | null): void;
  /** World queries: every shape's pose at frame `index`, [x, y, z, qx, qy, qz, qw] (null past the last frame). */
  poses?(trace: T, index: number): readonly (readonly number[])[] | null;
  /** Milliseconds between frames when playing at speed 1, when not the page's default (the sandbox: real time). */
  playInterval?(trace: T): number;
  /**
   * What the step counter says at frame `index`, when its frames are not the steps counted one by one (a world's
   * trace keeps every k-th step: "step 630 of 5000"). Default: "step index + 1 of frames".
   */
  counter?(trace: T, index: number): string;
}
