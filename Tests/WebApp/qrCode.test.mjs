// The QR encoder of the pairing link (js/qrCode.js) against ISO/IEC 18004's tables and its worked
// example, the fixtures zbarimg decoded when they were recorded, and, where zbarimg is installed,
// a round trip at every version's boundary and every mask.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appModule } from './support/paths.mjs';
import { hasZbarimg, parseMatrix, zbarDecode } from './support/qrImage.mjs';
import { QR_FIXTURES } from './support/qrFixtures.mjs';

const qr = await appModule('qrCode.js');
const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures/qr');

test('Reed–Solomon: the standard\'s worked example (01234567 at 1-M)', () => {
  const data = [0x10, 0x20, 0x0c, 0x56, 0x61, 0x80, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11, 0xec, 0x11];
  assert.deepEqual(qr.reedSolomon(data, 10), [0xa5, 0x24, 0xd4, 0xc1, 0xed, 0x36, 0xc7, 0x87, 0x2c, 0x55]);
});

test('format information of level M for each mask, as the standard lists it', () => {
  const table = ['101010000010010', '101000100100101', '101111001111100', '101101101001011',
    '100010111111001', '100000011001110', '100111110010111', '100101010100000'];
  table.forEach((bits, mask) => assert.equal(qr.formatBits(mask).toString(2).padStart(15, '0'), bits, `mask ${mask}`));
});

test('version information of versions 7 to 10, as the standard lists it', () => {
  assert.equal(qr.versionBits(7), 0x07c94);
  assert.equal(qr.versionBits(8), 0x085bc);
  assert.equal(qr.versionBits(9), 0x09a99);
  assert.equal(qr.versionBits(10), 0x0a4d3);
});

test('capacities and alignment positions of level M, versions 1 to 10', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(qr.dataCodewords), [16, 28, 44, 64, 86, 108, 124, 154, 182, 216]);
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(qr.byteCapacity), [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]);
  assert.deepEqual(qr.alignmentPositions(1), []);
  assert.deepEqual(qr.alignmentPositions(2), [6, 18]);
  assert.deepEqual(qr.alignmentPositions(6), [6, 34]);
  assert.deepEqual(qr.alignmentPositions(7), [6, 22, 38]);
  assert.deepEqual(qr.alignmentPositions(10), [6, 28, 50]);
});

test('the smallest version that holds the text; past version 10 is refused', () => {
  assert.equal(qr.encodeText('a'.repeat(14)).version, 1);
  assert.equal(qr.encodeText('a'.repeat(15)).version, 2);
  assert.equal(qr.encodeText('a'.repeat(213)).version, 10);
  assert.equal(qr.encodeText('あ'.repeat(5)).version, 2, '15 bytes of UTF-8');
  assert.throws(() => qr.encodeText('a'.repeat(214)), qr.QrTooLong);
});

test('the format information read back from both copies names level M and the mask used', () => {
  for (const mask of [0, 3, 7]) {
    const { modules, size } = qr.encodeText('https://sync.example.org/app/#pair=K3QZ8M2T', { mask });
    let first = 0, second = 0;
    const around = [[8, 0], [8, 1], [8, 2], [8, 3], [8, 4], [8, 5], [8, 7], [8, 8], [7, 8], [5, 8], [4, 8], [3, 8], [2, 8], [1, 8], [0, 8]];
    around.forEach(([x, y], i) => { if (modules[y][x]) first |= 1 << i; });
    for (let i = 0; i < 8; i++) if (modules[8][size - 1 - i]) second |= 1 << i;
    for (let i = 8; i < 15; i++) if (modules[size - 15 + i][8]) second |= 1 << i;
    assert.equal(first, qr.formatBits(mask));
    assert.equal(second, qr.formatBits(mask));
    const unmasked = first ^ 0x5412;
    assert.equal(unmasked >>> 13, 0b00, 'level M');
    assert.equal((unmasked >>> 10) & 7, mask);
    assert.equal(modules[size - 8][8], true, 'the dark module');
  }
});

test('finder patterns, timing patterns and version information are where a reader looks', () => {
  const { modules, size, version } = qr.encodeText('x'.repeat(110));
  assert.equal(version, 7);
  assert.equal(size, 45);
  const finder = ['#######', '#.....#', '#.###.#', '#.###.#', '#.###.#', '#.....#', '#######'];
  for (const [ox, oy] of [[0, 0], [size - 7, 0], [0, size - 7]]) {
    finder.forEach((row, y) => [...row].forEach((c, x) => assert.equal(modules[oy + y][ox + x], c === '#', `finder at ${ox},${oy}`)));
  }
  for (let i = 8; i < size - 8; i++) {
    assert.equal(modules[6][i], i % 2 === 0);
    assert.equal(modules[i][6], i % 2 === 0);
  }
  let lowerLeft = 0, upperRight = 0;
  for (let i = 0; i < 18; i++) {
    if (modules[size - 11 + (i % 3)][Math.floor(i / 3)]) lowerLeft |= 1 << i;
    if (modules[Math.floor(i / 3)][size - 11 + (i % 3)]) upperRight |= 1 << i;
  }
  assert.equal(lowerLeft, qr.versionBits(7));
  assert.equal(upperRight, qr.versionBits(7));
});

test('the mask chosen has the lowest penalty of the eight', () => {
  const text = 'https://sync.example.org/app/#pair=K3QZ8M2T';
  const chosen = qr.encodeText(text);
  for (let mask = 0; mask < 8; mask++) {
    assert.ok(qr.penalty(chosen.modules) <= qr.penalty(qr.encodeText(text, { mask }).modules), `mask ${mask}`);
  }
});

for (const fixture of QR_FIXTURES) {
  test(`the matrix of ${fixture.file} (decoded by zbarimg when recorded) is encoded again bit for bit`, () => {
    const expected = parseMatrix(readFileSync(path.join(fixtures, fixture.file), 'utf8'));
    const code = qr.encodeText(fixture.text);
    assert.equal(code.version, fixture.version);
    assert.equal(code.size, expected.length);
    assert.deepEqual(code.modules, expected);
  });
}

test('zbarimg reads back the exact text at each version\'s boundary and with every mask', { skip: hasZbarimg() || process.env.CI === 'true' ? false : 'zbarimg is not installed (apt-get install zbar-tools; under CI=true this fails)' }, () => {
  const base = 'https://sync.example.org/app/#pair=K3QZ8M2T';
  for (let version = 1; version <= 10; version++) {
    const length = qr.byteCapacity(version);
    const text = length <= base.length ? base.slice(0, length) : base + '&'.repeat(length - base.length);
    const code = qr.encodeText(text);
    assert.equal(code.version, version);
    assert.equal(zbarDecode(code.modules), text, `version ${version}`);
  }
  for (let mask = 0; mask < 8; mask++) {
    assert.equal(zbarDecode(qr.encodeText(`${base}?mask=${mask}`, { mask }).modules), `${base}?mask=${mask}`, `mask ${mask}`);
  }
  assert.equal(zbarDecode(qr.encodeText('降りつぶし https://例え.jp/app/#pair=ZZZZ0000').modules), '降りつぶし https://例え.jp/app/#pair=ZZZZ0000');
});

test('the SVG path draws each row\'s runs of dark modules once, inside the quiet zone', async () => {
  const { darkPath } = await appModule('ui/qrSvg.js');
  assert.equal(darkPath([[true, true, false, true], [false, false, false, false], [true, true, true, true]]),
    'M4 4h2v1h-2zM7 4h1v1h-1zM4 6h4v1h-4z');
  const code = qr.encodeText('oritsubushi');
  const area = [...darkPath(code.modules).matchAll(/h(\d+)v1/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  assert.equal(area, code.modules.flat().filter(Boolean).length);
});
