import type { Type } from "../di/Token.js";
import type { Interceptor } from "./Interceptor.js";
import { type FileFilter, UploadDeclaration, type UploadSpec } from "./internal/uploadRoute.js";
import type { UploadLimits } from "./Uploads.js";

/**
 * The options of NestJS's file interceptors (multer's) that Strata honours. Files are kept in
 * memory (`file.buffer`), so `dest` and `storage` are refused when the interceptor is made, as
 * are limits Strata has no equivalent for.
 *
 * @since 0.1.0
 * @category uploads
 */
export interface MulterOptions {
  /** Over the app's `uploads` limits, for this route: `fileSize`, `files`, `fields`, `fieldSize`. */
  readonly limits?: Pick<UploadLimits, "fileSize" | "files" | "fields" | "fieldSize">;
  /**
   * Called for each file before its content is read: `callback(null, true)` keeps it,
   * `callback(null, false)` skips it, `callback(error)` fails the request with that error (an
   * `HttpException` answers with its status, anything else 500).
   */
  readonly fileFilter?: FileFilter;
}

/** One field of {@link FileFieldsInterceptor}: its name and the most files it takes (default 1... as multer: no limit). */
export interface MulterField {
  readonly name: string;
  readonly maxCount?: number;
}

const honoured = new Set(["limits", "fileFilter"]);
const honouredLimits = new Set(["fileSize", "files", "fields", "fieldSize"]);

const checked = (label: string, options: MulterOptions | undefined): MulterOptions => {
  for (const key of Object.keys(options ?? {})) {
    if (!honoured.has(key)) {
      throw new TypeError(
        `${label}: the multer option ${JSON.stringify(key)} is not supported. Strata keeps uploaded files in memory (file.buffer): write them where you need them; limits and fileFilter are honoured.`,
      );
    }
  }
  for (const key of Object.keys(options?.limits ?? {})) {
    if (!honouredLimits.has(key)) {
      throw new TypeError(
        `${label}: the multer limit ${JSON.stringify(key)} is not supported (fileSize, files, fields and fieldSize are).`,
      );
    }
  }
  return options ?? {};
};

const declare = (
  label: string,
  fields: ReadonlyMap<string, number> | undefined,
  grouped: boolean,
  options: MulterOptions | undefined,
): Type<Interceptor> => {
  const { limits = {}, fileFilter } = checked(label, options);
  const upload: UploadSpec = { label, fields, grouped, limits, fileFilter };
  return class FileUpload extends UploadDeclaration {
    readonly upload = upload;
  };
};

/**
 * NestJS's `FileInterceptor(field)`: the route takes one file under `field`, which
 * `@UploadedFile()` gives. A file under another field answers 400 `Unexpected field - <name>`,
 * as multer does; a request that is not multipart runs the handler without a file.
 *
 * @example
 * @Controller("users")
 * class UsersController {
 *   @Post("avatar")
 *   @UseInterceptors(FileInterceptor("file"))
 *   upload(@UploadedFile() file: UploadedFile) {
 *     return { size: file.size };
 *   }
 * }
 *
 * @since 0.1.0
 * @category uploads
 */
export const FileInterceptor = (fieldName: string, options?: MulterOptions): Type<Interceptor> =>
  declare(
    `FileInterceptor(${JSON.stringify(fieldName)})`,
    new Map([[fieldName, 1]]),
    false,
    options,
  );

/**
 * NestJS's `FilesInterceptor(field, maxCount)`: the route takes up to `maxCount` files under
 * `field` (any number without it), which `@UploadedFiles()` gives as an array.
 *
 * @since 0.1.0
 * @category uploads
 */
export const FilesInterceptor = (
  fieldName: string,
  maxCount?: number,
  options?: MulterOptions,
): Type<Interceptor> =>
  declare(
    `FilesInterceptor(${JSON.stringify(fieldName)})`,
    new Map([[fieldName, maxCount ?? Number.POSITIVE_INFINITY]]),
    false,
    options,
  );

/**
 * NestJS's `FileFieldsInterceptor([{ name, maxCount }])`: the route takes files under these
 * fields, which `@UploadedFiles()` gives as `{ [name]: files }` (fields without files absent).
 *
 * @since 0.1.0
 * @category uploads
 */
export const FileFieldsInterceptor = (
  fields: ReadonlyArray<MulterField>,
  options?: MulterOptions,
): Type<Interceptor> =>
  declare(
    `FileFieldsInterceptor(${fields.map((field) => JSON.stringify(field.name)).join(", ")})`,
    new Map(fields.map((field) => [field.name, field.maxCount ?? Number.POSITIVE_INFINITY])),
    true,
    options,
  );

/**
 * NestJS's `AnyFilesInterceptor()`: the route takes files under any field (within the
 * limits), which `@UploadedFiles()` gives as an array.
 *
 * @since 0.1.0
 * @category uploads
 */
export const AnyFilesInterceptor = (options?: MulterOptions): Type<Interceptor> =>
  declare("AnyFilesInterceptor()", undefined, false, options);

/**
 * NestJS's `NoFilesInterceptor()`: the route takes a multipart form of text fields only (in
 * `@Body()`); any file answers 400 `Unexpected field - <name>`.
 *
 * @since 0.1.0
 * @category uploads
 */
export const NoFilesInterceptor = (): Type<Interceptor> =>
  declare("NoFilesInterceptor()", new Map(), false, undefined);
