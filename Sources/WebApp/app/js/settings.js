// The person's settings, kept with the replica's other settings (the `settings` meta entry,
// committed strictly like every setting; erased with the replica): the map's pin limit, the app's
// language, whether the map draws the server's tiles, and which banners were dismissed. A value
// that is missing or not one the app offers reads as the default, so a damaged entry never stops
// the app.

/** @typedef {'ja' | 'en'} Lang */
/**
 * @typedef {object} Settings
 * @property {number} pinLimit pins per view, 0 for every station (mapRule.js MapIndex)
 * @property {Lang | null} language null: the browser's preference
 * @property {boolean} tiles whether the map draws raster tiles where the server offers them (tileConfig.js)
 * @property {Record<string, string>} dismissed banner kind → what was dismissed (bannerKey)
 */
/** @typedef {{getMeta: (key: string) => unknown, setMeta: (values: Record<string, unknown>) => Promise<void>}} MetaStore */

/** The pin limits offered: the original apps' choices, and 0 for 無制限 (every station). */
export const PIN_LIMITS = [50, 100, 150, 200, 300, 500, 0];

/** The default pin limit: the CLI's `map` default and i降りつぶし's. */
export const DEFAULT_PIN_LIMIT = 100;

/** sessionStorage key: the page was reloaded for a new language; show the settings again. */
export const RETURN_TO_SETTINGS = 'oritsubushi-return-to-settings';

/** Banner kinds whose dismissal holds for whatever they say next time (the same advice again). */
const STANDING_KINDS = new Set(['persist']);

/**
 * Settings from a stored value; anything unknown reads as the default.
 * @param {unknown} value
 * @returns {Settings}
 */
export function readSettings(value) {
  const v = typeof value === 'object' && value !== null ? /** @type {Record<string, unknown>} */ (value) : {};
  const pinLimit = typeof v.pinLimit === 'number' && PIN_LIMITS.includes(v.pinLimit) ? v.pinLimit : DEFAULT_PIN_LIMIT;
  const language = v.language === 'ja' || v.language === 'en' ? v.language : null;
  const tiles = v.tiles !== false;
  /** @type {Record<string, string>} */
  const dismissed = {};
  if (typeof v.dismissed === 'object' && v.dismissed !== null) {
    for (const [k, text] of Object.entries(v.dismissed)) if (typeof text === 'string') dismissed[k] = text;
  }
  return { pinLimit, language, tiles, dismissed };
}

/**
 * The settings the replica holds.
 * @param {MetaStore} meta
 */
export function loadSettings(meta) {
  return readSettings(meta.getMeta('settings'));
}

/**
 * Changes some settings, committed before it resolves; returns the settings now held.
 * @param {MetaStore} meta @param {Partial<Settings>} change
 * @returns {Promise<Settings>}
 */
export async function saveSettings(meta, change) {
  const next = readSettings({ ...loadSettings(meta), ...change });
  await meta.setMeta({ settings: next });
  return next;
}

/**
 * What a dismissal of a banner remembers: its kind alone for standing advice (keeping storage
 * persistent), else its kind and sentence, so that another failure of the same kind shows again.
 * @param {string} kind @param {string} message
 */
export function bannerKey(kind, message) {
  return STANDING_KINDS.has(kind) ? kind : `${kind}: ${message}`;
}

/**
 * Whether this banner was dismissed before.
 * @param {Settings} settings @param {string} kind @param {string} message
 */
export function isDismissed(settings, kind, message) {
  return settings.dismissed[kind] === bannerKey(kind, message);
}

/**
 * The dismissed banners with this one added (one remembered per kind: the latest).
 * @param {Settings} settings @param {string} kind @param {string} message
 * @returns {Record<string, string>}
 */
export function withDismissed(settings, kind, message) {
  return { ...settings.dismissed, [kind]: bannerKey(kind, message) };
}
