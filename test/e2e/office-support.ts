/**
 * Shared steps of the office e2e files (test/e2e/office-*.test.ts): opening a
 * screen from the navigation and the axe-core accessibility check.
 */
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

/** Opens a screen from the side navigation and waits for its root. */
export async function openScreen(page: Page, label: string, testId: string): Promise<void> {
  await page.click(`nav[aria-label="Screens"] button:text-is("${label}")`);
  await page.waitForSelector(`[data-testid=${testId}]`);
}

interface AxeResult {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }>;
}

/**
 * Runs axe-core (WCAG 2 A and AA rules) on the page as it is and fails on
 * serious or critical violations, naming them. Answers the count of the minor ones.
 */
export async function checkAccessibility(page: Page, what: string): Promise<number> {
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.addScriptTag({ path: AXE });
  const result = (await page.evaluate(
    `window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })`,
  )) as AxeResult;
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const describe = bad.map(
    (v) =>
      `${v.impact} ${v.id}: ${v.help} at ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );
  expect(describe, `axe on ${what}`).toEqual([]);
  return result.violations.length - bad.length;
}
