// QR matrices as files: a PGM image for zbarimg (Debian's zbar-tools) to decode, and the text
// fixture form ('#' dark, '.' light, one row a line) of Tests/WebApp/fixtures/qr/.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A binary PGM of the matrix, `scale` pixels a module, with the 4-module quiet zone. */
export function pgm(modules, scale = 4, quiet = 4) {
  const size = modules.length;
  const n = (size + 2 * quiet) * scale;
  const pixels = Buffer.alloc(n * n, 255);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!modules[y][x]) continue;
      for (let dy = 0; dy < scale; dy++) pixels.fill(0, ((y + quiet) * scale + dy) * n + (x + quiet) * scale, ((y + quiet) * scale + dy) * n + (x + quiet + 1) * scale);
    }
  }
  return Buffer.concat([Buffer.from(`P5\n${n} ${n}\n255\n`), pixels]);
}

/** Whether zbarimg is installed. */
export function hasZbarimg() {
  try {
    execFileSync('zbarimg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** What zbarimg reads in the matrix (its bytes as UTF-8), or null when it finds no code. */
export function zbarDecode(modules) {
  const dir = mkdtempSync(path.join(tmpdir(), 'qr-'));
  try {
    const file = path.join(dir, 'code.pgm');
    writeFileSync(file, pgm(modules));
    return execFileSync('zbarimg', ['-q', '--raw', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().replace(/\n$/, '');
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The fixture text of a matrix. */
export function matrixText(modules) {
  return modules.map((row) => row.map((dark) => (dark ? '#' : '.')).join('')).join('\n') + '\n';
}

/** A matrix from its fixture text. */
export function parseMatrix(text) {
  return text.trimEnd().split('\n').map((line) => [...line].map((c) => c === '#'));
}
