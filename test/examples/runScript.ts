// Runs a TypeScript entry point as the `npm run example:*` scripts do (a child node process on
// the sources), and plays the development identity provider's sign-in page, for the tests that
// sign in to an example or a docs sample over real HTTP.
import { spawn } from "node:child_process";
import { expect } from "vitest";

const ROOT = new URL("../../", import.meta.url).pathname;

/** Environment variables a run never inherits: provider, OAuth and session settings. */
const NOT_INHERITED = /_CLIENT_(ID|SECRET)$|_REDIRECT_URI$|^OAUTH_|^SESSION_|^NODE_ENV$|^PORT$/;

/** A script running (or already exited). */
export interface RunningScript {
  /** `http://localhost:<port>`. */
  readonly url: string;
  /** Everything it printed so far. */
  readonly output: () => string;
  /** Its exit code, once it has exited. */
  readonly exited: Promise<number | null>;
  /** Stops it (SIGTERM) and waits for its exit. */
  readonly stop: () => Promise<number | null>;
}

/**
 * Runs `file` (relative to the repository) with `env` on top of this process's environment
 * minus {@link NOT_INHERITED}; resolves once `http://localhost:<port>/` answers anything, or
 * once the script exited.
 */
export const runScript = async (
  file: string,
  port: number,
  env: Readonly<Record<string, string>> = {},
): Promise<RunningScript> => {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !NOT_INHERITED.test(name)),
  );
  const child = spawn(
    process.execPath,
    ["--conditions=strata-source", "--import", "./scripts/register.mjs", file],
    { cwd: ROOT, env: { ...inherited, PORT: String(port), ...env }, stdio: "pipe" },
  );
  let output = "";
  const read = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout.on("data", read);
  child.stderr.on("data", read);
  let done = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => {
      done = true;
      resolve(code);
    }),
  );
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 30_000;
  while (!done) {
    const answered = await fetch(`${url}/`, { redirect: "manual" }).then(
      () => true,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${file} did not answer on ${url}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    output: () => output,
    exited,
    stop: () => {
      if (!done) child.kill("SIGTERM");
      return exited;
    },
  };
};

/**
 * Answers the development identity provider's sign-in page at `authorization` as `user`
 * (`ada`, `grace`, `alan`); returns where it sends the browser back (the app's callback).
 */
export const pickUser = async (authorization: URL, user: string): Promise<URL> => {
  const page = await fetch(authorization, { redirect: "manual" });
  expect(page.status).toBe(200);
  const requestId = /name="request" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
  const posted = await fetch(authorization.origin + authorization.pathname, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: requestId, user }).toString(),
  });
  expect(posted.status).toBe(303);
  return new URL(posted.headers.get("location") ?? "");
};
