// The station catalogue as the app holds it: the document GET /v1/catalog serves, checked and
// indexed once. The catalogue is the original apps' (Schemas/domain-rules.md §6): names include 駅 as stored,
// positions are integer micro-degrees, a smaller weight is a higher map priority, and disabled
// rows stay (their completions are kept but never shown or counted).
//
// Document: {"format":1,"version":N,"operators":[{id,name,type,enabled}],
//   "lines":[{id,name,operator,enabled,stations?}],
//   "stations":[{id,name,yomi,wiki,pref,lat,lng,weight,operator,lines,enabled,address?}]}
// `lines[].stations` (the line's stations in stations_lines.s_sort order, then s_id) and
// `stations[].address` are optional: without them lines are drawn and listed in s_id order.

/** @typedef {{id: number, name: string, type: number, enabled: boolean}} Operator */
/** @typedef {{id: number, name: string, operator: number, enabled: boolean, stations: number[] | null}} Line */
/**
 * @typedef {object} Station
 * @property {number} id
 * @property {string} name as the catalogue writes it (with 駅)
 * @property {string} yomi hiragana reading without えき
 * @property {string} wiki Wikipedia title; "" means the name
 * @property {number} pref prefecture code 1…47
 * @property {number} lat micro-degrees
 * @property {number} lng micro-degrees
 * @property {number} weight
 * @property {number} operator
 * @property {number[]} lines line ids in l_id order
 * @property {boolean} enabled
 * @property {string} address
 */

/** A catalogue document that is not the contract's shape; `message` is one sentence. */
export class CatalogError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CatalogError';
  }
}

export const PREFECTURES = [
  '北海道', '青森県', '岩手県', '宮城県', '秋田県', '山形県', '福島県', '茨城県', '栃木県', '群馬県',
  '埼玉県', '千葉県', '東京都', '神奈川県', '新潟県', '富山県', '石川県', '福井県', '山梨県', '長野県',
  '岐阜県', '静岡県', '愛知県', '三重県', '滋賀県', '京都府', '大阪府', '兵庫県', '奈良県', '和歌山県',
  '鳥取県', '島根県', '岡山県', '広島県', '山口県', '徳島県', '香川県', '愛媛県', '高知県', '福岡県',
  '佐賀県', '長崎県', '熊本県', '大分県', '宮崎県', '鹿児島県', '沖縄県',
];

const OPERATOR_TYPES = ['JR旅客会社', '大手私鉄', '準大手私鉄', '公営交通', '中小私鉄', 'モノレール',
  '新交通システム', 'ケーブルカー', 'トロリーバス', '浮上式鉄道'];

/**
 * CatalogNames.prefecture.
 * @param {number} code
 */
export function prefectureName(code) {
  return code >= 1 && code <= 47 ? PREFECTURES[code - 1] : `県${code}`;
}

/**
 * CatalogNames.operatorType.
 * @param {number} code
 */
export function operatorTypeName(code) {
  return code >= 1 && code <= 10 ? OPERATOR_TYPES[code - 1] : `種別${code}`;
}

/**
 * The station's Japanese Wikipedia article, as CatalogStation.wikipediaURL forms it: the wiki
 * title or the name, surrounding white space trimmed, inner spaces as "_", every UTF-8 byte
 * outside RFC 3986's unreserved characters and "(" ")" percent-encoded.
 * @param {{wiki: string, name: string}} station
 */
export function wikipediaUrl(station) {
  const title = (station.wiki === '' ? station.name : station.wiki)
    .replace(/^[\t\p{Zs}]+|[\t\p{Zs}]+$/gu, '')
    .replace(/ /g, '_');
  // encodeURIComponent leaves ! * ' unencoded; Swift's allowed set does not include them.
  const encoded = encodeURIComponent(title).replace(/[!*']/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return 'https://ja.wikipedia.org/wiki/' + encoded;
}

/**
 * The station's address with its prefecture (the catalogue writes it from the municipality down,
 * a few rows with the prefecture already); "" when the catalogue has none.
 * @param {{pref: number, address: string}} station
 */
export function stationAddress(station) {
  const address = station.address.trim();
  if (address === '') return '';
  const pref = prefectureName(station.pref);
  return address.startsWith(pref) ? address : pref + address;
}

/** @param {unknown} v */
const isInt = (v) => typeof v === 'number' && Number.isSafeInteger(v);

/** The checked, indexed catalogue. */
export class Catalog {
  /**
   * @param {unknown} doc the parsed document
   * @throws {CatalogError}
   */
  constructor(doc) {
    const d = /** @type {Record<string, unknown>} */ (doc);
    if (typeof doc !== 'object' || doc === null || d.format !== 1) throw new CatalogError('the station catalogue is not format 1');
    if (!isInt(d.version)) throw new CatalogError('the station catalogue has no version');
    if (!Array.isArray(d.operators) || !Array.isArray(d.lines) || !Array.isArray(d.stations)) {
      throw new CatalogError('the station catalogue lacks its operators, lines or stations');
    }
    /** @type {number} */
    this.version = /** @type {number} */ (d.version);
    /** @type {Map<number, Operator>} */
    this.operators = new Map();
    for (const o of d.operators) {
      if (!isInt(o?.id) || typeof o.name !== 'string' || !isInt(o.type) || typeof o.enabled !== 'boolean') {
        throw new CatalogError('the station catalogue has a malformed operator');
      }
      this.operators.set(o.id, { id: o.id, name: o.name, type: o.type, enabled: o.enabled });
    }
    /** @type {Map<number, Line>} */
    this.lines = new Map();
    for (const l of d.lines) {
      if (!isInt(l?.id) || typeof l.name !== 'string' || !isInt(l.operator) || typeof l.enabled !== 'boolean' ||
          (l.stations !== undefined && !(Array.isArray(l.stations) && l.stations.every(isInt)))) {
        throw new CatalogError('the station catalogue has a malformed line');
      }
      this.lines.set(l.id, { id: l.id, name: l.name, operator: l.operator, enabled: l.enabled, stations: l.stations ?? null });
    }
    /** @type {Map<number, Station>} */
    this.stations = new Map();
    for (const s of d.stations) {
      if (!isInt(s?.id) || s.id <= 0 || typeof s.name !== 'string' || typeof s.yomi !== 'string' ||
          typeof s.wiki !== 'string' || !isInt(s.pref) || !isInt(s.lat) || !isInt(s.lng) || !isInt(s.weight) ||
          !isInt(s.operator) || !Array.isArray(s.lines) || !s.lines.every(isInt) || typeof s.enabled !== 'boolean' ||
          (s.address !== undefined && typeof s.address !== 'string')) {
        throw new CatalogError('the station catalogue has a malformed station');
      }
      this.stations.set(s.id, {
        id: s.id, name: s.name, yomi: s.yomi, wiki: s.wiki, pref: s.pref, lat: s.lat, lng: s.lng, weight: s.weight,
        operator: s.operator, lines: [...s.lines].sort((a, b) => a - b), enabled: s.enabled, address: s.address ?? '',
      });
    }
    /** Enabled stations in s_id order: the candidates of every list, map and count. */
    this.enabledStations = [...this.stations.values()].filter((s) => s.enabled).sort((a, b) => a.id - b.id);
    /** Whether lines carry their s_sort order. */
    this.hasLineOrder = [...this.lines.values()].some((l) => l.stations !== null);
    /** @type {Map<number, number[]>} line id → every member station id, in s_sort order when known */
    this.members = new Map();
    if (this.hasLineOrder) {
      for (const l of this.lines.values()) this.members.set(l.id, l.stations ?? []);
    } else {
      for (const s of [...this.stations.values()].sort((a, b) => a.id - b.id)) {
        for (const l of s.lines) {
          const list = this.members.get(l);
          if (list) list.push(s.id); else this.members.set(l, [s.id]);
        }
      }
    }
  }

  /** @param {number} id */
  station(id) { return this.stations.get(id); }

  /**
   * The operator's name, "" when unknown.
   * @param {number} id
   */
  operatorName(id) { return this.operators.get(id)?.name ?? ''; }

  /**
   * The station's enabled lines in l_id order (the apps' callout order).
   * @param {Station} station
   * @returns {Line[]}
   */
  enabledLinesOf(station) {
    /** @type {Line[]} */
    const out = [];
    for (const id of station.lines) {
      const line = this.lines.get(id);
      if (line && line.enabled) out.push(line);
    }
    return out;
  }

  /**
   * Enabled lines in l_id order, each with its enabled stations in drawing order.
   * @returns {Array<{line: Line, stations: Station[]}>}
   */
  drawableLines() {
    const out = [];
    for (const line of [...this.lines.values()].sort((a, b) => a.id - b.id)) {
      if (!line.enabled) continue;
      const stations = (this.members.get(line.id) ?? [])
        .map((id) => this.stations.get(id))
        .filter(/** @returns {s is Station} */ (s) => s !== undefined && s.enabled);
      out.push({ line, stations });
    }
    return out;
  }
}
