// A compound's answering child, for the views that show one convex shape per side (the Minkowski difference): a
// compound's trace is its answering child's own (compound.h), so that view shows the child the trace ran on.
import * as THREE from 'three';
import type { Quat, Shape, Trace, Vec3 } from '../lib/index';

/** The child fields a compound's result and trace carry (compound.h): `child`, or `childA` and `childB`. */
interface ChildFields {
  child?: number | null;
  childA?: number | null;
  childB?: number | null;
}

/** Child k of compound `c` placed in the world: the compound's pose after the child's. */
function placed(c: Shape, k: number): Shape {
  const child = c.children![k];
  const q = new THREE.Quaternion(...(c.rotation ?? [0, 0, 0, 1]));
  const p = new THREE.Vector3(...(child.position ?? [0, 0, 0])).applyQuaternion(q).add(new THREE.Vector3(...(c.position ?? [0, 0, 0])));
  const r = q.clone().multiply(new THREE.Quaternion(...(child.rotation ?? [0, 0, 0, 1])));
  return { ...child, position: p.toArray() as Vec3, rotation: [r.x, r.y, r.z, r.w] as Quat };
}

/** `shapes` with each compound replaced by the child its trace answered with (child 0 when none answered). */
export function answeringChildren(shapes: Shape[], trace: Trace): Shape[] {
  const t = trace as ChildFields;
  return shapes.map((s, i) => {
    if (s.type !== 'compound' || !s.children?.length) return s;
    const k = ('childA' in t ? (i === 0 ? t.childA : t.childB) : t.child) ?? 0;
    return placed(s, Math.min(Math.max(k, 0), s.children.length - 1));
  });
}
