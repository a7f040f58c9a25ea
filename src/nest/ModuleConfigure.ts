import type { DynamicModule, ModuleOptions } from "../decorators/Module.js";
import { MetadataKey, readMetadata } from "../decorators/metadata.js";
import { StartupError } from "../di/StartupError.js";
import { isForwardReference } from "./forwardRef.js";

/** A module class or a dynamic module, with its `forwardRef` resolved. */
const moduleClassAndOptions = (
  entry: unknown,
): { readonly cls: Function; readonly options: ModuleOptions } | undefined => {
  const resolved: unknown = isForwardReference(entry) ? entry.forwardRef() : entry;
  if (typeof resolved === "function") {
    const options = readMetadata<ModuleOptions>(MetadataKey.module, resolved);
    return options === undefined ? undefined : { cls: resolved, options };
  }
  if (typeof resolved === "object" && resolved !== null && "module" in resolved) {
    const dynamic = resolved as DynamicModule;
    const own = readMetadata<ModuleOptions>(MetadataKey.module, dynamic.module) ?? {};
    return {
      cls: dynamic.module,
      options: { imports: [...(own.imports ?? []), ...(dynamic.imports ?? [])] },
    };
  }
  return undefined;
};

/**
 * Refuses, at startup, a module with NestJS's `configure(consumer)`: Strata does not call it
 * (NestJS's `MiddlewareConsumer` is not implemented), and a module whose middleware silently
 * never runs is worse than an app that does not start. The error names the module and says what
 * to use instead.
 */
export const refuseModuleConfigure = (root: unknown): void => {
  const seen = new Set<Function>();
  const visit = (entry: unknown): void => {
    const found = moduleClassAndOptions(entry);
    if (found === undefined || seen.has(found.cls)) return;
    seen.add(found.cls);
    if (typeof (found.cls.prototype as { configure?: unknown }).configure === "function") {
      throw new StartupError({
        message: `${found.cls.name}.configure(consumer) would never be called: NestJS's MiddlewareConsumer is not supported. Register the middleware on the app instead, app.use("/cats", CatsMiddleware) (a StrataMiddleware's use(context, next), or an Effect HttpMiddleware), and remove configure().`,
      });
    }
    for (const child of found.options.imports ?? []) visit(child);
  };
  visit(root);
};
