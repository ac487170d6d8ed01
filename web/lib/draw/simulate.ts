// The "simulate" query's frames: one step of a world. On the shapes (world) each contact point on A and on B with
// the segment between them and the normal from A to B (white: pressing, grey: a speculative point with no
// impulse); in the other view the points with arrows as long as their normal impulse, relative to the step's
// largest, which is labelled. The points are the step's: where its contacts were found, at the poses the step
// started from. Everything drawn is the frame's numbers.
import type * as THREE from 'three';
import type { Scene, SimulateContact, SimulateFrame } from '../index';
import { fmt } from './format';
import { COLORS, arrow, label, line, marker } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

/** A world's shapes' colours: static ones (floors, ramps) grey, bodies in turn the page's shape colours. */
export const WORLD_COLORS = { static: 0x8a94a6, bodies: [COLORS.a, COLORS.b, 0xb07cff, 0xc6e26b, 0x4ed6c8] } as const;

/** Which shapes of a "simulate" scene move: a body with mass (a body of mass 0 and a shape no body names are static). */
export function movingShapes(scene: Pick<Scene, 'shapes' | 'bodies'>): boolean[] {
  const moving = scene.shapes.map(() => false);
  for (const b of scene.bodies ?? []) if (b.mass !== 0 && moving[b.shape] !== undefined) moving[b.shape] = true;
  return moving;
}

/** Each shape's colour: WORLD_COLORS.static for a static one, the next of WORLD_COLORS.bodies for a body. */
export function worldColors(moving: readonly boolean[]): number[] {
  let k = 0;
  return moving.map((m) => (m ? WORLD_COLORS.bodies[k++ % WORLD_COLORS.bodies.length] : WORLD_COLORS.static));
}

/** Contact points drawn at most, per view (the trace keeps up to 256 a step). */
export const MAX_CONTACTS_DRAWN = 256;
/** A speculative point's colour (no impulse): grey. */
const IDLE = WORLD_COLORS.static;

/** The contact with the largest normal impulse, null when none presses. */
export function strongestContact(contacts: readonly SimulateContact[]): SimulateContact | null {
  let best: SimulateContact | null = null;
  for (const c of contacts) if (c.normalImpulse > 0 && (!best || c.normalImpulse > best.normalImpulse)) best = c;
  return best;
}

/**
 * Frame `f` of a "simulate" trace. The dots on A and B carry `userData.contactPair` = [a, b] (the page opens that
 * pair when one is clicked).
 */
export function simulateDrawing(f: SimulateFrame): FrameDrawing {
  const contacts = f.contacts.slice(0, MAX_CONTACTS_DRAWN);
  const shapes = (g: THREE.Group, ctx: DrawContext) => {
    for (const c of contacts) {
      const color = c.normalImpulse > 0 ? COLORS.contact : IDLE;
      const dotA = marker(COLORS.a, 6, c.pointA);
      const dotB = marker(COLORS.b, 6, c.pointB);
      dotA.userData.contactPair = [c.a, c.b];
      dotB.userData.contactPair = [c.a, c.b];
      g.add(dotA, dotB, line([c.pointA, c.pointB], color, { opacity: 0.9 }), arrow(c.pointA, c.normal, 0.35 * ctx.arrowLength, color));
    }
  };
  const impulses = (g: THREE.Group, ctx: DrawContext) => {
    // Relative to this step's strongest point: a landing's impulse would dwarf a resting stack's for the whole run.
    const strongest = strongestContact(contacts);
    const top = strongest ? strongest.normalImpulse : 1;
    for (const c of contacts) {
      g.add(marker(COLORS.contact, 4, c.pointA));
      if (c.normalImpulse > 0) g.add(arrow(c.pointA, c.normal, ctx.arrowLength * c.normalImpulse / top, COLORS.direction));
    }
    if (strongest) g.add(label(`impulse ${fmt(strongest.normalImpulse, 4)} N·s`, 'label-point label-closest', strongest.pointA));
  };
  return { shapes, minkowski: impulses };
}
