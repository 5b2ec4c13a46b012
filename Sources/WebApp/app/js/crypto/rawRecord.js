// The one record a seal holds (Schemas/encryption.md §3.1): the raw form of
// Schemas/segment-format.md §3.
//
// The app has no reader of the raw record stream (blockDecoder.js reads columnar blocks, §2a,
// straight into events), so this checks only the header, the kind and the length:
// exactly one record, of a known kind (1–4), whose body length is one its kind allows
// (station edit 34 + memo ≤ 4096; catalogue version 30; device name 16 + name ≤ 255; knowledge
// mark 28 + 16 × its n). Swift's RecordStream also refuses bad flags, a zero device, seq or
// station, an invalid date code or origin, non-zero reserved bytes, text that is not UTF-8 and
// knowledge entries out of order; here those checks are the admission's (merge.md §2.1 step 1),
// which every opened record goes through next (Schemas/encryption.md §3.3 step 5).

import { SealError } from './sealError.js';
import { readU32le, readU64le } from './bytes.js';

/** @typedef {1 | 2 | 3 | 4} RawKind station edit, catalogue version, device name, knowledge mark */

/**
 * The kind, device and seq (0n for a device name) of `bytes`, which must be exactly one record.
 * Throws SealError `record`.
 * @param {Uint8Array} bytes
 * @returns {{kind: RawKind, device: string, seq: bigint}}
 */
export function singleRecord(bytes) {
  if (bytes.length < 4) throw new SealError('record', 'a record header is cut off');
  const kind = bytes[0];
  const body = bytes[2] | (bytes[3] << 8);
  if (4 + body > bytes.length) throw new SealError('record', 'a record runs past its end');
  if (kind < 1 || kind > 4) throw new SealError('record', `unknown record kind ${kind}`);
  const fits = kind === 1 ? body >= 34 && body - 34 <= 4096
    : kind === 2 ? body === 30
      : kind === 3 ? body >= 16 && body - 16 <= 255
        : body >= 28 && body === 28 + 16 * readU32le(bytes, 28);
  if (!fits) throw new SealError('record', `a record of kind ${kind} has a bad length ${body}`);
  if (4 + body !== bytes.length) throw new SealError('record', 'not exactly one record');
  const device = readU64le(bytes, 4).toString(16).padStart(16, '0');
  const seq = kind === 3 ? 0n : readU64le(bytes, 12);
  return { kind: /** @type {RawKind} */ (kind), device, seq };
}
