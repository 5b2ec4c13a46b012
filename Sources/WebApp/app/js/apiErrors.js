// How a request to the sync server fails (api.js): the server refused it (ApiError, with its
// status and Error body, Schemas/sync-api.yaml), it never got an answer (NetworkError), or its
// answer is not what the API says (MalformedAnswer).

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
