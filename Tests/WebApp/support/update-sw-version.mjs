// Writes the current content digest into sw.js's VERSION (run after changing any app file):
//   node Tests/WebApp/support/update-sw-version.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './paths.mjs';
import { expectedVersion } from './appFiles.mjs';

const file = path.join(appDir, 'sw.js');
const version = expectedVersion();
writeFileSync(file, readFileSync(file, 'utf8').replace(/const VERSION = '[0-9a-f]+'/, `const VERSION = '${version}'`));
console.log(`sw.js VERSION = ${version}`);
