import { describeServiceBasics } from '@platform/testing';
import { mountProxy } from '../src/app/proxy/mount-proxy';

describeServiceBasics({
  service: 'gateway',
  loadAppModule: async () => (await import('../src/app.module')).AppModule,
  httpOptions: { configure: mountProxy },
});
