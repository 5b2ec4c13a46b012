// Seals one record under a data key and opens it again (Schemas/encryption.md §3), byte for byte
// as Swift's RecordSealer (Sources/LedgerSync/Encryption/RecordSealer.swift). Sealing is
// deterministic: the nonce is an HMAC of the content, so every device that seals one event under
// one epoch writes the same bytes, and a server without the key compares copies by bytes.

import { SealError } from './sealError.js';
import { singleRecord } from './rawRecord.js';
import { concatBytes, equalBytes, isU32, readU32le, readU64le, u32le, u64le } from './bytes.js';
import { NONCE_BYTES, PADDING_UNIT, SEALED_EVENT, SEALED_NAME, SEALED_RUN, TAG_BYTES, fixedBody, sealedFault, storedLength } from '../sealedLayout.js';

export { NONCE_BYTES, PADDING_UNIT, SEALED_EVENT, SEALED_NAME, SEALED_RUN, TAG_BYTES };

/** @typedef {import('./dataKey.js').DataKey} DataKey */

/**
 * A record as an encrypted account's server holds it: the clear fields, the rest sealed.
 * @typedef {object} SealedRecord
 * @property {5 | 6 | 7} kind 5 an event (a seq-bearing record), 6 a device name, 7 a run of
 *   events (runSealer.js)
 * @property {string} device 16 lowercase hex digits
 * @property {bigint} seq the event's seq; a run's last; 0n for a name
 * @property {bigint} [first] a run's first seq (kind 7 only)
 * @property {number} epoch the key epoch (u32)
 * @property {Uint8Array} nonce the synthetic nonce, the keyed content id (12 bytes)
 * @property {Uint8Array} ciphertext the padded record's ciphertext, then the 16-byte tag
 */

const SEAL_MAGIC = new TextEncoder().encode('ORTSBSEAL1');
const MAX_U64 = (1n << 64n) - 1n;

/**
 * The associated data of a seal: "ORTSBSEAL1" ‖ u8 kind ‖ u64 device ‖ u64 seq ‖ u32 epoch
 * (31 bytes); a run's (kind 7, encryption.md §3.5) names both its seqs: … ‖ u64 first ‖ u64 last
 * ‖ u32 epoch (39 bytes).
 * @param {{kind: number, device: string, seq: bigint, first?: bigint, epoch: number}} sealed
 */
export function associatedData({ kind, device, seq, first, epoch }) {
  const seqs = kind === SEALED_RUN ? [u64le(first ?? 0n), u64le(seq)] : [u64le(seq)];
  return concatBytes(SEAL_MAGIC, Uint8Array.of(kind), u64le(BigInt('0x' + device)), ...seqs, u32le(epoch));
}

/**
 * The padded plaintext's length for a record of `count` bytes.
 * @param {number} count
 */
export function paddedLength(count) {
  return Math.ceil(count / PADDING_UNIT) * PADDING_UNIT;
}

/**
 * The first 12 bytes of HMAC-SHA256(K_nonce, AD ‖ plaintext).
 * @param {Uint8Array} ad @param {Uint8Array} plaintext @param {DataKey} key
 */
async function syntheticNonce(ad, plaintext, key) {
  const mac = await crypto.subtle.sign('HMAC', key.nonceKey, concatBytes(ad, plaintext));
  return new Uint8Array(mac, 0, NONCE_BYTES).slice();
}

/**
 * The AES-256-GCM parameters of a seal.
 * @param {Uint8Array} nonce @param {Uint8Array} ad
 */
function gcm(nonce, ad) {
  return { name: 'AES-GCM', iv: nonce, additionalData: ad, tagLength: 8 * TAG_BYTES };
}

/**
 * The record as a log and the wire hold it (segment-format.md §3.6): kind, flags 0, the body's
 * length, device, an event's seq (a run's first and last), epoch, nonce, then the ciphertext and
 * its tag.
 * @param {SealedRecord} sealed
 * @returns {Uint8Array}
 */
export function storedForm(sealed) {
  const fixed = fixedBody(sealed.kind);
  const out = new Uint8Array(storedLength(sealed));
  const view = new DataView(out.buffer);
  out[0] = sealed.kind;
  view.setUint16(2, fixed + sealed.ciphertext.length, true);
  view.setBigUint64(4, BigInt('0x' + sealed.device), true);
  if (sealed.kind === SEALED_EVENT) view.setBigUint64(12, sealed.seq, true);
  if (sealed.kind === SEALED_RUN) {
    view.setBigUint64(12, sealed.first ?? 0n, true);
    view.setBigUint64(20, sealed.seq, true);
  }
  view.setUint32(4 + fixed - 16, sealed.epoch, true);
  out.set(sealed.nonce, 4 + fixed - 12);
  out.set(sealed.ciphertext, 4 + fixed);
  return out;
}

/**
 * The sealed record whose stored form `bytes` is, exactly one, checked as segment-format.md §3.6
 * says (Swift's SealedRecordStream): the inverse of storedForm. Throws SealError `record` with
 * Swift's reason otherwise. What is inside the seal is checked only when it is opened.
 * @param {Uint8Array} bytes
 * @returns {SealedRecord}
 */
export function readStoredForm(bytes) {
  if (bytes.length < 4) throw new SealError('record', 'a record header is cut off');
  const kind = bytes[0];
  const body = bytes[2] | (bytes[3] << 8);
  if (4 + body > bytes.length) throw new SealError('record', 'a record runs past its frame');
  if (kind !== SEALED_EVENT && kind !== SEALED_NAME && kind !== SEALED_RUN) {
    throw new SealError('record', `${kind >= 1 && kind <= 4 ? `a plaintext record (kind ${kind})` : `unknown record kind ${kind}`} where only sealed records may be`);
  }
  if (4 + body !== bytes.length) throw new SealError('record', 'not exactly one record');
  const fixed = fixedBody(kind);
  if (body < fixed) throw new SealError('record', `a sealed record has bad flags or a bad length ${body}`);
  const device = readU64le(bytes, 4).toString(16).padStart(16, '0');
  const seq = kind === SEALED_EVENT ? readU64le(bytes, 12) : kind === SEALED_RUN ? readU64le(bytes, 20) : 0n;
  const first = kind === SEALED_RUN ? readU64le(bytes, 12) : undefined;
  const epoch = readU32le(bytes, 4 + fixed - 16);
  const fault = sealedFault({ kind, flags: bytes[1], body, device, seq, first, epoch });
  if (fault !== null) throw new SealError('record', fault);
  return {
    kind, device, seq, ...(first === undefined ? {} : { first }), epoch,
    nonce: bytes.slice(4 + fixed - 12, 4 + fixed), ciphertext: bytes.slice(4 + fixed),
  };
}

/**
 * Seals `recordBytes`, one record in the raw form of segment-format.md §3, under `dataKey`.
 * Throws SealError `record` unless the bytes are one record (rawRecord.js).
 * @param {Uint8Array} recordBytes @param {DataKey} dataKey
 * @returns {Promise<SealedRecord>}
 */
export async function sealRecord(recordBytes, dataKey) {
  const view = singleRecord(recordBytes);
  const clear = {
    kind: /** @type {5 | 6} */ (view.kind === 3 ? SEALED_NAME : SEALED_EVENT),
    device: view.device, seq: view.seq, epoch: dataKey.epoch,
  };
  // Its stored form's body must fit the header's u16 (storedForm): only a knowledge mark of more
  // than 4,090 entries would not.
  if (fixedBody(clear.kind) + paddedLength(recordBytes.length) + TAG_BYTES > 0xffff) {
    throw new SealError('record', `the record is too long to seal (${recordBytes.length} bytes)`);
  }
  return sealPadded(clear, recordBytes, dataKey);
}

/**
 * `bytes` zero-padded to the next multiple of 32 and sealed under `dataKey` with the clear fields
 * `clear` (§3.2): the synthetic nonce over AD ‖ plaintext, then AES-256-GCM. One seal for a record
 * and a run (runSealer.js, §3.5), which differ only in what they pad and which clear fields AD names.
 * @template {{kind: number, device: string, seq: bigint, first?: bigint, epoch: number}} Clear
 * @param {Clear} clear @param {Uint8Array} bytes @param {DataKey} dataKey
 * @returns {Promise<Clear & {nonce: Uint8Array, ciphertext: Uint8Array}>}
 */
export async function sealPadded(clear, bytes, dataKey) {
  const plaintext = new Uint8Array(paddedLength(bytes.length));
  plaintext.set(bytes);
  const ad = associatedData(clear);
  const nonce = await syntheticNonce(ad, plaintext, dataKey);
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt(gcm(nonce, ad), dataKey.sealKey, plaintext));
  return { ...clear, nonce, ciphertext };
}

/**
 * The padded plaintext of `sealed` after §3.3's steps 1–3, the same for a record and a run:
 * lengths (`length`), authentication under `dataKey` (`unauthentic`), the synthetic nonce
 * (`noncanonical`). What the plaintext must hold is the caller's to check.
 * @param {SealedRecord} sealed @param {DataKey} dataKey
 * @returns {Promise<Uint8Array>}
 */
export async function authenticatedPlaintext(sealed, dataKey) {
  const { nonce, ciphertext } = sealed;
  const bodyCount = ciphertext.length - TAG_BYTES;
  if (nonce.length !== NONCE_BYTES || bodyCount <= 0 || bodyCount % PADDING_UNIT !== 0) throw new SealError('length');
  const ad = associatedData(sealed);
  /** @type {Uint8Array} */
  let plaintext;
  try {
    plaintext = new Uint8Array(await crypto.subtle.decrypt(gcm(nonce, ad), dataKey.sealKey, ciphertext));
  } catch {
    throw new SealError('unauthentic');
  }
  if (!equalBytes(await syntheticNonce(ad, plaintext, dataKey), nonce)) throw new SealError('noncanonical');
  return plaintext;
}

/**
 * The record `sealed` (kind 5 or 6; a run opens with runSealer.openRun) holds, checked as §3.3
 * says, in Swift's order: `length`, `unauthentic`, `noncanonical`, `padding`, `record`, `kind`,
 * `identity` (SealError). `dataKey` must be the key of its epoch. A clear field of the wrong
 * type or range is a RangeError (Swift's types cannot hold one).
 * @param {SealedRecord} sealed @param {DataKey} dataKey
 * @returns {Promise<Uint8Array>}
 */
export async function openRecord(sealed, dataKey) {
  const { kind, device, seq, epoch } = sealed;
  if ((kind !== SEALED_EVENT && kind !== SEALED_NAME) || !/^[0-9a-f]{16}$/.test(device)
    || typeof seq !== 'bigint' || seq < 0n || seq > MAX_U64 || !isU32(epoch)) {
    throw new RangeError('a sealed record has a clear field out of range');
  }
  const plaintext = await authenticatedPlaintext(sealed, dataKey);
  if (plaintext.length < 4) throw new SealError('padding');
  const length = 4 + (plaintext[2] | (plaintext[3] << 8));
  // Exactly the padding a sealer writes: a longer one would be a second sealed form of the record.
  if (length > plaintext.length || plaintext.length !== paddedLength(length) || plaintext.subarray(length).some((b) => b !== 0)) {
    throw new SealError('padding');
  }
  const record = plaintext.slice(0, length);
  const view = singleRecord(record);
  if ((view.kind === 3) !== (kind === SEALED_NAME)) throw new SealError('kind');
  if (view.device !== device || view.seq !== seq) throw new SealError('identity');
  return record;
}
