// The names of an end-to-end encrypted account's devices as its server keeps them (Schemas/
// encryption.md §8, "Device names"), as Swift's SealedDeviceName and DeviceNameSealing
// (Sources/LedgerSync/Encryption/SealedDeviceName.swift, Sources/SyncClient/Encryption/
// DeviceNameSealing.swift): a device's own name record (kind 3) sealed as a push seals names
// (§3, kind 6), written `sealed:` and the base64url of its stored form. The server lists them
// without reading them; a device holding the key opens them, and names itself so once it holds
// the key (GET /v1/account's `device_named`).

import { openRecords, SealedRecordError, sealEvents } from './sealedSync.js';
import { readStoredForm, storedForm } from './crypto/recordSealer.js';
import { SealError } from './crypto/sealError.js';
import { SEALED_NAME } from './sealedLayout.js';
import { base64url, fromBase64url } from './linkKey.js';

/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */
/** @typedef {import('./crypto/keyRing.js').KeyRing} KeyRing */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./api.js').Device} Device */
/** @typedef {import('./ledger.js').Ledger} Ledger */

export const SEALED_NAME_PREFIX = 'sealed:';
/** The longest sealed name the server takes: a name of 255 bytes, sealed and written out, fits. */
export const MAX_SEALED_NAME = 1024;

/**
 * Whether `text` is written as a sealed name (whether or not it opens).
 * @param {string | null | undefined} text
 * @returns {text is string}
 */
export function isSealedName(text) {
  return typeof text === 'string' && text.startsWith(SEALED_NAME_PREFIX);
}

/**
 * `nameRecord` (a device's own name record) sealed under `key`, as the server keeps it: the same
 * text Swift's DeviceNameSealing.seal makes (the sealer is deterministic).
 * @param {LedgerEvent} nameRecord of kind `device_name` @param {DataKey} key
 */
export async function sealDeviceName(nameRecord, key) {
  if (nameRecord.kind !== 'device_name') throw new TypeError('only a device name record is sealed as a name');
  const [sealed] = await sealEvents([nameRecord], key);
  return SEALED_NAME_PREFIX + base64url(storedForm(sealed));
}

/**
 * The name a sealed name holds, opened with `ring`; null when it is not one well-formed sealed
 * device name (§3.6) or does not open (another account's, or an epoch this device lacks).
 * @param {string} text @param {KeyRing | null} ring
 * @returns {Promise<string | null>}
 */
export async function openDeviceName(text, ring) {
  if (!ring || !isSealedName(text) || text.length > MAX_SEALED_NAME) return null;
  const bytes = fromBase64url(text.slice(SEALED_NAME_PREFIX.length));
  if (!bytes) return null;
  let sealed;
  try {
    sealed = readStoredForm(bytes);
  } catch (error) {
    if (error instanceof SealError) return null;
    throw error;
  }
  if (sealed.kind !== SEALED_NAME || !ring.key(sealed.epoch)) return null;
  try {
    const [opened] = await openRecords([sealed], ring);
    return opened.kind === 'device_name' ? opened.name ?? null : null;
  } catch (error) {
    if (error instanceof SealedRecordError) return null;
    throw error;
  }
}

/**
 * `devices` as /v1/devices listed them, each sealed name opened with `ring` (`sealed` marks them;
 * `name` null where it does not open), the others as they were.
 * @param {Device[]} devices @param {KeyRing | null} ring
 * @returns {Promise<Device[]>}
 */
export function openDeviceNames(devices, ring) {
  return Promise.all(devices.map(async (d) => (isSealedName(d.name) ? { ...d, name: await openDeviceName(d.name, ring), sealed: true } : d)));
}

/**
 * Names this device with its sealed name record when the account said it has none yet
 * (`owesName`: GET /v1/account's `device_named` false) and this device holds the key: after the
 * first key, a link, the kit or a conversion. Quietly nothing when the replica holds no name of
 * its own device. DeviceNameSealing.nameIfOwed.
 * @param {{ring: KeyRing, owesName?: boolean} | null} prepared what accountKeys.js prepareKeys gave
 * @param {Ledger} ledger @param {Api} api @param {string} token
 */
export async function nameIfOwed(prepared, ledger, api, token) {
  const own = ledger.names.get(ledger.device);
  if (!prepared?.owesName || !own) return;
  await api.renameDevice(token, await sealDeviceName(own, prepared.ring.current));
}
