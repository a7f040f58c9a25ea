import { createRequire } from "node:module";
import * as HttpServerResponse from "@effect/platform/HttpServerResponse";
import { Inject } from "../di/Inject.js";
import { Injectable } from "../di/Injectable.js";
import { Optional } from "../di/Optional.js";
import { Reflector } from "../di/Reflector.js";
import { StreamableFile } from "../http/StreamableFile.js";
import type { ClassTransformOptions } from "./ClassValidation.js";
import type { ExecutionContext } from "./ExecutionContext.js";
import { type CallHandler, Interceptor } from "./Interceptor.js";
import {
  CLASS_SERIALIZER_OPTIONS,
  type ClassSerializerContextOptions,
} from "./SerializeOptions.js";

interface ClassTransformer {
  instanceToPlain(object: unknown, options?: ClassTransformOptions): unknown;
  plainToInstance(cls: Function, plain: unknown, options?: ClassTransformOptions): unknown;
}

const require = createRequire(import.meta.url);

/** class-transformer, loaded when the first serializer is made (an optional peer dependency). */
const loadClassTransformer = (): ClassTransformer => {
  try {
    return require("class-transformer") as ClassTransformer;
  } catch (cause) {
    throw new Error(
      "ClassSerializerInterceptor serializes with class-transformer, which is not installed: run `npm install class-transformer`.",
      { cause },
    );
  }
};

/** The defaults of a {@link ClassSerializerInterceptor}. @since 0.1.0 @category serialization */
export type ClassSerializerInterceptorOptions = ClassSerializerContextOptions;

/**
 * The token under which a module may provide the defaults of a {@link ClassSerializerInterceptor}
 * the app creates (`{ provide: CLASS_SERIALIZER_DEFAULTS, useValue: { groups: ["public"] } }`).
 *
 * @since 0.1.0
 * @category serialization
 */
export const CLASS_SERIALIZER_DEFAULTS = "strata:class-serializer-defaults";

/**
 * NestJS's `ClassSerializerInterceptor`: the handler's result (an object, or each item of an
 * array) goes through class-transformer's `instanceToPlain`, so `@Exclude()`, `@Expose()` and
 * `@Transform()` on its class shape the JSON; with `type` (from `@SerializeOptions`), a plain
 * result is made an instance of it first. Options: the interceptor's defaults, then the
 * controller's `@SerializeOptions`, overridden by the handler's. Strings, bytes, streams and
 * platform responses pass as they are. Needs class-transformer (an optional peer dependency).
 *
 * @example
 * class UserEntity {
 *   id = 0;
 *   password = ""; // with class-transformer's @Exclude(), left out of the JSON
 *   constructor(fields: Partial<UserEntity>) {
 *     Object.assign(this, fields);
 *   }
 * }
 *
 * @Controller("users")
 * @UseInterceptors(ClassSerializerInterceptor)
 * class UsersController {
 *   @Get(":id")
 *   findOne() {
 *     return new UserEntity({ id: 1, password: "secret" });
 *   }
 * }
 *
 * // or for the whole app:
 * declare const app: StrataApp;
 * app.useGlobalInterceptors(new ClassSerializerInterceptor(app.get(Reflector)));
 *
 * @since 0.1.0
 * @category serialization
 */
@Injectable()
export class ClassSerializerInterceptor extends Interceptor {
  private readonly transformer: ClassTransformer;

  constructor(
    protected readonly reflector: Reflector,
    @Optional()
    @Inject(CLASS_SERIALIZER_DEFAULTS)
    protected readonly defaultOptions: ClassSerializerInterceptorOptions = {},
  ) {
    super();
    this.transformer = loadClassTransformer();
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const options: ClassSerializerContextOptions = {
      ...this.defaultOptions,
      ...this.reflector.getAllAndOverride<ClassSerializerContextOptions | undefined>(
        CLASS_SERIALIZER_OPTIONS,
        [context.getHandler(), context.getClass()],
      ),
    };
    return this.serialize(await next(), options);
  }

  /** `response` made plain: an object or each item of an array; anything else as it is. */
  serialize(response: unknown, options: ClassSerializerContextOptions): unknown {
    if (
      typeof response !== "object" ||
      response === null ||
      response instanceof StreamableFile ||
      response instanceof Uint8Array ||
      HttpServerResponse.isServerResponse(response)
    ) {
      return response;
    }
    return Array.isArray(response)
      ? response.map((item) => this.transformToPlain(item, options))
      : this.transformToPlain(response, options);
  }

  /** One value made plain, through an instance of `options.type` when it is not one yet. */
  transformToPlain(value: unknown, options: ClassSerializerContextOptions): unknown {
    if (!value) return value;
    const { type, ...transformOptions } = options;
    const instance =
      type === undefined || value instanceof type
        ? value
        : this.transformer.plainToInstance(type, value, transformOptions);
    return this.transformer.instanceToPlain(instance, transformOptions);
  }
}
