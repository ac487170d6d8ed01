// collidoscope — permalinks: the URL hash "#v1=<payload>", where payload is
// the scene's JSON (with "step") in UTF-8, base64url-encoded without
// padding. JSON.stringify writes the shortest decimal that round-trips each
// double, so a decoded link reproduces the scene bit for bit.
import { CollidoscopeError, printable, toSceneJson } from './errors';

const PREFIX = 'v1=';
// Longest payload accepted: a polytope of ~20 000 points. Longer hashes are
// more than browsers keep in a URL anyway.
const MAX_PAYLOAD = 2_000_000;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('the payload has characters outside base64url');
  if (text.length % 4 === 1) throw new Error('the payload has an impossible length for base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Permalink for a scene: `base + '#v1=…'` (base defaults to '', giving just the hash). */
export function encodeLink(scene: object, base = ''): string {
  if (typeof base !== 'string') throw new CollidoscopeError('invalid-argument', 'base', `must be a URL string, got ${base === null ? 'null' : typeof base}`);
  if (scene === null || typeof scene !== 'object') {
    throw new CollidoscopeError('invalid-scene', null, `a scene must be an object, got ${scene === null ? 'null' : typeof scene}`);
  }
  const json = toSceneJson(scene);
  if (json[0] !== '{') throw new CollidoscopeError('invalid-scene', null, `a scene must be an object, got ${json[0] === '[' ? 'an array' : printable(json)}`);
  const hashless = base.split('#')[0];
  return `${hashless}#${PREFIX}${toBase64Url(new TextEncoder().encode(json))}`;
}

/** Decodes a permalink's payload to the JSON value it holds, without validating it as a scene. */
export function decodeLinkPayload(urlOrHash: string): unknown {
  const bad = (why: string): never => {
    throw new CollidoscopeError('bad-link', null, `the link cannot be read: ${why}`);
  };
  if (typeof urlOrHash !== 'string') bad('expected a string');
  const at = urlOrHash.indexOf('#');
  const hash = at >= 0 ? urlOrHash.slice(at + 1) : urlOrHash;
  if (!hash.startsWith(PREFIX)) bad('it does not start with "#v1=" (a collidoscope scene link)');
  const payload = hash.slice(PREFIX.length);
  if (payload.length === 0) bad('the scene part is empty');
  if (payload.length > MAX_PAYLOAD) bad(`it is too long (${payload.length} characters; the limit is ${MAX_PAYLOAD})`);
  let text = '';
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(payload));
  } catch (e) {
    bad(`it is not valid base64url-encoded UTF-8 (${(e as Error).message})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return bad(`its scene is not valid JSON (${printable((e as Error).message, 200)})`);
  }
}
