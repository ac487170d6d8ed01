// Labels that do not cover each other: after each render of a CSS2DRenderer's layer, the visible labels are
// placed one by one, each at its own point (moved back inside the view if it sticks out) when that is free, else
// at the nearest free spot around it (in
// screen space, by a CSS translate appended to the transform the renderer has just written, so that nothing
// accumulates from one render to the next).

/** How far from its point a label may be moved, in steps of half its size. */
const MAX_RINGS = 8;
/** Space kept between two labels, in CSS pixels. */
const GAP = 2;

interface Box { left: number; top: number; right: number; bottom: number }

const overlap = (a: Box, b: Box): number =>
  Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left) + GAP)
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) + GAP);

const inside = (a: Box, b: Box): boolean => a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;

/**
 * The order labels are placed in: the shapes' names first (they name what the picture is of), then the
 * origin, then the others in the order the scene has them. A label placed earlier keeps its point.
 */
function rank(el: Element): number {
  const c = el.classList;
  if (c.contains('label-a') || c.contains('label-b') || c.contains('label-mink')) return 0;
  if (c.contains('label-origin')) return 1;
  return 2;
}

/** Offsets around a point, nearest first: rings of 8 directions, each ring half a label further out. */
function candidates(w: number, h: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 1; k <= MAX_RINGS; k++) {
    for (const [sx, sy] of [[0, -1], [0, 1], [1, 0], [-1, 0], [1, -1], [-1, -1], [1, 1], [-1, 1]]) {
      out.push([sx * k * (w / 2 + GAP), sy * k * (h / 2 + GAP)]);
    }
  }
  return out.sort((a, b) => Math.hypot(...a) - Math.hypot(...b));
}

/**
 * Moves the visible labels of `layer` (a CSS2DRenderer's element, just rendered) apart so that no two boxes
 * overlap, nor a label and one of `obstacles` (a heading over the view, say), keeping each inside the layer
 * when it can. Returns the labels shown, in the order they were placed.
 */
export function spreadLabels(layer: HTMLElement, obstacles: readonly Element[] = []): HTMLElement[] {
  const frame = layer.getBoundingClientRect();
  if (!frame.width || !frame.height) return [];
  const shown = (Array.from(layer.children) as HTMLElement[])
    .filter((el) => el.style.display !== 'none')
    .map((el, order) => ({ el, order, box: el.getBoundingClientRect() as Box }))
    .filter(({ box }) => box.right > box.left && box.bottom > box.top && overlap(box, frame) > 0)
    .sort((a, b) => rank(a.el) - rank(b.el) || a.order - b.order);
  const placed: Box[] = obstacles.map((o) => o.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
  for (const { el, box: at } of shown) {
    // First back inside the view, where it sticks out (a label beside a point near the edge).
    const sx = at.right > frame.right ? frame.right - at.right : at.left < frame.left ? frame.left - at.left : 0;
    const sy = at.bottom > frame.bottom ? frame.bottom - at.bottom : at.top < frame.top ? frame.top - at.top : 0;
    const box = { left: at.left + sx, right: at.right + sx, top: at.top + sy, bottom: at.bottom + sy };
    const clash = (b: Box) => placed.reduce((s, p) => s + overlap(b, p), 0);
    let best: [number, number] = [0, 0];
    let bestClash = clash(box);
    if (bestClash > 0) {
      for (const [dx, dy] of candidates(box.right - box.left, box.bottom - box.top)) {
        const moved = { left: box.left + dx, right: box.right + dx, top: box.top + dy, bottom: box.bottom + dy };
        // Off the view only as a last resort: a label moved out of sight says nothing.
        const c = clash(moved) + (inside(moved, frame) ? 0 : 1e9);
        if (c < bestClash) {
          best = [dx, dy];
          bestClash = c;
          if (c === 0) break;
        }
      }
    }
    const [dx, dy] = [best[0] + sx, best[1] + sy];
    placed.push({ left: at.left + dx, right: at.right + dx, top: at.top + dy, bottom: at.bottom + dy });
    if (dx || dy) el.style.transform += ` translate(${dx.toFixed(1)}px, ${dy.toFixed(1)}px)`;
  }
  return shown.map(({ el }) => el);
}
