// Whether a position fix can name one nearest station. A browser's fix is a point and a radius
// (its accuracy, in metres); iOS's approximate location reports 1–20 km. The person may stand
// anywhere in that circle, so the station nearest to the point is the nearest to them only while
// the circle stays on that station's side of the line halfway between it and every other station.
//
// For the nearest station s₁ and another station sᵢ, with d the distances from the fix and D the
// distance between the two stations, that halfway line lies (dᵢ² − d₁²) ÷ 2D from the fix (plane
// geometry; exact enough at these distances). Standing at s₁ it is half the distance between the
// two stations: a fix whose accuracy is more than half the distance between the nearest and the
// second-nearest station cannot tell which of them is nearer. Stations at one point (小田原駅 of
// five operators) are one place: none is an alternative to another.

import { metres } from './nearby.js';

/** @typedef {import('./catalog.js').Station} Station */
/** @typedef {{station: Station, metres: number}} Hit */

/**
 * How far from the fix the line lies beyond which `other` is nearer than `nearest`: 0 when the fix
 * is already there, Infinity for a station at the nearest one's point.
 * @param {Hit} nearest @param {Hit} other
 */
export function halfwayDistance(nearest, other) {
  const a = nearest.station, b = other.station;
  const between = metres(a.lat / 1e6, a.lng / 1e6, b.lat / 1e6, b.lng / 1e6);
  if (between === 0) return Infinity;
  return Math.max(0, (other.metres * other.metres - nearest.metres * nearest.metres) / (2 * between));
}

/**
 * The stations that may be the nearest to someone within the fix's circle: the nearest, the
 * stations at its point, and every station whose halfway line the circle crosses. `ambiguous` when
 * one of them stands elsewhere than the nearest, i.e. the fix cannot name one nearest place.
 * @param {Hit[]} hits nearest first (nearby.js `nearest`)
 * @param {number} accuracy metres; an unknown accuracy counts as 0
 * @returns {{ambiguous: boolean, candidates: Hit[]}}
 */
export function nearestCandidates(hits, accuracy) {
  const radius = Number.isFinite(accuracy) ? Math.max(0, accuracy) : 0;
  const first = hits[0];
  if (!first) return { ambiguous: false, candidates: [] };
  const candidates = [first];
  let ambiguous = false;
  for (const hit of hits.slice(1)) {
    const samePlace = hit.station.lat === first.station.lat && hit.station.lng === first.station.lng;
    if (samePlace) { candidates.push(hit); continue; }
    if (halfwayDistance(first, hit) < radius) {
      candidates.push(hit);
      ambiguous = true;
    }
  }
  return { ambiguous, candidates };
}

/**
 * The accuracy as the sentence says it: whole metres under 1 km, else whole kilometres, rounded
 * (「約850 m」, 「約3 km」; "about 3 km" in English).
 * @param {number} accuracy metres
 * @param {'ja' | 'en'} lang
 */
export function accuracyLabel(accuracy, lang) {
  const m = Math.max(0, Math.round(accuracy));
  const text = m < 1000 ? `${m} m` : `${Math.max(1, Math.round(m / 1000))} km`;
  return lang === 'ja' ? `約${text}` : `about ${text}`;
}
