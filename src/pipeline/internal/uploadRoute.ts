import * as Effect from "effect/Effect";
import { StartupError } from "../../di/StartupError.js";
import { type BodyLimit, readBody } from "../../http/RequestBody.js";
import type { RequestContext } from "../../http/RequestContext.js";
import type { UploadedFile } from "../../http/UploadedFile.js";
import type { ExecutionContext } from "../ExecutionContext.js";
import { type CallHandler, Interceptor } from "../Interceptor.js";
import { type FilePartInfo, type FileRules, readUpload, type UploadLimits } from "../Uploads.js";
import type { EnhancerRef, EnhancerRefs } from "./enhancers.js";
import type { HttpExecution } from "./execution.js";
import { isMultipart } from "./isMultipart.js";

/** multer's `fileFilter`: called once per file before its content is read. */
export type FileFilter = (
  request: RequestContext,
  file: FilePartInfo & { readonly encoding: string },
  callback: (error: Error | null, acceptFile?: boolean) => void,
) => void;

/** The files an upload route expects, as a NestJS file interceptor declares them. */
export interface UploadSpec {
  /** How the declaration reads in messages, e.g. `FileInterceptor("avatar")`. */
  readonly label: string;
  /** The file fields and how many files each; `undefined`: any field. */
  readonly fields: ReadonlyMap<string, number> | undefined;
  /** `@UploadedFiles()` gives `{ [field]: files }` (FileFieldsInterceptor), not an array. */
  readonly grouped: boolean;
  /** Limits over the app's, for this route only. */
  readonly limits: UploadLimits;
  readonly fileFilter: FileFilter | undefined;
}

/**
 * What NestJS's `FileInterceptor` family returns: a declaration that the route takes a
 * `multipart/form-data` upload of these files. The route compiler reads it and takes it out of
 * the interceptors, so it never runs as one: the upload is read after the guards, before any
 * interceptor, and non-multipart requests run the handler without files, as with multer.
 */
export abstract class UploadDeclaration extends Interceptor {
  abstract readonly upload: UploadSpec;

  intercept(_context: ExecutionContext, next: CallHandler): Promise<unknown> {
    return next();
  }
}

const declarationOf = (ref: EnhancerRef<Interceptor>): UploadSpec | undefined =>
  ref._tag === "Instance" && ref.instance instanceof UploadDeclaration
    ? ref.instance.upload
    : undefined;

/** Reads the upload of one request into `execution` (`body`, `files`, `uploadedFiles`). */
export type ReceiveUpload = (execution: HttpExecution) => Effect.Effect<void, unknown>;

const filterWith =
  (filter: FileFilter, request: RequestContext) =>
  (file: FilePartInfo): Effect.Effect<boolean, unknown> =>
    Effect.async<boolean, unknown>((resume) => {
      try {
        filter(request, { ...file, encoding: "7bit" }, (error, accept) =>
          resume(error ? Effect.fail(error) : Effect.succeed(accept === true)),
        );
      } catch (error) {
        resume(Effect.fail(error));
      }
    });

const byField = (files: ReadonlyArray<UploadedFile>) => {
  const grouped: Record<string, Array<UploadedFile>> = {};
  for (const file of files) {
    if (!Object.hasOwn(grouped, file.fieldname)) grouped[file.fieldname] = [];
    grouped[file.fieldname].push(file);
  }
  return grouped;
};

/**
 * The upload side of a route, decided once at startup: the route's enhancers without its file
 * declaration (at most one: two fail the start), and how one request's upload is received.
 * Without a declaration (only `@UploadedFile()`), a request that is not multipart gets 400.
 */
export const uploadRoute = (
  refs: EnhancerRefs,
  appLimits: Required<UploadLimits>,
  bodyLimit: BodyLimit,
  jsonDepthLimit: number,
  where: string,
): {
  readonly refs: EnhancerRefs;
  readonly spec: UploadSpec | undefined;
  readonly receive: ReceiveUpload;
} => {
  const specs = refs.interceptors.map(declarationOf).filter((spec) => spec !== undefined);
  if (specs.length === 0) {
    return {
      refs,
      spec: undefined,
      receive: (execution) =>
        Effect.map(readUpload(execution.req, appLimits), (upload) => {
          execution.body = upload.fields;
          execution.files = upload.files;
        }),
    };
  }
  if (specs.length > 1) {
    throw new StartupError({
      message: `${where} declares its files twice (${specs.map((spec) => spec.label).join(", ")}): keep one.`,
    });
  }
  const spec = specs[0];
  const limits = { ...appLimits, ...spec.limits };
  const fileFilter = spec.fileFilter;
  const receive: ReceiveUpload = (execution) => {
    if (!isMultipart(execution.req)) {
      execution.files = [];
      if (spec.grouped) execution.uploadedFiles = {};
      return Effect.map(readBody(execution.req, bodyLimit, jsonDepthLimit), (body) => {
        execution.body = body;
      });
    }
    const rules: FileRules<unknown> = {
      fields: spec.fields,
      filter: fileFilter === undefined ? undefined : filterWith(fileFilter, execution),
    };
    return Effect.map(readUpload(execution.req, limits, rules), (upload) => {
      execution.body = upload.fields;
      execution.files = upload.files;
      if (spec.grouped) execution.uploadedFiles = byField(upload.files);
    });
  };
  return {
    refs: { ...refs, interceptors: refs.interceptors.filter((ref) => !declarationOf(ref)) },
    spec,
    receive,
  };
};
