// Why turning a plaintext account end-to-end encrypted stopped (Schemas/encryption.md §9), by
// cause, so that 同期 says it in the app's language (refusals.js), never from the English
// `message`, which is for developers. A module of its own, as keyProblem.js: the refusals, in the
// page's first bundle, need the class and nothing of the conversion.

/**
 * - `other-key`: another device is turning the account encrypted with another key (409), or did;
 *   this device's key, never kept by the server, is forgotten;
 * - `busy`: other devices kept pushing through every round (§9: at most 8); nothing is lost;
 * - `sync`: the sync before an upload failed (同期 says why); nothing is lost.
 * @typedef {'other-key' | 'busy' | 'sync'} ConversionReason
 */

export class ConversionProblem extends Error {
  /** @param {ConversionReason} reason @param {string} message */
  constructor(reason, message) {
    super(message);
    this.name = 'ConversionProblem';
    /** @type {ConversionReason} */
    this.reason = reason;
  }
}
