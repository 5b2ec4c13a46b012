// An encrypted account's key carried by a link (Schemas/encryption.md §8), as Swift's LinkKey
// (Sources/SyncClient/Encryption/LinkKey.swift): 「別の端末を追加」 wraps the current key under a
// one-time secret (§4, purpose 1) that travels only in the link's fragment
// (`#pair=CODE&key=SECRET`, which no server sees); the server keeps the wrapped key with the code
// and gives it once to the device that redeems the code, which unwraps it with the secret.

import { LINK_SECRET_BYTES, linkWrappingKey, unwrapKey, wrapKey } from './crypto/keyWrap.js';
import { hexBytes, hexOf } from './accountApi.js';

/** @typedef {import('./crypto/dataKey.js').DataKey} DataKey */

/** @param {Uint8Array} bytes @returns {string} base64url without padding (RFC 4648 §5) */
export function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The bytes of base64url text without padding, or null when it is not that.
 * @param {string} text @returns {Uint8Array | null}
 */
export function fromBase64url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * A fresh link secret and `key` (imported with its bytes) wrapped under it: what POST
 * /v1/devices/link sends (`wrappedKey`, 128 hex digits) and what the link carries (`secret`,
 * 43 characters).
 * @param {DataKey} key
 * @returns {Promise<{secret: string, wrappedKey: string, fingerprint: string}>}
 */
export async function linkOffer(key) {
  const secret = crypto.getRandomValues(new Uint8Array(LINK_SECRET_BYTES));
  const wrapped = await wrapKey(key, await linkWrappingKey(secret), 'link');
  return { secret: base64url(secret), wrappedKey: hexOf(wrapped), fingerprint: key.fingerprint };
}

/**
 * The key a joining device receives: `wrappedHex` (the pair answer's) unwrapped with the link's
 * secret, of the account's `epoch` when the answer gave one; null when it does not open (a
 * changed link, or a code redeemed with another link's secret).
 * @param {string} wrappedHex @param {string} secretText @param {number | null} epoch
 * @returns {Promise<DataKey | null>}
 */
export async function receiveLinkKey(wrappedHex, secretText, epoch) {
  const secret = fromBase64url(secretText);
  if (!secret || secret.length !== LINK_SECRET_BYTES || !/^[0-9a-f]{128}$/.test(wrappedHex)) return null;
  try {
    const key = await unwrapKey(hexBytes(wrappedHex), await linkWrappingKey(secret), 'link', { extractable: true });
    return epoch === null || key.epoch === epoch ? key : null;
  } catch {
    return null;
  }
}
