// Requests to the sync server (Schemas/sync-api.yaml, plus /v1/pair, /v1/catalog and /v1/devices
// served for this app), through an injected fetch. Answers are parsed with bigjson so that 64-bit
// values stay exact, and decoded here, once: the rest of the app works on checked values. A refusal
// becomes an ApiError carrying the status and the server's Error body; a request that never got an
// answer (offline, DNS, TLS, CORS) becomes a NetworkError.

import { parse, stringify } from './bigjson.js';

/** @typedef {typeof globalThis.fetch} Fetch */

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
 */

/** The server answered with a status other than success. */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {{error?: string, message?: string, device?: string, seq?: number | bigint}} body the Error body, {} when absent
   * @param {number | null} retryAfter seconds, from Retry-After
   * @param {number | null} [serverTime] the server's clock when it answered (Unix ms, from Date)
   */
  constructor(status, body, retryAfter, serverTime = null) {
    super(body.message ? `${body.message} (HTTP ${status})` : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.error ?? '';
    this.serverMessage = body.message ?? '';
    this.device = body.device;
    this.seq = body.seq === undefined ? undefined : BigInt(body.seq);
    this.retryAfter = retryAfter;
    this.serverTime = serverTime;
  }
}

/**
 * Whether a refusal says that this device's token was revoked (401 `revoked`: signed out from
 * another device or by the server's operator), as opposed to a token the server never knew.
 * @param {unknown} error
 */
export function isRevoked(error) {
  return error instanceof ApiError && error.status === 401 && error.code === 'revoked';
}

/** The request got no answer. */
export class NetworkError extends Error {
  /** @param {unknown} cause */
  constructor(cause) {
    super(`the sync server cannot be reached (${cause instanceof Error ? cause.message : String(cause)})`);
    this.name = 'NetworkError';
    this.cause = cause;
  }
}

/**
 * Whether a request did not reach the sync server: no answer at all, or a gateway's 502, 503 or
 * 504 in its place. The server's own 503 (`unavailable`: the user's stored data is damaged) is an
 * answer, not this.
 * @param {unknown} error
 */
export function isUnreachable(error) {
  if (error instanceof NetworkError) return true;
  if (!(error instanceof ApiError)) return false;
  return error.status === 502 || error.status === 504 || (error.status === 503 && error.code !== 'unavailable');
}

/** An answer that is not the API's JSON. */
export class MalformedAnswer extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'MalformedAnswer';
  }
}

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
    if (response.ok || response.status === 304) return response;
    const text = await response.text().catch(() => '');
    /** @type {Record<string, unknown>} */
    let body = {};
    try {
      const parsed = parse(text);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = /** @type {Record<string, unknown>} */ (parsed);
    } catch { /* a body that is not JSON: the status says enough */ }
    const retry = Number(response.headers.get('Retry-After') ?? NaN);
    const date = Date.parse(response.headers.get('Date') ?? '');
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
   * @returns {Promise<{user: string, token: string, deviceName: string | null, deviceId: string | null}>}
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
   * POST /v1/pull, asking for record frames (Schemas/sync-frames.md "Negotiation"): the answer's
   * header, with `frames` (the record frames' bytes) when the server sent frames, null when it
   * answered JSON (a server without frames, `serve --no-frames`).
   * @param {string} token @param {unknown} body
   * @returns {Promise<Record<string, unknown> & {frames: Uint8Array | null}>}
   */
  async pull(token, body) {
    const response = await this.send('/v1/pull', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: `${FRAMES_TYPE}, application/json;q=0.5` },
      body: stringify(body),
    });
    if ((response.headers?.get('Content-Type') ?? '').split(';')[0].trim() !== FRAMES_TYPE) return { ...(await Api.json(response)), frames: null };
    return framesBody(new Uint8Array(await response.arrayBuffer()));
  }

  /**
   * POST /v1/push.
   * @param {string} token @param {unknown} body
   */
  push(token, body) { return this.post('/v1/push', token, body); }

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
   * @param {{deviceName?: string, ttlSeconds?: number}} [options]
   * @returns {Promise<{code: string, expires: number}>}
   */
  async linkDevice(token, options = {}) {
    /** @type {Record<string, unknown>} */
    const request = {};
    if (options.deviceName !== undefined) request.device_name = options.deviceName;
    if (options.ttlSeconds !== undefined) request.ttl_seconds = options.ttlSeconds;
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
