import * as Effect from "effect/Effect";
import type { ParamMetadata } from "../decorators/Params.js";
import { fromResult } from "../http/UserCode.js";
import type { HttpExecution } from "../pipeline/internal/execution.js";
import { isAsync } from "./runPipes.js";

/** The value a handler parameter's decorator reads from the request, before its pipes. */
export const rawValue = (meta: ParamMetadata, execution: HttpExecution): unknown => {
  switch (meta.source) {
    case "param":
      return meta.name === undefined ? execution.params : execution.params[meta.name];
    case "query":
      return meta.name === undefined ? execution.query : execution.query[meta.name];
    case "headers":
      return meta.name === undefined ? execution.headers : execution.headers[meta.name];
    case "body":
      return meta.name === undefined ? execution.body : ownProperty(execution.body, meta.name);
    case "req":
      return execution;
    case "res":
      return execution.getResponse();
    case "file":
      return meta.name === undefined
        ? execution.files?.[0]
        : execution.files?.find((file) => file.fieldname === meta.name);
    case "files":
      return meta.name === undefined
        ? (execution.uploadedFiles ?? execution.files ?? [])
        : (execution.files ?? []).filter((file) => file.fieldname === meta.name);
    case "custom":
      return customValue(meta, execution);
  }
};

/** `@Body("key")`: the body's own property (never one of `Object.prototype`'s), else undefined. */
const ownProperty = (body: unknown, key: string): unknown =>
  typeof body === "object" && body !== null && Object.hasOwn(body, key)
    ? (body as Record<string, unknown>)[key]
    : undefined;

/** A `createParamDecorator` parameter: its factory's value, or an Effect when it is async or throws. */
const customValue = (meta: ParamMetadata, execution: HttpExecution): unknown => {
  let value: unknown;
  try {
    value = (meta.factory as NonNullable<ParamMetadata["factory"]>)(meta.data, execution);
  } catch (error) {
    return Effect.fail(error);
  }
  return isAsync(value) ? fromResult(value) : value;
};
