import type * as HttpServerRequest from "@effect/platform/HttpServerRequest";
import type * as Scope from "effect/Scope";
import { makeRequestStore, type RequestStore } from "../../di/RequestStore.js";
import { copyMiddlewareProperties, middlewareRequestOf } from "../../http/MiddlewareRequest.js";
import type { RequestContext, RequestUser } from "../../http/RequestContext.js";
import { StrataResponse } from "../../http/StrataResponse.js";
import type { UploadedFile } from "../../http/UploadedFile.js";
import type { ExecutionContext, HttpArgumentsHost } from "../ExecutionContext.js";
import type { ArgumentMetadata, PipeContext } from "../PipeTransform.js";
import type { Enhancers } from "./enhancers.js";

/** Until a pipe runs, the request is not about any argument. */
const noArgument: ArgumentMetadata = { type: "custom" };

/** The controller class and handler method a route runs. */
export interface RouteTarget {
  readonly controller: Function;
  readonly handler: Function;
}

/**
 * One request as classic code sees it: the {@link RequestContext} (what `@Req()` injects),
 * the {@link ExecutionContext} guards and interceptors get, the `ArgumentsHost` filters get
 * and the {@link PipeContext} pipes get, all one object so a `user` set by a guard is the
 * handler's. The response is created only when something asks for it.
 */
export class HttpExecution implements ExecutionContext, HttpArgumentsHost, PipeContext {
  readonly method: string;
  readonly url: string;
  readonly headers: RequestContext["headers"];
  body: unknown = undefined;
  rawBody?: Buffer;
  user?: RequestUser;
  files?: ReadonlyArray<UploadedFile>;
  /** What `@UploadedFiles()` gives instead of `files`: the files by field (FileFieldsInterceptor). */
  uploadedFiles?: Readonly<Record<string, ReadonlyArray<UploadedFile>>>;
  /** The guards, interceptors, filters and pipes of this request's route. */
  enhancers: Enhancers;
  /** The argument whose pipes are running (a pipe's `context.type`, `.data`, `.metatype`). */
  argument: ArgumentMetadata = noArgument;
  private response: StrataResponse | undefined;
  private store: RequestStore | undefined;

  constructor(
    readonly req: HttpServerRequest.HttpServerRequest,
    readonly params: RequestContext["params"],
    readonly query: RequestContext["query"],
    readonly dtoType: unknown,
    private readonly target: RouteTarget,
    /** The request's scope: request-scoped providers and forked work end with it. */
    readonly scope: Scope.Scope,
    enhancers: Enhancers,
  ) {
    this.method = req.method;
    this.url = req.url;
    this.headers = req.headers;
    this.enhancers = enhancers;
    // What NestJS middleware added to their `req` (Express's `req` is the handler's too).
    const added = middlewareRequestOf(req);
    if (added !== undefined) copyMiddlewareProperties(added, this);
  }

  get type(): ArgumentMetadata["type"] {
    return this.argument.type;
  }

  get data(): string | undefined {
    return this.argument.data;
  }

  get metatype(): unknown {
    return this.argument.metatype;
  }

  switchToHttp(): HttpArgumentsHost {
    return this;
  }

  getType(): "http" {
    return "http";
  }

  getArgs(): [RequestContext, StrataResponse] {
    return [this, this.getResponse()];
  }

  getArgByIndex<T>(index: number): T {
    return (index === 0 ? this : index === 1 ? this.getResponse() : undefined) as T;
  }

  getClass(): Function {
    return this.target.controller;
  }

  getHandler(): Function {
    return this.target.handler;
  }

  getRequest<T = RequestContext>(): T {
    return this as unknown as T;
  }

  getResponse<T = StrataResponse>(): T {
    if (this.response === undefined) this.response = new StrataResponse();
    return this.response as unknown as T;
  }

  /** The response if anything asked for it, else `undefined`. */
  get responseIfCreated(): StrataResponse | undefined {
    return this.response;
  }

  /** A response for an exception filter: the request's own, unless it was already sent. */
  responseForFilter(): StrataResponse {
    if (this.response?.sent === true) this.response = new StrataResponse();
    return this.getResponse();
  }

  /** The request-scoped providers of this request, released when it ends. */
  requestStore(): RequestStore {
    if (this.store === undefined) this.store = makeRequestStore(this.scope, this);
    return this.store;
  }
}
