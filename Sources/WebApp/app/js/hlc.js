// The hybrid logical clock (Schemas/merge.md §3): a u64 of 48 bits of Unix milliseconds and a
// 16-bit counter. A ledger's clock is the largest hlc it holds; a new local event gets
// max(wall clock << 16, clock + 1), so an edit made after receiving another sorts after it even
// when the other device's wall clock ran ahead (HybridTimestamp.next(after:wallClock:)).

const COUNTER_BITS = 16n;
const MAX_U64 = (1n << 64n) - 1n;

/**
 * The hlc of a new local event.
 * @param {bigint} last the ledger's clock (largest hlc held, 0n for none)
 * @param {number} wallMs Unix milliseconds
 * @returns {bigint}
 */
export function nextHlc(last, wallMs) {
  const wall = BigInt(Math.max(0, Math.floor(wallMs))) << COUNTER_BITS;
  return wall > last ? wall : (last + 1n) & MAX_U64;
}

/**
 * The wall-clock part in Unix milliseconds.
 * @param {bigint} hlc
 */
export function hlcMillis(hlc) {
  return Number(hlc >> COUNTER_BITS);
}

/**
 * The first hlc of a millisecond.
 * @param {number} ms
 */
export function hlcOfMillis(ms) {
  return BigInt(Math.max(0, Math.floor(ms))) << COUNTER_BITS;
}

/**
 * The larger of two hlcs.
 * @param {bigint} a @param {bigint} b
 */
export function maxHlc(a, b) {
  return a > b ? a : b;
}
