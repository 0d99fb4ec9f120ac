import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import axe from 'axe-core';
import { REPO_ROOT } from '@corridor/testing';
import { Secret, TOTP } from 'otpauth';
import puppeteer, { type Browser, type BrowserContext, type HTTPResponse, type Page } from 'puppeteer-core';

/**
 * A person at the dashboard in headless Chromium, as its suites meet it: every page opened is
 * checked for its status, no dialog, no script but the dashboard's own file, and axe-core finding
 * nothing of serious or critical impact; a full-page screenshot of each is saved as
 * .local/test-output/dashboard/<suite>/<name>.png.
 */

export const PASSWORD = 'correct horse battery 42';

/**
 * A suite's folder of screenshots, emptied of an earlier run's pages; each suite has its own, so
 * suites running side by side do not remove each other's.
 */
export async function screenshotFolder(suite: string): Promise<string> {
  const folder = `${REPO_ROOT}.local/test-output/dashboard/${suite}`;
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  return folder;
}

/** Headless Debian chromium, as the payer page's suites start it. */
export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: chromiumPath(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** Debian's chromium (npm test installs it when missing); puppeteer-core downloads no browser. */
function chromiumPath(): string {
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('no chromium on PATH: `apt-get install chromium` (deploy/local/test.sh does it for npm test)');
  }
}

const TOTP_PERIOD_MS = 30_000;
/** Per secret, the last time step a code was made for: identity accepts each step's code once. */
const lastStepOf = new Map<string, number>();

/**
 * A code of a secret the enrolment page showed (RFC 6238, SHA1, 6 digits, 30 s) that identity has not
 * accepted yet: identity takes the previous, current and next step's code but each step once (RFC
 * 6238 §5.2), so a second sign-in within 30 s types the next step's code, as a person would wait for
 * the next one. Waits for a new step only when all three are used.
 */
export async function codeOf(secret: string): Promise<string> {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  for (;;) {
    const current = Math.floor(Date.now() / TOTP_PERIOD_MS);
    const step = Math.max(current, (lastStepOf.get(secret) ?? -Infinity) + 1);
    if (step <= current + 1) {
      lastStepOf.set(secret, step);
      return totp.generate({ timestamp: step * TOTP_PERIOD_MS });
    }
    await new Promise((resolve) => setTimeout(resolve, (current + 1) * TOTP_PERIOD_MS - Date.now() + 50));
  }
}

/** An invitation link as identity writes it into a mail. */
export const INVITATION_LINK = /http:\/\/127\.0\.0\.1:\d+\/invitation\/[A-Za-z0-9_-]{16,200}/;

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown }[];
}

/** What postForm uses of the page's document (test/ compiles without the DOM's types). */
interface CraftedElement {
  setAttribute(name: string, value: string): void;
  append(child: CraftedElement): void;
  submit(): void;
}
interface CraftedDocument {
  createElement(tag: string): CraftedElement;
  body: CraftedElement;
}

/** A person at a browser of their own (cookies of their own), with what they saw checked at every page. */
export class Visitor {
  private readonly dialogs: string[] = [];

  private constructor(
    private readonly context: BrowserContext,
    readonly page: Page,
    readonly origin: string,
    private readonly screenshots: string,
  ) {
    page.on('dialog', (dialog) => {
      this.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  }

  static async open(browser: Browser, origin: string, screenshots: string): Promise<Visitor> {
    const context = await browser.createBrowserContext();
    return new Visitor(context, await context.newPage(), origin, screenshots);
  }

  /** Opens a path of the dashboard (or a whole URL) and checks the page; answers it. */
  async goto(path: string, name: string, status = 200): Promise<HTTPResponse | null> {
    const url = path.startsWith('http') ? path : `${this.origin}${path}`;
    return this.sees(name, await this.page.goto(url, { waitUntil: 'load' }), status);
  }

  /** Clicks what leads to another page (a link, a form's button) and checks where it lands. */
  click(selector: string, name: string, status = 200): Promise<HTTPResponse | null> {
    return this.navigates(() => this.page.click(selector), name, status);
  }

  /** Does what leads to another page and checks where it lands. */
  async navigates(action: () => Promise<unknown>, name: string, status = 200): Promise<HTTPResponse | null> {
    const [response] = await Promise.all([this.page.waitForNavigation({ waitUntil: 'load' }), action()]);
    return this.sees(name, response, status);
  }

  async reload(name: string, status = 200): Promise<HTTPResponse | null> {
    return this.sees(name, await this.page.reload({ waitUntil: 'load' }), status);
  }

  /** The checks of every page: status, nothing run but the dashboard's script, accessibility, a screenshot. */
  private async sees(name: string, response: HTTPResponse | null, status: number): Promise<HTTPResponse | null> {
    expect({ page: name, status: response?.status() }).toEqual({ page: name, status });
    expect({ page: name, dialogs: this.dialogs }).toEqual({ page: name, dialogs: [] });
    const scripts = await this.page.$$eval('script', (elements) => elements.map((script) => script.outerHTML));
    expect({ page: name, scripts }).toEqual({
      page: name,
      scripts: ['<script src="/assets/dashboard.js" defer=""></script>'],
    });
    await this.page.screenshot({ path: `${this.screenshots}/${name}.png`, fullPage: true });
    expect({ page: name, violations: await this.seriousViolations() }).toEqual({ page: name, violations: [] });
    return response;
  }

  /** axe-core's findings of serious or critical impact on the page as it is now. */
  private async seriousViolations(): Promise<string[]> {
    await this.page.evaluate(axe.source);
    const { violations, passes } = await this.page.evaluate(async () => {
      const { axe: injected } = globalThis as unknown as {
        axe: { run(): Promise<{ violations: Violation[]; passes: unknown[] }> };
      };
      const results = await injected.run();
      return { violations: results.violations, passes: results.passes.length };
    });
    // It did look at the page: landmarks, labels, contrast and the rest passed or failed, not nothing.
    expect(passes).toBeGreaterThan(10);
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
      );
  }

  path(): string {
    return new URL(this.page.url()).pathname;
  }

  /** What the page says, as read on screen. */
  text(): Promise<string> {
    return this.page.$eval('main', (main) => main.innerText);
  }

  heading(): Promise<string> {
    return this.page.$eval('h1', (h1) => h1.textContent ?? '');
  }

  /** The CSRF token the page's forms carry. */
  csrfToken(): Promise<string> {
    return this.page.$eval('input[name="csrf_token"]', (input) => (input as unknown as { value: string }).value);
  }

  /**
   * A form the page did not render, crafted in it and posted (the CSP refuses the page's own fetch):
   * what the dashboard answers a browser that sends exactly these fields.
   */
  postForm(path: string, fields: Record<string, string>, name: string, status: number): Promise<HTTPResponse | null> {
    const craft = (target: string, body: Record<string, string>) => {
      const { document } = globalThis as unknown as { document: CraftedDocument };
      const form = document.createElement('form');
      form.setAttribute('method', 'post');
      form.setAttribute('action', target);
      for (const [field, value] of Object.entries(body)) {
        const input = document.createElement('input');
        input.setAttribute('type', 'hidden');
        input.setAttribute('name', field);
        input.setAttribute('value', value);
        form.append(input);
      }
      document.body.append(form);
      form.submit();
    };
    return this.navigates(() => this.page.evaluate(craft, path, fields), name, status);
  }

  /** The session cookie's value in this browser (HttpOnly: read through the browser, not the page). */
  async sessionCookie(): Promise<string | undefined> {
    const cookies = await this.context.cookies();
    return cookies.find((cookie) => cookie.name === 'corridor_session')?.value;
  }

  async type(selector: string, text: string): Promise<void> {
    await this.page.type(selector, text);
  }

  /** Replaces what a field holds (a prefilled value too) with `text`, typed. */
  async fill(selector: string, text: string): Promise<void> {
    await this.page.$eval(selector, (input) => ((input as unknown as { value: string }).value = ''));
    await this.page.type(selector, text);
  }

  async close(): Promise<void> {
    await this.context.close();
  }
}
