// Whether the map draws raster tiles, and from where: the server's `GET /app/config.json`
// (Schemas/sync-api.yaml; `server serve --tiles URL_TEMPLATE`), through the service worker, which
// keeps its last answer for offline use (sw.js). No answer, a malformed one, or `"tiles": null`
// means no tiles, said in console.debug only (Schemas/map.md "Raster tiles").
//
// The server's Content-Security-Policy admits the template's origin in connect-src; a page the
// service worker opened was served the policy it cached with index.html, which may predate the
// server's --tiles (the worker refetches index.html when config.json changes, for the next load).
// Tiles whose origin that policy refuses are not asked for this time: the browser would refuse
// them and say so on the console.

/**
 * What config.json says of tiles.
 * @typedef {object} TileConfig
 * @property {string} template an absolute http(s) URL with {z}, {x} and {y}
 * @property {string} attribution plain text, shown with textContent ('' when none)
 * @property {string} origin the template's origin, as `new URL().origin` writes it
 */

/**
 * The tiles config.json offers, or null (none, or not of the documented shape).
 * @param {unknown} doc
 * @returns {TileConfig | null}
 */
export function readTileConfig(doc) {
  if (typeof doc !== 'object' || doc === null) return null;
  const tiles = /** @type {Record<string, unknown>} */ (doc).tiles;
  if (typeof tiles !== 'object' || tiles === null) return null;
  const { url_template: template, attribution } = /** @type {Record<string, unknown>} */ (tiles);
  if (typeof template !== 'string' || !['{z}', '{x}', '{y}'].every((p) => template.includes(p))) return null;
  let url;
  try {
    url = new URL(template.replace(/\{[zxy]\}/g, '0'));
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return { template, attribution: typeof attribution === 'string' ? attribution.trim() : '', origin: url.origin };
}

/**
 * An origin as a policy source writes it, normalized as URL does (lower case, no default port,
 * no trailing slash); null for a keyword, a scheme or a wildcard.
 * @param {string} source
 */
function sourceOrigin(source) {
  if (!/^https?:\/\/[^*]+$/i.test(source)) return null;
  try {
    return new URL(source).origin;
  } catch {
    return null;
  }
}

/**
 * Whether a Content-Security-Policy lets the page fetch from `origin` (connect-src, else
 * default-src): the origin itself, its scheme (`https:`) or `*` among the sources.
 * @param {string} policy @param {string} origin
 */
export function policyAdmits(policy, origin) {
  /** @type {Map<string, string[]>} */
  const directives = new Map();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  }
  const sources = directives.get('connect-src') ?? directives.get('default-src');
  if (!sources) return true;
  const scheme = origin.slice(0, origin.indexOf(':') + 1);
  return sources.some((s) => s === '*' || s.toLowerCase() === scheme || sourceOrigin(s) === origin);
}

/**
 * The policy of the page in hand where it may differ from the server's now: a page the service
 * worker controls was served index.html from the worker's cache (sw.js), with the policy cached
 * beside it. Null when the page came from the network (its policy is the server's).
 * @param {{controlled: boolean, match: (url: string) => Promise<Response | undefined>, indexUrl: string}} page
 * @returns {Promise<string | null>}
 */
export async function servedPolicy(page) {
  if (!page.controlled) return null;
  const cached = await page.match(page.indexUrl);
  return cached ? cached.headers.get('Content-Security-Policy') ?? '' : null;
}

/**
 * The tiles to draw, or null. The policy is read before config.json is asked for: that request
 * may have the worker cache a newer index.html.
 * @param {object} deps
 * @param {() => Promise<string | null>} deps.policy servedPolicy
 * @param {() => Promise<Response>} deps.fetchConfig
 * @param {string} deps.pageProtocol a page served over https asks no tile over http (mixed content)
 * @returns {Promise<TileConfig | null>}
 */
export async function loadTileConfig(deps) {
  try {
    const policy = await deps.policy();
    const response = await deps.fetchConfig();
    if (!response.ok) throw new Error(`config.json answered HTTP ${response.status}`);
    const config = readTileConfig(await response.json());
    if (!config) return null;
    if (deps.pageProtocol === 'https:' && config.origin.startsWith('http:')) throw new Error('tiles over http on a page over https');
    if (policy !== null && !policyAdmits(policy, config.origin)) throw new Error('the policy this page was served with predates the tiles');
    return config;
  } catch (error) {
    console.debug('the map is drawn without tiles:', error);
    return null;
  }
}
