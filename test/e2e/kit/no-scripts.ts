/**
 * Puppeteer's page methods made to work in a Firefox launched without JavaScript
 * (docs/qa-kit.md §7), for the kit's `openPage`.
 */
import type { ElementHandle, JSHandle, Page } from 'puppeteer-core';

/** An element handle's accessibility-tree search (WebDriver BiDi's `browsingContext.locateNodes`). */
interface AxSearch {
  queryAXTree(name?: string, role?: string): AsyncIterable<ElementHandle<Element>>;
}

/**
 * Makes `page.$`, `page.$$eval`, `page.click` and `page.waitForFunction` work in a Firefox
 * launched without JavaScript (docs/qa-kit.md §7). Puppeteer implements them with scripts that wait
 * inside the page (the `::-p-aria` query handler's callback into Node, the asynchronous iteration
 * of `$$`, an IntersectionObserver before a click, a polling loop for the wait); with JavaScript
 * off those callbacks never run, and the page hangs until Firefox closes it. Here
 * `::-p-aria(name[role="r"])` is looked up in the accessibility tree with WebDriver BiDi's
 * `locateNodes` alone, `$$eval` gets its elements from one `querySelectorAll`, a click scrolls the
 * element into view and clicks the centre of its box with the mouse, and a wait evaluates its
 * expression from Node every 50 ms.
 * @param page a page of a Firefox launched with `javaScript: false`
 */
export function withoutPageScripts(page: Page): void {
  const query = page.$.bind(page);
  page.$ = (async (selector: string) => {
    const aria = /^::-p-aria\((.*?)(?:\[role="([^"]+)"\])?\)$/.exec(selector);
    if (!aria) return query(selector);
    const root = (await query('html')) as unknown as AxSearch & ElementHandle;
    try {
      for await (const element of root.queryAXTree(aria[1] || undefined, aria[2])) return element;
      return null;
    } finally {
      await root.dispose();
    }
  }) as Page['$'];
  page.$$eval = (async (selector: string, pageFunction: (elements: Element[], ...args: unknown[]) => unknown, ...args: unknown[]) => {
    if (selector.startsWith('::-p-')) throw new Error(`With JavaScript off in Firefox, $$eval takes CSS selectors only, not ${selector}`);
    const elements = await page.evaluateHandle(`[...document.querySelectorAll(${JSON.stringify(selector)})]`);
    try {
      return await elements.evaluate(pageFunction as never, ...(args as never[]));
    } finally {
      await elements.dispose();
    }
  }) as Page['$$eval'];
  page.click = async (selector, options = {}) => {
    const element = await page.$(selector);
    if (!element) throw new Error(`No element found for selector: ${selector}`);
    await element.evaluate((e) => e.scrollIntoView({ block: 'center', inline: 'center' }));
    const box = await element.boundingBox();
    await element.dispose();
    if (!box) throw new Error(`${selector} is not visible: nothing to click`);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2, options);
  };
  page.waitForFunction = (async (expression: unknown, options: { timeout?: number } = {}): Promise<JSHandle> => {
    if (typeof expression !== 'string') throw new Error('With JavaScript off, waitForFunction takes an expression string');
    const timeout = options.timeout ?? 30_000;
    const started = Date.now();
    while (!(await page.evaluate(expression))) {
      if (Date.now() - started > timeout) throw new Error(`Waiting failed: ${timeout}ms exceeded (${expression})`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return page.evaluateHandle(expression);
  }) as Page['waitForFunction'];
}
