// The `npm start` demo's docs page in Chromium: Scalar renders the demo's API from the app's own
// script and document, under the page's strict CSP (no violation: script-src 'self', plus
// 'wasm-unsafe-eval' for the WebAssembly Scalar compiles), with no request leaving the app's
// origin: it works offline.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, launchChromium, type StartedApp, startApp } from "./support.js";

let app: StartedApp;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  app = await startApp(await freePort());
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

describe("the demo's docs page in Chromium", () => {
  it("renders the API under script-src 'self', nothing fetched from another origin", async () => {
    const page = await browser.context.newPage();
    const origin = new URL(app.url).origin;
    const elsewhere: Array<string> = [];
    const violations: Array<string> = [];
    const errors: Array<string> = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.protocol !== "blob:" && url.origin !== origin) {
        elsewhere.push(request.url());
      }
    });
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      // The browser asks for /favicon.ico by itself; the app has none.
      else if (message.type() === "error" && !/status of 404/.test(message.text())) {
        errors.push(message.text());
      }
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`Content Security Policy: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });

    const response = await page.goto(`${app.url}/docs`);
    expect(response?.status()).toBe(200);
    // Scalar fetched /openapi.json and rendered the operations.
    await page.getByText("Strata social login demo").first().waitFor({ timeout: 30_000 });
    // The operations render after the title: each is waited for, not counted at once.
    for (const text of ["Start signing in with a provider", "Complete signing in", "OAS 3.1.0"]) {
      await page.getByText(text).first().waitFor({ timeout: 15_000 });
      expect(await page.getByText(text).count()).toBeGreaterThan(0);
    }
    // Blocked, and expected: a bundled library's feature test (`new Function("")` in a
    // try/catch) that falls back when eval is refused. Nothing else may be refused.
    expect(violations.filter((v) => v !== "Content Security Policy: script-src eval")).toEqual([]);
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  }, 60_000);
});
