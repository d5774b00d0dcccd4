import { RunningService, startServiceForTest } from '@platform/testing';
import { mountProxy } from '../src/app/proxy/mount-proxy';

/** The gateway as main.ts mounts it, with every upstream at `upstreamUrl` and `env` on top. */
export function startGatewayOver(
  upstreamUrl: string,
  env: Record<string, string> = {},
): Promise<RunningService> {
  return startServiceForTest({
    service: 'gateway',
    loadAppModule: async () => (await import('../src/app.module')).AppModule,
    httpOptions: { configure: mountProxy },
    env: {
      UPSTREAM_IAM_URL: upstreamUrl,
      UPSTREAM_KB_URL: upstreamUrl,
      UPSTREAM_GUARDRAILS_URL: upstreamUrl,
      UPSTREAM_EVIDENCE_URL: upstreamUrl,
      ...env,
    },
  });
}
