// Where this device's own events are: on this device only, or also on the server. The server's
// answer to every pull and push says how far it holds each device's events (`server_has`);
// sync.js saves it (the `sync` setting, strictly, so it survives a reload), and every event of
// this device up to that seq is acknowledged. 駅 labels each own event by this rule, and 同期
// counts the rest before signing out.

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {'device' | 'server'} SavedState */

/**
 * The highest seq of `device` the server acknowledged at the last exchange (0n before any).
 * @param {Ledger} ledger
 * @param {string} [device] this device by default
 */
export function acknowledgedSeq(ledger, device = ledger.device) {
  const saved = /** @type {{serverHas?: Record<string, string>} | undefined} */ (ledger.getMeta('sync'));
  const seq = saved?.serverHas?.[device];
  return typeof seq === 'string' && /^\d+$/.test(seq) ? BigInt(seq) : 0n;
}

/**
 * This device's events the server has not acknowledged: what only this device holds.
 * @param {Ledger} ledger
 */
export function unsentOwnCount(ledger) {
  const unsent = ledger.held(ledger.device) - acknowledgedSeq(ledger);
  return unsent > 0n ? Number(unsent) : 0;
}

/**
 * Where an event is: 'server' once a push was acknowledged for its seq, 'device' before; null for
 * another device's event (it came from the server).
 * @param {Ledger} ledger
 * @param {LedgerEvent} event
 * @returns {SavedState | null}
 */
export function savedState(ledger, event) {
  if (event.device !== ledger.device || event.kind === 'device_name') return null;
  return event.seq <= acknowledgedSeq(ledger) ? 'server' : 'device';
}
