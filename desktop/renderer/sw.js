// Service worker of the field client: the app shell works without a network after
// the first visit. The build (vite.config.ts) fills in the list of every built
// file, so lazily loaded screens open offline too. API calls (/api/) always go
// to the network; offline data lives in IndexedDB through RxDB, not in this cache.
const PRECACHE = __PRECACHE__;
const CACHE = 'ops-shell-__VERSION__';

self.addEventListener('install', (event) => {
  // `reload` skips the HTTP cache, so a new release never precaches stale files.
  event.waitUntil(
    caches
      .open(CACHE)
      .then((c) => c.addAll(PRECACHE.map((u) => new Request(u, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('ops-shell-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

const put = (req, res) => {
  if (res.ok && res.type === 'basic') {
    const copy = res.clone();
    void caches.open(CACHE).then((c) => c.put(req, copy));
  }
  return res;
};

self.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== 'GET' || url.origin !== self.location.origin || url.pathname.includes('/api/')) return;
  if (url.pathname.includes('/assets/')) {
    // Hashed, immutable: cache first.
    event.respondWith(caches.match(req).then((hit) => hit || fetch(req).then((res) => put(req, res))));
    return;
  }
  // The shell: network first so releases arrive, the cache when offline (or when
  // the network answer is unusable, e.g. a captive portal's redirect loop).
  event.respondWith(
    fetch(req)
      .then((res) => (res.ok ? put(req, res) : caches.match(req).then((hit) => hit || res)))
      .catch(() =>
        caches
          .match(req)
          .then((hit) => hit || (req.mode === 'navigate' ? caches.match('./index.html') : Response.error())),
      ),
  );
});
