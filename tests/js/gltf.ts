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
