// Shared test data: the analytic GJK vectors in shared/vectors/gjk.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const vectorDir = join(root, 'shared', 'vectors', 'gjk');
export const sceneDir = join(root, 'shared', 'scenes');

export interface Expectation {
  distance?: number;
  intersecting?: boolean;
  derivation: string;
  tolerance: number;
}

export const expected = JSON.parse(readFileSync(join(vectorDir, 'expected.json'), 'utf8')) as Record<string, Expectation>;

export function vectorScene(name: string): string {
  return readFileSync(join(vectorDir, `${name}.json`), 'utf8');
}

export function galleryFiles(): string[] {
  return readdirSync(sceneDir).filter((f) => f.endsWith('.json')).sort();
}
