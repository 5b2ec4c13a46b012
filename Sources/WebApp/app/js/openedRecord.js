// The event an opened seal holds (Schemas/encryption.md §3.1): one record in the raw form of
// Schemas/segment-format.md §3, read back into the app's event. Read strictly: the record must be
// exactly what records.encode writes for that event (flags, reserved bytes, origin, UTF-8), so a
// sealed record has one reading; its content is then checked by the admission (merge.md §2.1),
// as a pulled plaintext record's is.

import { encode } from './records.js';
import { readU32le, readU64le } from './crypto/bytes.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

const ORIGINS = /** @type {const} */ (['user', 'import', 'catalog']);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The event of `bytes` (one whole record), or a RangeError naming what is wrong.
 * @param {Uint8Array} bytes
 * @returns {LedgerEvent}
 */
export function decodeRecord(bytes) {
  const event = readRecord(bytes);
  const again = encode(event);
  if (again.length !== bytes.length || again.some((b, i) => b !== bytes[i])) throw new RangeError('the opened record is not in its canonical form');
  return event;
}

/** @param {Uint8Array} bytes @returns {LedgerEvent} */
function readRecord(bytes) {
  if (bytes.length < 20) throw new RangeError('the opened record is cut off');
  const kind = bytes[0], flags = bytes[1];
  const device = readU64le(bytes, 4).toString(16).padStart(16, '0');
  const text = (/** @type {number} */ from) => {
    try {
      return utf8.decode(bytes.subarray(from));
    } catch {
      throw new RangeError('the opened record holds text that is not UTF-8');
    }
  };
  switch (kind) {
    case 1: {
      const origin = ORIGINS[bytes[36]];
      if (origin === undefined) throw new RangeError('the opened station edit has an unknown origin');
      return {
        kind: 'station_edit', device, seq: readU64le(bytes, 12), hlc: readU64le(bytes, 20), station: readU32le(bytes, 28),
        compDate: flags & 1 ? readU32le(bytes, 32) : null, memo: flags & 2 ? text(38) : null, origin,
      };
    }
    case 2: return { kind: 'catalog_version', device, seq: readU64le(bytes, 12), hlc: readU64le(bytes, 20), catalogVersion: readU32le(bytes, 28) };
    case 3: return { kind: 'device_name', device, seq: 0n, hlc: readU64le(bytes, 12), name: text(20) };
    case 4: {
      /** @type {Array<[string, bigint]>} */
      const knowledge = [];
      const n = readU32le(bytes, 28);
      for (let i = 0; i < n && 48 + 16 * i <= bytes.length; i++) {
        knowledge.push([readU64le(bytes, 32 + 16 * i).toString(16).padStart(16, '0'), readU64le(bytes, 40 + 16 * i)]);
      }
      return { kind: 'knowledge_mark', device, seq: readU64le(bytes, 12), hlc: readU64le(bytes, 20), knowledge };
    }
    default: throw new RangeError(`the opened record has an unknown kind ${kind}`);
  }
}
