import * as Effect from "effect/Effect";
import * as LogLevel from "effect/LogLevel";

/** NestJS's log levels. @since 0.1.0 @category logging */
export type NestLogLevel = "log" | "error" | "warn" | "debug" | "verbose" | "fatal";

/**
 * What `Logger.overrideLogger` accepts as a replacement: NestJS's `LoggerService`.
 *
 * @since 0.1.0
 * @category logging
 */
export interface LoggerService {
  /** An informational message. */
  log(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
  /** An error: `error(message, stack?, context?)`. */
  error(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
  /** A warning. */
  warn(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
  /** A debug message. */
  debug?(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
  /** A verbose message. */
  verbose?(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
  /** A fatal error. */
  fatal?(message: unknown, ...optionalParams: ReadonlyArray<unknown>): unknown;
}

const effectLevel: Record<NestLogLevel, LogLevel.LogLevel> = {
  log: LogLevel.Info,
  error: LogLevel.Error,
  warn: LogLevel.Warning,
  debug: LogLevel.Debug,
  verbose: LogLevel.Trace,
  fatal: LogLevel.Fatal,
};

/** Where messages go: Effect's logger (default), a replacement, or nowhere but some levels. */
let override: LoggerService | undefined;
let enabled: ReadonlySet<NestLogLevel> | undefined;

/** The message, the context (a last string parameter overrides the logger's) and the rest. */
const split = (
  level: NestLogLevel,
  params: ReadonlyArray<unknown>,
  context: string | undefined,
): { readonly rest: ReadonlyArray<unknown>; readonly context: string | undefined } => {
  const last = params.at(-1);
  // `error(message, stack)` keeps a lone string as the stack, as NestJS does.
  if (typeof last === "string" && !(level === "error" && params.length === 1)) {
    return { rest: params.slice(0, -1), context: last };
  }
  return { rest: params, context };
};

const write = (
  level: NestLogLevel,
  message: unknown,
  params: ReadonlyArray<unknown>,
  context: string | undefined,
): void => {
  if (enabled !== undefined && !enabled.has(level)) return;
  if (override !== undefined) {
    const method = override[level] ?? override.log;
    method.call(override, message, ...params, ...(context === undefined ? [] : [context]));
    return;
  }
  const { rest, context: resolved } = split(level, params, context);
  const log = Effect.logWithLevel(effectLevel[level], message, ...rest);
  Effect.runSync(resolved === undefined ? log : Effect.annotateLogs(log, { context: resolved }));
};

/**
 * NestJS's `Logger`: `new Logger(CatsService.name).log("found", id)`, or the static
 * `Logger.log(...)`. Messages go through Effect's logger (the `context` as a log annotation), so
 * they look like the app's other logs; `verbose` is Effect's `Trace` and `debug` its `Debug`,
 * both hidden at Effect's default minimum level (`Info`). `Logger.overrideLogger(...)` replaces
 * where they go, or keeps only some levels.
 *
 * @since 0.1.0
 * @category logging
 */
export class Logger implements LoggerService {
  constructor(
    /** Annotated as `context` on every message of this logger. */
    readonly context?: string,
  ) {}

  /** Replaces where every `Logger` writes (a `LoggerService`), keeps only some levels, or silences all (`false`). */
  static overrideLogger(logger: LoggerService | ReadonlyArray<NestLogLevel> | boolean): void {
    if (logger === false) {
      enabled = new Set();
    } else if (logger === true) {
      enabled = undefined;
      override = undefined;
    } else if (Array.isArray(logger)) {
      enabled = new Set(logger as ReadonlyArray<NestLogLevel>);
    } else {
      override = logger as LoggerService;
      enabled = undefined;
    }
  }

  /** Logs an informational message through the global logger (no context). */
  static log(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("log", message, optionalParams, undefined);
  }
  /** Logs an error through the global logger: `error(message, stack?, context?)`. */
  static error(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("error", message, optionalParams, undefined);
  }
  /** Logs a warning through the global logger. */
  static warn(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("warn", message, optionalParams, undefined);
  }
  /** Logs a debug message through the global logger (Effect's `Debug`). */
  static debug(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("debug", message, optionalParams, undefined);
  }
  /** Logs a verbose message through the global logger (Effect's `Trace`). */
  static verbose(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("verbose", message, optionalParams, undefined);
  }
  /** Logs a fatal error through the global logger. */
  static fatal(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("fatal", message, optionalParams, undefined);
  }

  /** An informational message. */
  log(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("log", message, optionalParams, this.context);
  }
  /** An error: `error(message, stack?, context?)`. */
  error(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("error", message, optionalParams, this.context);
  }
  /** A warning. */
  warn(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("warn", message, optionalParams, this.context);
  }
  /** A debug message (Effect's `Debug`). */
  debug(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("debug", message, optionalParams, this.context);
  }
  /** A verbose message (Effect's `Trace`). */
  verbose(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("verbose", message, optionalParams, this.context);
  }
  /** A fatal error. */
  fatal(message: unknown, ...optionalParams: ReadonlyArray<unknown>): void {
    write("fatal", message, optionalParams, this.context);
  }
}
