// The re-identification of a copied replica (Schemas/merge.md §10), as `oritsubushi sync` does it
// (DeviceReidentification): this device's events from the first seq where the copies part move
// to a new device id, and the device goes on under that id. Events it moves that had joined a
// chunk (compaction, or pulled back from the server) leave that chunk too: the chunk is written
// again without them in the same transaction, so that the server's versions, which the next pull
// brings under the old id, are the only ones held there.

import { eventKey, toStored } from './records.js';
import { storedIdentity } from './ledger.js';
import { commitOwn } from './ownCommit.js';
import { chunksWithout } from './replicaRecords.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

/**
 * This replica turned out to be a copy: its device's events from seq `first` on move to a new
 * device id (seqs 1, 2, …, the same hlc and content; a knowledge mark among them also records
 * old-device: first − 1), the old id's events from `first` on leave (the server's versions come
 * with the next pull), and the device takes the new id under the same name. One strict commit,
 * read back (ownCommit.js), which also replaces every chunk holding one of the events that leave
 * by a chunk of its other records (replicaRecords.js chunksWithout). A second attempt of that
 * commit adds those chunks again: their records are then held twice with the same content,
 * which counts once (Schemas/phone-app.md "The stored form").
 * @param {Ledger} ledger
 * @param {bigint} first
 * @param {string} newDevice
 * @param {number} now
 * @returns {Promise<{oldDevice: string, newDevice: string, first: bigint, last: bigint}>}
 */
export function reidentify(ledger, first, newDevice, now) {
  return ledger.exclusive(async () => {
    const oldDevice = ledger.device;
    const own = ledger.byDevice.get(oldDevice) ?? [];
    const last = BigInt(own.length);
    const moved = own.slice(Number(first) - 1).map((e, i) => {
      /** @type {LedgerEvent} */
      const copy = { ...e, device: newDevice, seq: BigInt(i + 1) };
      if (e.kind === 'knowledge_mark' && first > 1n) {
        copy.knowledge = [...(e.knowledge ?? []).filter(([d]) => d !== oldDevice), /** @type {[string, bigint]} */ ([oldDevice, first - 1n])]
          .sort((a, b) => (a[0] < b[0] ? -1 : 1));
      }
      return copy;
    });
    const name = ledger.nameRecord(newDevice, now);
    const identity = { ...ledger.identity, device: newDevice, nextSeq: BigInt(moved.length + 1), lastHlc: name.hlc };
    const removed = own.slice(Number(first) - 1).map((e) => eventKey(oldDevice, e.seq));
    const rewrite = chunksWithout(await (await ledger.store.load()).chunks(), oldDevice, first);
    await commitOwn(ledger.store, {
      identity: storedIdentity(identity), remove: removed, put: [...moved, name].map(toStored),
      dropChunks: rewrite.drop, chunks: rewrite.add,
    });
    ledger.identity = identity;
    ledger.compacted = { device: newDevice, seq: 0n };
    const keep = ledger.allRecords().filter((r) => !(r.device === oldDevice && r.kind !== 'device_name' && r.seq >= first));
    ledger.reindex([...keep, ...moved, name]);
    ledger.changed(null);
    return { oldDevice, newDevice, first, last };
  });
}
