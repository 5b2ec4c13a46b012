// Where the app's modules and the conformance corpus are, from the tests, and the app's modules
// imported with its words (js/messages.json) in place, as main.js has them before any screen.
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import './nodeVersions.mjs'; // the global `crypto` the app's modules call, on node 18 too

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const appDir = path.join(repo, 'Sources/WebApp/app');
// ORITSUBUSHI_CONFORMANCE points the conformance test at another corpus directory.
export const conformanceDir = process.env.ORITSUBUSHI_CONFORMANCE ?? path.join(repo, 'Conformance');

/** js/messages.json, parsed: the table of the app's words. */
export function appMessages() {
  return JSON.parse(readFileSync(path.join(appDir, 'js/messages.json'), 'utf8'));
}

/** @type {Promise<void> | null} */
let wordsInPlace = null;

/** Imports a module of the app by its path under js/, the app's words loaded. */
export async function appModule(name) {
  wordsInPlace ??= importAppFile('i18n.js').then(({ useMessages }) => useMessages(appMessages()));
  await wordsInPlace;
  return importAppFile(name);
}

/** @param {string} name */
function importAppFile(name) {
  return import(pathToFileURL(path.join(appDir, 'js', name)).href);
}
