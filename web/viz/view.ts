// One 3D view: a canvas with its own renderer, camera, orbit controls and HTML label layer, rendered on demand.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { CSS2DRenderer } from 'three/examples/jsm/renderers/CSS2DRenderer.js';
import { spreadLabels } from '../lib/draw/labels';

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
    if (Math.abs(aspect - this.camera.aspect) > 1e-9) this.resize();
    // Any size the scene has is its own (1e-6 or 1e6); only a point needs one.
    const r = radius > 0 && Number.isFinite(radius) ? radius : 1;
    const dir = this.camera.position.clone().sub(this.controls.target);
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
