// Where the person is while 地図 is on the screen: `watchPosition` runs only while the map is
// visible (and the page with it), and `clearWatch` ends it as soon as it is not, so the phone's
// location service is not kept on for a screen nobody sees. It starts by itself only when the
// person has allowed the site to know the location (the Permissions API says `granted`); else the
// locate button starts it, and the browser asks; an allowance given while the map is open counts
// from the next time it is shown. A fix is forgotten when the watch ends: the
// marker shows where the person is, not where they were.
//
// No DOM: the geolocation and permission objects are passed in (tests give fakes).

/** @typedef {{lat: number, lng: number, accuracy: number, at: number}} Fix degrees, metres, ms */
/** @typedef {'denied' | 'unavailable' | 'timeout' | 'unsupported'} FixProblem */
/**
 * The part of `navigator.geolocation` used.
 * @typedef {{watchPosition: Geolocation['watchPosition'], clearWatch: Geolocation['clearWatch']}} GeolocationLike
 */
/**
 * The part of `navigator.permissions` used.
 * @typedef {{query: (descriptor: {name: 'geolocation'}) => Promise<{state: string, onchange: ((this: any, ev: Event) => any) | null}>}} PermissionsLike
 */

/** High accuracy; a fix up to 10 s old is fine for a marker (the first one comes at once). */
export const WATCH_OPTIONS = Object.freeze({ enableHighAccuracy: true, maximumAge: 10_000, timeout: 30_000 });

/**
 * The problem a GeolocationPositionError code names.
 * @param {number} code
 * @returns {FixProblem}
 */
export function problemOf(code) {
  if (code === 1) return 'denied';
  if (code === 3) return 'timeout';
  return 'unavailable';
}

export class PositionWatch {
  /**
   * @param {object} deps
   * @param {GeolocationLike | null} deps.geolocation null where the browser has none
   * @param {PermissionsLike | null} deps.permissions null where the browser cannot say
   * @param {(fix: Fix | null) => void} deps.onFix a new fix, or null when the watch ended
   * @param {(problem: FixProblem) => void} deps.onProblem
   * @param {() => number} [deps.now]
   */
  constructor({ geolocation, permissions, onFix, onProblem, now = () => Date.now() }) {
    this.geolocation = geolocation;
    /**
     * The Permissions API (null where the browser cannot say), what it last said (granted, prompt,
     * denied, or unknown), and whether the watch follows its changes.
     * @type {{api: PermissionsLike | null, state: string, listening: boolean}}
     */
    this.permission = { api: permissions, state: 'unknown', listening: false };
    this.onFix = onFix;
    this.onProblem = onProblem;
    this.now = now;
    /** @type {number | null} */
    this.watchId = null;
    /** @type {Fix | null} */
    this.fix = null;
    /** @type {FixProblem | null} */
    this.problem = geolocation ? null : 'unsupported';
    this.visible = false;
    /** The person tapped the locate button: watch whenever the map is visible. */
    this.asked = false;
  }

  get watching() {
    return this.watchId !== null;
  }

  /** The map is on the screen: watch if the person allowed it or asked. */
  async show() {
    this.visible = true;
    await this.readPermission();
    if (this.visible && (this.asked || this.permission.state === 'granted')) this.start();
  }

  /** The map left the screen (another tab, the page hidden): stop watching, forget the fix. */
  hide() {
    this.visible = false;
    this.stop();
  }

  /**
   * The locate button: what the map should do now.
   * @returns {'centre' | 'waiting' | FixProblem}
   */
  locate() {
    if (!this.geolocation) return 'unsupported';
    this.asked = true;
    if (this.fix) return 'centre';
    if (this.permission.state === 'denied') return 'denied';
    if (!this.watching) {
      this.problem = null;
      this.start();
    }
    return this.problem ?? 'waiting';
  }

  async readPermission() {
    if (!this.permission.api || !this.geolocation) return;
    try {
      const status = await this.permission.api.query({ name: 'geolocation' });
      this.permission.state = status.state;
      if (!this.permission.listening) {
        this.permission.listening = true;
        // Refused in the browser's settings while the map is open: stop at once. An allowance
        // given meanwhile starts the watch the next time the map is shown (or at a tap).
        status.onchange = () => {
          this.permission.state = status.state;
          if (status.state === 'denied') { this.stop(); this.problem = 'denied'; }
        };
      }
    } catch {
      this.permission.state = 'unknown'; // this browser cannot say: only a tap starts the watch
    }
  }

  start() {
    if (this.watching || !this.geolocation || !this.visible) return;
    this.watchId = this.geolocation.watchPosition(
      (position) => {
        if (!this.watching) return;
        this.problem = null;
        this.fix = {
          lat: position.coords.latitude,
          lng: position.coords.longitude,
          accuracy: Number.isFinite(position.coords.accuracy) ? position.coords.accuracy : 0,
          at: this.now(),
        };
        this.onFix(this.fix);
      },
      (error) => {
        if (!this.watching) return;
        this.problem = problemOf(error.code);
        if (this.problem === 'denied') this.stop();
        this.onProblem(this.problem);
      },
      WATCH_OPTIONS,
    );
  }

  stop() {
    if (this.watchId !== null && this.geolocation) this.geolocation.clearWatch(this.watchId);
    this.watchId = null;
    if (this.fix) {
      this.fix = null;
      this.onFix(null);
    }
  }
}
