// What the browser suite needs around the browser: the `npm start` app as a child process on
// a free port, and Chromium launched by playwright-core with a fresh profile.
import { type ChildProcess, spawn } from "node:child_process";
import { access, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium } from "playwright-core";

/** Debian's Chromium (`scripts/install-chromium.sh`); playwright-core never downloads one. */
export const CHROMIUM = "/usr/bin/chromium";

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The `npm start` app, running. */
export interface StartedApp {
  readonly url: string;
  /** Everything it printed. */
  readonly output: () => string;
  readonly stop: () => Promise<void>;
}

/**
 * Runs `npm start` on `port` with no provider configured (every provider then uses the
 * development identity provider), plus `extra` variables (`SESSION_STORE`, say), and waits for
 * its start line.
 */
export const startApp = async (
  port: number,
  extra: Readonly<Record<string, string>> = {},
): Promise<StartedApp> => {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  for (const name of Object.keys(env)) {
    if (/_CLIENT_(ID|SECRET)$|^OAUTH_REDIRECT_URI$|^SESSION_/.test(name)) delete env[name];
  }
  delete env.NODE_ENV;
  Object.assign(env, extra);
  const child: ChildProcess = spawn("npm", ["start", "--silent"], {
    env,
    detached: true, // its own process group, so npm and node stop together
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = `http://localhost:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no start line:\n${output}`)),
      30_000,
    );
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`open ${url}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.pid === undefined) return resolve();
        child.once("exit", () => resolve());
        process.kill(-child.pid, "SIGTERM");
      }),
  };
};

/** Chromium, headless, on a fresh temporary profile; fails when it cannot be launched. */
export const launchChromium = async (): Promise<{
  readonly context: BrowserContext;
  readonly close: () => Promise<void>;
}> => {
  await access(CHROMIUM).catch(() => {
    throw new Error(`${CHROMIUM} is missing: run scripts/install-chromium.sh`);
  });
  const profile = await mkdtemp(join(tmpdir(), "strata-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 900, height: 760 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
};

export { freePort } from "../support/freePort.js";
