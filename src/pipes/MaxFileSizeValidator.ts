import type { UploadedFile } from "../http/UploadedFile.js";
import { FileValidator, type FileValidatorContext } from "./FileValidator.js";

/** The options of {@link MaxFileSizeValidator}. @since 0.1.0 @category uploads */
export type MaxFileSizeValidatorOptions = {
  /** Files must be smaller than this many bytes. */
  readonly maxSize: number;
  /** The message instead of NestJS's default (older spelling: `message`). */
  readonly errorMessage?:
    | string
    | ((context: FileValidatorContext<{ readonly maxSize: number }>) => string);
  /** The message instead of NestJS's default, NestJS's older option (`errorMessage` wins). */
  readonly message?: string | ((maxSize: number) => string);
};

/**
 * NestJS's `MaxFileSizeValidator`: a file passes when its size is less than `maxSize` bytes,
 * with NestJS's message otherwise: `Validation failed (current file size is N, expected size is
 * less than M)`.
 *
 * @since 0.1.0
 * @category uploads
 */
export class MaxFileSizeValidator extends FileValidator<MaxFileSizeValidatorOptions> {
  buildErrorMessage(file?: UploadedFile): string {
    const { errorMessage, message, maxSize } = this.validationOptions;
    if (errorMessage !== undefined) {
      return typeof errorMessage === "function"
        ? errorMessage({ file, config: { maxSize } })
        : errorMessage;
    }
    if (message !== undefined) return typeof message === "function" ? message(maxSize) : message;
    return file?.size
      ? `Validation failed (current file size is ${file.size}, expected size is less than ${maxSize})`
      : `Validation failed (expected size is less than ${maxSize})`;
  }

  isValid(file?: UploadedFile): boolean {
    return file === undefined || file.size < this.validationOptions.maxSize;
  }
}
