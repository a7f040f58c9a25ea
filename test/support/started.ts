import * as HashMap from "effect/HashMap";
import * as Logger from "effect/Logger";
import { afterEach } from "vitest";
import { type RootModule, StrataApp, type StrataAppOptions } from "../../src/index.js";

/**
 * Starts apps inside tests (listening on a free loopback port, configured before they listen)
 * and closes every one of them after each test.
 */
export const startedApps = () => {
  const apps: Array<StrataApp> = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });
  return async (
    module: RootModule,
    options: StrataAppOptions = {},
    configure?: (app: StrataApp) => void,
  ): Promise<StrataApp> => {
    const app = new StrataApp(module, options);
    configure?.(app);
    apps.push(app);
    await app.listen(0, "127.0.0.1");
    return app;
  };
};

/** One log line as a test sees it. */
export interface LogLine {
  readonly level: string;
  readonly message: string;
  readonly annotations: Readonly<Record<string, unknown>>;
  /** Everything about the line, as text, for "never logged" assertions. */
  readonly text: string;
}

/** A logger that keeps every line, for an app's `logger` option. */
export const capturingLogger = () => {
  const lines: Array<LogLine> = [];
  const logger = Logger.make(({ logLevel, message, annotations, cause }) => {
    const text = Array.isArray(message) ? message.map(String).join(" ") : String(message);
    const record = Object.fromEntries(HashMap.toEntries(annotations));
    lines.push({
      level: logLevel.label,
      message: text,
      annotations: record,
      text: `${text} ${JSON.stringify(record)} ${String(cause)}`,
    });
  });
  return { logger, lines };
};
