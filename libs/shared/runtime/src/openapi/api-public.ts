import { SetMetadata } from '@nestjs/common';

/** The metadata key @nestjs/swagger reads an operation's (or controller's) security requirements from. */
const API_SECURITY = 'swagger/apiSecurity';

/**
 * Marks an operation (or a whole controller) as needing no credentials in the OpenAPI document
 * (`security: []`), overriding the document's default security. Pair it with the app's own
 * public marker, which is what the guard reads.
 */
export const ApiPublic = (): MethodDecorator & ClassDecorator => SetMetadata(API_SECURITY, []);
