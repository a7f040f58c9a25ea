import * as Effect from "effect/Effect";
import type { ParamMetadata } from "../decorators/Params.js";
import { StartupError } from "../di/StartupError.js";
import type { EnhancerRef } from "../pipeline/internal/enhancers.js";
import { isSchema } from "../pipeline/internal/schemaValidator.js";
import type { ArgumentMetadata, PipeTransform } from "../pipeline/PipeTransform.js";
import { isPlainType, ValidationPipe } from "../pipes/ValidationPipe.js";
import type { ParamScan, RouteScan } from "./ControllerScan.js";
import type { CompiledParam } from "./RoutePlan.js";

type PipeRefs = ReadonlyArray<EnhancerRef<PipeTransform>>;

/** A `ValidationPipe` validating each argument against its declared DTO (no schema of its own). */
const validatesDeclaredType = (ref: EnhancerRef<PipeTransform>): boolean =>
  ref._tag === "Instance" &&
  ref.instance instanceof ValidationPipe &&
  ref.instance.options.schema === undefined &&
  ref.instance.options.expectedType === undefined;

/** The arguments global, controller and method pipes run on (NestJS's "pipeable" ones). */
const pipeable = new Set<ParamMetadata["source"]>([
  "body",
  "query",
  "param",
  "file",
  "files",
  "custom",
]);

/** The arguments whose declared type says what they must be (a DTO validates them). */
const declaredBySource = new Set<ParamMetadata["source"]>(["body", "query", "param"]);

/** What a pipe is told an argument's `type` is: NestJS's names, and Strata's for uploads. */
const argumentType = (source: ParamMetadata["source"]): ArgumentMetadata["type"] =>
  source === "body" ||
  source === "query" ||
  source === "param" ||
  source === "file" ||
  source === "files"
    ? source
    : "custom";

/** A parameter's TypeScript type that names a DTO: a class, not a primitive's wrapper or `Object`. */
const isDtoClass = (type: unknown): boolean => typeof type === "function" && !isPlainType(type);

/** A handler parameter with what its pipes are told about it (NestJS's `ArgumentMetadata`). */
export const compileParam = (param: ParamScan): CompiledParam => ({
  meta: param,
  argument: {
    type: argumentType(param.source),
    data: (param.source === "custom" ? param.data : param.name) as string | undefined,
    metatype: param.metatype,
  },
  dtoType: param.dtoType ?? (isDtoClass(param.designType) ? param.designType : undefined),
});

const noDesignTypes = (route: RouteScan, param: ParamScan): StartupError =>
  new StartupError({
    message: `${route.where} has no parameter type metadata ("design:paramtypes"), so the ValidationPipe of its parameter #${param.index} cannot see the type it is declared with. esbuild (the default transform of vitest, Vite and tsx) never emits it: compile with tsc or swc and "emitDecoratorMetadata" (under vitest, the unplugin-swc plugin: see "Decorator metadata under vitest" in docs/testing.md), or give the DTO or Schema to the decorator (@Body(CreateCatDto)).`,
  });

/**
 * The pipes one argument runs, in order: for a pipeable one, those `bound` to the route (global,
 * controller, method) then its own, with one `ValidationPipe` of the declared type at most (the
 * last), or `validation` when it is declared with a Schema and none is bound; its own alone
 * otherwise. Fails when a `ValidationPipe` cannot validate it (no type to validate against).
 */
export const paramPipes = (
  route: RouteScan,
  param: CompiledParam,
  own: PipeRefs,
  bound: PipeRefs,
  validation: ValidationPipe,
): Effect.Effect<PipeRefs, StartupError> => {
  const { meta, argument } = param;
  if (!pipeable.has(meta.source)) return Effect.succeed(own);
  const chain = [...bound, ...own];
  const last = chain.findLastIndex(validatesDeclaredType);
  const declared = meta.dtoType !== undefined || declaredBySource.has(meta.source);
  let pipes: PipeRefs = chain;
  if (last !== -1) {
    pipes = chain.filter((ref, i) => i === last || !validatesDeclaredType(ref));
  } else if (declared && isSchema(meta.metatype)) {
    pipes = [...bound, { _tag: "Instance", instance: validation }, ...own];
  }
  if (
    last !== -1 &&
    !route.hasDesignTypes &&
    meta.dtoType === undefined &&
    declaredBySource.has(meta.source)
  ) {
    return Effect.fail(noDesignTypes(route, meta));
  }
  for (const ref of pipes) {
    if (ref._tag !== "Instance" || !(ref.instance instanceof ValidationPipe)) continue;
    const problem = ref.instance.prepare(argument);
    if (problem !== undefined) {
      return Effect.fail(
        new StartupError({
          message: `${route.where}: the ValidationPipe of parameter #${meta.index} cannot validate it: ${problem}`,
        }),
      );
    }
  }
  return Effect.succeed(pipes);
};
