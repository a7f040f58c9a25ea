import type { FileTypeValidatorOptions } from "./FileTypeValidator.js";
import { FileTypeValidator } from "./FileTypeValidator.js";
import type { FileValidator } from "./FileValidator.js";
import { MaxFileSizeValidator, type MaxFileSizeValidatorOptions } from "./MaxFileSizeValidator.js";
import { type ParseFileOptions, ParseFilePipe } from "./ParseFilePipe.js";

/**
 * NestJS's `ParseFilePipeBuilder`: adds validators, then `build(options)` makes the
 * {@link ParseFilePipe} (and starts a new list).
 *
 * @example
 * @Controller("users")
 * class UsersController {
 *   @Post("avatar")
 *   @UseInterceptors(FileInterceptor("file"))
 *   upload(
 *     @UploadedFile(
 *       new ParseFilePipeBuilder()
 *         .addFileTypeValidator({ fileType: "image/png" })
 *         .addMaxSizeValidator({ maxSize: 1000 })
 *         .build({ errorHttpStatusCode: HttpStatus.UNPROCESSABLE_ENTITY }),
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
export class ParseFilePipeBuilder {
  private validators: Array<FileValidator> = [];

  /** Adds a {@link MaxFileSizeValidator}. */
  addMaxSizeValidator(options: MaxFileSizeValidatorOptions): this {
    return this.addValidator(new MaxFileSizeValidator(options));
  }

  /** Adds a {@link FileTypeValidator}. */
  addFileTypeValidator(options: FileTypeValidatorOptions): this {
    return this.addValidator(new FileTypeValidator(options));
  }

  /** Adds a validator of your own. */
  addValidator(validator: FileValidator): this {
    this.validators.push(validator);
    return this;
  }

  /** The pipe with the validators added so far and `options`. */
  build(options: Omit<ParseFileOptions, "validators"> = {}): ParseFilePipe {
    const pipe = new ParseFilePipe({ ...options, validators: this.validators });
    this.validators = [];
    return pipe;
  }
}
