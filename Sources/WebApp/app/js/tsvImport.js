// Reads an oritsubushi-tsv file, the original apps' sync upload (Schemas/import-export.md,
// Schemas/domain-rules.md §14), line by line as the CLI's `import oritsubushi-tsv` does
// (OritsubushiTSV.parse and TextInput in Swift): `s_id⇥comp_date⇥update_date⇥memo⏎`, a UTF-8
// byte order mark at the start skipped, the CRs before a line's LF part of the line end, every
// line valid UTF-8 with four fields (the memo is everything after the third TAB: TAB and CR are
// not escaped), a positive s_id and non-negative integers of at most 18 digits, and only the
// escapes `\\` and `\n` in the memo. A bad line is refused with its number and a reason
// (TsvProblem, which importReport.js says in the app's language); the others are rows, which
// importPlan.js checks against the catalogue and the ledger. Conformance/tsv-import.jsonl holds
// cases both implementations must read alike.

/**
 * One row of the original completions table, with its line in the file.
 * @typedef {object} TsvRow
 * @property {number} line
 * @property {number} station
 * @property {number} compDate
 * @property {number} updateDate Unix seconds
 * @property {string} memo
 */

/**
 * Why a line is refused, as a code (and what it is about): 'not-utf8', 'empty', 'fields',
 * 'not-number' (field, value), 'station-id' (value), 'comp-date-range' (value),
 * 'update-date-range' (value), 'lone-backslash', 'unknown-escape' from the reader; 'invalid-date',
 * 'future-date', 'memo-too-long', 'unknown-station' from importPlan.js.
 * @typedef {object} TsvProblem
 * @property {string} reason
 * @property {'s_id' | 'comp_date' | 'update_date'} [field]
 * @property {string} [value] the field's text, or the number it is about
 */

/** @typedef {{line: number} & TsvProblem} RefusedLine */

const TAB = 0x09, LF = 0x0a, CR = 0x0d, BACKSLASH = 0x5c, LETTER_N = 0x6e;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];
const MAX_U32 = 0xffffffff;
/** update_date must stay below (2^47) / 1000 seconds, so that its milliseconds fit an hlc's 48 bits. */
const UPDATE_DATE_LIMIT = 140_737_488_355;

// fatal: invalid UTF-8 is refused, not replaced; ignoreBOM: a U+FEFF inside the text stays text.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A line the reader refuses. */
class LineRefusal extends Error {
  /** @param {TsvProblem} problem */
  constructor(problem) {
    super(problem.reason);
    this.problem = problem;
  }
}

/**
 * Reads a whole file: its rows, and its refused lines in order.
 * @param {Uint8Array} bytes
 * @returns {{rows: TsvRow[], refused: RefusedLine[]}}
 */
export function parseTsv(bytes) {
  /** @type {TsvRow[]} */
  const rows = [];
  /** @type {RefusedLine[]} */
  const refused = [];
  let start = BYTE_ORDER_MARK.every((b, i) => bytes[i] === b) ? BYTE_ORDER_MARK.length : 0;
  let line = 0;
  while (start < bytes.length) {
    line += 1;
    let end = bytes.indexOf(LF, start);
    if (end < 0) end = bytes.length;
    let contentEnd = end;
    while (contentEnd > start && bytes[contentEnd - 1] === CR) contentEnd -= 1;
    try {
      rows.push({ line, ...parseLine(bytes.subarray(start, contentEnd)) });
    } catch (error) {
      if (!(error instanceof LineRefusal)) throw error;
      refused.push({ line, ...error.problem });
    }
    start = end + 1;
  }
  return { rows, refused };
}

/**
 * One line's fields (OritsubushiTSV.parseLine).
 * @param {Uint8Array} bytes the line without its end
 * @returns {Omit<TsvRow, 'line'>}
 */
function parseLine(bytes) {
  try {
    decoder.decode(bytes);
  } catch {
    throw new LineRefusal({ reason: 'not-utf8' });
  }
  if (bytes.length === 0) throw new LineRefusal({ reason: 'empty' });
  /** @type {number[]} */
  const tabs = [];
  for (let i = 0; i < bytes.length && tabs.length < 3; i++) if (bytes[i] === TAB) tabs.push(i);
  if (tabs.length < 3) throw new LineRefusal({ reason: 'fields' });
  const fields = [bytes.subarray(0, tabs[0]), bytes.subarray(tabs[0] + 1, tabs[1]), bytes.subarray(tabs[1] + 1, tabs[2])];
  const station = number(fields[0], 's_id');
  if (station === 0n || station > BigInt(MAX_U32)) throw new LineRefusal({ reason: 'station-id', value: String(station) });
  const compDate = number(fields[1], 'comp_date');
  if (compDate > BigInt(MAX_U32)) throw new LineRefusal({ reason: 'comp-date-range', value: String(compDate) });
  const updateDate = number(fields[2], 'update_date');
  if (updateDate >= BigInt(UPDATE_DATE_LIMIT)) throw new LineRefusal({ reason: 'update-date-range', value: String(updateDate) });
  const memo = unescapeMemo(bytes.subarray(tabs[2] + 1));
  return { station: Number(station), compDate: Number(compDate), updateDate: Number(updateDate), memo };
}

/**
 * A field of 1 to 18 ASCII digits as an exact integer.
 * @param {Uint8Array} field
 * @param {'s_id' | 'comp_date' | 'update_date'} name
 */
function number(field, name) {
  const text = decoder.decode(field);
  if (!/^[0-9]{1,18}$/.test(text)) throw new LineRefusal({ reason: 'not-number', field: name, value: text });
  return BigInt(text);
}

/**
 * The memo with `\\` and `\n` read back; any other backslash is refused.
 * @param {Uint8Array} bytes
 */
function unescapeMemo(bytes) {
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== BACKSLASH) { out[n++] = bytes[i]; continue; }
    if (i + 1 >= bytes.length) throw new LineRefusal({ reason: 'lone-backslash' });
    const next = bytes[i + 1];
    if (next === BACKSLASH) out[n++] = BACKSLASH;
    else if (next === LETTER_N) out[n++] = LF;
    else throw new LineRefusal({ reason: 'unknown-escape' });
    i++;
  }
  return decoder.decode(out.subarray(0, n));
}
