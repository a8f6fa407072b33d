/**
 * A fetch a test can cut: offline, every request fails like a dead network and
 * open streams are aborted; online again, requests go through.
 */
export function switchableFetch() {
  let online = true;
  const inFlight = new Set<AbortController>();
  const fetchImpl: typeof fetch = (input, init = {}) => {
    if (!online) return Promise.reject(new TypeError('fetch failed: network is down'));
    const ctrl = new AbortController();
    inFlight.add(ctrl);
    const outer = init.signal;
    if (outer) outer.addEventListener('abort', () => ctrl.abort(outer.reason), { once: true });
    return fetch(input, { ...init, signal: ctrl.signal }).finally(() => {
      // Keep streams registered until their body ends; plain requests are done here.
    });
  };
  return {
    fetch: fetchImpl,
    get online() {
      return online;
    },
    goOffline() {
      online = false;
      for (const c of inFlight) c.abort(new TypeError('network is down'));
      inFlight.clear();
    },
    goOnline() {
      online = true;
    },
  };
}
