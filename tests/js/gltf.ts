// Binary glTF (.glb) files made in tests: the page's loader (tests/e2e) and meshArrays() (tests/js) read them.

/**
 * A .glb of `json` (a glTF 2.0 document whose buffer 0 has no uri) with `bin` as that buffer: the 12-byte header,
 * the JSON chunk padded with spaces, the BIN chunk padded with zeros, each to 4 bytes.
 */
export function glb(json: object, bin: Buffer): Buffer {
  const pad = (b: Buffer, fill: number) => Buffer.concat([b, Buffer.alloc((4 - (b.length % 4)) % 4, fill)]);
  const chunk = (type: number, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32LE(data.length, 0);
    head.writeUInt32LE(type, 4);
    return Buffer.concat([head, data]);
  };
  const body = Buffer.concat([chunk(0x4e4f534a, pad(Buffer.from(JSON.stringify(json)), 0x20)), chunk(0x004e4942, pad(bin, 0))]);
  const header = Buffer.alloc(12);
  header.write('glTF', 0, 'ascii');
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(12 + body.length, 8);
  return Buffer.concat([header, body]);
}

/** A unit square in z = 0 as 4 vertices and 2 triangles; counter-clockwise seen from +z. */
export const SQUARE = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0];
export const SQUARE_INDEX = [0, 1, 2, 0, 2, 3];

/**
 * A .glb: mesh 0 has two primitives (the square, indexed by uint16; a triangle whose positions are interleaved with
 * normals, stride 24 bytes); mesh 1 is one triangle. Nodes: 0 (translation [0, 1, 0]) with child 1 (mesh 0, scale
 * 2) and child 2 (mesh 1, rotated a quarter turn about z, then mirrored in x).
 */
export function twoPrimitivesGlb(): Buffer {
  const square = Buffer.from(new Float32Array(SQUARE).buffer);
  const index = Buffer.from(new Uint16Array(SQUARE_INDEX).buffer);
  // Triangle (0,0,1), (1,0,1), (0,1,1), each followed by a normal (0,0,1).
  const tri = Buffer.from(new Float32Array([0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0, 1]).buffer);
  const lone = Buffer.from(new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, 0]).buffer);
  const bin = Buffer.concat([square, index, tri, lone]);
  const s = Math.SQRT1_2;
  const json = {
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }],
    nodes: [
      { translation: [0, 1, 0], children: [1, 2] },
      { mesh: 0, scale: [2, 2, 2] },
      { mesh: 1, rotation: [0, 0, s, s], scale: [-1, 1, 1] },
    ],
    meshes: [
      { primitives: [{ attributes: { POSITION: 0 }, indices: 1 }, { attributes: { POSITION: 2, NORMAL: 3 } }] },
      { primitives: [{ attributes: { POSITION: 4 } }] },
    ],
    buffers: [{ byteLength: bin.length }],
    bufferViews: [
      { buffer: 0, byteOffset: 0, byteLength: 48 },
      { buffer: 0, byteOffset: 48, byteLength: 12 },
      { buffer: 0, byteOffset: 60, byteLength: 72, byteStride: 24 },
      { buffer: 0, byteOffset: 132, byteLength: 36 },
    ],
    accessors: [
      { bufferView: 0, componentType: 5126, count: 4, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5123, count: 6, type: 'SCALAR' },
      { bufferView: 2, byteOffset: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 1], max: [1, 1, 1] },
      { bufferView: 2, byteOffset: 12, componentType: 5126, count: 3, type: 'VEC3' },
      { bufferView: 3, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [2, 3, 0] },
    ],
  };
  return glb(json, bin);
}

/**
 * twoPrimitivesGlb()'s triangles in world coordinates, the node transforms applied by hand: node 1 maps p to
 * 2p + (0, 1, 0); node 2 mirrors x, turns a quarter about z ((x, y) ↦ (−y, x)) and moves up by 1, so
 * (x, y) ↦ (−y, 1 − x), and its triangle's last two corners swap to stay counter-clockwise.
 */
export const TWO_PRIMITIVES_WORLD = {
  vertices: [[0, 1, 0], [2, 1, 0], [2, 3, 0], [0, 3, 0], [0, 1, 2], [2, 1, 2], [0, 3, 2], [0, 1, 0], [0, -1, 0], [-3, 1, 0]],
  triangles: [[0, 1, 2], [0, 2, 3], [4, 5, 6], [7, 9, 8]],
};
