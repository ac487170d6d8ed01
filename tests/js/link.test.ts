import { beforeAll, describe, expect, it } from 'vitest';
import { CollidoscopeError, decodeLink, encodeLink, init, type Scene, type Scene2D } from '../../web/lib/index';

beforeAll(async () => {
  await init();
});

// Random doubles of every magnitude, including values with 17 significant digits.
function randomDouble(rng: () => number): number {
  const buf = new DataView(new ArrayBuffer(8));
  for (;;) {
    buf.setUint32(0, Math.floor(rng() * 2 ** 32));
    buf.setUint32(4, Math.floor(rng() * 2 ** 32));
    const d = buf.getFloat64(0);
    if (Number.isFinite(d) && Math.abs(d) <= 1e15 && Math.abs(d) >= 1e-300) return d;
  }
}

function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('permalinks', () => {
  it('round-trip every double bit for bit', () => {
    const rng = mulberry32(7);
    for (let k = 0; k < 200; k++) {
      const scene: Scene = {
        version: 1, query: 'distance', step: k,
        shapes: [
          { type: 'polytope', points: [[randomDouble(rng), randomDouble(rng), randomDouble(rng)]], position: [randomDouble(rng), randomDouble(rng), randomDouble(rng)] },
          { type: 'sphere', radius: Math.abs(randomDouble(rng)), position: [rng(), rng() * 1e4, -rng()] },
        ],
      };
      const back = decodeLink(encodeLink(scene, 'https://example.org/page?x=1'));
      const flat = (s: Scene | Scene2D) => JSON.stringify(s).length;
      expect(flat(back)).toBe(flat(scene));
      const p = back.shapes[0].points![0];
      scene.shapes[0].points![0].forEach((x, i) => expect(Object.is(p[i], x)).toBe(true));
      back.shapes[1].position!.forEach((x, i) => expect(Object.is(x, scene.shapes[1].position![i])).toBe(true));
      expect(back.step).toBe(k);
    }
  });

  it('keeps the base URL and replaces an existing hash', () => {
    const scene: Scene = { version: 1, query: 'intersect', shapes: [{ type: 'point' }, { type: 'point' }] };
    const link = encodeLink(scene, 'http://localhost:8080/#old');
    expect(link.startsWith('http://localhost:8080/#v1=')).toBe(true);
    expect(decodeLink(link)).toEqual(scene);
  });

  const garbled: [string, string][] = [
    ['not a collidoscope link', '#hello'],
    ['empty payload', '#v1='],
    ['characters outside base64url', '#v1=%%%garbage'],
    ['impossible length', '#v1=abcde'],
    ['valid base64 of non-JSON', `#v1=${Buffer.from('not json').toString('base64url')}`],
    ['invalid UTF-8', `#v1=${Buffer.from([0xff, 0xfe, 0xfd]).toString('base64url')}`],
    ['JSON but not a scene', `#v1=${Buffer.from('[1,2,3]').toString('base64url')}`],
    ['scene with a hostile field', `#v1=${Buffer.from(JSON.stringify({ version: 1, query: 'distance', shapes: [{ type: '<img src=x onerror=alert(1)>' }, { type: 'point' }] })).toString('base64url')}`],
    ['oversized', `#v1=${'A'.repeat(2_000_004)}`],
  ];
  for (const [name, hash] of garbled) {
    it(`rejects ${name} with a bad-link error`, () => {
      try {
        decodeLink(hash);
        throw new Error('decodeLink did not throw');
      } catch (e) {
        expect(e).toBeInstanceOf(CollidoscopeError);
        expect((e as CollidoscopeError).code).toBe('bad-link');
        expect((e as CollidoscopeError).message.length).toBeLessThan(400);
      }
    });
  }
});
