import { committedOpenApiDocument, pathParameterMismatches, RunningService, undocumentedRoutes, unservedOperations } from '@platform/testing';
import { OPENAPI_ENV } from '../src/openapi-spec';
import { startIam } from './iam-test-env';

type Operation = { parameters?: Array<{ in: string; name: string }>; security?: unknown[] };
type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** The document generated from iam's module graph, as the running service serves it. */
describe('iam OpenAPI document', () => {
  let running: RunningService;
  let served: OpenApiDocument;
  beforeAll(async () => {
    // Every optional area on (as for the committed document), so every route the app can serve is registered.
    running = await startIam(OPENAPI_ENV);
    const r = await fetch(`${running.url}/api/iam/openapi.json`);
    expect(r.status).toBe(200);
    served = (await r.json()) as OpenApiDocument;
  });
  afterAll(() => running?.stop());

  it('is served at /api/iam/openapi.json without authentication', () => {
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths)).toContain('/oauth/token');
    expect(served.paths['/api/iam/openapi.json']?.['get']?.security).toEqual([]);
  });

  // A new route fails the build until its controller documents it.
  it('documents every route the app registers', () => {
    expect(undocumentedRoutes(running.app, served)).toEqual([]);
  });

  it('lists no operation the app does not serve', () => {
    expect(unservedOperations(running.app, served)).toEqual([]);
  });

  it('declares every path parameter it uses', () => {
    expect(pathParameterMismatches(served)).toEqual([]);
  });

  it('is committed unchanged at docs/api/iam.openapi.json (npm run openapi)', () => {
    expect(served).toEqual(committedOpenApiDocument('iam'));
  });
});
