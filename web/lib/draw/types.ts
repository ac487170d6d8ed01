// What a trace frame's drawing is given and what it offers: the contract between the frame drawings of this
// folder and the views that show them (the visualizer page's, and collidoscope/three's drawTraceFrame).
import type * as THREE from 'three';

export interface DrawContext {
  /** Radius of what the view shows (A − B with the origin, or both shapes): sets dash and arrow sizes. */
  scale: number;
  /** Length of direction and normal arrows in this view. */
  arrowLength: number;
  /** Centre of what the view shows (the shapes view sets it). */
  center?: THREE.Vector3;
}

/**
 * One frame drawn into an empty group, in up to three spaces; an algorithm leaves out the spaces it does not
 * draw in.
 */
export interface FrameDrawing {
  /** The Minkowski-difference view: A − B around the origin (the ray cast: shape A; Chung–Wang: the unit sphere of directions). */
  minkowski?(g: THREE.Group, ctx: DrawContext): void;
  /** The frame's points on the shapes A and B (world space). */
  shapes?(g: THREE.Group, ctx: DrawContext): void;
  /** The hull view (the point cloud's space). */
  hull?(g: THREE.Group, ctx: DrawContext): void;
}
