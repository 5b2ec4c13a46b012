// The requests of an end-to-end encrypted account (Schemas/encryption.md §11 "The API",
// Schemas/sync-api.yaml), as Swift's SyncConnection+Sealed: GET /v1/account (is the account
// encrypted, its epoch, its key's fingerprint, its key chain), POST /v1/account/key (the first
// device registers its key's fingerprint), POST /v1/account/encryption (a plaintext account's
// conversion, §9), and the sealed pull and push, frames only
// (Schemas/sync-frames.md): the pull's header carries the server's digests of its sealed copies
// with their epochs (`have_checks`, `server_digests`), for the device to compare.

import { ApiError, decodeVersionVector, FRAMES_TYPE, framesBody, MalformedAnswer, decodePushAnswer, Api } from './api.js';
import { stringify, toUnsigned } from './bigjson.js';
import { FramesError, readSealedFrames, writeSealedFrames } from './recordFrames.js';
import { isDeviceHex, isDigestHex } from './records.js';

/** @typedef {import('./crypto/recordSealer.js').SealedRecord} SealedRecord */
/** @typedef {import('./api.js').PushAnswer} PushAnswer */
/** @typedef {import('./api.js').StoredDigests} StoredDigests */

/**
 * @typedef {object} Account
 * @property {boolean} encrypted
 * @property {number | null} epoch the current key epoch
 * @property {string | null} fingerprint the current key's, once a device registered it
 * @property {Map<number, Uint8Array>} keyChain epoch e → epoch e's key wrapped under e + 1's K_chain
 * @property {boolean | null} deviceNamed an encrypted account's: whether the asking device's token
 *   carries a sealed name (encryption.md §8, "Device names"); null when the server did not say
 */

/**
 * @typedef {object} SealedPage
 * @property {SealedRecord[]} sealed
 * @property {boolean} more
 * @property {bigint} cursor
 * @property {Map<string, bigint>} serverHas
 * @property {StoredDigests} haveChecks the server's copy at each `have` seq it holds
 * @property {StoredDigests} serverDigests its copy at each `server_has` seq
 */

/**
 * What POST /v1/account/encryption answers (sync-api.yaml): whether the account is encrypted now,
 * what the staged sealed copy holds and what the readable log holds.
 * @typedef {object} ConversionAnswer
 * @property {boolean} encrypted
 * @property {Map<string, bigint>} sealedHas
 * @property {Map<string, bigint>} serverHas
 */

const MAX_U64 = (1n << 64n) - 1n;

/** A plaintext account: what a server from before encryption (404) serves. */
export const PLAINTEXT = Object.freeze({ encrypted: false, epoch: null, fingerprint: null, keyChain: new Map(), deviceNamed: null });

/** @param {Uint8Array} bytes @returns {string} lowercase hex */
export function hexOf(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** @param {string} text @returns {Uint8Array} */
export function hexBytes(text) {
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => parseInt(pair, 16));
}

/**
 * An Account answer, checked (sync-api.yaml `Account`).
 * @param {Record<string, unknown>} body
 * @returns {Account}
 */
export function decodeAccount(body) {
  const bad = () => new MalformedAnswer('the sync server described the account in a form that is not the sync API\'s');
  if (typeof body.encrypted !== 'boolean') throw bad();
  const epoch = body.epoch ?? null;
  if (epoch !== null && !(Number.isInteger(epoch) && /** @type {number} */ (epoch) >= 1 && /** @type {number} */ (epoch) <= 0xffffffff)) throw bad();
  const fingerprint = body.fingerprint ?? null;
  if (fingerprint !== null && (typeof fingerprint !== 'string' || !/^[0-9A-Z]{4}-[0-9A-Z]{4}$/.test(fingerprint))) throw bad();
  const chain = body.key_chain ?? {};
  if (!chain || typeof chain !== 'object' || Array.isArray(chain)) throw bad();
  /** @type {Map<number, Uint8Array>} */
  const keyChain = new Map();
  for (const [e, wrapped] of Object.entries(chain)) {
    if (!/^[1-9][0-9]{0,9}$/.test(e) || typeof wrapped !== 'string' || !/^[0-9a-f]{128}$/.test(wrapped)) throw bad();
    keyChain.set(Number(e), hexBytes(wrapped));
  }
  if (body.encrypted && epoch === null) throw bad();
  const deviceNamed = body.device_named ?? null;
  if (deviceNamed !== null && typeof deviceNamed !== 'boolean') throw bad();
  return { encrypted: body.encrypted, epoch: /** @type {number | null} */ (epoch), fingerprint: /** @type {string | null} */ (fingerprint), keyChain, deviceNamed };
}

/**
 * GET /v1/account; a server that does not know the path (404) serves plaintext accounts only.
 * @param {Api} api @param {string} token
 * @returns {Promise<Account>}
 */
export async function fetchAccount(api, token) {
  try {
    return decodeAccount(await Api.json(await api.send('/v1/account', { method: 'GET', headers: { Authorization: `Bearer ${token}` } })));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return PLAINTEXT;
    throw error;
  }
}

/**
 * POST /v1/account/key: registers the fingerprint of the account's first key (409 when another
 * is registered).
 * @param {Api} api @param {string} token @param {string} fingerprint
 */
export async function registerKey(api, token, fingerprint) {
  return decodeAccount(await api.post('/v1/account/key', token, { fingerprint }));
}

/**
 * A frames body (sync-frames.md "Body"): `OSF1`, the header's length, the JSON header, the frames.
 * @param {Record<string, unknown>} header @param {Uint8Array} frames
 */
export function writeFramesBody(header, frames) {
  const json = new TextEncoder().encode(stringify(header));
  const out = new Uint8Array(8 + json.length + frames.length);
  out.set([0x4f, 0x53, 0x46, 0x31]);
  new DataView(out.buffer).setUint32(4, json.length, true);
  out.set(json, 8);
  out.set(frames, 8 + json.length);
  return out;
}

/**
 * POST /v1/pull of an encrypted account: frames only, its sealed records read and checked, not
 * opened (sealedSync.js opens them).
 * @param {Api} api @param {string} token @param {Record<string, unknown>} body
 * @returns {Promise<SealedPage>}
 */
export async function pullSealed(api, token, body) {
  const response = await api.send('/v1/pull', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: FRAMES_TYPE },
    body: stringify(body),
  });
  if ((response.headers?.get('Content-Type') ?? '').split(';')[0].trim() !== FRAMES_TYPE) {
    throw new MalformedAnswer("the sync server answered an encrypted account's pull without record frames");
  }
  const header = framesBody(new Uint8Array(await response.arrayBuffer()));
  let sealed;
  try {
    sealed = readSealedFrames(header.frames).sealed;
  } catch (error) {
    if (error instanceof FramesError) throw new MalformedAnswer(`the sync server sent malformed sealed record frames: ${error.message}`);
    throw error;
  }
  if (toUnsigned(header.count) !== BigInt(sealed.length)) throw new MalformedAnswer("the sync server's record frames do not hold the count its header says");
  if (typeof header.more !== 'boolean') throw new MalformedAnswer('the sync server sent a pull page without `more`');
  const cursor = toUnsigned(header.cursor);
  if (cursor === null) throw new MalformedAnswer('the sync server sent a pull page without a valid cursor');
  return {
    sealed, more: header.more, cursor,
    serverHas: decodeVersionVector(header.server_has, 'server_has'),
    haveChecks: storedDigests(header.have_checks ?? {}, 'have_checks'),
    serverDigests: storedDigests(header.server_digests ?? {}, 'server_digests'),
  };
}

/**
 * `{device: {digest, epoch}}`, checked; an entry whose copy is a sealed run also has `first` and
 * `last` (both or neither; 1 ≤ first ≤ last).
 * @param {unknown} value @param {string} what
 * @returns {StoredDigests}
 */
function storedDigests(value, what) {
  const bad = () => new MalformedAnswer(`the sync server's ${what} is not the sync API's`);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad();
  /** @type {StoredDigests} */
  const out = new Map();
  for (const [device, entry] of Object.entries(value)) {
    const e = /** @type {Record<string, unknown>} */ (entry ?? {});
    const epoch = toUnsigned(e.epoch);
    if (!isDeviceHex(device) || !isDigestHex(e.digest) || epoch === null || epoch > 0xffffffffn) throw bad();
    const copy = { digest: /** @type {string} */ (e.digest), epoch: Number(epoch) };
    if (e.first === undefined && e.last === undefined) {
      out.set(device, copy);
      continue;
    }
    const first = toUnsigned(e.first), last = toUnsigned(e.last);
    if (first === null || last === null || first === 0n || first > last || last > MAX_U64) throw bad();
    out.set(device, { ...copy, first, last });
  }
  return out;
}

/**
 * POST /v1/push of an encrypted account: `sealed` as record frames, header `{count}`.
 * @param {Api} api @param {string} token @param {SealedRecord[]} sealed
 * @returns {Promise<PushAnswer>}
 */
export async function pushSealed(api, token, sealed) {
  const response = await api.send('/v1/push', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': FRAMES_TYPE },
    body: writeFramesBody({ count: sealed.length }, writeSealedFrames(sealed)),
  });
  return decodePushAnswer(await Api.json(response));
}

/**
 * POST /v1/account/encryption (Schemas/encryption.md §9): `sealed` (under epoch 1 of the key
 * `fingerprint`; none to learn what is staged) as record frames, header `{count, fingerprint}`.
 * @param {Api} api @param {string} token @param {SealedRecord[]} sealed @param {string} fingerprint
 * @returns {Promise<ConversionAnswer>}
 */
export async function uploadConversion(api, token, sealed, fingerprint) {
  const response = await api.send('/v1/account/encryption', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': FRAMES_TYPE },
    body: writeFramesBody({ count: sealed.length, fingerprint }, writeSealedFrames(sealed)),
  });
  const body = await Api.json(response);
  if (typeof body.encrypted !== 'boolean') throw new MalformedAnswer("the sync server answered the conversion in a form that is not the sync API's");
  return { encrypted: body.encrypted, sealedHas: decodeVersionVector(body.sealed_has, 'sealed_has'), serverHas: decodeVersionVector(body.server_has, 'server_has') };
}
