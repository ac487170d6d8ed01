// collidoscope — command line: run, trace and link scene files.
//
//   collidoscope run scene.json            result JSON of the scene's query
//   collidoscope trace scene.json          every GJK step as JSON frames
//   collidoscope link scene.json [--base URL]   permalink that opens the scene on the page
//
// "-" reads the scene from standard input. Exit codes: 0 success, 2 bad
// input (unreadable file, invalid scene, unknown command), 1 anything else.
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { CollidoscopeError, encodeLink, init, run, sceneWarnings, trace, validateScene } from './index';

const USAGE = `usage: collidoscope <command> <scene.json | -> [options]

commands:
  run <scene>                 print the result of the scene's query as JSON
  trace <scene>               print the query's trace: pseudocode, frames, result
  link <scene> [--base URL]   print a permalink that opens the scene on the page
                              (default base: http://localhost:8080/, the page of npm start)
  help                        print this message

The scene format is described in the README (version 1).`;

const DEFAULT_BASE = 'http://localhost:8080/';

/** A mistake on the command line: the message, then the usage. */
class UsageError extends Error {}
/** Input that cannot be used (an unreadable file, a permalink given as a scene): one line, no usage. */
class InputError extends Error {}

// A permalink (…#v1=…) where a scene file or scene JSON was expected (linear checks: the text may be 50 MB).
function isLink(text: string): boolean {
  return text.length < 4_000_000 && text.includes('#v1=') && !/\s/.test(text);
}
const LINK_HINT = 'the CLI reads scene JSON, not a permalink (open the link in the page, or save its scene as a file)';

// Largest scene read (the library's limit on JSON text, 96 MiB): a bigger file, or an endless one such as
// /dev/zero, is refused after reading one byte more than this.
const MAX_BYTES = 96 * 1024 * 1024;

function readCapped(path: string): string {
  if (path === '-') return readFileSync(0, 'utf8');
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, MAX_BYTES + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > MAX_BYTES) throw new InputError(`${path}: is too large (more than 96 MiB, the limit of a scene)`);
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function readScene(path: string): string {
  let text: string;
  try {
    text = readCapped(path);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && isLink(path)) throw new InputError(`${path.slice(0, 60)}${path.length > 60 ? '…' : ''} is a permalink: ${LINK_HINT}`);
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory'
      : code === 'EACCES' ? 'permission denied' : (e as Error).message.split('\n')[0];
    throw new InputError(`cannot read ${path}: ${why}`);
  }
  if (isLink(text.trim())) throw new InputError(`${path === '-' ? 'stdin' : path}: holds a permalink: ${LINK_HINT}`);
  // Editors on Windows may start UTF-8 files with a byte order mark, which JSON does not allow (RFC 8259
  // lets a reader ignore it).
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (!['run', 'trace', 'link'].includes(command)) throw new UsageError(`unknown command "${command}"`);

  let base = DEFAULT_BASE;
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--base') {
      if (command !== 'link') throw new UsageError('--base is only used by "link"');
      const value = rest[++i];
      if (value === undefined) throw new UsageError('--base needs a URL');
      base = value;
    } else if (arg.startsWith('--base=')) {
      if (command !== 'link') throw new UsageError('--base is only used by "link"');
      base = arg.slice('--base='.length);
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option "${arg}"`);
    } else {
      files.push(arg);
    }
  }
  if (files.length !== 1) throw new UsageError(`"${command}" needs exactly one scene file (or - for standard input)`);

  const text = readScene(files[0]);
  await init();
  const prefix = files[0] === '-' ? 'stdin' : files[0];
  try {
    // Degenerate and duplicate mesh triangles: reported, not fatal (the answer still goes to stdout).
    if (command !== 'link' && text.includes('"mesh"')) {
      for (const w of sceneWarnings(text)) process.stderr.write(`collidoscope: ${prefix}: warning: ${w}\n`);
    }
    if (command === 'run') {
      process.stdout.write(`${JSON.stringify(run(text), null, 2)}\n`);
    } else if (command === 'trace') {
      process.stdout.write(`${JSON.stringify(trace(text), null, 2)}\n`);
    } else {
      validateScene(text);
      process.stdout.write(`${encodeLink(JSON.parse(text) as object, base)}\n`);
    }
  } catch (e) {
    if (e instanceof CollidoscopeError) {
      process.stderr.write(`collidoscope: ${prefix}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  return 0;
}

// A reader that stops early (`collidoscope trace scene.json | head`) closes the pipe: the rest of the output has
// nowhere to go, which is what the user asked for, so the CLI ends quietly as Unix tools do (an unhandled EPIPE
// would print Node's stack trace). Any other write error is reported by name.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  process.stderr.write(`collidoscope: cannot write the output: ${e.message}\n`);
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`collidoscope: ${e.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else if (e instanceof InputError) {
      process.stderr.write(`collidoscope: ${e.message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`collidoscope: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    }
  },
);
