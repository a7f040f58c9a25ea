import type { EnhancerRefs } from "../pipeline/internal/enhancers.js";
import type { CompiledParam } from "./RoutePlan.js";

/** Which per-request steps a route runs, read once from its parameters and enhancers. */
export interface RouteShape {
  /** A multipart route: `FileInterceptor` and friends, or an `@UploadedFile(s)` parameter. */
  readonly isUpload: boolean;
  readonly hasGuards: boolean;
  readonly hasInterceptors: boolean;
  readonly hasFilters: boolean;
  /** The body is read before the guards (a parameter, a guard or an interceptor may want it). */
  readonly readsBody: boolean;
  /** `@Res()`: the handler writes the response itself. */
  readonly takesResponse: boolean;
  /** The DTO of the `@Body()` parameter, if any. */
  readonly dtoType: unknown;
  /** The handler's argument count: its last decorated parameter's index + 1. */
  readonly arity: number;
}

/** The shape of a route with these parameters and (upload-completed) enhancers. */
export const routeShape = (
  params: ReadonlyArray<CompiledParam>,
  refs: EnhancerRefs,
  hasUploadSpec: boolean,
): RouteShape => {
  const isUpload =
    hasUploadSpec || params.some((p) => p.meta.source === "file" || p.meta.source === "files");
  const hasGuards = refs.guards.length > 0;
  const hasInterceptors = refs.interceptors.length > 0;
  return {
    isUpload,
    hasGuards,
    hasInterceptors,
    hasFilters: refs.filters.length > 0,
    readsBody:
      !isUpload &&
      (hasGuards ||
        hasInterceptors ||
        params.some(
          (p) => p.meta.source === "body" || p.meta.source === "req" || p.meta.source === "custom",
        )),
    takesResponse: params.some((p) => p.meta.source === "res"),
    dtoType: params.find((p) => p.meta.source === "body")?.dtoType,
    arity: params.length === 0 ? 0 : params[params.length - 1].meta.index + 1,
  };
};
