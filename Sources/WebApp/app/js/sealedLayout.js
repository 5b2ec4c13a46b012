// The sizes of a sealed record's stored form (Schemas/segment-format.md §3.6), as Swift's
// SealedRecordLayout: the block codec, the frame writer and the sealers read them from here. A
// module of its own, with nothing else in it: the block decoder is in the page's first bundle.

export const SEALED_EVENT = 5;
export const SEALED_NAME = 6;
/** A sealed run: one device's consecutive events `first … last` as one block (encryption.md §3.5). */
export const SEALED_RUN = 7;
/** The padded plaintext is a multiple of this many bytes. */
export const PADDING_UNIT = 32;
export const NONCE_BYTES = 12;
export const TAG_BYTES = 16;
/** A run's padded block is at most this long, so that its stored body fits the header's u16. */
export const MAX_RUN_PLAINTEXT = 65_472;
/**
 * A pushing device ends a run before its records' raw lengths together pass this many bytes
 * (encryption.md §3.5), which keeps its padded
 * block within MAX_RUN_PLAINTEXT (a block is never longer than its records and its header).
 */
export const MAX_RUN_RECORD_BYTES = 60_000;

/**
 * The fixed part of a sealed record's body: device, an event's seq or a run's first and last,
 * the epoch and the nonce.
 * @param {number} kind 5, 6 or 7
 */
export function fixedBody(kind) {
  return kind === SEALED_EVENT ? 32 : kind === SEALED_RUN ? 40 : 24;
}

/**
 * A sealed record's length in the raw record stream: header, fixed part, ciphertext and tag.
 * @param {{kind: number, ciphertext: Uint8Array}} sealed
 */
export function storedLength(sealed) {
  return 4 + fixedBody(sealed.kind) + sealed.ciphertext.length;
}

/**
 * The most events a run's padded block of `padded` bytes could hold (segment-format.md §3.6): a
 * block's header and device table take 52 bytes, and an event at least 7 (three one-byte columns
 * and four one-byte varints at least).
 * @param {number} padded
 */
export function maxRunEvents(padded) {
  return Math.max(0, Math.floor((padded - 52) / 7));
}

/**
 * Why a sealed record's clear fields are not as segment-format.md §3.6 has them (Swift's
 * SealedRecordStream, in its words), or null when they are: flags 0, a ciphertext of a positive
 * multiple of PADDING_UNIT bytes and its tag, a non-zero device and epoch, an event's non-zero
 * seq, a run's non-zero first, a last not below it and no more events than it could hold.
 * @param {{kind: number, flags: number, body: number, device: string, seq: bigint, first?: bigint, epoch: number}} record
 *   `body` the body's length in the header; `seq` an event's seq or a run's last; `first` a run's
 * @returns {string | null}
 */
export function sealedFault({ kind, flags, body, device, seq, first, epoch }) {
  const padded = body - fixedBody(kind) - TAG_BYTES;
  if (flags !== 0 || padded <= 0 || padded % PADDING_UNIT !== 0) return `a sealed record has bad flags or a bad length ${body}`;
  const firstSeq = kind === SEALED_RUN ? first ?? 0n : seq;
  if (device === '0000000000000000' || (kind !== SEALED_NAME && firstSeq === 0n) || epoch === 0) return 'a sealed record has a zero device, seq or epoch';
  if (kind === SEALED_RUN && seq < firstSeq) return `a sealed run ends (seq ${seq}) before it starts (seq ${firstSeq})`;
  if (kind === SEALED_RUN && seq - firstSeq + 1n > BigInt(maxRunEvents(padded))) {
    return `a sealed run claims ${seq - firstSeq + 1n} events, more than its ${padded} bytes could hold`;
  }
  return null;
}
