export * from './draining.service';
export * from './readiness.service';
export * from './health.controller';
export * from './health.module';
