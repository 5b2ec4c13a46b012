// The app's files on disk and the service worker's view of them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './paths.mjs';

/** Every file under Sources/WebApp/app (what the server embeds), relative, sorted. */
export function appFiles() {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full); else out.push(path.relative(appDir, full).split(path.sep).join('/'));
    }
  };
  walk(appDir);
  return out.sort();
}

export function serviceWorkerSource() {
  return readFileSync(path.join(appDir, 'sw.js'), 'utf8');
}

/** APP_FILES and VERSION as sw.js declares them. */
export function serviceWorkerDeclarations() {
  const source = serviceWorkerSource();
  const list = /const APP_FILES = \[([^\]]*)\]/.exec(source);
  const version = /const VERSION = '([^']*)'/.exec(source);
  return {
    files: list ? [...list[1].matchAll(/'([^']+)'/g)].map((m) => m[1]) : null,
    version: version ? version[1] : null,
  };
}

/** The modules an index.html preloads (`<link rel="modulepreload">`), in its order. */
export function declaredPreloads(html) {
  return [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
}
