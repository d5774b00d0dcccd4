export * from './openapi-document';
export * from './served-openapi';
export * from './api-public';
