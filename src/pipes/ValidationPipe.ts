import * as Either from "effect/Either";
import type { RequestContext } from "../http/RequestContext.js";
import {
  type DtoSchema,
  isSchema,
  type ValidationOptions,
  validator,
} from "../pipeline/Validation.js";
import { type ArgumentMetadata, PipeTransform } from "./PipeTransform.js";

/**
 * Options of {@link ValidationPipe}: a `schema` to validate every argument against (instead
 * of each argument's declared DTO), and how excess properties are treated.
 *
 * @since 0.1.0
 * @category pipes
 */
export interface ValidationPipeOptions extends ValidationOptions {
  readonly schema?: DtoSchema;
}

/**
 * Validates an argument against its Effect Schema: the one given to the pipe, else the DTO
 * declared by `@Body(Dto)`, `@Query(Schema)` or `@Param(name, Schema)`. The decoded value
 * reaches the handler; a failure is 400 `Validation failed` with one line per field in
 * `errors`. Arguments without a Schema pass through unchanged.
 *
 * An argument is decoded against its declared DTO once: when several such pipes apply to it
 * (say, one global and one on the method), only the most specific runs; without any, Strata
 * validates declared Schemas itself, before the argument's own pipes.
 *
 * @example
 * app.useGlobalPipes(new ValidationPipe({ onExcessProperty: "error" }));
 *
 * @since 0.1.0
 * @category pipes
 */
export class ValidationPipe extends PipeTransform {
  private readonly validators = new Map<
    DtoSchema,
    (input: unknown) => Either.Either<unknown, Error>
  >();

  constructor(readonly options: ValidationPipeOptions = {}) {
    super();
  }

  transform(value: unknown, _context: RequestContext, metadata: ArgumentMetadata): unknown {
    const schema = this.options.schema ?? metadata.metatype;
    if (!isSchema(schema)) return value;
    let validate = this.validators.get(schema);
    if (validate === undefined) {
      validate = validator(schema, this.options);
      this.validators.set(schema, validate);
    }
    const result = validate(value);
    if (Either.isLeft(result)) throw result.left;
    return result.right;
  }
}
