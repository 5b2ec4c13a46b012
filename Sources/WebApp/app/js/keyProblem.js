// Why an end-to-end encrypted account cannot sync on this device (Schemas/encryption.md §11 "The
// client"), by cause, so that the screens say it in the app's language (refusals.js) and never
// from the English `message`, which is for developers. A module of its own: the refusals, in the
// page's first bundle, need the class and nothing of the encryption.

/**
 * - `missing`: the account is encrypted and this device has no key (none made here, a key
 *   registered by another device);
 * - `other`: this device's key is not the account's (its fingerprint differs);
 * - `rotated`: the account's key was rotated to an epoch this device lacks;
 * - `taken`: another device made and registered the account's first key at the same moment;
 * - `chain`: the server's key chain does not open under this device's key;
 * - `record`: a pulled record of an epoch this device lacks, or one that does not open;
 * - `stored`: this device's stored keys cannot be unwrapped;
 * - `insecure`: the page is not in a secure context, so WebCrypto is missing.
 * @typedef {'missing' | 'other' | 'rotated' | 'taken' | 'chain' | 'record' | 'stored' | 'insecure'} KeyReason
 */

export class KeyProblem extends Error {
  /** @param {KeyReason} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    this.name = 'KeyProblem';
    /** @type {KeyReason} */
    this.reason = reason;
  }
}
