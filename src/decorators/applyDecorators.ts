/** Any decorator {@link applyDecorators} combines. */
type AnyDecorator = ClassDecorator | MethodDecorator | PropertyDecorator;

/**
 * Combines decorators into one, applied in order to the class or the method it decorates:
 * `const Auth = (...roles) => applyDecorators(SetMetadata("roles", roles), UseGuards(RolesGuard))`.
 *
 * @since 0.1.0
 * @category metadata
 */
export const applyDecorators =
  (...decorators: ReadonlyArray<AnyDecorator>) =>
  <TFunction extends Function, Y>(
    target: TFunction | object,
    property?: string | symbol,
    descriptor?: TypedPropertyDescriptor<Y>,
  ): void => {
    for (const decorator of decorators) {
      if (typeof target === "function" && descriptor === undefined && property === undefined) {
        (decorator as ClassDecorator)(target);
      } else {
        (decorator as MethodDecorator)(
          target,
          property as string | symbol,
          descriptor as TypedPropertyDescriptor<Y>,
        );
      }
    }
  };
