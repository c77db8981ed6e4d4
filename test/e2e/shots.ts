/**
 * Screenshots of end-to-end states for a person to look at: when `DK_SHOTS` names a folder, {@link shot} saves the
 * page there as `<name>.png`; otherwise it does nothing (the tests never depend on it).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** Saves a full-page screenshot of `page` as `<DK_SHOTS>/<name>.png` when `DK_SHOTS` is set. */
export async function shot(page: Page, name: string): Promise<void> {
  const folder = process.env.DK_SHOTS;
  if (!folder) return;
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`), fullPage: true });
}

/** The looks every new state is checked in: light and dark, left to right and right to left, at 390 and 1280 px. */
export const LOOKS = [
  { name: 'light-390', colorScheme: 'light', rtl: false, width: 390 },
  { name: 'dark-390', colorScheme: 'dark', rtl: false, width: 390 },
  { name: 'rtl-light-390', colorScheme: 'light', rtl: true, width: 390 },
  { name: 'light-1280', colorScheme: 'light', rtl: false, width: 1280 },
  { name: 'rtl-dark-1280', colorScheme: 'dark', rtl: true, width: 1280 },
] as const;

/**
 * Shows the state `page` is in in each of {@link LOOKS} (colour scheme emulated, viewport resized, `dir="rtl"` and
 * `lang="ar"` set on the root for right to left) and calls `check` in each, named `<state>-<look>`; restores left to
 * right, light and the first look's size after.
 */
export async function inEveryLook(page: Page, state: string, check: (name: string) => Promise<void>): Promise<void> {
  const root = await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]);
  for (const look of LOOKS) {
    await page.emulateMedia({ colorScheme: look.colorScheme });
    await page.setViewportSize({ width: look.width, height: 900 });
    await page.evaluate(
      ([rtl, lang, dir]) => {
        document.documentElement.lang = rtl ? 'ar' : lang!;
        document.documentElement.dir = rtl ? 'rtl' : dir!;
      },
      [look.rtl, root[0], root[1]] as const,
    );
    const name = `${state}-${look.name}`;
    await shot(page, name);
    await check(name);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: LOOKS[0].width, height: 900 });
  await page.evaluate(([lang, dir]) => {
    document.documentElement.lang = lang!;
    document.documentElement.dir = dir!;
  }, root);
}
