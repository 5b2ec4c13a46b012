// Writes index.html's module preloads (every module js/main.js imports, sorted) and then the
// current content digest into sw.js's VERSION (run after changing any app file):
//   node Tests/WebApp/support/update-sw-version.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './paths.mjs';
import { expectedVersion, mainModules } from './appFiles.mjs';

const index = path.join(appDir, 'index.html');
const main = '<script type="module" src="js/main.js"></script>';
const html = readFileSync(index, 'utf8').replace(/<link rel="modulepreload" href="[^"]+">\n/g, '');
if (!html.includes(main)) throw new Error(`index.html has no ${main}`);
const preloads = mainModules().map((file) => `<link rel="modulepreload" href="${file}">\n`).join('');
writeFileSync(index, html.replace(main, preloads + main));
console.log(`index.html preloads ${mainModules().length} modules`);

const file = path.join(appDir, 'sw.js');
const version = expectedVersion();
writeFileSync(file, readFileSync(file, 'utf8').replace(/const VERSION = '[0-9a-f]+'/, `const VERSION = '${version}'`));
console.log(`sw.js VERSION = ${version}`);
