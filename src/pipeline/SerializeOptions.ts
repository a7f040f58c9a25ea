import { type CustomDecorator, SetMetadata } from "../di/SetMetadata.js";
import type { Type } from "../di/Token.js";
import type { ClassTransformOptions } from "./ClassValidation.js";

/** The metadata key of {@link SerializeOptions} (NestJS's value). @since 0.1.0 @category serialization */
export const CLASS_SERIALIZER_OPTIONS = "class_serializer:options";

/**
 * What {@link ClassSerializerInterceptor} serializes with: class-transformer's options, and
 * `type`, the class a plain result is made an instance of first (so its decorators apply).
 *
 * @since 0.1.0
 * @category serialization
 */
export interface ClassSerializerContextOptions extends ClassTransformOptions {
  readonly type?: Type<unknown>;
}

/**
 * NestJS's `@SerializeOptions(options)`: the serializer's options for a controller or one
 * handler (the handler's win), over the interceptor's defaults.
 *
 * @since 0.1.0
 * @category serialization
 */
export const SerializeOptions = (options: ClassSerializerContextOptions): CustomDecorator =>
  SetMetadata(CLASS_SERIALIZER_OPTIONS, options);
