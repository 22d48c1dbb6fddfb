/** Helpers for the specs on pending counts: hold a request until the test lets it through, record what a count shows. */
import type { Locator, Page } from "@playwright/test";

/** A held request: `held` settles when the first one reached the route, `release` lets them all through. */
export type Gate = { held: Promise<void>; release: () => void; done: () => Promise<void> };

/**
 * Holds every `op` request whose body `matches` until `release()`; `held` settles when the first
 * one reached the route, so a test awaits the request, not a delay. Other requests go on as usual.
 */
export async function hold(page: Page, op: string, matches: (body: Record<string, unknown>) => boolean): Promise<Gate> {
  let arrived!: () => void;
  let release!: () => void;
  const held = new Promise<void>((r) => (arrived = r));
  const gate = new Promise<void>((r) => (release = r));
  const url = `**/api/${op}`;
  await page.route(url, async (route) => {
    if (!matches(route.request().postDataJSON() as Record<string, unknown>)) return route.fallback();
    arrived();
    await gate;
    return route.fallback();
  });
  return { held, release, done: () => page.unroute(url) };
}

/**
 * Records every text the element under `testId` shows from now on (a MutationObserver in the
 * page), so a number shown for a moment between two awaits is caught too.
 */
export async function recordTexts(page: Page, testId: string): Promise<() => Promise<string[]>> {
  await page.evaluate((id) => {
    const seen: string[] = [];
    const read = () => {
      const t = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "(absent)";
      if (seen[seen.length - 1] !== t) seen.push(t);
    };
    read();
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
    (window as unknown as { __seen: string[] }).__seen = seen;
  }, testId);
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

/** One moment on screen: what the filter box held and what the count beside it read. */
export type Beside = { typed: string; count: string };

/**
 * Records what `input` holds beside what the count under `testId` shows, at every DOM change and
 * at every frame before it is painted (a typed value changes no node the observer sees, and the
 * debounce pause changes nothing at all: only the frames show it). The returned call stops
 * recording and gives the distinct pairs in order.
 */
export async function recordBeside(input: Locator, testId: string): Promise<() => Promise<Beside[]>> {
  await input.evaluate((el, id) => {
    const seen: { typed: string; count: string }[] = [];
    const read = () => {
      const typed = (el as HTMLInputElement).value;
      const count = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? "(absent)";
      const last = seen[seen.length - 1];
      if (last?.typed !== typed || last.count !== count) seen.push({ typed, count });
    };
    read();
    const observer = new MutationObserver(read);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    let on = true;
    const frame = () => {
      read();
      if (on) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    (window as unknown as { __beside: () => Beside[] }).__beside = () => {
      on = false;
      observer.disconnect();
      read();
      return seen;
    };
  }, testId);
  return () => input.page().evaluate(() => (window as unknown as { __beside: () => Beside[] }).__beside());
}
