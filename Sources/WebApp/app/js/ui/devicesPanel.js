// 同期's 端末 section, shown while this device is paired: the user's active devices (each with its
// name, its last sync or 未同期, この端末; every other one with 「サインアウトさせる」 and a confirm
// step), this device's name with 「名前を変更」, and 「別の端末を追加」, which shows a one-time
// pairing link as text, grouped code, expiry and QR code. Every answer is one sentence in
// `device-result`; the list is loaded when 同期 appears and after each change.

import { deviceRows, groupCode, pairingLink } from '../devices.js';
import { formatJst } from '../dates.js';
import { encodeText } from '../qrCode.js';
import { t } from '../i18n.js';
import { byId, elements, h } from './dom.js';
import { qrSvg } from './qrSvg.js';

/** @typedef {import('../app.js').App} App */
/** @typedef {import('../deviceManager.js').DeviceManager} DeviceManager */
/** @typedef {import('../api.js').Device} Device */

export class DevicesPanel {
  /** @param {App} app @param {DeviceManager} devices */
  constructor(app, devices) {
    this.app = app;
    this.devices = devices;
    this.section = byId('devices-section');
    this.el = elements('device-', ['list', 'result', 'linkPanel', 'linkQr', 'linkCode', 'linkExpires', 'linkKey'], {
      nameInput: HTMLInputElement, rename: HTMLButtonElement, link: HTMLButtonElement, linkUrl: HTMLAnchorElement });
    /** @type {Device[]} */
    this.shown = [];
    /** The name input holds what the person typed: a reload of the list leaves it. */
    this.nameTyped = false;
    /** Answers to older loads are dropped. */
    this.loads = 0;
    this.el.nameInput.addEventListener('input', () => { this.nameTyped = true; });
    this.el.rename.addEventListener('click', () => void this.rename());
    this.el.link.addEventListener('click', () => void this.link());
  }

  /** Shows the section while paired, and hides what belonged to a token now gone. */
  render() {
    const paired = this.app.token !== null;
    this.section.hidden = !paired;
    if (!paired) {
      this.shown = [];
      this.el.list.replaceChildren();
      this.el.linkPanel.hidden = true;
      this.el.linkQr.replaceChildren();
      this.nameTyped = false;
      this.el.nameInput.value = '';
    } else if (!this.nameTyped && document.activeElement !== this.el.nameInput) {
      this.el.nameInput.value = this.ownName();
    }
  }

  /** This device's name: as the server lists it, else as the replica holds it. */
  ownName() {
    const own = this.shown.find((d) => d.thisDevice);
    return own?.name ?? this.app.ledger?.deviceName(this.app.ledger.device) ?? '';
  }

  /** Loads the list (nothing while unpaired). */
  async load() {
    this.render();
    if (!this.app.token) return;
    const load = ++this.loads;
    if (this.shown.length === 0) this.el.list.replaceChildren(h('li', { class: 'note-item', text: t('devices.loading') }));
    const answer = await this.devices.list();
    if (load !== this.loads) return;
    if (!answer.ok) {
      this.el.list.replaceChildren();
      this.say(answer.message, false);
      this.render();
      return;
    }
    this.shown = answer.value;
    this.drawList();
    this.render();
  }

  drawList() {
    const devicesById = new Map(this.shown.map((d) => [d.id, d]));
    this.el.list.replaceChildren(...deviceRows(this.shown).map((row) => {
      const device = /** @type {Device} */ (devicesById.get(row.id));
      const item = h('li', { class: row.thisDevice ? 'this-device' : '', data: { testid: 'device-item', device: row.id } },
        h('span', { class: 'main' },
          h('div', { class: 'name' }, h('span', { data: { testid: 'device-name' }, text: row.name }),
            row.thisDevice && h('span', { class: 'badge', data: { testid: 'device-this' }, text: t('devices.thisDevice') })),
          h('div', { class: 'detail', data: { testid: 'device-last-sync' }, text: row.lastSync })));
      if (row.revocable) {
        item.append(h('button', { class: 'go', text: t('devices.revoke'), data: { testid: 'device-revoke' },
          attrs: { type: 'button' }, on: { click: () => this.askRevoke(item, device, row.name) } }));
      }
      return item;
    }));
  }

  /**
   * The confirm step of 「サインアウトさせる」, inside the device's row.
   * @param {HTMLElement} item @param {Device} device @param {string} name
   */
  askRevoke(item, device, name) {
    item.querySelector('[data-testid=device-revoke]')?.remove();
    const confirm = h('div', { class: 'confirm', data: { testid: 'device-revoke-question' } },
      h('p', { text: t('devices.revokeQuestion', name) }),
      h('div', { class: 'buttons' },
        h('button', { class: 'primary', text: t('devices.revokeConfirm'), data: { testid: 'device-revoke-confirm' }, attrs: { type: 'button' },
          on: { click: (e) => void this.revoke(device, /** @type {HTMLButtonElement} */ (e.currentTarget)) } }),
        h('button', { text: t('devices.cancel'), data: { testid: 'device-revoke-cancel' }, attrs: { type: 'button' },
          on: { click: () => this.drawList() } })));
    item.append(confirm);
  }

  /**
   * @param {Device} device @param {HTMLButtonElement} button
   */
  async revoke(device, button) {
    button.disabled = true;
    const answer = await this.devices.revoke(device);
    this.say(answer.message || '', answer.ok);
    await this.load();
  }

  async rename() {
    this.el.rename.disabled = true;
    const answer = await this.devices.rename(this.el.nameInput.value);
    this.el.rename.disabled = false;
    this.say(answer.message, answer.ok);
    if (answer.ok) {
      this.nameTyped = false;
      this.el.nameInput.value = answer.value.name ?? this.el.nameInput.value.trim();
      await this.load();
    }
  }

  async link() {
    this.el.link.disabled = true;
    const answer = await this.devices.link();
    this.el.link.disabled = false;
    if (!answer.ok) {
      this.say(answer.message, false);
      this.render();
      return;
    }
    const url = pairingLink(location.origin, answer.value.code, answer.value.secret ?? null);
    this.el.linkCode.textContent = groupCode(answer.value.code);
    this.el.linkUrl.href = url;
    this.el.linkUrl.textContent = url;
    this.el.linkExpires.textContent = t('devices.linkExpires', formatJst(answer.value.expires));
    const fingerprint = answer.value.fingerprint;
    this.el.linkKey.hidden = fingerprint === undefined;
    this.el.linkKey.textContent = fingerprint === undefined ? '' : t('devices.linkKey', fingerprint);
    this.el.linkQr.replaceChildren(qrSvg(encodeText(url), t('devices.linkQr')));
    this.el.linkPanel.hidden = false;
    this.say('', true);
  }

  /** @param {string} message @param {boolean} ok */
  say(message, ok) {
    this.el.result.textContent = message;
    this.el.result.classList.toggle('bad', !ok);
  }
}
