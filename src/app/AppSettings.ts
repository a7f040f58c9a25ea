import type { PipelineOptions } from "../compiler/AppRoutes.js";
import { type BodyType, DEFAULT_BODY_LIMIT } from "../http/RequestBody.js";
import { type BodyParserOptions, bodyParserLimit } from "./BodyParserOptions.js";
import type { GlobalPrefixOptions } from "./GlobalPrefix.js";
import type { StrataAppOptions } from "./StrataAppOptions.js";

/** The app-wide enhancers `useGlobalGuards(...)` and the like add to. */
type GlobalEnhancers = "globalGuards" | "globalPipes" | "globalInterceptors" | "globalFilters";

/**
 * The options of a `StrataApp`: those it was made with, and what its configuration methods
 * (`useGlobalGuards`, `setGlobalPrefix`, `useBodyParser`, ...) added. Each change is checked
 * against `state` (whether the routes are compiled, the providers built, the server listening)
 * and refused, saying why, once it could no longer take effect.
 */
export class AppSettings {
  private pipeline: PipelineOptions = {};
  private extraOptions: StrataAppOptions = {};

  constructor(
    private readonly options: StrataAppOptions,
    private readonly state: {
      readonly prepared: () => boolean;
      readonly providersBuilt: () => boolean;
      readonly listening: () => boolean;
    },
  ) {}

  /** The options with what `useGlobalGuards(...)` and the like added. */
  get current(): StrataAppOptions {
    return { ...this.options, ...this.extraOptions, ...this.pipeline };
  }

  /** `addOptions`: more options, before the routes are compiled (`providerOverrides` before the providers are built). */
  add(options: StrataAppOptions): void {
    if (this.state.prepared()) {
      throw new Error("Configure the app before init() or listen()");
    }
    if ((options.providerOverrides ?? []).length > 0 && this.state.providersBuilt()) {
      throw new Error(
        "providerOverrides cannot change once the providers are built: use overrideProvider() before compile()",
      );
    }
    this.extraOptions = { ...this.extraOptions, ...options };
  }

  /** Global guards, pipes, interceptors, filters or versioning, before the routes are compiled. */
  configurePipeline(options: PipelineOptions): void {
    if (this.state.prepared()) {
      throw new Error("Configure the request pipeline before init() or listen()");
    }
    this.pipeline = { ...this.pipeline, ...options };
  }

  /** Adds `items` to the global guards, pipes, interceptors or filters, before the routes are compiled. */
  addToPipeline<K extends GlobalEnhancers>(key: K, items: NonNullable<PipelineOptions[K]>): void {
    const current = (this.current[key] ?? []) as NonNullable<PipelineOptions[K]>;
    this.configurePipeline({ [key]: [...current, ...items] });
  }

  /** `enableShutdownHooks(signals)`, before the server listens. */
  setShutdownSignals(signals: ReadonlyArray<NodeJS.Signals>): void {
    if (this.state.listening()) throw new Error("Call enableShutdownHooks() before listen()");
    this.extraOptions = {
      ...this.extraOptions,
      shutdown: { ...this.options.shutdown, ...this.extraOptions.shutdown, signals },
    };
  }

  /** `setGlobalPrefix(prefix, options)`, before the routes are compiled. */
  setGlobalPrefix(prefix: string, options: Omit<GlobalPrefixOptions, "prefix"> | undefined): void {
    if (this.state.prepared()) {
      throw new Error("Call setGlobalPrefix() before init() or listen()");
    }
    this.extraOptions = { ...this.extraOptions, globalPrefix: { ...options, prefix } };
  }

  /** `useBodyParser(type, options)`: one type's body limit, before the routes are compiled. */
  setBodyParser(type: BodyType, options: BodyParserOptions): void {
    if (this.state.prepared()) {
      throw new Error("Call useBodyParser() before init() or listen()");
    }
    const current = this.current;
    const limit = bodyParserLimit(type, options, current.bodyLimit ?? DEFAULT_BODY_LIMIT);
    const bodyLimits = { ...current.bodyLimits, [type]: limit };
    this.extraOptions = { ...this.extraOptions, bodyLimits };
  }
}
