// Writes index.html's module preloads: every module js/main.js imports, sorted (run after adding,
// removing or renaming an import; assets.test.mjs checks the list, Schemas/phone-app.md
// "Drawing the map" says why):
//   node Tests/WebApp/support/update-preloads.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './paths.mjs';
import { mainModules } from './appFiles.mjs';

const index = path.join(appDir, 'index.html');
const main = '<script type="module" src="js/main.js"></script>';
const html = readFileSync(index, 'utf8').replace(/<link rel="modulepreload" href="[^"]+">\n/g, '');
if (!html.includes(main)) throw new Error(`index.html has no ${main}`);
const preloads = mainModules().map((file) => `<link rel="modulepreload" href="${file}">\n`).join('');
writeFileSync(index, html.replace(main, preloads + main));
console.log(`index.html preloads ${mainModules().length} modules`);
