import type { UploadedFile as UploadedFileRecord } from "../http/UploadedFile.js";
import type { PipeLike } from "../pipes/PipeTransform.js";
import { param } from "./Params.js";

/**
 * One uploaded file of a `multipart/form-data` request: the first sent under `fieldName`
 * (the first file at all without it), or `undefined` when there is none. Makes the route an
 * upload route: a request that is not `multipart/form-data` gets 400, a malformed one 400, one
 * over the upload limits (see `StrataAppOptions.uploads`) 413.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UploadedFile = (
  fieldName?: string,
  ...pipes: ReadonlyArray<PipeLike>
): ParameterDecorator => param("file", fieldName, pipes);

/** The {@link UploadedFile} record: `fieldname`, `filename`, `size`, `mimetype`, `buffer`. @since 0.1.0 @category request */
export type UploadedFile = UploadedFileRecord;

/**
 * Every uploaded file sent under `fieldName` (every file, without it), possibly none. Makes
 * the route an upload route, as {@link UploadedFile} does.
 *
 * @since 0.1.0
 * @category decorators
 */
export const UploadedFiles = (
  fieldName?: string,
  ...pipes: ReadonlyArray<PipeLike>
): ParameterDecorator => param("files", fieldName, pipes);
