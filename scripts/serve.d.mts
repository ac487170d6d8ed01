// Types for scripts/serve.mjs (imported by tests/e2e/harness.ts).
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export const DEFAULT_ROOT: string;
export const MIME_TYPES: Record<string, string>;
export function mimeType(file: string): string;
export function resolveRequestPath(root: string, url: string): string | null;
export const ENCODINGS: string[];
/** The encoding sent for an Accept-Encoding header ('br', 'gzip'), or null for none. */
export function chooseEncoding(header: string | undefined): string | null;
/** A file name with an 8-character content hash (cached for a year). */
export function isHashedName(file: string): boolean;
export function createStaticHandler(root?: string): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
export interface StartServerOptions {
  /** directory to serve (default web/dist/viz) */
  root?: string;
  /** 0 (default) = any free port; otherwise this port or the next free one */
  port?: number;
  host?: string;
  tries?: number;
}
export interface StaticServer {
  url: string;
  port: number;
  server: Server;
  close(): Promise<void>;
}
export function startServer(opts?: StartServerOptions): Promise<StaticServer>;
