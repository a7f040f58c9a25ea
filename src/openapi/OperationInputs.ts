import type { PipeLike } from "../pipeline/PipeTransform.js";
import type { DescribedRoute } from "./DescribedRoute.js";
import type { Operation, Parameter } from "./OpenApiDocument.js";
import { operationParameters } from "./OperationParameters.js";
import { operationRequestBody } from "./OperationRequestBody.js";

/** What an operation takes, as its route's parameter decorators and pipes declare it. */
export interface OperationInputs {
  readonly parameters: ReadonlyArray<Parameter>;
  readonly requestBody: Operation["requestBody"];
  /** A `multipart/form-data` body. */
  readonly isUpload: boolean;
  /** The route reads a body (so a malformed or too large one is refused). */
  readonly readsBody: boolean;
  /** An argument is validated (so a 400 `Validation failed` may answer). */
  readonly validates: boolean;
}

/**
 * The parameters and body of `described`'s route at `path`: each argument with the pipes it
 * runs (`routePipes`, the global, controller and method ones, then its own).
 */
export const operationInputs = (
  described: DescribedRoute,
  path: string,
  routePipes: ReadonlyArray<PipeLike>,
): OperationInputs => {
  const parameters = operationParameters(described, path);
  const body = operationRequestBody(described);
  let validates = false;
  for (const param of described.route.params) {
    const pipes = [...routePipes, ...param.pipes];
    switch (param.source) {
      case "param":
      case "query":
      case "headers":
        validates = parameters.add(param, pipes) || validates;
        break;
      case "body":
        validates = body.addBody(param, pipes) || validates;
        break;
      case "file":
      case "files":
        body.addFile(param);
        break;
    }
  }
  return {
    parameters: parameters.list(),
    requestBody: body.requestBody(),
    isUpload: body.isUpload(),
    readsBody: body.readsBody(),
    validates,
  };
};
