export * from './keyring';
export * from './envelope';
export * from './secret-hasher';
export * from './password-hasher';
export * from './random';
