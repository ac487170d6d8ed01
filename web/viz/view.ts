// One 3D view: a canvas with its own renderer, camera, orbit controls and HTML label layer, rendered on demand.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';

export class View {
  readonly container: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly renderer: THREE.WebGLRenderer;
  readonly labels: CSS2DRenderer;
  readonly scene = new THREE.Scene();
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  private pending = false;
  /** A framing asked for while the view was hidden (no size to fit to): done when it gets its size. */
  private deferredFrame: { center: THREE.Vector3; radius: number } | null = null;
  /** Called before each render (for size-dependent objects). */
  onBeforeRender: (() => void) | null = null;
  /** Top view of the plane z = 0 (2D scenes): see setPlanar. */
  private planar = false;

  constructor(container: HTMLElement, canvasId: string, background: number) {
    this.container = container;
    this.canvas = document.createElement('canvas');
    this.canvas.id = canvasId;
    container.appendChild(this.canvas);
    this.renderer = new THREE.WebGLRenderer({ canvas: this.canvas, antialias: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.renderer.setClearColor(background, 1);
    this.labels = new CSS2DRenderer();
    this.labels.domElement.className = 'label-layer';
    container.appendChild(this.labels.domElement);

    this.camera = new THREE.PerspectiveCamera(40, 1, 0.01, 1000);
    this.camera.position.set(2.5, 2, 6);
    this.controls = new OrbitControls(this.camera, this.canvas);
    this.controls.addEventListener('change', () => this.requestRender());

    // Lights ride with the camera so the lit side always faces the viewer.
    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x303040, 1.6));
    const key = new THREE.DirectionalLight(0xffffff, 1.6);
    key.position.set(2, 3, 4);
    this.camera.add(key);
    this.scene.add(this.camera);

    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  /**
   * Top view of the plane z = 0 (2D scenes): the camera looks down −z with +y up, a drag pans and the wheel or a
   * pinch zooms; it does not orbit. Everything a 2D scene draws lies in that plane, which is parallel to the image
   * plane: the projection of the plane is a uniform scale, the same picture as an orthographic camera's.
   * Leaving it, the camera goes back to an oblique view.
   */
  setPlanar(on: boolean): void {
    if (on === this.planar) return;
    this.planar = on;
    const c = this.controls;
    c.enableRotate = !on;
    c.mouseButtons = on
      ? { LEFT: THREE.MOUSE.PAN, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN }
      : { LEFT: THREE.MOUSE.ROTATE, MIDDLE: THREE.MOUSE.DOLLY, RIGHT: THREE.MOUSE.PAN };
    c.touches = on ? { ONE: THREE.TOUCH.PAN, TWO: THREE.TOUCH.DOLLY_PAN } : { ONE: THREE.TOUCH.ROTATE, TWO: THREE.TOUCH.DOLLY_PAN };
    this.camera.up.set(0, 1, 0);
    const dist = Math.max(this.camera.position.distanceTo(c.target), 1e-9);
    const dir = on ? new THREE.Vector3(0, 0, 1) : new THREE.Vector3(0.4, 0.35, 1).normalize();
    this.camera.position.copy(c.target).addScaledVector(dir, dist);
    c.update();
    this.requestRender();
  }

  get isPlanar(): boolean { return this.planar; }

  resize(): void {
    const shown = this.container.clientWidth > 0 && this.container.clientHeight > 0;
    const w = Math.max(1, this.container.clientWidth);
    const h = Math.max(1, this.container.clientHeight);
    this.renderer.setSize(w, h, false);
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    this.labels.setSize(w, h);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    if (shown && this.deferredFrame) {
      const { center, radius } = this.deferredFrame;
      this.frame(center, radius);
    }
    this.requestRender();
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
    if (Math.abs(aspect - this.camera.aspect) > 1e-9) this.resize();
    // Any size the scene has is its own (1e-6 or 1e6); only a point needs one.
    const r = radius > 0 && Number.isFinite(radius) ? radius : 1;
    const dir = this.planar ? new THREE.Vector3(0, 0, 1) : this.camera.position.clone().sub(this.controls.target);
    if (dir.lengthSq() < 1e-12) dir.set(0.4, 0.35, 1);
    dir.normalize();
    const fov = THREE.MathUtils.degToRad(this.camera.fov);
    const fit = Math.min(fov, 2 * Math.atan(Math.tan(fov / 2) * this.camera.aspect));
    // A margin for the labels drawn beside the outermost points.
    const dist = (r / Math.sin(fit / 2)) * 1.15;
    this.controls.target.copy(center);
    this.camera.position.copy(center).addScaledVector(dir, dist);
    this.camera.near = dist / 100;
    this.camera.far = dist * 100;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  /** World-space length that covers about `px` pixels at the orbit target: for markers of constant on-screen size. */
  pixelSize(px: number): number {
    const d = this.camera.position.distanceTo(this.controls.target);
    const h = 2 * d * Math.tan(THREE.MathUtils.degToRad(this.camera.fov) / 2);
    return (px / Math.max(1, this.container.clientHeight)) * h;
  }
}
