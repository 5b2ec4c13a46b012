// The sizes of a sealed record's stored form (Schemas/segment-format.md §3.6), as Swift's
// SealedRecordLayout: the block codec, the frame writer and the sealer read them from here. A
// module of its own, with nothing else in it: the block decoder is in the page's first bundle.

export const SEALED_EVENT = 5;
export const SEALED_NAME = 6;
/** The padded plaintext is a multiple of this many bytes. */
export const PADDING_UNIT = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;

/**
 * The fixed part of a sealed record's body: device, an event's seq, the epoch and the nonce.
 * @param {number} kind 5 or 6
 */
export function fixedBody(kind) {
  return kind === SEALED_EVENT ? 32 : 24;
}

/**
 * A sealed record's length in the raw record stream: header, fixed part, ciphertext and tag.
 * @param {{kind: number, ciphertext: Uint8Array}} sealed
 */
export function storedLength(sealed) {
  return 4 + fixedBody(sealed.kind) + sealed.ciphertext.length;
}

/**
 * Why a sealed record's clear fields are not as segment-format.md §3.6 has them (Swift's
 * SealedRecordStream, in its words), or null when they are: flags 0, a ciphertext of a positive
 * multiple of PADDING_UNIT bytes and its tag, a non-zero device, epoch and (an event's) seq.
 * @param {{kind: number, flags: number, body: number, device: string, seq: bigint, epoch: number}} record
 *   `body` the body's length in the header
 * @returns {string | null}
 */
export function sealedFault({ kind, flags, body, device, seq, epoch }) {
  const padded = body - fixedBody(kind) - TAG_BYTES;
  if (flags !== 0 || padded <= 0 || padded % PADDING_UNIT !== 0) return `a sealed record has bad flags or a bad length ${body}`;
  if (device === '0000000000000000' || (kind === SEALED_EVENT && seq === 0n) || epoch === 0) return 'a sealed record has a zero device, seq or epoch';
  return null;
}
