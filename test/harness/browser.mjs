// Headless Debian Chromium through playwright-core (no browser download: executablePath is the system one).
import { chromium } from 'playwright-core';
import { chromiumBin } from './paths.mjs';

export const chromiumFlags = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
]);

/** Launches Chromium and opens one page. Returns { browser, context, page, close() }. */
export async function launchBrowser({ viewport = { width: 1440, height: 900 }, headless = !process.env.SWITCHBOARD_HEADED } = {}) {
  const browser = await chromium.launch({ executablePath: chromiumBin, headless, args: [...chromiumFlags] });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const close = async () => {
    try {
      await browser.close();
    } catch {
      // already closed
    }
  };
  return { browser, context, page, version: browser.version(), close };
}
