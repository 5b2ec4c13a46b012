// How the app cuts what it sends into requests, as Swift's EncodedRecords.pages (SyncSession.swift,
// ConversionUpload.swift): consecutive runs of at most `records` items whose sizes add up to about
// `bytes` (a page stops once it reaches `bytes`; an item larger than that goes alone), so that no
// request passes the server's body limit (Schemas/sync-api.yaml; Schemas/sync-frames.md "Page sizes").
// One rule for a plaintext push, a sealed push and a conversion's upload (Schemas/encryption.md §9).

/**
 * About 2 MiB of sealed records per request of an encrypted account (a push, or a conversion's
 * upload): a sealed edit is about three times a plaintext one and does not compress, so its frames
 * weigh what its records do.
 */
export const SEALED_PAGE_BYTES = 2 << 20;
/** Sealed records per request (frames: the server takes up to 100,000). */
export const SEALED_PAGE_RECORDS = 20_000;

/**
 * The pages of `items`, in order.
 * @template T
 * @param {T[]} items @param {(item: T) => number} size what an item weighs in the request
 * @param {{records: number, bytes: number}} limits
 * @returns {Generator<T[]>}
 */
export function* pushPages(items, size, { records, bytes }) {
  let start = 0;
  while (start < items.length) {
    let end = start, weight = 0;
    while (end < items.length && end - start < records && (weight < bytes || end === start)) {
      weight += size(items[end]);
      end++;
    }
    yield items.slice(start, end);
    start = end;
  }
}
