// Exact JSON for the sync API's 64-bit values (Schemas/sync-api.yaml).
//
// JSON.parse turns every number into a double, so a seq or a version-vector value above 2^53
// would silently change. `parse` keeps every integer beyond Number.MAX_SAFE_INTEGER as a BigInt
// (smaller integers and fractions stay Numbers); `stringify` writes BigInts as bare integers.
// Hlcs travel as decimal strings and need neither. Text in which no number needs that (no bare
// run of 16 or more digits) is read by the browser's own JSON.parse, which gives the same value
// several times faster: a pull page of 2,000 records took 73 ms to parse at 4× CPU throttling
// (BENCHMARKS.md §14), and held every tap meanwhile.

/** @typedef {null | boolean | number | bigint | string | unknown[] | {[key: string]: unknown}} JsonValue */

/** Thrown for text that is not JSON; `offset` is where the parser stopped. */
export class JsonSyntaxError extends Error {
  /** @param {string} message @param {number} offset */
  constructor(message, offset) {
    super(`${message} at offset ${offset}`);
    this.name = 'JsonSyntaxError';
    this.offset = offset;
  }
}

const MAX_DEPTH = 64;

/**
 * Parses JSON text (RFC 8259), integers beyond ±2^53−1 as BigInt.
 * @param {string} text
 * @returns {JsonValue}
 */
export function parse(text) {
  if (!mayHoldLargeInteger(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Malformed: the exact parser says where.
    }
  }
  return parseExactly(text);
}

/**
 * Whether the text has a run of 16 or more digits that is not right after a quote: only such a
 * run can be a number beyond 2^53 (a quoted run, an hlc or a device id, is a string). A run inside
 * a longer string is counted too; that only sends the text to the slower parser.
 * @param {string} text
 */
function mayHoldLargeInteger(text) {
  return /(?:^|[^0-9"])[0-9]{16}/.test(text);
}

/**
 * The parser that keeps every integer exact (recursive, hence the depth limit).
 * @param {string} text
 * @returns {JsonValue}
 */
function parseExactly(text) {
  let i = 0;
  const n = text.length;

  function fail(/** @type {string} */ why) { return new JsonSyntaxError(why, i); }

  function skipSpace() {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++; else break;
    }
  }

  /** @param {number} depth @returns {JsonValue} */
  function value(depth) {
    if (depth > MAX_DEPTH) throw fail('nesting too deep');
    skipSpace();
    if (i >= n) throw fail('unexpected end');
    const c = text[i];
    if (c === '{') return object(depth);
    if (c === '[') return array(depth);
    if (c === '"') return string();
    if (c === '-' || (c >= '0' && c <= '9')) return number();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    throw fail(`unexpected character ${JSON.stringify(c)}`);
  }

  /** @param {number} depth */
  function object(depth) {
    i++; // {
    /** @type {{[key: string]: JsonValue}} */
    const out = {};
    skipSpace();
    if (text[i] === '}') { i++; return out; }
    for (;;) {
      skipSpace();
      if (text[i] !== '"') throw fail('expected a key');
      const key = string();
      skipSpace();
      if (text[i] !== ':') throw fail('expected :');
      i++;
      const v = value(depth + 1);
      // A key like "__proto__" must become an own property, not the prototype.
      Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      skipSpace();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === '}') { i++; return out; }
      throw fail('expected , or }');
    }
  }

  /** @param {number} depth */
  function array(depth) {
    i++; // [
    /** @type {JsonValue[]} */
    const out = [];
    skipSpace();
    if (text[i] === ']') { i++; return out; }
    for (;;) {
      out.push(value(depth + 1));
      skipSpace();
      if (text[i] === ',') { i++; continue; }
      if (text[i] === ']') { i++; return out; }
      throw fail('expected , or ]');
    }
  }

  function string() {
    i++; // opening quote
    let out = '';
    let start = i;
    for (;;) {
      if (i >= n) throw fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) { out += text.slice(start, i); i++; return out; }
      if (c < 0x20) throw fail('control character in string');
      if (c !== 0x5c) { i++; continue; }
      out += text.slice(start, i);
      const e = text[i + 1];
      i += 2;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw fail('bad \\u escape');
          out += String.fromCharCode(parseInt(hex, 16));
          i += 4;
          break;
        }
        default: throw fail('bad escape');
      }
      start = i;
    }
  }

  function number() {
    const start = i;
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (text[i] >= '1' && text[i] <= '9') { while (text[i] >= '0' && text[i] <= '9') i++; }
    else throw fail('bad number');
    let integer = true;
    if (text[i] === '.') {
      integer = false;
      i++;
      if (!(text[i] >= '0' && text[i] <= '9')) throw fail('bad fraction');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    if (text[i] === 'e' || text[i] === 'E') {
      integer = false;
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!(text[i] >= '0' && text[i] <= '9')) throw fail('bad exponent');
      while (text[i] >= '0' && text[i] <= '9') i++;
    }
    const literal = text.slice(start, i);
    const asNumber = Number(literal);
    if (integer && !Number.isSafeInteger(asNumber)) return BigInt(literal);
    return asNumber;
  }

  const result = value(0);
  skipSpace();
  if (i !== n) throw fail('trailing characters');
  return result;
}

/**
 * JSON text of `value`; BigInts are written as bare integers. `undefined` members are left out
 * (as JSON.stringify does).
 * @param {unknown} value
 * @returns {string}
 */
export function stringify(value) {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint': return value.toString();
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError('JSON cannot hold a non-finite number');
      return JSON.stringify(value);
    case 'boolean':
    case 'string': return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return '[' + value.map((v) => (v === undefined ? 'null' : stringify(v))).join(',') + ']';
      const parts = [];
      for (const [k, v] of Object.entries(/** @type {object} */ (value))) {
        if (v === undefined) continue;
        parts.push(JSON.stringify(k) + ':' + stringify(v));
      }
      return '{' + parts.join(',') + '}';
    }
    default: throw new TypeError(`JSON cannot hold a ${typeof value}`);
  }
}

/**
 * A non-negative integer as BigInt, from a Number or BigInt (as `parse` returns them); null for
 * anything else (a fraction, a negative number, a string).
 * @param {unknown} v
 * @returns {bigint | null}
 */
export function toUnsigned(v) {
  if (typeof v === 'bigint') return v >= 0n ? v : null;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  return null;
}
