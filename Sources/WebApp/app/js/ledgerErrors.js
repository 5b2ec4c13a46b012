// The ways the ledger refuses a change, each with one sentence for people (ledger.js re-exports
// them).

/** A received page that must not be stored; `message` is one sentence. */
export class MergeError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'MergeError';
  }
}

/** An edit the ledger refuses (bad date, memo too long); `message` is one sentence. */
export class EditError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'EditError';
  }
}

/** An edit made against values the station no longer has (a sync brought another device's edit). */
export class StaleEditError extends EditError {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'StaleEditError';
  }
}
