// Accessibility checks with axe-core (from npm), injected into the page.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { frameWithin, wake } from './lib.mjs';

const require = createRequire(import.meta.url);
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe-core (WCAG 2.x A and AA rules) on the page; fails with every violation listed. */
export async function checkA11y(page, what) {
  // Checked as it stands, not half-way through a fade: with reduced motion
  // (which the page honours) nothing moves; toasts are let go first.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.waitForFunction(() => !document.querySelector('.toast'), null, { timeout: 15_000 }).catch(() => {});
  // Two frames to settle; a page behind another may get none from headless Chromium (see `wake`).
  await wake(page);
  await frameWithin(page, 1000);
  await frameWithin(page, 1000);
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary}`) }));
  });
  await page.emulateMedia({ reducedMotion: null });
  assert.deepEqual(violations, [], `${what}: axe-core finds ${violations.length} violation(s):\n${JSON.stringify(violations, null, 1)}`);
}
