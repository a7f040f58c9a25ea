import type { UploadedFile as UploadedFileRecord } from "../http/UploadedFile.js";
import type { PipeLike } from "../pipeline/PipeTransform.js";
import { param } from "./Params.js";

const isPipeLike = (u: unknown): u is PipeLike =>
  (typeof u === "object" &&
    u !== null &&
    typeof (u as { transform?: unknown }).transform === "function") ||
  (typeof u === "function" &&
    typeof (u.prototype as { transform?: unknown } | undefined)?.transform === "function");

/**
 * The field name and pipes of `@UploadedFile(...)` / `@UploadedFiles(...)`: a field name then
 * pipes, or pipes only, as NestJS takes them (`@UploadedFile(new ParseFilePipe(...))`). Anything
 * else (`undefined` from an import cycle, say) throws when the decorator is applied.
 */
const fieldAndPipes = (
  decorator: string,
  first: string | PipeLike | undefined,
  rest: ReadonlyArray<PipeLike>,
): { readonly field: string | undefined; readonly pipes: ReadonlyArray<PipeLike> } => {
  const field = typeof first === "string" ? first : undefined;
  const pipes = typeof first === "string" || first === undefined ? rest : [first, ...rest];
  pipes.forEach((pipe, index) => {
    if (!isPipeLike(pipe)) {
      throw new TypeError(
        `@${decorator}(): argument #${field === undefined ? index : index + 1} is ${pipe === null || pipe === undefined ? String(pipe) : typeof pipe === "object" ? "an object" : `a ${typeof pipe}`}, not a field name or a pipe (a class, or an object with transform()).`,
      );
    }
  });
  return { field, pipes };
};

/**
 * One uploaded file of a `multipart/form-data` request: the first sent under `fieldName`
 * (the first file at all without it), or `undefined` when there is none, through `pipes`
 * (`@UploadedFile(new ParseFilePipe(...))` or `@UploadedFile("avatar", pipe)`). Makes the route
 * an upload route: without a NestJS file interceptor (`FileInterceptor`), a request that is not
 * `multipart/form-data` gets 400; a malformed one 400; one over the upload limits (see
 * `StrataAppOptions.uploads`) 413.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UploadedFile = (
  fieldNameOrPipe?: string | PipeLike,
  ...pipes: ReadonlyArray<PipeLike>
): ParameterDecorator => {
  const { field, pipes: all } = fieldAndPipes("UploadedFile", fieldNameOrPipe, pipes);
  return param("file", field, all);
};

/** The {@link UploadedFile} record: `fieldname`, `filename`/`originalname`, `size`, `mimetype`, `buffer`. @since 0.1.0 @category request */
export type UploadedFile = UploadedFileRecord;

/**
 * Every uploaded file sent under `fieldName` (every file, without it), possibly none, through
 * `pipes`. Under `FileFieldsInterceptor`, without a field name: `{ [field]: files }`, as NestJS
 * gives. Makes the route an upload route, as {@link UploadedFile} does.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UploadedFiles = (
  fieldNameOrPipe?: string | PipeLike,
  ...pipes: ReadonlyArray<PipeLike>
): ParameterDecorator => {
  const { field, pipes: all } = fieldAndPipes("UploadedFiles", fieldNameOrPipe, pipes);
  return param("files", field, all);
};
