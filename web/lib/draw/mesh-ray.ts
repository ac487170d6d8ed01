// A ray cast on a mesh: its one frame (mesh_raycast.h answers through the OBB tree; the tree's descent is not
// traced yet). Both views show the same world space: the ray up to the hit (or to maxT, dashed past a long
// way), the hit triangle filled, the hit point and the triangle's normal there.
import * as THREE from 'three';
import type { MeshRaycastTrace, Scene } from '../index';
import { fmt } from './format';
import { COLORS, arrow, label, line, marker, toV3 } from './primitives';
import type { DrawContext, FrameDrawing } from './types';

const HIT_COLOR = COLORS.simplex; // the hit triangle and its normal: green, apart from the amber mesh
const RAY_COLOR = COLORS.direction;

export function meshRayDrawing(frame: MeshRaycastTrace['frames'][number], trace: MeshRaycastTrace, scene?: Scene | null): FrameDrawing {
  const draw = (g: THREE.Group, ctx: DrawContext) => drawWorld(g, frame, trace, scene ?? null, ctx);
  return { shapes: draw, minkowski: draw };
}

function drawWorld(g: THREE.Group, frame: MeshRaycastTrace['frames'][number], trace: MeshRaycastTrace, scene: Scene | null, ctx: DrawContext): void {
  const r = trace.result;
  const ray = scene?.ray;
  if (ray) {
    const o = toV3(ray.origin);
    const d = toV3(ray.direction);
    // A miss is drawn up to maxT, or a few view sizes when maxT is far beyond the scene.
    const far = Math.min(ray.maxT ?? 1, (4 * ctx.scale + o.length()) / Math.max(d.length(), 1e-300));
    const end = o.clone().addScaledVector(d, r.hit && r.t !== null ? r.t : far);
    g.add(marker(RAY_COLOR, 4, o), line([o, end], RAY_COLOR, { opacity: 0.95 }));
  }
  if (!frame.hit || !frame.vertices || r.point === null || r.normal === null) return;
  const [a, b, c] = frame.vertices.map((v) => toV3(v));
  const fill = new THREE.BufferGeometry().setFromPoints([a, b, c]);
  const tri = new THREE.Mesh(fill, new THREE.MeshBasicMaterial({
    color: HIT_COLOR, transparent: true, opacity: 0.85, side: THREE.DoubleSide, depthWrite: false, depthTest: false,
    polygonOffset: true, polygonOffsetFactor: -1, polygonOffsetUnits: -1,
  }));
  tri.name = 'hit-triangle';
  tri.renderOrder = 4;
  const outline = line([a, b, c], HIT_COLOR, { loop: true });
  outline.renderOrder = 5;
  g.add(tri, outline);
  g.add(marker(COLORS.contact, 5, r.point), arrow(r.point, r.normal, ctx.arrowLength, HIT_COLOR));
  g.add(label(`triangle ${frame.triangle}, t = ${fmt(r.t ?? 0, 6)}`, 'label-point label-closest', r.point));
}
