// The apps' 「一覧」 list (Schemas/domain-rules.md §26), as GreatCircle.swift and NearbyQuery.swift: enabled
// stations by great-circle distance on a sphere of radius 6,378,137 m, nearest first, ties by
// s_id, with the apps' words for distances.

/** @typedef {import('./catalog.js').Station} Station */

export const EARTH_RADIUS = 6_378_137.0;

/**
 * How far beyond a fix's accuracy a station still counts as where the person is: a station's
 * point is its centre, and a large station's platforms and exits lie a few hundred metres from it.
 */
export const REACH_MARGIN_M = 500;

/**
 * The oldest cached fix 「現在地を取得」 accepts: none. A browser's cached fix is as old as its
 * last fix, however long the person has been moving since (a train covers a station gap in a
 * minute), so each tap asks for a fix of its own.
 */
export const FIX_MAX_AGE_MS = 0;

/**
 * Whether a station `m` metres from a fix of this accuracy (metres, the radius the browser
 * reports) may be where the person is now: within the accuracy plus REACH_MARGIN_M.
 * @param {number} m @param {number} accuracy
 */
export function withinReach(m, accuracy) {
  return Number.isFinite(m) && m <= Math.max(0, Number.isFinite(accuracy) ? accuracy : 0) + REACH_MARGIN_M;
}

/**
 * Metres between two positions in degrees (the haversine form).
 * @param {number} lat1 @param {number} lng1 @param {number} lat2 @param {number} lng2
 */
export function metres(lat1, lng1, lat2, lng2) {
  const radians = Math.PI / 180;
  const phi1 = lat1 * radians, phi2 = lat2 * radians;
  const dPhi = (lat2 - lat1) * radians, dLambda = (lng2 - lng1) * radians;
  const sinPhi = Math.sin(dPhi / 2), sinLambda = Math.sin(dLambda / 2);
  const h = sinPhi * sinPhi + Math.cos(phi1) * Math.cos(phi2) * sinLambda * sinLambda;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The apps' label: up to 10 m すぐそば; under 1 km whole metres, truncated; under 10 km
 * kilometres with one decimal, rounded (9,960 m reads 約10.0 km); otherwise whole km, truncated.
 * @param {number} m metres
 */
export function distanceLabel(m) {
  if (m <= 10) return 'すぐそば';
  if (m < 1000) return `約${Math.trunc(m)} m`;
  if (m < 10_000) {
    const tenths = Math.round(m / 100);
    return `約${Math.trunc(tenths / 10)}.${tenths % 10} km`;
  }
  return `約${Math.trunc(m / 1000)} km`;
}

/**
 * The same in English words for the English UI: "right here", "about 850 m", "about 1.5 km".
 * @param {number} m
 */
export function distanceLabelEn(m) {
  const ja = distanceLabel(m);
  return ja === 'すぐそば' ? 'right here' : ja.replace('約', 'about ');
}

/**
 * Metres from a point in degrees to a station (its position in millionths of a degree).
 * @param {Station} s @param {number} lat @param {number} lng
 */
export function metresTo(s, lat, lng) {
  return metres(lat, lng, s.lat / 1_000_000, s.lng / 1_000_000);
}

/**
 * The nearest stations to a point in degrees: at most `limit` (0 = every one) of those `admits`
 * keeps, nearest first, ties by s_id.
 * @param {Station[]} stations enabled stations
 * @param {number} lat @param {number} lng
 * @param {number} limit
 * @param {(s: Station) => boolean} [admits]
 * @returns {Array<{station: Station, metres: number}>}
 */
export function nearest(stations, lat, lng, limit, admits = () => true) {
  const hits = [];
  for (const s of stations) {
    if (admits(s)) hits.push({ station: s, metres: metresTo(s, lat, lng) });
  }
  hits.sort((a, b) => a.metres - b.metres || a.station.id - b.station.id);
  return limit > 0 && hits.length > limit ? hits.slice(0, limit) : hits;
}
