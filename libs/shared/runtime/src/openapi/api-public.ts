import { SetMetadata } from '@nestjs/common';

/** The metadata keys @nestjs/swagger reads a controller's security requirements and an operation's fields from. */
const API_SECURITY = 'swagger/apiSecurity';
const API_OPERATION = 'swagger/apiOperation';

/**
 * Marks an operation (or a whole controller) as needing no credentials in the OpenAPI document
 * (`security: []`), overriding the document's default security. Pair it with the app's own
 * public marker, which is what the guard reads.
 *
 * On a method it is written into the operation's own fields: the explorer drops an empty
 * method-level security list as "not set", while @ApiOperation merges into what is there (so the
 * two combine in either order).
 */
export const ApiPublic = (): MethodDecorator & ClassDecorator =>
  ((target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (!descriptor) return SetMetadata(API_SECURITY, [])(target as never);
    const operation = (Reflect.getMetadata(API_OPERATION, descriptor.value) as object | undefined) ?? {};
    Reflect.defineMetadata(API_OPERATION, { ...operation, security: [] }, descriptor.value);
    return descriptor;
  }) as MethodDecorator & ClassDecorator;
