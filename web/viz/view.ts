// One 3D view: a canvas with its own renderer, camera, orbit controls and HTML label layer, rendered on demand.
// A 2D scene's view swaps the perspective camera for an orthographic one looking down on the plane z = 0.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { spreadLabels } from '../lib/draw/labels';

/** Room around a 2D scene's framed circle for labels beside its outermost points (a flat view has no depth to hide them). */
const PLANAR_MARGIN = 1.35;

export class View {
  readonly container: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly renderer: THREE.WebGLRenderer;
  readonly labels: CSS2DRenderer;
  readonly scene = new THREE.Scene();
  /** The camera of 3D scenes. */
  readonly perspective: THREE.PerspectiveCamera;
  /** The camera of 2D scenes: looks down −z at the plane z = 0, +y up. */
  readonly ortho: THREE.OrthographicCamera;
  readonly controls: OrbitControls;
  /** Half the height of the world the orthographic camera shows at zoom 1 (set by frame()). */
  private orthoHalf = 1;
  private pending = false;
  /** A framing asked for while the view was hidden (no size to fit to): done when it gets its size. */
  private deferredFrame: { center: THREE.Vector3; radius: number } | null = null;
  /** Called before each render (for size-dependent objects). */
  onBeforeRender: (() => void) | null = null;
  /** Top view of the plane z = 0 (2D scenes): see setPlanar. */
  private planar = false;
  /** What the view shows at this step, in words; the canvas's accessible name adds the labels in sight. */
  private summary = '';

  constructor(container: HTMLElement, canvasId: string, background: number) {
    this.container = container;
    this.canvas = document.createElement('canvas');
    this.canvas.id = canvasId;
    // A picture to assistive technology: named by what it draws (describe()); its labels are read as part of
    // that name, so their layer is hidden from it.
    this.canvas.setAttribute('role', 'img');
    container.appendChild(this.canvas);
    this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(background, 1);
    this.labels = new CSS2DRenderer();
    this.labels.domElement.className = 'label-layer';
    this.labels.domElement.setAttribute('aria-hidden', 'true');
    container.appendChild(this.labels.domElement);

    this.perspective = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.perspective.position.set(2.5, 2, 6);
    this.ortho = new THREE.OrthographicCamera(-1, 1, 1, -1, 0.01, 1000);
    this.ortho.position.set(0, 0, 10);
    this.controls = new OrbitControls(this.perspective, this.canvas);
    this.controls.addEventListener('change', () => this.requestRender());

    // Lights ride with the cameras so the lit side always faces the viewer.
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x303040, 1.6));
    for (const cam of [this.perspective, this.ortho]) {
      const key = new THREE.DirectionalLight(0xffffff, 1.6);
      key.position.set(2, 3, 4);
      cam.add(key);
      this.scene.add(cam);
    }

    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  /** The camera in use: orthographic for a 2D scene, perspective otherwise. */
  get camera(): THREE.PerspectiveCamera | THREE.OrthographicCamera {
    return this.planar ? this.ortho : this.perspective;
  }

  /**
   * Top view of the plane z = 0 (2D scenes): the orthographic camera looks down −z with +y up, a drag pans and
   * the wheel or a pinch zooms; it does not orbit. Leaving it, the perspective camera is used again (frame() aims it).
   */
  setPlanar(on: boolean): void {
    if (on === this.planar) return;
    this.planar = on;
    const c = this.controls;
    // Straight above the target (at the distance it had) until frame() fits the scene: the controls aim the camera
    // at the target, and only from above is the view the plane's.
    if (on) this.ortho.position.set(c.target.x, c.target.y, c.target.z + this.ortho.position.distanceTo(c.target));
    c.object = this.camera;
    c.enableRotate = !on;
    c.mouseButtons = on
      ? { LEFT: THREE.MOUSE.PAN, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN }
      : { LEFT: THREE.MOUSE.ROTATE, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN };
    c.touches = on ? { ONE: THREE.TOUCH.PAN, TWO: THREE.TOUCH.DOLLY_PAN } : { ONE: THREE.TOUCH.ROTATE, TWO: THREE.TOUCH.DOLLY_PAN };
    c.screenSpacePanning = true;
    c.update();
    this.onCameraChange?.(this.camera);
    this.resize();
  }

  /** Called when the camera in use changes (setPlanar): the gizmo and the picking follow it. */
  onCameraChange: ((camera: THREE.Camera) => void) | null = null;

  resize(): void {
    const shown = this.container.clientWidth > 0 && this.container.clientHeight > 0;
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    this.labels.setSize(w, h);
    this.perspective.aspect = w / h;
    this.perspective.updateProjectionMatrix();
    this.setOrthoFrustum(w / h);
    if (shown && this.deferredFrame) {
      const { center, radius } = this.deferredFrame;
      this.frame(center, radius);
    }
    this.requestRender();
  }

  /** The orthographic frustum: orthoHalf above and below the centre, as wide as the aspect asks. */
  private setOrthoFrustum(aspect: number): void {
    const h = this.orthoHalf;
    this.ortho.left = -h * aspect;
    this.ortho.right = h * aspect;
    this.ortho.top = h;
    this.ortho.bottom = -h;
    this.ortho.updateProjectionMatrix();
  }

  requestRender(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.renderNow();
    });
  }

  renderNow(): void {
    this.onBeforeRender?.();
    // Markers tagged with userData.px keep a constant size on screen.
    const unit = this.pixelSize(1);
    this.scene.traverse((o) => {
      const px = o.userData.px as number | undefined;
      if (px) o.scale.setScalar(px * unit);
    });
    this.renderer.render(this.scene, this.camera);
    this.labels.render(this.scene, this.camera);
    const shown = spreadLabels(this.labels.domElement, [...this.container.querySelectorAll('.view-title')]);
    const names = [...new Set(shown.map((el) => el.textContent?.trim() ?? '').filter(Boolean))];
    const label = [this.summary, names.length ? `Labels: ${names.join('; ')}` : ''].filter(Boolean).join('. ');
    if (this.canvas.getAttribute('aria-label') !== label) this.canvas.setAttribute('aria-label', label);
  }

  /** The view's heading, as the page shows it over the canvas. */
  title(): string {
    return this.container.querySelector('.view-title')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  }

  /** Sets what the view shows in words (the canvas's accessible name, with the labels in sight). */
  describe(summary: string): void {
    if (summary === this.summary) return;
    this.summary = summary;
    this.requestRender();
  }

  /** Aim the camera at a sphere so that it fills most of the view, keeping the current viewing direction. */
  frame(center: THREE.Vector3, radius: number): void {
    // The aspect must be the view's now: a view just shown (after the hull's, say) has not been resized yet.
    this.deferredFrame = null;
    if (this.container.clientWidth === 0 || this.container.clientHeight === 0) {
      this.deferredFrame = { center: center.clone(), radius };
      return;
    }
    const aspect = this.container.clientWidth / this.container.clientHeight;
    if (Math.abs(aspect - this.perspective.aspect) > 1e-9) this.resize();
    // Any size the scene has is its own (1e-6 or 1e6); only a point needs one.
    const r = radius > 0 && Number.isFinite(radius) ? radius : 1;
    if (this.planar) {
      // The circle fits the shorter side, with room for the labels beside the outermost points.
      this.orthoHalf = (r * PLANAR_MARGIN) / Math.min(1, aspect);
      this.ortho.zoom = 1;
      this.setOrthoFrustum(aspect);
      this.controls.target.copy(center);
      this.ortho.position.set(center.x, center.y, center.z + 4 * r);
      this.ortho.near = r / 100;
      this.ortho.far = r * 100;
      this.ortho.updateProjectionMatrix();
      this.controls.update();
      this.requestRender();
      return;
    }
    const cam = this.perspective;
    const dir = cam.position.clone().sub(this.controls.target);
    if (dir.lengthSq() < 1e-12) dir.set(0.4, 0.35, 1);
    dir.normalize();
    const fov = THREE.MathUtils.degToRad(cam.fov);
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * cam.aspect));
    // A margin for the labels drawn beside the outermost points.
    const dist = (r / Math.sin(fit / 2)) * 1.15;
    this.controls.target.copy(center);
    cam.position.copy(center).addScaledVector(dir, dist);
    cam.near = dist / 100;
    cam.far = dist * 100;
    cam.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  /** World-space length that covers about `px` pixels at the orbit target: for markers of constant on-screen size. */
  pixelSize(px: number): number {
    if (this.planar) return (px / Math.max(1, this.container.clientHeight)) * (2 * this.orthoHalf / this.ortho.zoom);
    const d = this.perspective.position.distanceTo(this.controls.target);
    const h = 2 * d * Math.tan(THREE.MathUtils.degToRad(this.perspective.fov) / 2);
    return (px / Math.max(1, this.container.clientHeight)) * h;
  }
}
