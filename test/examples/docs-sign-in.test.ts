// The sign-in samples of the README and of docs/devidp.md, run as a reader runs them: the
// section's TypeScript block written to a file (its port 3000 replaced by a free one) and run
// with node on the sources, then the URL the section tells the reader to open followed over
// real HTTP with a cookie jar, through the development identity provider's page, to the end
// of the loop, which must answer.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { CookieJar } from "../support/cookieJar.js";
import { freePort } from "../support/freePort.js";
import { pickUser, type RunningScript, runScript } from "./runScript.js";

const ROOT = new URL("../../", import.meta.url).pathname;
/** Git-ignored, inside the package, so `effect-strata` resolves to the sources. */
const OUT = "test-artifacts/doc-samples";

const runs: Array<RunningScript> = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.stop()));
});

/** The text of the section of `file` under `heading` (to the next heading of any level). */
const section = (file: string, heading: string): string => {
  const text = readFileSync(`${ROOT}${file}`, "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  expect(start, `${file} has no "${heading}"`).toBeGreaterThanOrEqual(0);
  const rest = text.slice(start + heading.length + 2);
  const next = rest.search(/^#{1,6} /m);
  return next < 0 ? rest : rest.slice(0, next);
};

/** The section's one TypeScript block, and the sign-in URL its prose tells the reader to open. */
const sampleOf = (file: string, heading: string) => {
  const text = section(file, heading);
  const blocks = [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? "");
  expect(blocks).toHaveLength(1);
  const open = /Open\s+(http:\/\/localhost:3000\/auth\/github\S*?)[,\s]/.exec(text)?.[1];
  expect(open, `${file} "${heading}" names no URL to open`).toBeDefined();
  return { code: blocks[0] ?? "", open: open ?? "" };
};

/** Writes the sample with `port` for 3000 and runs it; returns it and the URL to open. */
const runSample = async (file: string, heading: string, name: string) => {
  const { code, open } = sampleOf(file, heading);
  const port = await freePort();
  mkdirSync(`${ROOT}${OUT}`, { recursive: true });
  writeFileSync(`${ROOT}${OUT}/${name}.ts`, code.replaceAll("3000", String(port)));
  const run = await runScript(`${OUT}/${name}.ts`, port);
  runs.push(run);
  return { run, open: new URL(open.replace("3000", String(port))) };
};

const samples = [
  ["README.md", "## Social login with a session, and a protected route", "readme-sign-in"],
  ["docs/devidp.md", "## Effect face: a Layer", "devidp-effect"],
] as const;

describe("the docs' sign-in samples, run as written", () => {
  for (const [file, heading, name] of samples) {
    it(`${file} "${heading.slice(3)}": the URL to open ends, signed in, on a page that answers the user`, async () => {
      const { run, open } = await runSample(file, heading, name);
      const jar = new CookieJar(run.url);
      expect((await jar.fetch("GET", "/me")).status).toBe(401);

      const started = await jar.fetch("GET", open.pathname + open.search);
      expect(started.status).toBe(302);
      const callback = await pickUser(new URL(started.headers.get("location") ?? ""), "ada");
      expect(`${callback.origin}${callback.pathname}`).toBe(`${run.url}/auth/github/callback`);

      // Follow every redirect to the end of the loop: it must answer 200, with the user.
      let answer = await jar.fetch("GET", callback.pathname + callback.search);
      const path: Array<string> = [];
      while (answer.status >= 300 && answer.status < 400) {
        const next = new URL(answer.headers.get("location") ?? "", run.url);
        expect(next.origin).toBe(run.url);
        path.push(next.pathname);
        answer = await jar.fetch("GET", next.pathname + next.search);
      }
      expect(path).toEqual(["/me"]);
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        id: expect.stringMatching(/^github:/),
        provider: "github",
        name: "Ada Lovelace",
        email: "ada@example.com",
      });
      // The session is an HttpOnly cookie, never in the answer; no token reaches the page.
      const session = jar.get("strata_session") ?? "";
      expect(session.length).toBeGreaterThan(20);
      expect(answer.text).not.toContain(session);
      expect(answer.text).not.toMatch(/access_token|refresh_token|id_token|code_verifier/);
      expect(jar.received.find((c) => c.startsWith("strata_session="))).toMatch(/; HttpOnly;/);
    }, 60_000);
  }
});
