import test from 'node:test';
import assert from 'node:assert/strict';

// The progress report's map (Sources/ReportAssets/report/map.js) is a plain ES module: a page of
// the app can import it as this test does, with nothing else loaded and no global touched.
test('the report map is an importable module with one export', async () => {
  const before = new Set(Object.keys(globalThis));
  const module = await import('../../Sources/ReportAssets/report/map.js');
  assert.deepEqual(Object.keys(module), ['drawReportMap']);
  assert.equal(typeof module.drawReportMap, 'function');
  assert.deepEqual(Object.keys(globalThis).filter((key) => !before.has(key)), []);
});
