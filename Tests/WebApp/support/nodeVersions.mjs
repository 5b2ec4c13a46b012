// What the tests need of node that Debian's nodejs (18 on bookworm) and newer releases provide
// differently, in one place: the app's modules run unchanged on both.
import { webcrypto } from 'node:crypto';

// The app calls the browser's global `crypto` (crypto.getRandomValues, crypto.subtle); node has it
// as a global only from 19 on, and as node:crypto's `webcrypto` before.
if (globalThis.crypto === undefined) {
  Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
}

const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * Turns on node:test's mock timers for the given APIs: node 20 (20.20 ran these tests) takes
 * `{ apis }`, node 18 (18.20, Debian 12's) the list itself.
 * @param {{ timers: { enable: (options: any) => void } }} mock node:test's `mock`
 * @param {string[]} apis e.g. ['setTimeout']
 */
export function enableMockTimers(mock, apis) {
  mock.timers.enable(nodeMajor >= 20 ? { apis } : apis);
}
