// What 同期 shows of the user's devices and says about them, without the DOM: one row per active
// device (its name, its last sync or 未同期, この端末), the check of a new name before it is sent,
// the link and the grouped code of a pairing code made for another device, and one sentence in the
// app's language for each way a device request can fail (never the server's English text).

import { ApiError, MalformedAnswer, NetworkError } from './api.js';
import { formatJst } from './dates.js';
import { t } from './i18n.js';
import { MAX_NAME_BYTES, utf8Length } from './records.js';
import { refusalText } from './refusals.js';
import { nameRefusedText, nameTooLongText } from './textLimits.js';

/** @typedef {import('./api.js').Device} Device */
/** @typedef {'list' | 'rename' | 'revoke' | 'link' | 'sign-out'} DeviceAction */

/**
 * @typedef {object} DeviceRow
 * @property {string} id
 * @property {string} name the device's name, or words saying it has none
 * @property {string} lastSync 「前回の同期 …」 or 「未同期」
 * @property {boolean} thisDevice
 * @property {boolean} revocable every other device can be signed out from here
 */

/**
 * The rows of the device list, in the server's order (oldest first).
 * @param {Device[]} devices
 * @returns {DeviceRow[]}
 */
export function deviceRows(devices) {
  return devices.map((d) => ({
    id: d.id,
    name: d.name ?? t(d.sealed ? 'devices.sealedName' : 'devices.unnamed'),
    lastSync: d.lastSync === null ? t('devices.neverSynced') : t('devices.lastSync', formatJst(d.lastSync)),
    thisDevice: d.thisDevice,
    revocable: !d.thisDevice,
  }));
}

/**
 * A name as the server takes it (trimmed, 1 to 255 bytes of UTF-8), or the sentence saying why not
 * (counting characters: textLimits.js).
 * @param {string} typed
 * @returns {{ok: true, name: string} | {ok: false, message: string}}
 */
export function checkDeviceName(typed) {
  const name = typed.trim();
  if (name === '') return { ok: false, message: t('devices.nameEmpty') };
  if (utf8Length(name) > MAX_NAME_BYTES) return { ok: false, message: nameTooLongText() };
  return { ok: true, name };
}

/**
 * A pairing code as people read it: "ABCD-EFGH".
 * @param {string} code
 */
export function groupCode(code) {
  const plain = code.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

/**
 * The link that pairs another device at once: the app at this origin with #pair=CODE, the code
 * without its dash (main.js takes it from the hash), and on an encrypted account `&key=SECRET`,
 * the secret that unwraps the key the code carries (linkKey.js; the fragment never reaches a server).
 * @param {string} origin location.origin
 * @param {string} code
 * @param {string | null} [secret] base64url, 43 characters
 */
export function pairingLink(origin, code, secret = null) {
  const key = secret ? `&key=${secret}` : '';
  return `${origin}/app/#pair=${code.replace(/[^0-9A-Za-z]/g, '').toUpperCase()}${key}`;
}

/**
 * The warning before signing out: what only this device holds, or null when nothing is unsent.
 * @param {number} unsent this device's events the server has not acknowledged
 */
export function unsentWarning(unsent) {
  return unsent > 0 ? t('signOut.unsent', unsent) : null;
}

/**
 * One sentence for a device request that failed (a 401 signs the device out instead: app.js).
 * @param {unknown} error
 * @param {DeviceAction} action
 */
export function deviceFailure(error, action) {
  if (error instanceof NetworkError) return action === 'sign-out' ? t('signOut.offline') : t('devices.offline');
  if (error instanceof MalformedAnswer) return t('devices.malformed');
  if (error instanceof ApiError) {
    if (action === 'rename' && error.code === 'encrypted-account') return t('devices.renameNoKey');
    if (action === 'rename' && error.status === 409) return t('devices.nameTaken');
    if (action === 'rename' && error.status === 422) return nameRefusedText();
    if (action === 'revoke' && error.status === 404) return t('devices.revokeGone');
    if (action === 'link' && error.status === 422) return t('devices.linkRefused');
    if (error.status === 429) return t('devices.busy', error.retryAfter ?? 60);
    return t('devices.failed', error.status);
  }
  return refusalText(error);
}
