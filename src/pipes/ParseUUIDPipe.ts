import { PipeTransform } from "../pipeline/PipeTransform.js";
import { isNil, type ParsePipeOptions, rejection } from "./ParsePipeOptions.js";

/**
 * Options of {@link ParseUUIDPipe}: the UUID version to require (any version without it).
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ParseUUIDPipeOptions extends ParsePipeOptions {
  readonly version?: "3" | "4" | "5" | "7";
}

const hex = "[0-9a-f]";
/** A UUID of `version` (any digit without one); versions 4, 5 and 7 also have the RFC variant. */
const uuidPattern = (version: ParseUUIDPipeOptions["version"]): RegExp => {
  const third = version === undefined ? `${hex}{4}` : `${version}${hex}{3}`;
  const fourth = version === undefined || version === "3" ? `${hex}{4}` : `[89ab]${hex}{3}`;
  return new RegExp(`^${hex}{8}-${hex}{4}-${third}-${fourth}-${hex}{12}$`, "i");
};

/**
 * Passes a UUID string (of the given `version`, if any) unchanged; anything else fails with
 * 400 `Validation failed (uuid is expected)` (`(uuid v 4 is expected)` with a version), and a
 * value that is not a string with 400 `The value passed as UUID is not a string`, as NestJS's.
 *
 * @example
 * @Controller("users")
 * class UsersController {
 *   @Get(":id")
 *   findOne(@Param("id", new ParseUUIDPipe({ version: "4" })) id: string) {
 *     return { id };
 *   }
 * }
 *
 * @since 0.1.0
 * @category pipes
 */
export class ParseUUIDPipe extends PipeTransform<unknown, string> {
  private readonly pattern: RegExp;
  private readonly optional: boolean;
  private readonly rejected: () => unknown;
  private readonly notAString: () => unknown;

  constructor(options: ParseUUIDPipeOptions = {}) {
    super();
    const { version } = options;
    this.pattern = uuidPattern(version);
    this.optional = options.optional === true;
    this.rejected = rejection(
      options,
      `Validation failed (uuid${version === undefined ? "" : ` v ${version}`} is expected)`,
    );
    this.notAString = rejection(options, "The value passed as UUID is not a string");
  }

  transform(value: unknown): string {
    if (this.optional && isNil(value)) return value as unknown as string;
    if (typeof value !== "string") throw this.notAString();
    if (!this.pattern.test(value)) throw this.rejected();
    return value;
  }
}
