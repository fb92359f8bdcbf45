import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Node's flags as `npm start` runs the server (package.json's start script): tests and benches
// that measure memory start the server with the same ones, read from there rather than copied.

export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(resolve('package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const command = pkg.scripts.start.split('&&').at(-1)?.trim() ?? '';
  return command.split(/\s+/).filter((word) => word.startsWith('--'));
}
