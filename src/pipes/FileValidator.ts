import type { UploadedFile } from "../http/UploadedFile.js";

/**
 * NestJS's `FileValidator`: one check a {@link ParseFilePipe} runs on each uploaded file.
 * Extend it for checks of your own.
 *
 * @since 0.1.0
 * @category uploads
 */
export abstract class FileValidator<TOptions = Record<string, unknown>> {
  constructor(protected readonly validationOptions: TOptions) {}

  /** Whether the file passes (may be asynchronous). */
  abstract isValid(file?: UploadedFile): boolean | Promise<boolean>;

  /** The message of the failure when it does not. */
  abstract buildErrorMessage(file?: UploadedFile): string;
}

/** What a validator's `errorMessage` function is given: the file and the validator's options. @since 0.1.0 @category uploads */
export interface FileValidatorContext<TConfig> {
  readonly file: UploadedFile | undefined;
  readonly config: TConfig;
}
