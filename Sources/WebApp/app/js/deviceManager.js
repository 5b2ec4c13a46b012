// The user's devices as 同期 manages them, without the DOM: list them, rename this one, make a
// pairing code for another, sign another out, and ログアウト (this device's token revoked at the
// server, then forgotten here, the records kept or erased). Each answer is one sentence of the
// app's own; a 401 on any of these requests forgets the token as a sync would (App).

import { ApiError, NetworkError } from './api.js';
import { checkDeviceName, deviceFailure } from './devices.js';
import { refusalText } from './refusals.js';
import { StoreError } from './store.js';
import { refusedToken } from './sync.js';
import { t } from './i18n.js';
import { loadKeys } from './keyStore.js';
import { linkOffer } from './linkKey.js';
import { isSealedName, openDeviceNames, sealDeviceName } from './sealedDeviceName.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./api.js').Device} Device */
/** @typedef {import('./devices.js').DeviceAction} DeviceAction */
/** @template T @typedef {{ok: true, value: T, message: string} | {ok: false, message: string}} Outcome */

export class DeviceManager {
  /** @param {App} app */
  constructor(app) {
    this.app = app;
  }

  /**
   * Runs a device request with the token. A 401 forgets the token (revoked, or unknown to the
   * server) and answers that sentence; any other failure is one sentence of the app's own.
   * @template T
   * @param {DeviceAction} action
   * @param {(token: string) => Promise<T>} request
   * @param {(value: T) => string} [success] the sentence for a success
   * @returns {Promise<Outcome<T>>}
   */
  async request(action, request, success = () => '') {
    const app = this.app;
    const token = app.token;
    if (!token) return { ok: false, message: t('status.unpaired') };
    try {
      const value = await request(token);
      return { ok: true, value, message: success(value) };
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        await app.forgetRefusedToken(refusedToken(error));
        app.emit('status');
        return { ok: false, message: app.syncError ?? t('status.unpaired') };
      }
      return { ok: false, message: deviceFailure(error, action) };
    }
  }

  /**
   * GET /v1/devices: the user's active devices, oldest first; an encrypted account's sealed names
   * opened with this device's keys (encryption.md §8, "Device names").
   */
  list() {
    return this.request('list', async (token) => {
      const devices = await this.app.api.devices(token);
      if (!devices.some((d) => isSealedName(d.name))) return devices;
      return openDeviceNames(devices, await loadKeys(this.app.replica).catch(() => null));
    });
  }

  /**
   * A one-time pairing code for another device of this user; on an encrypted account whose key
   * this device holds, the code carries the key wrapped for the link, and the answer the link's
   * `secret` and the key's `fingerprint` (linkKey.js).
   * @returns {Promise<Outcome<{code: string, expires: number, secret?: string, fingerprint?: string}>>}
   */
  link() {
    return this.request('link', async (token) => {
      const ring = await loadKeys(this.app.replica).catch(() => null);
      const offer = ring ? await linkOffer(ring.current) : null;
      const answer = await this.app.api.linkDevice(token, offer ? { wrappedKey: offer.wrappedKey } : {});
      return offer ? { ...answer, secret: offer.secret, fingerprint: offer.fingerprint } : answer;
    });
  }

  /**
   * Signs another device out.
   * @param {Device} device
   */
  revoke(device) {
    return this.request('revoke', (token) => this.app.api.revokeDevice(token, device.id),
      (revoked) => t('devices.revoked', device.sealed ? device.name ?? t('devices.sealedName') : revoked.name ?? device.name ?? device.id));
  }

  /**
   * Renames this device at the server, then in the replica (its name record goes out with the
   * next push, so the other devices' histories show it too). While this device holds an
   * encrypted account's keys, the server gets the new name record sealed (encryption.md §8,
   * "Device names"), the one the replica then writes (the same clock reading); without them a
   * name in the clear, which such an account's server refuses (409 `encrypted-account`).
   * @param {string} typed
   * @returns {Promise<Outcome<Device>>}
   */
  async rename(typed) {
    const checked = checkDeviceName(typed);
    if (!checked.ok) return checked;
    /** When the name record sent sealed was made (Unix ms): the replica's is made then too. @type {number | null} */
    let sealedAt = null;
    const answer = await this.request('rename', async (token) => {
      const replica = this.app.replica;
      const ring = await loadKeys(replica).catch(() => null);
      if (!ring) return this.app.api.renameDevice(token, checked.name);
      sealedAt = this.app.now();
      const sealedName = await sealDeviceName(replica.nameRecord(replica.device, sealedAt, checked.name), ring.current);
      return { ...await this.app.api.renameDevice(token, sealedName), name: checked.name, sealed: true };
    });
    if (!answer.ok) return answer;
    const name = answer.value.name ?? checked.name;
    try {
      await this.app.replica.rename(name, sealedAt ?? this.app.now());
    } catch (error) {
      if (error instanceof StoreError) this.app.emit('storage', refusalText(error));
      return { ok: false, message: refusalText(error) };
    }
    return { ok: true, value: answer.value, message: t('devices.renamed', name) };
  }

  /**
   * ログアウト: the server revokes this device's token, then the app forgets it (and the user);
   * with `erase`, every record this device holds goes too and the replica starts anew. When the
   * server cannot be reached nothing changes (`offline`), unless `localOnly`: the token is then
   * forgotten here only and stays valid at the server until another device signs it out. A token
   * the server refuses already (401) is simply forgotten.
   * @param {{erase?: boolean, localOnly?: boolean}} [options]
   * @returns {Promise<{ok: boolean, offline?: boolean, message: string}>}
   */
  async signOut(options = {}) {
    const { erase = false, localOnly = false } = options;
    const app = this.app;
    const token = app.token;
    if (!token) return { ok: false, message: t('status.unpaired') };
    app.leaving = true;
    try {
      app.cancelScheduledSync();
      if (app.running) await app.running; // a sync under way ends before its token does
      if (!localOnly) {
        try {
          await app.api.signOut(token);
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 401)) {
            return { ok: false, offline: error instanceof NetworkError, message: deviceFailure(error, 'sign-out') };
          }
        }
      }
      try {
        if (erase) await app.eraseReplica();
        else await app.forgetToken();
      } catch (error) {
        const message = refusalText(error);
        app.emit('storage', message);
        return { ok: false, message };
      }
      app.emit('status');
      return { ok: true, message: t(erase ? 'signOut.erased' : 'signOut.done') };
    } finally {
      app.leaving = false;
    }
  }
}
