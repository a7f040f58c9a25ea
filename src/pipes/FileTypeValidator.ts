import type { UploadedFile } from "../http/UploadedFile.js";
import { FileValidator, type FileValidatorContext } from "./FileValidator.js";
import { detectFileType } from "./fileSignature.js";

/** The options of {@link FileTypeValidator}. @since 0.1.0 @category uploads */
export type FileTypeValidatorOptions = {
  /** The expected media type: a string matched as a regular expression (as NestJS does), or one. */
  readonly fileType: string | RegExp;
  /** Trust the client's declared type instead of reading the file's magic numbers. */
  readonly skipMagicNumbersValidation?: boolean;
  /** When the magic numbers tell no type, fall back to the declared type. */
  readonly fallbackToMimetype?: boolean;
  /** The message instead of NestJS's default. */
  readonly errorMessage?:
    | string
    | ((context: FileValidatorContext<Omit<FileTypeValidatorOptions, "errorMessage">>) => string);
};

/**
 * NestJS's `FileTypeValidator` (NestJS 11): the file's type read from its magic numbers (PNG,
 * JPEG, GIF, WebP, BMP, TIFF, ICO, AVIF, HEIC, MP4, QuickTime, WebM, WAV, MP3, PDF, ZIP, GZIP,
 * 7z) must match `fileType`, so a renamed file does not pass on its declared type. A type
 * without magic numbers (SVG, CSV, JSON, text) fails unless `skipMagicNumbersValidation` or
 * `fallbackToMimetype`. Message: `Validation failed (current file type is T, expected type is
 * E)`.
 *
 * @since 0.1.0
 * @category uploads
 */
export class FileTypeValidator extends FileValidator<FileTypeValidatorOptions> {
  buildErrorMessage(file?: UploadedFile): string {
    const { errorMessage, ...config } = this.validationOptions;
    if (errorMessage !== undefined) {
      return typeof errorMessage === "function" ? errorMessage({ file, config }) : errorMessage;
    }
    const expected = String(config.fileType);
    if (!file?.mimetype) return `Validation failed (expected type is ${expected})`;
    const message = `Validation failed (current file type is ${file.mimetype}, expected type is ${expected})`;
    return config.fallbackToMimetype === true
      ? `${message} - magic number detection failed, used mimetype fallback`
      : message;
  }

  isValid(file?: UploadedFile): boolean {
    const { fileType, skipMagicNumbersValidation, fallbackToMimetype } = this.validationOptions;
    if (file === undefined || typeof file.mimetype !== "string") return false;
    if (skipMagicNumbersValidation === true) return file.mimetype.match(fileType) !== null;
    const detected = detectFileType(file.buffer);
    if (detected !== undefined) return detected.match(fileType) !== null;
    return fallbackToMimetype === true && file.mimetype.match(fileType) !== null;
  }
}
