// One sentence in the app's language for every way something is refused: the server's answers
// (by their `error` code, else their HTTP status), a sync that stopped (SyncFailure.kind and its
// cause), the browser's storage (StoreError.reason), the ledger's refusals of an edit
// (EditError.reason, MergeError.reason) and a date that cannot be recorded. A sentence is chosen
// by the cause, never by the text of a message: the server's English `message` and the English
// sentences the app's errors carry for developers never reach the screen.

import { ApiError, MalformedAnswer, NetworkError } from './api.js';
import { dateProblem, label, tokyoDay } from './dates.js';
import { EditError, MergeError } from './ledgerErrors.js';
import { memoTooLongText, nameTooLongText } from './textLimits.js';
import { StoreError } from './store.js';
import { KeyProblem } from './keyProblem.js';
import { ConversionProblem } from './conversionProblem.js';
import { language, t } from './i18n.js';

/** @typedef {import('./i18n.js').Key} Key */
/** @typedef {import('./store.js').StorageRefusal} StorageRefusal */
/** @typedef {import('./ledgerErrors.js').MergeRefusal} MergeRefusal */

/**
 * What a sync failure's sentence depends on, besides its kind: plain data, so that it can be
 * saved with the sync bookkeeping and said again after a reload.
 * @typedef {object} FailureCause
 * @property {number} [status] the HTTP status of a refusal
 * @property {string} [code] its `error` code
 * @property {number | null} [retryAfter] seconds, with 429
 * @property {MergeRefusal} [merge] why a received page was refused
 * @property {StorageRefusal} [storage] why the browser refused
 * @property {import('./keyProblem.js').KeyReason} [key] why an encrypted account's key is lacking
 */

/** @type {Record<string, Key>} the server's `error` codes (Schemas/sync-api.yaml, Error) */
const SERVER_CODE_KEYS = {
  malformed: 'server.malformed', unauthorized: 'server.unauthorized', revoked: 'failure.revoked',
  forbidden: 'server.forbidden', not_found: 'server.notFound', method_not_allowed: 'server.notFound',
  conflict: 'server.conflict', fork: 'failure.fork', payload_too_large: 'server.tooLarge', invalid: 'server.invalid',
  unavailable: 'server.unavailable', gone: 'server.gone', too_many_requests: 'server.busy', internal: 'server.internal',
};
const SERVER_CODES = new Map(Object.entries(SERVER_CODE_KEYS));

/** @type {Record<number, Key>} the same by status, for an answer without a known code */
const SERVER_STATUSES = {
  400: 'server.malformed', 401: 'server.unauthorized', 403: 'server.forbidden', 404: 'server.notFound',
  405: 'server.notFound', 409: 'server.conflict', 410: 'server.gone', 413: 'server.tooLarge', 422: 'server.invalid',
  429: 'server.busy', 503: 'server.unavailable',
};

/** @type {Record<StorageRefusal, Key>} */
const STORAGE = { full: 'storage.full', refused: 'storage.refused', missing: 'storage.missing', unreadable: 'storage.unreadable' };

/** @type {Record<MergeRefusal, Key>} */
/**
 * By MergeError.reason (admission.js); `gap`, `differs` and `ahead` are a saved cause's older codes.
 * @type {Record<string, Key>}
 */
const MERGE = {
  'seq-gap': 'merge.gap', 'differing-copy': 'merge.differs', 'differing-duplicate': 'merge.differs', 'clock-ahead': 'merge.ahead',
  gap: 'merge.gap', differs: 'merge.differs', ahead: 'merge.ahead',
};

/**
 * A refusal of the server, by its code (else its status): never its message.
 * @param {{status: number, code?: string, retryAfter?: number | null}} refusal an ApiError or a saved FailureCause
 */
export function serverRefusalText(refusal) {
  const key = SERVER_CODES.get(refusal.code ?? '') ?? SERVER_STATUSES[refusal.status] ?? (refusal.status >= 500 ? 'server.internal' : 'server.status');
  if (key === 'server.busy') return t(key, refusal.retryAfter ?? 60);
  return t(key, refusal.status);
}

/**
 * The browser's refusal to store or read.
 * @param {StoreError | StorageRefusal} error
 */
export function storageText(error) {
  return t(STORAGE[typeof error === 'string' ? error : error.reason] ?? 'storage.refused');
}

/**
 * The storage's refusal of the person's own edit, which the app keeps in memory and saves by
 * itself later (unsavedEdits.js): a full storage says what to do in one sentence; any other
 * refusal is said by its cause, then that the edit is kept.
 * @param {StoreError} error
 */
export function keptEditText(error) {
  if (error.reason === 'full') return t('edit.fullKept');
  return `${storageText(error)} ${t('edit.keptToRetry')}`;
}

/**
 * What a sync failure's sentence depends on (plain data: see FailureCause).
 * @param {{cause?: unknown}} failure a SyncFailure
 * @returns {FailureCause}
 */
export function failureCause(failure) {
  const cause = failure.cause;
  if (cause instanceof ApiError) return { status: cause.status, code: cause.code, retryAfter: cause.retryAfter };
  if (cause instanceof MergeError) return { merge: cause.reason };
  if (cause instanceof StoreError) return { storage: cause.reason };
  if (cause instanceof KeyProblem) return { key: cause.reason };
  return {};
}

/**
 * Why a sync stopped, in one or two sentences, from its kind (SyncFailure.kind) and its cause.
 * @param {string} kind
 * @param {FailureCause} [cause]
 */
export function syncFailureText(kind, cause = {}) {
  switch (kind) {
    case 'offline': return t('failure.offline');
    case 'unreachable': return t('status.unreachable');
    case 'signed-out': return t('failure.signed-out');
    case 'revoked': return t('failure.revoked');
    case 'clock': return t('failure.clock');
    case 'damaged': return t('failure.damaged');
    case 'fork': return t('failure.fork');
    case 'malformed': return t('failure.malformed');
    case 'key': return keyProblemText(cause.key ?? 'missing');
    case 'storage': return cause.storage === 'full' ? t('failure.full') : storageText(cause.storage ?? 'refused');
    default:
      if (cause.merge) return t('failure.kept', t(MERGE[cause.merge] ?? 'merge.gap'));
      if (cause.status) return t('failure.kept', serverRefusalText({ status: cause.status, code: cause.code, retryAfter: cause.retryAfter }));
      return t('failure.stopped');
  }
}

/** @type {Record<import('./keyProblem.js').KeyReason, Key>} */
const KEY_PROBLEMS = {
  missing: 'key.missing', other: 'key.other', rotated: 'key.rotated', taken: 'key.taken',
  chain: 'key.chain', record: 'key.record', stored: 'key.stored', insecure: 'key.insecure',
};

/**
 * Why an end-to-end encrypted account cannot sync here, and how to get its key.
 * @param {import('./keyProblem.js').KeyReason} reason
 */
export function keyProblemText(reason) {
  return t(KEY_PROBLEMS[reason] ?? 'key.missing');
}

/** @type {Record<import('./conversionProblem.js').ConversionReason, Key>} */
const CONVERSION_PROBLEMS = { 'other-key': 'encrypt.otherKey', busy: 'encrypt.busy', sync: 'encrypt.sync' };

/**
 * Why turning encryption on stopped (accountConversion.js): its own causes, else what stopped it
 * and that pressing again resumes, nothing lost (Schemas/encryption.md §9).
 * @param {unknown} error
 */
export function conversionFailureText(error) {
  if (error instanceof ConversionProblem) return t(CONVERSION_PROBLEMS[error.reason]);
  return t('encrypt.interrupted', error instanceof KeyProblem ? keyProblemText(error.reason) : refusalText(error));
}

/**
 * The ledger's refusal of an edit.
 * @param {EditError} error
 */
export function editRefusalText(error) {
  switch (error.reason) {
    case 'stale': return t('edit.stale');
    case 'memo': return memoTooLongText();
    case 'date': return t('edit.badDate');
    case 'name': return nameTooLongText();
    case 'no-conflict': return t('conflict.none');
    default: return t('edit.badStation');
  }
}

/**
 * Why a date cannot be recorded now (null when it can): not a date, or after today in Japan.
 * @param {number} code
 * @param {number} nowMs
 */
export function dateRefusalText(code, nowMs) {
  const problem = dateProblem(code, nowMs);
  if (problem === null) return null;
  if (problem === 'invalid') return t('edit.badDate');
  const today = tokyoDay(nowMs);
  const todayCode = today.year * 10000 + today.month * 100 + today.day;
  return t('edit.future', label(code, language()), label(todayCode, language()));
}

/**
 * Any failure shown to the person, when no more particular sentence applies: the server's,
 * the network's, the browser's storage, the ledger's; anything else is unexpected.
 * @param {unknown} error
 */
export function refusalText(error) {
  if (error instanceof ApiError) return serverRefusalText(error);
  if (error instanceof NetworkError) return t('pair.offline');
  if (error instanceof MalformedAnswer) return t('failure.malformed');
  if (error instanceof StoreError) return storageText(error);
  if (error instanceof EditError) return editRefusalText(error);
  if (error instanceof MergeError) return t(MERGE[error.reason] ?? 'merge.gap');
  return t('error.unexpected');
}
