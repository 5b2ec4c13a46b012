// Writes the bundle the page loads (Sources/WebApp/app/bundle/, from js/main.js and
// js/ui/otherScreens.js by esbuild) and index.html's module preloads of it. Run it after editing
// any module of the app; assets.test.mjs fails while the committed bundle is not a fresh build
// (Schemas/phone-app.md "Drawing the map"):
//   node Tests/WebApp/support/update-bundle.mjs
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './paths.mjs';
import { BUNDLE_DIR, buildBundle, withPreloads } from './bundle.mjs';

const { files, preloads } = buildBundle();
const dir = path.join(appDir, BUNDLE_DIR);
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) {
  if (!files.has(`${BUNDLE_DIR}/${name}`)) rmSync(path.join(dir, name));
}
for (const [file, text] of files) writeFileSync(path.join(appDir, file), text);
const index = path.join(appDir, 'index.html');
writeFileSync(index, withPreloads(readFileSync(index, 'utf8'), preloads));
console.log(`${BUNDLE_DIR}/: ${[...files.keys()].map((f) => path.basename(f)).join(', ')}; index.html preloads ${preloads.join(', ')}`);
