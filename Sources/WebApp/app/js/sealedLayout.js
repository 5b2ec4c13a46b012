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
