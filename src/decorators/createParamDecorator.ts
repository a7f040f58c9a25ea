import type * as Effect from "effect/Effect";
import type { ExecutionContext } from "../pipeline/ExecutionContext.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import { isPipe, recordParam } from "./Params.js";

/**
 * Computes a custom parameter's value from the decorator's argument (`data`) and the request
 * (`context.switchToHttp().getRequest()`); may return a value, a Promise or an Effect (awaited
 * before the argument's pipes run) or throw an `HttpError`.
 *
 * @since 0.1.0
 * @category decorators
 */
export type CustomParamFactory<Data = unknown, Output = unknown> = (
  data: Data,
  context: ExecutionContext,
) => Output | Promise<Output> | Effect.Effect<Output, unknown>;

/**
 * Makes a parameter decorator, as NestJS's `createParamDecorator` does: the decorator takes an
 * optional argument (handed to `factory` as `data`, and to pipes as `metadata.data`) then
 * pipes, e.g. `@User("email")` or `@User(new ValidationPipe({ validateCustomDecorators: true }))`.
 * Its pipes see `metadata.type === "custom"` and the parameter's TypeScript type as `metatype`;
 * global, controller and method pipes run on it too. `enhancers` are applied to the same
 * parameter (other decorators, such as an API description's).
 *
 * @example
 * export const User = createParamDecorator((data: string | undefined, ctx: ExecutionContext) => {
 *   const user = ctx.switchToHttp().getRequest().user;
 *   return data === undefined ? user : user?.[data as keyof typeof user];
 * });
 *
 * @since 0.1.0
 * @category decorators
 */
export const createParamDecorator =
  <Data = unknown, Output = unknown>(
    factory: CustomParamFactory<Data, Output>,
    enhancers: ReadonlyArray<ParameterDecorator> = [],
  ): ((...dataOrPipes: ReadonlyArray<Data | PipeLike>) => ParameterDecorator) =>
  (...dataOrPipes) => {
    const [first, ...rest] = dataOrPipes;
    // As NestJS: a first argument that is not a pipe is the data, the rest are pipes.
    const hasData = first === undefined || first === null || !isPipe(first);
    const pipes = hasData ? rest : dataOrPipes;
    const name = factory.name === "" ? "A createParamDecorator decorator" : `@${factory.name}()`;
    pipes.forEach((pipe, i) => {
      if (!isPipe(pipe)) {
        throw new Error(
          `${name}: argument #${hasData ? i + 1 : i} is not a pipe (an object or class with a transform method); only the first argument is the decorator's data.`,
        );
      }
    });
    const record = recordParam(name, {
      source: "custom",
      pipes: pipes as ReadonlyArray<PipeLike>,
      factory: factory as (data: unknown, context: ExecutionContext) => unknown,
      data: hasData ? first : undefined,
    });
    return (target, handler, index) => {
      record(target, handler, index);
      for (const enhancer of enhancers) enhancer(target, handler, index);
    };
  };
