/**
 * E2e global setup: builds the renderer the test servers serve at /app/ once per run, before any file
 * starts (a build is ~9 s of two cores; every file used to make its own).
 */
import { buildRenderer } from './support.ts';

export default function setup(): void {
  buildRenderer();
}
