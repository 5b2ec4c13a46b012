// The Cache API as the browser offers it to the page (caches.open, match, put, delete, keys), in
// memory, for the tile cache's tests; `refuse` makes every put fail as a full quota does.

export class FakeCache {
  constructor() {
    /** URL → [body bytes, headers] */
    this.entries = new Map();
    this.refuse = false;
  }

  static key(request) {
    return typeof request === 'string' ? request : request.url;
  }

  async match(request) {
    const held = this.entries.get(FakeCache.key(request));
    return held ? new Response(held[0].slice(0), { headers: held[1] }) : undefined;
  }

  async put(request, response) {
    if (this.refuse) throw new DOMException('the quota is exceeded', 'QuotaExceededError');
    this.entries.set(FakeCache.key(request), [new Uint8Array(await response.arrayBuffer()), new Headers(response.headers)]);
  }

  async delete(request) {
    return this.entries.delete(FakeCache.key(request));
  }

  async keys() {
    return [...this.entries.keys()].map((url) => new Request(url));
  }
}

export class FakeCacheStorage {
  constructor() {
    this.named = new Map();
  }

  async open(name) {
    if (!this.named.has(name)) this.named.set(name, new FakeCache());
    return this.named.get(name);
  }

  async delete(name) {
    return this.named.delete(name);
  }

  async match(url) {
    for (const cache of this.named.values()) {
      const found = await cache.match(url);
      if (found) return found;
    }
    return undefined;
  }
}
