// This device's identity: a random 64-bit id (16 lowercase hex digits, never zero, as
// DeviceID.random()) and a human name derived from the browser, such as "iPhone Safari 7KQM" (the
// platform, the browser and four random characters, so that two phones of one kind differ).

/**
 * A new random device id.
 * @param {(bytes: Uint8Array) => Uint8Array} [random] crypto.getRandomValues
 */
export function newDeviceId(random = (bytes) => crypto.getRandomValues(bytes)) {
  for (;;) {
    const bytes = random(new Uint8Array(8));
    const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    if (hex !== '0000000000000000') return hex;
  }
}

/**
 * "iPhone Safari", "Android Chrome", "Mac Firefox"…: the platform and the browser a user agent
 * names, for telling devices apart in a station's history.
 * @param {string} ua navigator.userAgent
 */
export function deviceNameFromUserAgent(ua) {
  const platform =
    /iPhone/.test(ua) ? 'iPhone'
    : /iPad/.test(ua) ? 'iPad'
    : /Android/.test(ua) ? 'Android'
    : /CrOS/.test(ua) ? 'Chromebook'
    : /Macintosh|Mac OS X/.test(ua) ? 'Mac'
    : /Windows/.test(ua) ? 'Windows'
    : /Linux/.test(ua) ? 'Linux'
    : 'Web';
  const browser =
    /Edg\//.test(ua) ? 'Edge'
    : /OPR\/|Opera/.test(ua) ? 'Opera'
    : /Firefox\/|FxiOS/.test(ua) ? 'Firefox'
    : /HeadlessChrome/.test(ua) ? 'Headless Chrome'
    : /Chrome\/|CriOS/.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari'
    : 'browser';
  return `${platform} ${browser}`;
}

/** Characters of the name's suffix: digits and capitals without the look-alikes 0, 1, I, L, O, U. */
const SUFFIX_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * "Android Chrome 7KQM": the platform and browser with four random characters, the name a new
 * device suggests when it pairs (the person may change it).
 * @param {string} ua navigator.userAgent
 * @param {(bytes: Uint8Array) => Uint8Array} [random] crypto.getRandomValues
 */
export function distinctDeviceName(ua, random = (bytes) => crypto.getRandomValues(bytes)) {
  const suffix = [...random(new Uint8Array(4))].map((b) => SUFFIX_ALPHABET[b % SUFFIX_ALPHABET.length]).join('');
  return `${deviceNameFromUserAgent(ua)} ${suffix}`;
}

/**
 * The name the pairing form offers: this device's own name, unless it is only the platform and
 * browser (a device made before names had a suffix), in which case a fresh distinct name.
 * @param {string} current this device's name in the replica ("" when none)
 * @param {string} ua navigator.userAgent
 * @param {string} fresh a distinctDeviceName
 */
export function suggestedPairingName(current, ua, fresh) {
  return current && current !== deviceNameFromUserAgent(ua) ? current : fresh;
}
