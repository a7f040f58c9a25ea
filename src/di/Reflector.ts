import { randomUUID } from "node:crypto";
import { type CustomDecorator, SetMetadata } from "./SetMetadata.js";

/**
 * Options of {@link Reflector.createDecorator}: the metadata key (a fresh unique one by
 * default) and a transformation of the decorator's argument before it is recorded.
 *
 * @since 0.1.0
 * @category metadata
 */
export interface CreateDecoratorOptions<TParam = unknown, TTransformed = TParam> {
  /** The metadata key (default: a fresh unique one). */
  readonly key?: string;
  /** Transforms the decorator's argument before it is recorded. */
  readonly transform?: (value: TParam) => TTransformed;
}

/**
 * A decorator made by {@link Reflector.createDecorator}: `@Roles(["admin"])` records its argument,
 * and `reflector.get(Roles, context.getHandler())` reads it back, typed.
 *
 * @since 0.1.0
 * @category metadata
 */
export type ReflectableDecorator<TParam, TTransformed = TParam> = ((
  value?: TParam,
) => CustomDecorator) & {
  readonly KEY: string;
  /** Carries the recorded type for {@link Reflector}; never set. */
  readonly __transformed?: TTransformed;
};

/** A class or a method, as `context.getClass()` and `context.getHandler()` return them. */
type Target = Function;

const keyOf = (keyOrDecorator: unknown): unknown =>
  typeof keyOrDecorator === "function" && "KEY" in keyOrDecorator
    ? (keyOrDecorator as { KEY: unknown }).KEY
    : keyOrDecorator;

const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;

/**
 * Reads metadata recorded by {@link SetMetadata} or a {@link Reflector.createDecorator}
 * decorator, from the targets an `ExecutionContext` gives: `context.getHandler()` (the method)
 * and `context.getClass()` (the controller). Every app provides it: inject it into a guard or an
 * interceptor (`constructor(private readonly reflector: Reflector)`).
 *
 * @since 0.1.0
 * @category metadata
 */
export class Reflector {
  /**
   * A decorator recording its argument under its own key (`KEY`), for a typed read with
   * {@link Reflector.get}. An argument left out is recorded as `{}`, as NestJS does.
   */
  static createDecorator<TParam, TTransformed = TParam>(
    options: CreateDecoratorOptions<TParam, TTransformed> = {},
  ): ReflectableDecorator<TParam, TTransformed> {
    const key = options.key ?? randomUUID();
    const decorator = (value?: TParam): CustomDecorator => {
      const recorded = options.transform === undefined ? value : options.transform(value as TParam);
      return SetMetadata(key, recorded ?? {}) as CustomDecorator;
    };
    return Object.assign(decorator, { KEY: key }) as ReflectableDecorator<TParam, TTransformed>;
  }

  /** The metadata recorded by `decorator` on `target`. */
  get<TParam, TTransformed>(
    decorator: ReflectableDecorator<TParam, TTransformed>,
    target: Target,
  ): TTransformed | undefined;
  /** The metadata recorded under `key` on `target` (own or inherited). */
  get<TResult = unknown>(key: unknown, target: Target): TResult;
  get(keyOrDecorator: unknown, target: Target): unknown {
    return Reflect.getMetadata(keyOf(keyOrDecorator), target);
  }

  /** The metadata of each target, in order (`undefined` where a target has none). */
  getAll<TParam, TTransformed>(
    decorator: ReflectableDecorator<TParam, TTransformed>,
    targets: ReadonlyArray<Target>,
  ): Array<TTransformed | undefined>;
  getAll<TResult extends ReadonlyArray<unknown> = Array<unknown>>(
    key: unknown,
    targets: ReadonlyArray<Target>,
  ): TResult;
  getAll(keyOrDecorator: unknown, targets: ReadonlyArray<Target>): Array<unknown> {
    const key = keyOf(keyOrDecorator);
    return (targets ?? []).map((target) => Reflect.getMetadata(key, target));
  }

  /**
   * The first target's metadata that is not `undefined` (the method's over the class's, when
   * given `[context.getHandler(), context.getClass()]`).
   */
  getAllAndOverride<TParam, TTransformed>(
    decorator: ReflectableDecorator<TParam, TTransformed>,
    targets: ReadonlyArray<Target>,
  ): TTransformed | undefined;
  getAllAndOverride<TResult = unknown>(key: unknown, targets: ReadonlyArray<Target>): TResult;
  getAllAndOverride(keyOrDecorator: unknown, targets: ReadonlyArray<Target>): unknown {
    for (const target of targets) {
      const value = this.get(keyOrDecorator, target);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /**
   * Every target's metadata merged: arrays concatenated, objects merged (later keys win), other
   * values collected into an array; `[]` when no target has any, a single array or object as it is.
   */
  getAllAndMerge<TParam, TTransformed>(
    decorator: ReflectableDecorator<TParam, TTransformed>,
    targets: ReadonlyArray<Target>,
  ): TTransformed extends ReadonlyArray<unknown>
    ? TTransformed
    : TTransformed extends object
      ? TTransformed
      : Array<TTransformed>;
  getAllAndMerge<TResult extends ReadonlyArray<unknown> | object = Array<unknown>>(
    key: unknown,
    targets: ReadonlyArray<Target>,
  ): TResult;
  getAllAndMerge(keyOrDecorator: unknown, targets: ReadonlyArray<Target>): unknown {
    const values = this.getAll(keyOrDecorator, targets).filter((value) => value !== undefined);
    if (values.length === 0) return values;
    if (values.length === 1) return isObject(values[0]) ? values[0] : values;
    let merged: unknown = values[0];
    for (const value of values.slice(1)) {
      if (Array.isArray(merged)) merged = merged.concat(value);
      else if (isObject(merged) && isObject(value)) merged = { ...merged, ...value };
      else merged = [merged, value];
    }
    return merged;
  }
}
