// collidoscope — command line: run, trace and link scene files.
//
//   collidoscope run scene.json            result JSON of the scene's query
//   collidoscope trace scene.json          every GJK step as JSON frames
//   collidoscope link scene.json [--base URL]   permalink that opens the scene on the page
//
// "-" reads the scene from standard input. Exit codes: 0 success, 2 bad
// input (unreadable file, invalid scene, unknown command), 1 anything else.
import { readFileSync } from 'node:fs';
import { CollidoscopeError, encodeLink, init, run, trace, validateScene } from './index';

const USAGE = `usage: collidoscope <command> <scene.json | -> [options]

commands:
  run <scene>                 print the result of the scene's query as JSON
  trace <scene>               print the query's trace: pseudocode, frames, result
  link <scene> [--base URL]   print a permalink that opens the scene on the page
                              (default base: http://localhost:8080/, the page of npm start)
  help                        print this message

The scene format is described in the README (version 1).`;

const DEFAULT_BASE = 'http://localhost:8080/';

class UsageError extends Error {}

function readScene(path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof UsageError) {
      process.stderr.write(`collidoscope: ${e.message}\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`collidoscope: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 1;
    }
  },
);
