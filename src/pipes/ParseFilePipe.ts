import { HttpError } from "../http/HttpError.js";
import type { UploadedFile } from "../http/UploadedFile.js";
import { PipeTransform } from "../pipeline/PipeTransform.js";
import type { FileValidator } from "./FileValidator.js";

/** The options of {@link ParseFilePipe}. @since 0.1.0 @category uploads */
export interface ParseFileOptions {
  /** The checks each file must pass, in order. */
  readonly validators?: ReadonlyArray<FileValidator>;
  /** The status of the failure (default 400). */
  readonly errorHttpStatusCode?: number;
  /** Makes the failure from its message, instead of an `HttpError` of `errorHttpStatusCode`. */
  readonly exceptionFactory?: (error: string) => unknown;
  /** A missing file fails with `File is required` (default `true`). */
  readonly fileIsRequired?: boolean;
}

type Files =
  | UploadedFile
  | ReadonlyArray<UploadedFile>
  | Record<string, ReadonlyArray<UploadedFile>>;

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !("buffer" in value) &&
    Object.keys(value).length === 0);

const filesIn = (value: Files): ReadonlyArray<UploadedFile> => {
  if (Array.isArray(value)) return value;
  if ("buffer" in value) return [value as UploadedFile];
  return Object.values(value as Record<string, ReadonlyArray<UploadedFile>>).flat();
};

/**
 * NestJS's `ParseFilePipe`, for `@UploadedFile()` and `@UploadedFiles()`: fails with `File is
 * required` when there is no file (unless `fileIsRequired: false`), else runs its validators on
 * each file (a file, an array, or files by field) and fails with the first one's message; the
 * failure is an `HttpError` of `errorHttpStatusCode` (400 by default) or `exceptionFactory`'s.
 *
 * @example
 * @Controller("users")
 * class UsersController {
 *   @Post("avatar")
 *   @UseInterceptors(FileInterceptor("file"))
 *   upload(
 *     @UploadedFile(
 *       new ParseFilePipe({ validators: [new MaxFileSizeValidator({ maxSize: 1000 })] }),
 *     )
 *     file: UploadedFile,
 *   ) {
 *     return { size: file.size };
 *   }
 * }
 *
 * @since 0.1.0
 * @category uploads
 */
export class ParseFilePipe extends PipeTransform<Files | undefined, Files | undefined> {
  private readonly validators: ReadonlyArray<FileValidator>;
  private readonly fileIsRequired: boolean;
  protected readonly exceptionFactory: (error: string) => unknown;

  constructor(options: ParseFileOptions = {}) {
    super();
    const {
      validators = [],
      errorHttpStatusCode = 400,
      exceptionFactory,
      fileIsRequired,
    } = options;
    this.validators = validators;
    this.fileIsRequired = fileIsRequired ?? true;
    this.exceptionFactory =
      exceptionFactory ?? ((error) => new HttpError(errorHttpStatusCode, error));
  }

  async transform(value: Files | undefined): Promise<Files | undefined> {
    if (value === undefined || isEmpty(value)) {
      if (this.fileIsRequired) throw this.exceptionFactory("File is required");
      return value;
    }
    for (const file of filesIn(value)) {
      for (const validator of this.validators) {
        if (!(await validator.isValid(file))) {
          throw this.exceptionFactory(validator.buildErrorMessage(file));
        }
      }
    }
    return value;
  }

  /** The validators this pipe runs. */
  getValidators(): ReadonlyArray<FileValidator> {
    return this.validators;
  }
}
