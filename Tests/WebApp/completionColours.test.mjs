// The colours of completion (completionColours.js): 済 green, 未 red, as the original apps; a point
// several stations share says all, some or none; app.css states the same two colours.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appDir, appModule } from './support/paths.mjs';

const { COMPLETION_COLOURS, pointState, pinColours } = await appModule('completionColours.js');
const { STYLE } = await appModule('map.js');

/** Red, green and blue of #rrggbb. */
const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

test('completed is green, not completed red', () => {
  const [r1, g1, b1] = rgb(COMPLETION_COLOURS.done);
  assert.ok(g1 > r1 && g1 > b1, `${COMPLETION_COLOURS.done} is green`);
  const [r2, g2, b2] = rgb(COMPLETION_COLOURS.rest);
  assert.ok(r2 > g2 && r2 > b2, `${COMPLETION_COLOURS.rest} is red`);
});

test('all, some or none of the stations at a point', () => {
  const cases = [[0, 1, 'none'], [1, 1, 'all'], [0, 3, 'none'], [1, 3, 'some'], [2, 3, 'some'], [3, 3, 'all']];
  for (const [done, total, state] of cases) assert.equal(pointState(done, total), state, `${done} of ${total}`);
  assert.deepEqual(pinColours('all'), { left: COMPLETION_COLOURS.done, right: COMPLETION_COLOURS.done, stroke: COMPLETION_COLOURS.doneDark });
  assert.deepEqual(pinColours('none'), { left: COMPLETION_COLOURS.rest, right: COMPLETION_COLOURS.rest, stroke: COMPLETION_COLOURS.restDark });
  const some = pinColours('some');
  assert.equal(some.left, COMPLETION_COLOURS.done, 'half green');
  assert.equal(some.right, COMPLETION_COLOURS.rest, 'half red');
});

test('app.css, the map and the marks agree on the two colours', () => {
  const css = readFileSync(path.join(appDir, 'app.css'), 'utf8');
  const variable = (name) => new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{6})`).exec(css)?.[1]?.toLowerCase();
  assert.equal(variable('done'), COMPLETION_COLOURS.done);
  assert.equal(variable('done-dark'), COMPLETION_COLOURS.doneDark);
  assert.equal(variable('rest'), COMPLETION_COLOURS.rest);
  assert.match(css, /\.mark \{[^}]*background: var\(--rest\)/, 'a mark is red');
  assert.match(css, /\.mark\.done \{[^}]*background: var\(--done\)/, 'a completed mark is green');
  assert.match(css, /\.bar \{[^}]*background: var\(--rest\)/, 'a bar is red where not completed');
  assert.match(css, /\.bar > span \{[^}]*background: var\(--done\)/, 'and green where completed');
  assert.equal(STYLE.done, COMPLETION_COLOURS.done);
  assert.equal(STYLE.rest, COMPLETION_COLOURS.rest);
});
