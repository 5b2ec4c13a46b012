// Requests to the sync server (Schemas/sync-api.yaml, plus /v1/pair, /v1/catalog and /v1/devices
// served for this app), through an injected fetch. Answers are parsed with bigjson so that 64-bit
// values stay exact, and decoded here, once: the rest of the app works on checked values (a pull
// page's records decoded and validated, its version vector and digests, a push's counts). A
// refusal becomes an ApiError carrying the status and the server's Error body; a request that
// never got an answer (offline, DNS, TLS, CORS) becomes a NetworkError; an answer that is not
// what the API says, a MalformedAnswer, and nothing of it is used.

import { parse, stringify, toUnsigned } from './bigjson.js';
import { FramesError, readFrames } from './recordFrames.js';
import { fromWire, isDeviceHex, isDigestHex, RecordError } from './records.js';
import { TimeSlice } from './timeSlice.js';
import { ApiError, MalformedAnswer, NetworkError } from './apiErrors.js';

export { ApiError, isRevoked, isUnreachable, MalformedAnswer, NetworkError } from './apiErrors.js';

/** @typedef {typeof globalThis.fetch} Fetch */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */

const MAX_U64 = (1n << 64n) - 1n;

/**
 * A pull answer (POST /v1/pull), decoded and checked.
 * @typedef {object} PullPage
 * @property {LedgerEvent[]} records
 * @property {Uint8Array | null} frames the record frames the records came in, null for JSON
 * @property {boolean} more
 * @property {bigint} cursor
 * @property {Map<string, bigint>} serverHas
 * @property {Map<string, string>} serverDigests
 * @property {{have: StoredDigests, server: StoredDigests}} [sealedChecks] an encrypted account's
 *   digests of its sealed copies with their epochs, for the device to compare (sealedSync.js)
 */

/**
 * An encrypted account's digests of its stored sealed copies, by device: the digest, the epoch it
 * is sealed under and, when that copy is a sealed run, its bounds (Schemas/encryption.md §11).
 * @typedef {Map<string, StoredCopy>} StoredDigests
 * @typedef {{digest: string, epoch: number, first?: bigint, last?: bigint}} StoredCopy
 */

/**
 * A push answer (POST /v1/push), decoded and checked.
 * @typedef {object} PushAnswer
 * @property {number} appended events and names the server appended
 * @property {number} duplicates events it held already
 * @property {Map<string, bigint>} serverHas what it holds now
 */

/** Record frames on the wire (Schemas/sync-frames.md). */
export const FRAMES_TYPE = 'application/x-oritsubushi-frames';

/**
 * One of the user's active devices (a token not revoked), as /v1/devices answers it.
 * @typedef {object} Device
 * @property {string} id 12 lowercase hex digits
 * @property {string | null} name
 * @property {number} created unix ms
 * @property {number | null} lastSync unix ms, null before its first sync
 * @property {boolean} thisDevice the device whose token asked
 * @property {boolean} [sealed] an encrypted account's: the server keeps its name sealed, and `name`
 *   is what it opened to here, null where it did not (sealedDeviceName.js openDeviceNames)
 */

export class Api {
  /**
   * @param {Fetch} fetchFn
   * @param {string} [base] the server's origin ("" for the page's own)
   */
  constructor(fetchFn, base = '') {
    // Called through a closure: window.fetch refuses to run with another `this`.
    /** @type {Fetch} */
    this.fetch = (input, init) => fetchFn(input, init);
    this.base = base;
    /**
     * The server's clock at its last answer (Unix ms, from its Date header; null before one):
     * an encrypted account's pushing device checks its own clock against it (encryption.md §1).
     * @type {number | null}
     */
    this.serverTime = null;
  }

  /**
   * @param {string} path
   * @param {RequestInit} init
   * @returns {Promise<Response>}
   */
  async send(path, init) {
    let response;
    try {
      response = await this.fetch(this.base + path, { cache: 'no-store', ...init });
    } catch (error) {
      throw new NetworkError(error);
    }
    const date = Date.parse(response.headers.get('Date') ?? '');
    if (Number.isFinite(date)) this.serverTime = date;
    if (response.ok || response.status === 304) return response;
    const text = await response.text().catch(() => '');
    /** @type {Record<string, unknown>} */
    let body = {};
    try {
      const parsed = parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = /** @type {Record<string, unknown>} */ (parsed);
    } catch { /* a body that is not JSON: the status says enough */ }
    const retry = Number(response.headers.get('Retry-After') ?? NaN);
    throw new ApiError(response.status, {
      error: typeof body.error === 'string' ? body.error : undefined,
      message: typeof body.message === 'string' ? body.message : undefined,
      device: typeof body.device === 'string' ? body.device : undefined,
      seq: typeof body.seq === 'number' || typeof body.seq === 'bigint' ? body.seq : undefined,
    }, Number.isFinite(retry) && retry >= 0 ? retry : null, Number.isFinite(date) ? date : null);
  }

  /** @param {Response} response @returns {Promise<Record<string, unknown>>} */
  static async json(response) {
    let value;
    try {
      value = parse(await response.text());
    } catch {
      throw new MalformedAnswer('the sync server sent an answer that is not JSON');
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer('the sync server sent an answer that is not a JSON object');
    return /** @type {Record<string, unknown>} */ (value);
  }

  /**
   * POST /v1/pair: a pairing code (sent as typed; the server normalises it) for a token.
   * 401 unknown code, 410 used or expired, 429 rate-limited (retryAfter).
   * @param {string} code @param {string} deviceName
   * On an end-to-end encrypted account, `encrypted`, its `epoch`, and the key a link's code
   * carried (`wrappedKey`, 128 hex digits), given this once.
   * @returns {Promise<{user: string, token: string, deviceName: string | null, deviceId: string | null,
   *   encrypted: boolean, epoch: number | null, wrappedKey: string | null}>}
   */
  async pair(code, deviceName) {
    const response = await this.send('/v1/pair', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code, device_name: deviceName }),
    });
    const body = await Api.json(response);
    if (typeof body.user !== 'string' || typeof body.token !== 'string' || body.token === '') {
      throw new MalformedAnswer('the sync server answered the pairing without a user and a token');
    }
    return {
      user: body.user, token: body.token,
      deviceName: typeof body.device_name === 'string' ? body.device_name : null,
      deviceId: typeof body.device_id === 'string' ? body.device_id : null,
      encrypted: body.encrypted === true,
      epoch: Number.isInteger(body.epoch) ? /** @type {number} */ (body.epoch) : null,
      wrappedKey: typeof body.wrapped_key === 'string' ? body.wrapped_key : null,
    };
  }

  /**
   * GET /v1/catalog; null when the server answers 304 (the stored copy is current).
   * @param {string} token @param {string | null} etag
   * @returns {Promise<{text: string, etag: string | null} | null>}
   */
  async catalog(token, etag) {
    /** @type {Record<string, string>} */
    const headers = { Authorization: `Bearer ${token}` };
    if (etag) headers['If-None-Match'] = etag;
    const response = await this.send('/v1/catalog', { method: 'GET', headers, cache: 'no-cache' });
    if (response.status === 304) return null;
    return { text: await response.text(), etag: response.headers.get('ETag') };
  }

  /**
   * @param {string} path @param {string} token @param {unknown} body
   * @returns {Promise<Record<string, unknown>>}
   */
  async post(path, token, body) {
    const response = await this.send(path, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: stringify(body),
    });
    return Api.json(response);
  }

  /**
   * POST /v1/pull, asking for record frames (Schemas/sync-frames.md "Negotiation"; JSON from a
   * server without them, `serve --no-frames`): one page, decoded and checked completely
   * (decodePullPage). `slice` lets the page draw after the answer was read and while its records
   * are checked.
   * @param {string} token @param {unknown} body @param {TimeSlice} [slice]
   * @returns {Promise<PullPage>}
   */
  async pull(token, body, slice = new TimeSlice()) {
    const response = await this.send('/v1/pull', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: `${FRAMES_TYPE}, application/json;q=0.5` },
      body: stringify(body),
    });
    const framed = (response.headers?.get('Content-Type') ?? '').split(';')[0].trim() === FRAMES_TYPE;
    const answer = framed ? framesBody(new Uint8Array(await response.arrayBuffer())) : await Api.json(response);
    await slice.next();
    return decodePullPage(answer, slice);
  }

  /**
   * POST /v1/push: the server's counts and what it holds now.
   * @param {string} token @param {unknown} body
   * @returns {Promise<PushAnswer>}
   */
  async push(token, body) {
    return decodePushAnswer(await this.post('/v1/push', token, body));
  }

  /**
   * GET /v1/status.
   * @param {string} token
   */
  async status(token) {
    const response = await this.send('/v1/status', { method: 'GET', headers: { Authorization: `Bearer ${token}` } });
    return Api.json(response);
  }

  /**
   * GET /v1/devices: the user's active devices, oldest first.
   * @param {string} token
   * @returns {Promise<Device[]>}
   */
  async devices(token) {
    const body = await Api.json(await this.send('/v1/devices', { method: 'GET', headers: { Authorization: `Bearer ${token}` } }));
    if (!Array.isArray(body.devices)) throw new MalformedAnswer('the sync server listed the devices without `devices`');
    return body.devices.map(parseDevice);
  }

  /**
   * POST /v1/devices/link: a one-time pairing code for another device (422 for a bad name or ttl).
   * @param {string} token
   * @param {{deviceName?: string, ttlSeconds?: number, wrappedKey?: string}} [options] `wrappedKey`:
   *   an encrypted account's key wrapped for the link (linkKey.js), 128 hex digits
   * @returns {Promise<{code: string, expires: number}>}
   */
  async linkDevice(token, options = {}) {
    /** @type {Record<string, unknown>} */
    const request = {};
    if (options.deviceName !== undefined) request.device_name = options.deviceName;
    if (options.ttlSeconds !== undefined) request.ttl_seconds = options.ttlSeconds;
    if (options.wrappedKey !== undefined) request.wrapped_key = options.wrappedKey;
    const body = await this.post('/v1/devices/link', token, request);
    if (typeof body.code !== 'string' || !/^[0-9A-Z]{4}-?[0-9A-Z]{4}$/.test(body.code) || !isTime(body.expires)) {
      throw new MalformedAnswer('the sync server answered the link without a code and its expiry');
    }
    return { code: body.code, expires: body.expires };
  }

  /**
   * POST /v1/devices/rename: this device's new name (409 taken by another device, 422 bad name).
   * @param {string} token @param {string} name
   */
  async renameDevice(token, name) {
    return parseDevice((await this.post('/v1/devices/rename', token, { name })).device);
  }

  /**
   * POST /v1/devices/revoke: signs another device out (404 when it is not an active device).
   * @param {string} token @param {string} id
   */
  async revokeDevice(token, id) {
    return parseDevice((await this.post('/v1/devices/revoke', token, { id })).revoked);
  }

  /**
   * POST /v1/devices/sign-out: revokes the token of the request, this device's.
   * @param {string} token
   */
  async signOut(token) {
    return parseDevice((await this.post('/v1/devices/sign-out', token, {})).revoked);
  }
}

/**
 * A frames body (sync-frames.md "Body"): the magic, the header's length, the JSON header, frames.
 * @param {Uint8Array} bytes
 * @returns {Record<string, unknown> & {frames: Uint8Array}}
 */
export function framesBody(bytes) {
  const length = bytes.length >= 8 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(4, true) : -1;
  if (length < 0 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'OSF1' || length > 1 << 20 || 8 + length > bytes.length) {
    throw new MalformedAnswer('the sync server sent record frames without their header');
  }
  let header;
  try {
    header = parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + length)));
  } catch {
    throw new MalformedAnswer('the sync server sent record frames whose header is not JSON');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw new MalformedAnswer('the sync server sent record frames whose header is not a JSON object');
  return { .../** @type {Record<string, unknown>} */ (header), frames: bytes.subarray(8 + length) };
}

/** An hlc past this is refused on the wire (records.fromWire), in frames as in JSON. */
const MAX_HLC = 17_999_999_999_999_999_999n;

/**
 * The records of a frames body, checked: read as Swift's RecordFrames.Reader reads them, as many
 * as the header's `count`, and none the wire's JSON checks refuse beyond §3 (sync-frames.md
 * "Checks" 4: an hlc past the bound, an empty device name).
 * @param {Uint8Array} frames @param {Record<string, unknown>} header
 * @returns {LedgerEvent[]}
 */
function framedRecords(frames, header) {
  if (Array.isArray(header.records) && header.records.length !== 0) throw new MalformedAnswer('the sync server sent record frames with JSON records beside them');
  let records;
  try {
    records = readFrames(frames).events;
  } catch (error) {
    if (error instanceof FramesError) throw new MalformedAnswer(`the sync server sent malformed record frames: ${error.message}`);
    throw error;
  }
  if (toUnsigned(header.count) !== BigInt(records.length)) throw new MalformedAnswer("the sync server's record frames do not hold the count its header says");
  for (const r of records) {
    if (r.hlc > MAX_HLC || (r.kind === 'device_name' && (r.name ?? '') === '')) throw new MalformedAnswer(`the sync server sent a record of device ${r.device} that the sync API refuses`);
  }
  return records;
}

/** @param {unknown} value @returns {value is number} */
function isTime(value) {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * One device of a /v1/devices answer, checked.
 * @param {unknown} value
 * @returns {Device}
 */
export function parseDevice(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer('the sync server sent a device that is not an object');
  const d = /** @type {Record<string, unknown>} */ (value);
  if (typeof d.id !== 'string' || !/^[0-9a-f]{12}$/.test(d.id)) throw new MalformedAnswer('the sync server sent a device without a valid id');
  if (d.name !== null && d.name !== undefined && typeof d.name !== 'string') throw new MalformedAnswer(`the sync server sent device ${d.id} with a name that is not text`);
  if (!isTime(d.created)) throw new MalformedAnswer(`the sync server sent device ${d.id} without its creation time`);
  if (d.last_sync !== null && d.last_sync !== undefined && !isTime(d.last_sync)) throw new MalformedAnswer(`the sync server sent device ${d.id} with a bad last_sync`);
  if (typeof d.this_device !== 'boolean') throw new MalformedAnswer(`the sync server sent device ${d.id} without this_device`);
  return {
    id: d.id, name: typeof d.name === 'string' ? d.name : null, created: d.created,
    lastSync: isTime(d.last_sync) ? d.last_sync : null, thisDevice: d.this_device,
  };
}

/**
 * A version vector from the wire; throws MalformedAnswer.
 * @param {unknown} value @param {string} what
 * @returns {Map<string, bigint>}
 */
export function decodeVersionVector(value, what) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer(`the sync server's ${what} is not an object`);
  const out = new Map();
  for (const [device, seq] of Object.entries(value)) {
    const n = toUnsigned(seq);
    if (!isDeviceHex(device) || n === null || n > MAX_U64) throw new MalformedAnswer(`the sync server's ${what} has a bad entry`);
    out.set(device, n);
  }
  return out;
}

/** @param {unknown} value @returns {Map<string, string>} */
function decodeDigests(value) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new MalformedAnswer("the sync server's server_digests is not an object");
  const out = new Map();
  for (const [device, d] of Object.entries(value)) {
    if (!isDeviceHex(device) || !isDigestHex(d)) throw new MalformedAnswer("the sync server's server_digests has a bad entry");
    out.set(device, /** @type {string} */ (d));
  }
  return out;
}

/**
 * A pull answer, checked completely: every record valid (records.fromWire: kind, device, seq,
 * hlc, station, comp_date, memo…), or MalformedAnswer and nothing of it is used. JSON records are
 * checked in slices (timeSlice.js): a page of 2,000 took 20 ms at 4× CPU throttling. Record
 * frames (`frames`, framesBody) are read as Swift's reader reads them, and their records then
 * checked as JSON ones are (sync-frames.md "Checks" 4).
 * @param {Record<string, unknown>} body
 * @param {TimeSlice} [slice]
 * @returns {Promise<PullPage>}
 */
export async function decodePullPage(body, slice = new TimeSlice()) {
  if (!Array.isArray(body.records)) throw new MalformedAnswer('the sync server sent a pull page without records');
  if (typeof body.more !== 'boolean') throw new MalformedAnswer('the sync server sent a pull page without `more`');
  const cursor = toUnsigned(body.cursor);
  if (cursor === null || cursor > MAX_U64) throw new MalformedAnswer('the sync server sent a pull page without a valid cursor');
  const frames = body.frames instanceof Uint8Array ? body.frames : null;
  /** @type {LedgerEvent[]} */
  const records = frames ? framedRecords(frames, body) : [];
  for (const wire of frames ? [] : body.records) {
    await slice.pass();
    try {
      records.push(fromWire(wire));
    } catch (error) {
      if (error instanceof RecordError) throw new MalformedAnswer(`the sync server sent a malformed record: ${error.message}`);
      throw error;
    }
  }
  return {
    records, frames, more: body.more, cursor,
    serverHas: decodeVersionVector(body.server_has, 'server_has'),
    serverDigests: decodeDigests(body.server_digests),
  };
}

/**
 * A push answer, checked: its counts and the server's version vector, or MalformedAnswer.
 * @param {Record<string, unknown>} body
 * @returns {PushAnswer}
 */
export function decodePushAnswer(body) {
  const appended = toUnsigned(body.appended), duplicates = toUnsigned(body.duplicates);
  if (appended === null || duplicates === null) throw new MalformedAnswer('the sync server answered a push without its counts');
  return { appended: Number(appended), duplicates: Number(duplicates), serverHas: decodeVersionVector(body.server_has, 'server_has') };
}
