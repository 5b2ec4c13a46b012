// Why a sealed record, a wrapped key or a recovery kit is refused (Schemas/encryption.md §3.3, §4,
// §6): the app's counterpart of Swift's SealingError (Sources/LedgerSync/Encryption/SealingError.swift).
// `reason` is the stable string of Conformance/encryption.jsonl.

/**
 * - `unauthentic`: the tag did not authenticate (another key, epoch, device, seq or purpose, or a
 *   changed byte);
 * - `noncanonical`: the nonce is not the one the content gives;
 * - `padding`: the record runs past the padded plaintext, or a byte after it is not zero;
 * - `kind`: a sealed event that holds a device name, or a sealed name that holds an event;
 * - `identity`: the inner record's device or seq differs from the clear ones;
 * - `record`: the bytes are not exactly one record of segment-format.md §3;
 * - `length`: a sealed record, a wrapped key or a kit of the wrong length;
 * - `character`: a kit character outside Crockford's alphabet;
 * - `checksum`: a kit whose checksum does not match.
 * @typedef {'unauthentic' | 'noncanonical' | 'padding' | 'kind' | 'identity' | 'record' | 'length' | 'character' | 'checksum'} SealReason
 */

const SENTENCES = {
  unauthentic: 'the sealed bytes do not authenticate under this key',
  noncanonical: 'the nonce is not the one its content gives',
  padding: 'the sealed record is not padded with zeros',
  kind: 'the sealed record holds a record of the other kind',
  identity: "the sealed record's device or seq differs from the clear ones",
  record: 'the sealed bytes are not exactly one valid record',
  length: 'the bytes have the wrong length',
  character: 'the kit has a character outside its alphabet',
  checksum: "the kit's checksum does not match",
};

/** A refusal of encryption.md; `reason` says which, `detail` (for `record`) why. */
export class SealError extends Error {
  /** @param {SealReason} reason @param {string} [detail] */
  constructor(reason, detail) {
    super(detail ? `${SENTENCES[reason]}: ${detail}` : SENTENCES[reason]);
    this.name = 'SealError';
    /** @type {SealReason} */
    this.reason = reason;
    /** @type {string | null} */
    this.detail = detail ?? null;
  }
}
