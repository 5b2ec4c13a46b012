// The app's files as the server embeds and the service worker precaches them, and the rules the
// server's Content-Security-Policy sets (default-src 'self'; img-src 'self' data:; style-src
// 'self'; connect-src 'self'): no inline script or style, nothing from another origin.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appDir } from './support/paths.mjs';
import { appFiles, declaredPreloads, mainModules, serviceWorkerDeclarations } from './support/appFiles.mjs';

test('the service worker precaches exactly the files of the app', () => {
  const { files } = serviceWorkerDeclarations();
  assert.ok(files, 'sw.js declares APP_FILES');
  assert.deepEqual([...files].sort(), appFiles());
});

test('the service worker leaves its version for the server to write from the files', () => {
  // PhoneAppServingTests checks the served value against the files.
  assert.equal(serviceWorkerDeclarations().version, 'unstamped');
});

test('index.html preloads every module main.js imports, and no other (run Tests/WebApp/support/update-preloads.mjs)', () => {
  const html = readFileSync(path.join(appDir, 'index.html'), 'utf8');
  assert.ok(mainModules().length > 10 && mainModules().includes('js/ui/mapScreen.js'));
  assert.deepEqual(declaredPreloads(html), mainModules());
  assert.ok(html.indexOf('rel="modulepreload"') < html.indexOf('<script type="module" src="js/main.js">'), 'the preloads come before the script');
});

test('index.html has no inline script, inline style or foreign resource', () => {
  const html = readFileSync(path.join(appDir, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'inline script');
  assert.doesNotMatch(html, /\sstyle=/i, 'inline style attribute');
  assert.doesNotMatch(html, /<style/i, 'style element');
  assert.doesNotMatch(html, /\son[a-z]+=/i, 'inline event handler');
  for (const m of html.matchAll(/\s(?:src|href)="([^"]+)"/g)) {
    assert.ok(!/^[a-z]+:|^\/\//i.test(m[1]), `foreign resource ${m[1]}`);
    assert.ok(appFiles().includes(m[1]), `${m[1]} is a file of the app`);
  }
  for (const id of ['tab-map', 'tab-nearby', 'tab-search', 'tab-station', 'tab-stats', 'tab-sync', 'pair-code', 'pair-submit',
    'today-button', 'nearby-list', 'sync-status', 'pending-count', 'last-sync', 'sync-error', 'banner', 'search-input',
    'search-results', 'station-name', 'station-date', 'station-memo', 'station-save', 'station-uncomplete', 'stats-root', 'map-canvas',
    'pair-name', 'device-list', 'device-name-input', 'device-rename', 'device-link', 'device-link-url', 'device-link-code',
    'device-link-qr', 'sign-out', 'sign-out-erase', 'sign-out-confirm', 'sign-out-warning',
    'nearby-candidates', 'stats-progress-chart', 'stats-completed', 'share-progress', 'milestone', 'next-step', 'settings',
    'settings-pin-limit', 'settings-language-ja', 'settings-language-en', 'station-address']) {
    assert.match(html, new RegExp(`data-testid="${id}"`), id);
  }
});

test('scripts never evaluate strings, write markup or reach another origin', () => {
  for (const file of appFiles().filter((f) => f.endsWith('.js'))) {
    const source = readFileSync(path.join(appDir, file), 'utf8');
    assert.doesNotMatch(source, /\beval\(|new Function\(|innerHTML|outerHTML|insertAdjacentHTML|document\.write/, file);
    assert.doesNotMatch(source, /setAttribute\(\s*'style'/, file);
    // The SVG namespace is a name, never requested.
    const origins = [...source.matchAll(/https?:\/\/[^'"`\s)]+/g)].map((m) => m[0])
      .filter((u) => !u.startsWith('https://ja.wikipedia.org/wiki/') && u !== 'http://www.w3.org/2000/svg');
    assert.deepEqual(origins, [], `${file} names another origin`);
  }
});

test('the manifest makes an installable app at /app/', () => {
  const manifest = JSON.parse(readFileSync(path.join(appDir, 'manifest.webmanifest'), 'utf8'));
  assert.equal(manifest.name, '降りつぶし');
  assert.equal(manifest.short_name, '降りつぶし');
  assert.equal(manifest.start_url, '/app/');
  assert.equal(manifest.scope, '/app/');
  assert.equal(manifest.display, 'standalone');
  assert.ok(manifest.theme_color);
  const sizes = manifest.icons.map((i) => i.sizes).sort();
  assert.deepEqual(sizes, ['192x192', '512x512']);
  for (const icon of manifest.icons) {
    const png = readFileSync(path.join(appDir, icon.src));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    const [w, h] = icon.sizes.split('x').map(Number);
    assert.equal(png.readUInt32BE(16), w);
    assert.equal(png.readUInt32BE(20), h);
  }
});
