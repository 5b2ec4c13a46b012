// Where names and count bubbles go (mapLabels.js): names in priority order beside their pins,
// never over a pin or an earlier name, a name not written twice nearby; bubbles where they cover
// no pin, no name and no other bubble, moved within their reach or left out.
import test from 'node:test';
import assert from 'node:assert/strict';
import { appModule } from './support/paths.mjs';

const { RectSet, circleRect, candidatePlaces, placeLabels, placeBubbles, PIN_MARGIN, SAME_NAME_DISTANCE } = await appModule('mapLabels.js');

const measure = (text) => text.length * 12;
const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

test('a rectangle set finds overlaps across its buckets, and skips the one excepted', () => {
  const set = new RectSet();
  const big = [0, 0, 200, 20];
  set.add(big);
  assert.equal(set.hits([150, 10, 160, 30]), true);
  assert.equal(set.hits([150, 20, 160, 30]), false, 'touching is not overlapping');
  assert.equal(set.hits([-10, -10, -1, -1]), false);
  assert.equal(set.hits([150, 10, 160, 30], big), false, 'except itself');
});

test('a name goes right of its pin, else left, above, below or at a corner', () => {
  const pin = { px: 100, py: 100, radius: 7, text: '東京駅' };
  const places = candidatePlaces(pin, 36);
  assert.equal(places.length, 8);
  assert.ok(places[0].x > pin.px + pin.radius, 'first to the right');
  assert.ok(places[1].x + 36 < pin.px - pin.radius, 'then to the left');
  for (const place of places) assert.equal(overlaps(place.rect, circleRect(pin.px, pin.py, pin.radius + PIN_MARGIN)), false, 'never over its own pin');

  // A pin right of 東京 takes the right side: the name goes left.
  const taken = new RectSet();
  const labels = placeLabels([pin, { px: 130, py: 100, radius: 7, text: '' }], measure, taken);
  assert.equal(labels.length, 1);
  assert.ok(labels[0].x < pin.px, `written left of the pin: ${labels[0].x}`);
});

test('names in priority order: an earlier name is never covered, a later one moves or is left out', () => {
  // Three pins in a row 40 px apart with long names: the first cannot go right (the second pin is
  // there) and goes left; the others find what room is left, or are left out.
  const pins = [
    { px: 100, py: 200, radius: 7, text: '新宿駅新宿駅' },
    { px: 140, py: 200, radius: 7, text: '代々木駅' },
    { px: 180, py: 200, radius: 7, text: '原宿駅' },
  ];
  const taken = new RectSet();
  const labels = placeLabels(pins, measure, taken);
  assert.equal(labels[0].pin, 0, 'the first name is written');
  assert.ok(labels[0].x < 100, 'left of its pin: the right would cover the next pin');
  for (let a = 0; a < labels.length; a++) {
    for (let b = a + 1; b < labels.length; b++) assert.equal(overlaps(labels[a].rect, labels[b].rect), false, `${labels[a].text} / ${labels[b].text}`);
    pins.forEach((p, k) => assert.equal(overlaps(labels[a].rect, circleRect(p.px, p.py, p.radius + PIN_MARGIN)), false, `${labels[a].text} over pin ${k}`));
  }
});

test('a name already written nearby is not written again', () => {
  const pins = [
    { px: 100, py: 100, radius: 7, text: '東京駅' },
    { px: 110, py: 140, radius: 7, text: '東京駅' },
    { px: 100 + SAME_NAME_DISTANCE + 50, py: 100, radius: 7, text: '東京駅' },
  ];
  const labels = placeLabels(pins, measure, new RectSet());
  assert.deepEqual(labels.map((l) => l.pin), [0, 2]);
});

test('a bubble stays where its stations are when that is free, moves when not, and never covers', () => {
  const taken = new RectSet();
  const pins = [{ px: 100, py: 100, radius: 7, text: '池袋駅' }];
  const labels = placeLabels(pins, measure, taken);
  const wishes = [
    { px: 300, py: 300, radius: 10, reach: 40 }, // free
    { px: 100, py: 100, radius: 10, reach: 60 }, // on the pin
    { px: 300, py: 300, radius: 10, reach: 5 }, // on the first bubble, cannot move far enough
  ];
  const placed = placeBubbles(wishes, taken);
  assert.deepEqual(placed[0], { px: 300, py: 300 });
  assert.ok(placed[1], 'moved, not left out');
  const moved = circleRect(placed[1].px, placed[1].py, 10);
  assert.equal(overlaps(moved, circleRect(100, 100, 7)), false, 'off the pin');
  assert.equal(overlaps(moved, labels[0].rect), false, 'off the name');
  assert.ok(Math.hypot(placed[1].px - 100, placed[1].py - 100) <= 60, 'within its reach');
  assert.equal(placed[2], null, 'left out');
});
