export * from './jwt-verifier';
export * from './principal';
export * from './decorators';
export * from './jwt-auth.guard';
export * from './auth.module';
export * from './dpop';
