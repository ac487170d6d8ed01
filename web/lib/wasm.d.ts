// Hand-written types of the Emscripten/embind module built from
// wasm/bindings/bindings.cpp (Emscripten 3.1.6 cannot emit them). Resolved
// through package.json "imports" → "#collidoscope-wasm" (condition "types").
// Every function takes and returns JSON text; see bindings.cpp.

export interface WasmModule {
  /** Runs a scene; reply {"ok":true,"value":result|trace} or {"ok":false,"error":{...}}. */
  runScene(sceneJson: string, trace: boolean): string;
  /** Validates a scene; the value is the normalized scene. */
  validateScene(sceneJson: string): string;
  /** World-space points whose hull is the shape; value: [[x,y,z],...]. */
  shapeSurface(shapeJson: string, samples: number): string;
  /** Points of A − B and of core(A) − core(B); value: {points, corePoints}. */
  minkowskiSurface(aJson: string, bJson: string, samples: number): string;
  /** Hull of x0,y0,z0,x1,… (copied by one TypedArray.set); value: the "hull" result. */
  hullOfPoints(points: Float64Array): string;
  /** Bounding volumes of x0,y0,z0,x1,…; value: the "obb" result. */
  boundsOfPoints(points: Float64Array): string;
}

export interface ModuleOptions {
  /** The wasm binary; unused by the single-file build, accepted for forward compatibility. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

declare function createCollidoscopeModule(options?: ModuleOptions): Promise<WasmModule>;
export default createCollidoscopeModule;
