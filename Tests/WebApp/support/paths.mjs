// Where the app's modules and the conformance corpus are, from the tests.
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const appDir = path.join(repo, 'Sources/WebApp/app');
// ORITSUBUSHI_CONFORMANCE points the conformance test at another corpus directory.
export const conformanceDir = process.env.ORITSUBUSHI_CONFORMANCE ?? path.join(repo, 'Conformance');

/** Imports a module of the app by its path under js/. */
export function appModule(name) {
  return import(pathToFileURL(path.join(appDir, 'js', name)).href);
}
