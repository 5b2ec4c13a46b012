// The sync state machine, as `oritsubushi sync` runs it (Sources/SyncClient/SyncSession.swift,
// Schemas/sync-api.yaml, Schemas/merge.md §8 and §10): rounds of "pull every page, write the owed
// knowledge mark, push what the server lacks", until a round moves nothing (at most 8 rounds).
// Every page is checked completely before any of it is stored. Every pull carries the digest of
// the last event held of each device, and every round compares the server's digests before
// pushing, so a copied replica never syncs silently: a copy of this device re-identifies itself
// and carries on; a copy of another device is refused.

import { ApiError, isRevoked, isUnreachable, MalformedAnswer } from './api.js';
import { pullSealed, pushSealed } from './accountApi.js';
import { prepareKeys } from './accountKeys.js';
import { nameIfOwed } from './sealedDeviceName.js';
import { KeyProblem } from './keyProblem.js';
import { openRecords, sealedFork, sealPieces, SealedRecordError } from './sealedSync.js';
import { cutRuns } from './runCut.js';
import { hlcMillis } from './hlc.js';
import { CLOCK_LEAD_MS, MergeError } from './ledger.js';
import { encode, isDeviceHex, toWire } from './records.js';
import { pushPages, SEALED_PAGE_BYTES, SEALED_PAGE_RECORDS } from './pushPages.js';
import { reidentify } from './reidentification.js';
import { TimeSlice } from './timeSlice.js';
import { StoreError } from './store.js';

/** @typedef {import('./ledger.js').Ledger} Ledger */
/** @typedef {import('./api.js').Api} Api */
/** @typedef {import('./records.js').LedgerEvent} LedgerEvent */
/** @typedef {import('./api.js').PullPage} PullPage */
/** @typedef {import('./crypto/keyRing.js').KeyRing} KeyRing */
/** @typedef {import('./runCut.js').SealPiece} SealPiece */
/** @typedef {(token: string) => Promise<{ring: KeyRing, made: boolean, owesName?: boolean} | null>} AccountKeys */

/**
 * @typedef {object} SyncReport
 * @property {number} pulled events received
 * @property {number} pushed events and names the server appended
 * @property {number} rounds
 * @property {Map<string, bigint>} serverHas what the server held at the end
 * @property {{oldDevice: string, newDevice: string, first: bigint, last: bigint} | null} reidentified
 */

/**
 * How far a sync has come: the events received so far, and what the server said it holds.
 * @typedef {object} SyncProgress
 * @property {number} received
 * @property {Map<string, bigint>} serverHas
 */

/**
 * Why a sync stopped, as one sentence. kind: 'offline' (the device has no network),
 * 'unreachable' (it has one, but the server did not answer, or a gateway answered 502, 503 or
 * 504 for it), 'signed-out' (a token the server does not
 * know), 'revoked' (a token revoked from another device or by the operator), 'fork', 'clock',
 * 'damaged', 'refused', 'malformed', 'storage', 'server', 'not-paired', 'key' (an end-to-end
 * encrypted account whose key this device lacks or cannot use: its cause a KeyProblem).
 */
export class SyncFailure extends Error {
  /** @param {string} kind @param {string} message @param {unknown} [cause] */
  constructor(kind, message, cause) {
    super(message);
    this.name = 'SyncFailure';
    this.kind = kind;
    this.cause = cause;
  }
}

/** Two copies hold different events under one (device, seq) (merge.md §10). */
export class SyncFork extends Error {
  /** @param {string} device @param {bigint} seq */
  constructor(device, seq) {
    super(`device ${device}'s event #${seq} differs between this device and the sync server`);
    this.name = 'SyncFork';
    this.device = device;
    this.seq = seq;
  }
}

export const SEALED_CLOCK_AHEAD = "this device's edits are dated more than a day ahead of the sync server's clock, which an encrypted account's server cannot check, so nothing was sent: this device's clock is fast; set it to the right time — the edits are kept and are sent once they are no longer ahead";
export const SIGNED_OUT = 'this device was signed out (its token was revoked); pair it again — unsent edits are kept';
export const REVOKED = "this device is signed out: its token was revoked from another device or by the server's operator; pair it again — its records are kept on this device";
export const UNREACHABLE = 'Cannot reach the server; retrying automatically.';
/** About 2 MiB of JSON per push (the server's default body limit is 8 MiB; a memo can be 4 KiB). */
const PUSH_BYTES = 2 << 20;

/** @param {Map<string, bigint>} vv */
const wireVector = (vv) => Object.fromEntries(vv);

/** @param {Map<string, bigint>} vv @returns {Record<string, string>} */
const storedVector = (vv) => Object.fromEntries([...vv].map(([d, s]) => [d, s.toString()]));

export class SyncSession {
  /**
   * @param {object} options
   * @param {Ledger} options.ledger
   * @param {Api} options.api
   * @param {() => number} [options.now]
   * @param {() => string} [options.newDevice] a fresh device id, for re-identification
   * @param {number} [options.pageSize] records per pull page asked for
   * @param {number} [options.framesPageSize] records per pull page once the server answered frames
   * @param {number} [options.pushSize] records per push (the server takes at most 5000)
   * @param {number} [options.maxRounds]
   * @param {(progress: SyncProgress) => void} [options.onProgress] after each pull page is stored
   * @param {() => boolean} [options.online] whether the device has a network (navigator.onLine)
   * @param {AccountKeys} [options.accountKeys] what the account needs (accountKeys.js prepareKeys)
   */
  constructor({ ledger, api, now = () => Date.now(), newDevice = () => { throw new Error('no device id source'); },
    pageSize = 2000, framesPageSize = 100_000, pushSize = 5000, maxRounds = 8, onProgress = () => {}, online = () => globalThis.navigator?.onLine !== false,
    accountKeys = (token) => prepareKeys(ledger, api, token) }) {
    this.ledger = ledger;
    this.api = api;
    this.accountKeys = accountKeys;
    /**
     * An end-to-end encrypted account's keys (Schemas/encryption.md §11 "The client"): pushes are
     * sealed under the current one, pulls opened with each record's epoch's, every request is
     * frames, and the fork check is the device's own (sealedSync.js). Null: plaintext.
     * @type {KeyRing | null}
     */
    this.keys = null;
    /** Whether this sync made the account's key (its recovery kit is to be shown). */
    this.madeKey = false;
    this.now = now;
    this.newDevice = newDevice;
    /**
     * How many records a pull page asks for (`framesPageSize` once the server has answered
     * frames) and a push carries, and how many rounds a sync takes at most.
     */
    this.limits = { pageSize, framesPageSize, pushSize, maxRounds };
    this.onProgress = onProgress;
    this.online = online;
  }

  /**
   * The digest of the event held at each device's highest seq.
   * @param {Map<string, bigint>} have
   */
  digestsAt(have) {
    /** @type {Map<string, string>} */
    const out = new Map();
    for (const [device, seq] of have) {
      const e = seq > 0n ? this.ledger.event(device, seq) : undefined;
      if (e) out.set(device, this.ledger.digestOf(e));
    }
    return out;
  }

  /**
   * Runs a whole sync. Throws SyncFailure with one sentence; whatever pages were stored before a
   * failure stay stored (the next sync resumes from what the data says).
   * @param {string} token
   * @returns {Promise<SyncReport>}
   */
  async run(token) {
    try {
      const prepared = await this.accountKeys(token);
      this.keys = prepared?.ring ?? null;
      this.madeKey = prepared?.made ?? false;
      let report;
      try {
        report = await this.rounds(token);
      } catch (error) {
        if (!(error instanceof SyncFork)) throw error;
        if (error.device !== this.ledger.device) throw forkRefusal(error);
        const first = await this.firstDivergence(token, error);
        const change = await reidentify(this.ledger, first, this.newDevice(), this.now());
        try {
          report = await this.rounds(token);
          report.reidentified = change;
        } catch (again) {
          throw again instanceof SyncFork ? forkRefusal(again) : again;
        }
      }
      // An encrypted account's server keeps this device's name only sealed (encryption.md §8). The
      // records are synced either way: a name that did not go is sent by the next sync.
      await nameIfOwed(prepared, this.ledger, this.api, token)
        .catch((error) => console.debug("this device's sealed name was not sent:", error));
      return report;
    } catch (error) {
      const failure = this.failure(error);
      if (failure.kind !== 'storage') {
        await this.ledger.setMeta({ sync: { ...this.bookkeeping(), lastError: failure.message, lastErrorKind: failure.kind } }).catch(() => {});
      }
      throw failure;
    }
  }

  /** @param {string} token @returns {Promise<SyncReport>} */
  async rounds(token) {
    const ledger = this.ledger;
    /** @type {SyncReport} */
    const report = { pulled: 0, pushed: 0, rounds: 0, serverHas: new Map(), reidentified: null };
    while (report.rounds < this.limits.maxRounds) {
      report.rounds++;
      /** @type {Map<string, bigint>} */
      let serverHas = new Map();
      /** @type {Map<string, string>} */
      let serverDigests = new Map();
      /** @type {bigint | null} */
      let cursor = null;
      let pulledThisRound = 0;
      for (;;) {
        const held = ledger.versionVector();
        const digests = this.digestsAt(held);
        const slice = new TimeSlice();
        // The answer was read in one go: the page may draw before it is checked, and after.
        /** @type {PullPage} */
        const page = await this.pullRequest(token, held, digests, cursor, slice);
        serverHas = page.serverHas;
        serverDigests = page.serverDigests;
        if (page.sealedChecks && this.keys) {
          const eventAt = (/** @type {string} */ d, /** @type {bigint} */ s) => ledger.event(d, s);
          const fork = await sealedFork(page.sealedChecks.have, held, eventAt, this.keys)
            ?? await sealedFork(page.sealedChecks.server, serverHas, eventAt, this.keys);
          if (fork) throw new SyncFork(fork.device, fork.seq);
        }
        // Where the server stopped at the seq held here last, its digest is known now.
        for (const [device, seq] of serverHas) {
          if (seq > 0n && seq === held.get(device)) {
            const theirs = serverDigests.get(device), ours = digests.get(device);
            if (theirs !== undefined && ours !== undefined && theirs !== ours) throw new SyncFork(device, seq);
          }
        }
        // The server's statement goes in with the page, so that the counts shown during a long
        // first sync (server, unsent) are those of what is stored.
        await slice.next();
        const received = await ledger.receive(page.records, this.now(), { sync: { ...this.bookkeeping(), serverHas: storedVector(serverHas) } }, page.frames);
        // A server that answers frames takes pages of up to 100,000 records (sync-frames.md "Page sizes").
        if (page.frames || this.keys) this.limits.pageSize = Math.max(this.limits.pageSize, this.limits.framesPageSize);
        pulledThisRound += received.events.length;
        this.onProgress({ received: report.pulled + pulledThisRound, serverHas });
        if (page.more && page.records.length === 0 && page.cursor === cursor) {
          throw new MalformedAnswer('the sync server keeps answering `more` without moving on');
        }
        cursor = page.cursor;
        if (!page.more) break;
      }
      report.pulled += pulledThisRound;
      await this.saveServerHas(serverHas);
      await ledger.appendKnowledgeMarkIfOwed(this.now());

      /** @type {LedgerEvent[]} */
      const outgoing = [...ledger.names.values()];
      let events = 0;
      for (const [device, list] of ledger.byDevice) {
        const theirs = serverHas.get(device) ?? 0n;
        if (theirs > 0n && theirs <= BigInt(list.length)) {
          const digest = serverDigests.get(device);
          // Nothing is pushed over a fork: the server holds other events under these ids.
          if (digest !== undefined && digest !== ledger.digestOf(list[Number(theirs) - 1])) throw new SyncFork(device, theirs);
        }
        for (let i = Number(theirs); i < list.length; i++) { outgoing.push(list[i]); events++; }
      }
      const keys = this.keys;
      // The server cannot read a sealed record's clock: this device checks it against the server's.
      if (keys && events > 0 && aheadOfServerClock(outgoing, this.api.serverTime ?? this.now())) throw new SyncFailure('clock', SEALED_CLOCK_AHEAD, null);
      // Sealed, each device's events go in runs (encryption.md §3.5), and pages are cut by the
      // sealed records' sizes (SyncSession.swift).
      const pages = events === 0 ? [] : keys ? pushPages(cutRuns(outgoing), (piece) => piece.length, { records: SEALED_PAGE_RECORDS, bytes: SEALED_PAGE_BYTES })
        : pushPages(outgoing, (e) => encode(e).length * 2 + 160, { records: this.limits.pushSize, bytes: PUSH_BYTES });
      for (const page of pages) {
        const reply = keys ? await pushSealed(this.api, token, await sealPieces(/** @type {SealPiece[]} */ (page), keys.current))
          : await this.api.push(token, { records: /** @type {LedgerEvent[]} */ (page).map(toWire) });
        serverHas = reply.serverHas;
        report.pushed += reply.appended;
        await this.saveServerHas(serverHas);
      }
      report.serverHas = serverHas;
      if (pulledThisRound === 0 && events === 0) break;
    }
    await ledger.setMeta({ sync: { ...this.bookkeeping(), lastSync: this.now(), lastError: null, lastErrorKind: null } });
    return report;
  }

  /**
   * One pull page, decoded by the Api.
   * @param {string} token @param {Map<string, bigint>} have @param {Map<string, string>} digests
   * @param {bigint | null} cursor @param {TimeSlice} [slice]
   * @returns {Promise<PullPage>}
   */
  async pullRequest(token, have, digests, cursor, slice) {
    const keys = this.keys;
    // An encrypted account's server is never sent a digest of a plaintext event.
    /** @type {Record<string, unknown>} */
    const body = { have: wireVector(have), have_digests: keys ? {} : Object.fromEntries(digests), limit: this.limits.pageSize };
    if (cursor !== null) body.cursor = cursor;
    try {
      if (keys) {
        const page = await pullSealed(this.api, token, body);
        return {
          records: await openRecords(page.sealed, keys), frames: null, more: page.more, cursor: page.cursor,
          serverHas: page.serverHas, serverDigests: new Map(), sealedChecks: { have: page.haveChecks, server: page.serverDigests },
        };
      }
      return await this.api.pull(token, body, slice);
    } catch (error) {
      // The server found that its event at have[device] differs from this device's.
      if (error instanceof ApiError && error.status === 409 && error.code === 'fork' && isDeviceHex(error.device) && error.seq !== undefined) {
        throw new SyncFork(/** @type {string} */ (error.device), error.seq);
      }
      throw error;
    }
  }

  /**
   * The first seq where `fork.device`'s events differ between this device and the server: a
   * probe pull leaving that device out of `have`, so that the server sends every event it holds
   * of it (SyncSession+Fork.swift firstDivergence). Nothing of the probe is stored.
   * @param {string} token @param {SyncFork} fork
   */
  async firstDivergence(token, fork) {
    const have = this.ledger.versionVector();
    have.delete(fork.device);
    const digests = this.digestsAt(have);
    const ours = this.ledger.held(fork.device);
    /** @type {Map<bigint, string>} */
    const theirs = new Map();
    /** @type {bigint | null} */
    let cursor = null;
    for (;;) {
      /** @type {PullPage} */
      const page = await this.pullRequest(token, have, digests, cursor);
      for (const r of page.records) {
        if (r.kind !== 'device_name' && r.device === fork.device && r.seq <= ours) theirs.set(r.seq, this.ledger.digestOf(r));
      }
      cursor = page.cursor;
      if (!page.more) break;
    }
    /** @type {bigint | null} */
    let first = null;
    for (const [seq, digest] of theirs) {
      const mine = this.ledger.event(fork.device, seq);
      if (mine && this.ledger.digestOf(mine) !== digest && (first === null || seq < first)) first = seq;
    }
    if (first === null) {
      throw new SyncFailure('fork', `the sync server reported that device ${fork.device}'s event #${fork.seq} differs from this device's, but its events match; sync again; nothing was changed`);
    }
    return first;
  }

  /**
   * The saved sync bookkeeping.
   * @returns {{serverHas: Record<string, string>, lastSync: number | null, lastError: string | null, lastErrorKind: string | null}}
   */
  bookkeeping() {
    const saved = /** @type {any} */ (this.ledger.getMeta('sync')) ?? {};
    return {
      serverHas: saved.serverHas ?? {}, lastSync: saved.lastSync ?? null,
      lastError: saved.lastError ?? null, lastErrorKind: saved.lastErrorKind ?? null,
    };
  }

  /** @param {Map<string, bigint>} serverHas */
  async saveServerHas(serverHas) {
    await this.ledger.setMeta({ sync: { ...this.bookkeeping(), serverHas: storedVector(serverHas) } });
  }

  /**
   * The one sentence for whatever stopped a sync.
   * @param {unknown} error
   * @returns {SyncFailure}
   */
  failure(error) {
    if (error instanceof SyncFailure) return error;
    if (isUnreachable(error)) {
      if (this.online()) return new SyncFailure('unreachable', UNREACHABLE, error);
      const n = pendingCount(this.ledger);
      const waiting = n === 0 ? 'nothing is waiting to be sent' : `${n} ${n === 1 ? 'edit is' : 'edits are'} saved on this device and will be sent at the next sync`;
      return new SyncFailure('offline', `the sync server cannot be reached; ${waiting}`, error);
    }
    if (error instanceof ApiError) {
      const said = error.serverMessage ? `: ${error.serverMessage}` : '';
      switch (error.status) {
        case 401: return refusedToken(error);
        case 403: return new SyncFailure('refused', `the sync server refused this device's events as another user's${said}`, error);
        case 409:
          if (error.code === 'fork' && error.device && error.seq !== undefined) return forkRefusal(new SyncFork(error.device, error.seq));
          if (error.code === 'conflict' && aheadOfServer(this.ledger, error)) {
            return new SyncFailure('clock', "the sync server refused this device's edits as dated more than a day ahead of its clock: this device's clock is fast; set it to the right time — the edits are kept and are sent once they are no longer ahead", error);
          }
          return new SyncFailure('refused', `the sync server refused this device's events${said}`, error);
        case 503: return new SyncFailure('damaged', "the server's stored data for this account is damaged; try again later (its operator must repair it) — your edits are kept on this device", error);
        case 400: case 413: case 422: return new SyncFailure('refused', `the sync server refused the request${said}`, error);
        default: return new SyncFailure('server', `the sync server failed (HTTP ${error.status}); try again later — your edits are kept on this device`, error);
      }
    }
    if (error instanceof MalformedAnswer) return new SyncFailure('malformed', `${error.message}; nothing of that answer was saved`, error);
    if (error instanceof MergeError) return new SyncFailure('refused', error.message, error);
    if (error instanceof StoreError) return new SyncFailure('storage', error.message, error);
    if (error instanceof SealedRecordError) return new SyncFailure('key', error.message, new KeyProblem('record', error.message));
    if (error instanceof KeyProblem) return new SyncFailure('key', error.message, error);
    return new SyncFailure('server', `the sync stopped: ${error instanceof Error ? error.message : String(error)}`, error);
  }
}

/**
 * Whether this device's clock (the largest hlc it holds) runs more than a day ahead of the
 * server's when it refused (its Date header): the cause of a 409 `conflict` that refuses events
 * dated ahead, told from the answer's time, not from its English message.
 * @param {Ledger} ledger @param {ApiError} error
 */
export function aheadOfServer(ledger, error) {
  return error.serverTime !== null && aheadOfServerClock([{ hlc: ledger.identity.lastHlc }], error.serverTime);
}

/**
 * Whether any of `records` is dated more than a day ahead of `serverNow` (Unix ms): what the
 * server refuses as `clock-ahead` on a plaintext account, and the device checks itself before
 * sealing for an encrypted one, whose records' clock the server cannot read (encryption.md §1).
 * @param {{hlc: bigint}[]} records @param {number} serverNow
 */
export function aheadOfServerClock(records, serverNow) {
  return records.some((r) => hlcMillis(r.hlc) > serverNow + CLOCK_LEAD_MS);
}

/**
 * The failure of a token the server refused (401): revoked (signed out from another device or by
 * the operator), or one it does not know.
 * @param {ApiError} error
 */
export function refusedToken(error) {
  return isRevoked(error) ? new SyncFailure('revoked', REVOKED, error) : new SyncFailure('signed-out', SIGNED_OUT, error);
}

/** @param {SyncFork} fork */
function forkRefusal(fork) {
  return new SyncFailure('fork', `device ${fork.device}'s event #${fork.seq} differs between this device and the sync server, so this device holds events of a copied replica that it cannot sync; nothing was changed (Schemas/merge.md §10)`, fork);
}

/**
 * Events held here that the server lacked at the last exchange (all of them before any sync).
 * @param {Ledger} ledger
 */
export function pendingCount(ledger) {
  const saved = /** @type {any} */ (ledger.getMeta('sync'));
  /** @type {Record<string, string>} */
  const serverHas = saved?.serverHas ?? {};
  let n = 0n;
  for (const [device, held] of ledger.versionVector()) {
    const theirs = BigInt(serverHas[device] ?? '0');
    if (held > theirs) n += held - theirs;
  }
  return Number(n);
}

/**
 * Events the server held at the last exchange.
 * @param {Ledger} ledger
 */
export function serverEventCount(ledger) {
  const saved = /** @type {any} */ (ledger.getMeta('sync'));
  /** @type {Record<string, string>} */
  const serverHas = saved?.serverHas ?? {};
  let n = 0n;
  for (const seq of Object.values(serverHas)) n += BigInt(seq);
  return Number(n);
}
