export * from './fast-router';
export * from './nest-bridge';
export * from './mount-in-app';
export * from './lean-app-setup';
export * from './lean-route.decorator';
export * from './lean-routes.module';
export * from './handle-inside';
