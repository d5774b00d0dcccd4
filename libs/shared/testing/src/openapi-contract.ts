import type { INestApplication } from '@nestjs/common';
import { ServedOpenApiDocument } from '@platform/runtime';
import {
  committedOpenApiDocument,
  pathParameterMismatches,
  undocumentedRoutes,
  unservedOperations,
} from './registered-routes';
import type { RunningService } from './service-suite';

export type ServedOperation = {
  parameters?: Array<{ in: string; name: string }>;
  security?: unknown[];
};
export type ServedOpenApi = {
  openapi: string;
  paths: Record<string, Record<string, ServedOperation>>;
};

type Served = Pick<RunningService, 'app' | 'url'>;
/** A booted service: its app and URL, or the two as `svc` (a service booted with a test issuer); stop() ends it. */
type StartedService = (Served | { svc: Served }) & { stop(): Promise<void> };

export interface OpenApiContract {
  /** The committed document is docs/api/<service>.openapi.json. */
  service: string;
  /** Where the service serves its document, without a token. */
  servedAt: string;
  /** Boots the service with every optional area on (its OPENAPI_ENV), so every route it can serve is registered. */
  start(): Promise<StartedService>;
}

/**
 * The checks every service's OpenAPI document passes, as one describe block: it is served without a
 * token, as the app generated it; it lists every route the app registers and nothing else; every
 * operation declares the path parameters its path uses; and it is committed unchanged. `more`
 * registers the service's own checks in the same block; `served()` is the document as fetched.
 */
export function describeOpenApiContract(
  title: string,
  contract: OpenApiContract,
  more?: (served: () => ServedOpenApi) => void,
): void {
  describe(title, () => {
    let running: StartedService | undefined;
    let app: INestApplication;
    let status: number;
    let served: ServedOpenApi;
    beforeAll(async () => {
      running = await contract.start();
      const svc = 'svc' in running ? running.svc : running;
      app = svc.app;
      const r = await fetch(`${svc.url}${contract.servedAt}`);
      status = r.status;
      served = (await r.json()) as ServedOpenApi;
    });
    afterAll(() => running?.stop());

    it(`is served at ${contract.servedAt} without a token, as generated`, () => {
      expect(status).toBe(200);
      expect(served.openapi).toBe('3.1.0');
      expect(served).toEqual(JSON.parse(JSON.stringify(app.get(ServedOpenApiDocument).document())));
    });

    // A new route fails the build until its controller documents it.
    it('documents every route the app registers', () => {
      expect(undocumentedRoutes(app, served)).toEqual([]);
    });

    it('lists no operation the app does not serve', () => {
      expect(unservedOperations(app, served)).toEqual([]);
    });

    it('declares every path parameter it uses', () => {
      expect(pathParameterMismatches(served)).toEqual([]);
    });

    it(`is committed unchanged at docs/api/${contract.service}.openapi.json (npm run openapi)`, () => {
      expect(served).toEqual(committedOpenApiDocument(contract.service));
    });

    more?.(() => served);
  });
}
