// Shared helpers: launch Debian's Chromium through playwright-core (no
// browser download), and talk to the server under test.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BASE = process.env.BASE_URL || 'http://127.0.0.1:8080';
const here = dirname(fileURLToPath(import.meta.url));
export const SHOTS = process.env.SCREENSHOT_DIR || join(here, '..', '..', 'target', 'screenshots');

/**
 * A fresh Chromium profile (its own user data dir, removed on close).
 * Playwright passes the profile as `--user-data-dir` itself.
 */
export async function launch({ viewport = { width: 1400, height: 860 }, ...options } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'carcassonne-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    viewport,
    ...options,
  });
  const close = async () => {
    await context.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  };
  return { context, close };
}

export async function shot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export async function api(path, init) {
  const resp = await fetch(BASE + path, init);
  return { status: resp.status, body: await resp.json().catch(() => null) };
}
