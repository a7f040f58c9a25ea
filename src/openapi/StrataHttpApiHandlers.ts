import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder";
import type * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint";
import type * as HttpApiGroup from "@effect/platform/HttpApiGroup";
import * as Chunk from "effect/Chunk";
import type * as Effect from "effect/Effect";
import { pipeArguments } from "effect/Pipeable";

/** One `handle`/`handleRaw` call, as the stock builder records it, with the endpoint's name. */
export interface Item {
  readonly endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps;
  readonly handler: (request: Record<string, unknown>) => Effect.Effect<unknown, unknown, unknown>;
  readonly withFullRequest: boolean;
  readonly uninterruptible: boolean;
}

/** The handlers a group's `build` recorded. */
export interface Recorded {
  readonly group: HttpApiGroup.HttpApiGroup.AnyWithProps;
  readonly handlers: Chunk.Chunk<Item>;
}

const record = (
  self: Recorded,
  name: string,
  handler: Item["handler"],
  withFullRequest: boolean,
  options: { readonly uninterruptible?: boolean | undefined } | undefined,
): Recorded =>
  makeHandlers(
    self.group,
    Chunk.append(self.handlers, {
      endpoint: self.group.endpoints[name] as HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
      handler,
      withFullRequest,
      uninterruptible: options?.uninterruptible ?? false,
    }),
  );

/** The `Handlers` value passed to `build`: the stock one's shape and methods. */
const HandlersProto = {
  [HttpApiBuilder.HandlersTypeId]: { _Endpoints: (a: unknown) => a },
  pipe(this: Recorded) {
    // biome-ignore lint/complexity/noArguments: Pipeable's own convention.
    return pipeArguments(this, arguments);
  },
  handle(
    this: Recorded,
    name: string,
    handler: Item["handler"],
    options?: { uninterruptible?: boolean },
  ) {
    return record(this, name, handler, false, options);
  },
  handleRaw(
    this: Recorded,
    name: string,
    handler: Item["handler"],
    options?: { uninterruptible?: boolean },
  ) {
    return record(this, name, handler, true, options);
  },
};

/** A group's `Handlers` holding `handlers`, the stock builder's shape. */
export const makeHandlers = (
  group: HttpApiGroup.HttpApiGroup.AnyWithProps,
  handlers: Chunk.Chunk<Item>,
): Recorded => Object.assign(Object.create(HandlersProto), { group, handlers });
