/**
 * Render timings of the heavy screens, read by the end-to-end suite
 * (`globalThis.__opsPerf`) and shown nowhere. Costs two performance.now() calls.
 */
export interface RenderTiming {
  /** React render and commit of the screen with its data in memory, ms. */
  renderMs: number;
  /** From the navigation (click) to the committed screen, local queries included, ms. */
  sinceNavigationMs: number | null;
  /** What was rendered, e.g. aircraft and items. */
  size: Record<string, number>;
}

interface PerfStore {
  navigatedAt: Record<string, number>;
  renders: Record<string, RenderTiming>;
}

const store: PerfStore = { navigatedAt: {}, renders: {} };
(globalThis as { __opsPerf?: PerfStore }).__opsPerf = store;

export function markNavigation(screen: string): void {
  store.navigatedAt[screen] = performance.now();
}

export function reportRender(screen: string, renderStart: number, size: Record<string, number>): void {
  const end = performance.now();
  const nav = store.navigatedAt[screen];
  store.renders[screen] = {
    renderMs: end - renderStart,
    sinceNavigationMs: nav === undefined ? null : end - nav,
    size,
  };
  delete store.navigatedAt[screen];
}

/**
 * A step of the way from the sign-in to the first sync (`ops:<step>` in the
 * page's performance timeline): bench:device prints them from the submit.
 */
export function markStartup(step: 'signed-in' | 'workspace-code' | 'database-open' | 'sync-started'): void {
  performance.mark(`ops:${step}`);
}
