import { createEmbeddingsProvider, OpenAiCompatibleEmbeddings } from './embeddings';
import { FakeEmbeddingsServer } from './embeddings-fake-server';
import { LlmConfigError, LlmUnavailableError } from './provider';

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

async function failureOf(p: Promise<unknown>): Promise<LlmUnavailableError> {
  const outcome = await p.then(() => null, (e: unknown) => e);
  expect(outcome).toBeInstanceOf(LlmUnavailableError);
  return outcome as LlmUnavailableError;
}

describe('OpenAiCompatibleEmbeddings against a real local /v1/embeddings server', () => {
  let server: FakeEmbeddingsServer;
  const client = (extra: Partial<ConstructorParameters<typeof OpenAiCompatibleEmbeddings>[0]> = {}) =>
    new OpenAiCompatibleEmbeddings({ baseUrl: server.url, model: 'embed-small', ...extra });

  beforeEach(async () => {
    server = await new FakeEmbeddingsServer(64, { car: 'vehicle', automobile: 'vehicle' }).start();
  });
  afterEach(() => server.stop());

  it('posts the model, texts and key, and returns the vectors in input order', async () => {
    const texts = ['the car needs oil', 'an automobile needs oil', 'tax return deadline'];
    const vectors = await client({ apiKey: 'k-1', baseUrl: `${server.url}/` }).embed(texts);

    expect(vectors).toEqual(texts.map((t) => server.embedding(t)));
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]).toMatchObject({ path: '/v1/embeddings', authorization: 'Bearer k-1', body: { model: 'embed-small', input: texts } });
    expect(server.calls[0].body.dimensions).toBeUndefined();
    // The fake model puts synonyms together: the two car sentences are closer than the tax one.
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(0.9);
    expect(cosine(vectors[0], vectors[2])).toBeLessThan(0.5);
  });

  it('splits the texts into sequential batches of the configured size', async () => {
    const texts = Array.from({ length: 7 }, (_, i) => `text number ${i} about word${i}`);
    const vectors = await client({ batchSize: 3, dimensions: 64 }).embed(texts);

    expect(server.calls.map((c) => c.body.input.length)).toEqual([3, 3, 1]);
    expect(server.calls[0].body.dimensions).toBe(64);
    expect(vectors).toEqual(texts.map((t) => server.embedding(t)));
  });

  it('names the failing batch and the HTTP status', async () => {
    server.fail(503);
    const e = await failureOf(client({ batchSize: 2 }).embed(['a text', 'b text', 'c text']));
    expect(e.kind).toBe('http_status');
    expect(e.message).toBe('Embeddings batch 1 of 2 failed: LLM provider answered HTTP 503.');
  });

  it('gives up after its time limit', async () => {
    server.fail('hang');
    const e = await failureOf(client({ timeoutMs: 150 }).embed(['slow text']));
    expect(e.kind).toBe('timeout');
    expect(e.message).toContain('timed out after 150 ms');
  });

  it('reports an unreachable server as a network failure', async () => {
    const url = server.url;
    await server.stop();
    const e = await failureOf(new OpenAiCompatibleEmbeddings({ baseUrl: url, model: 'm' }).embed(['x']));
    expect(e.kind).toBe('network');
  });
});

describe('OpenAiCompatibleEmbeddings reply checks', () => {
  const replying = (reply: unknown) => {
    const fetchMock = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(reply), { status: 200 }));
    return { fetchMock, client: new OpenAiCompatibleEmbeddings({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }) };
  };
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['too few vectors', { data: [{ index: 0, embedding: [1, 0] }] }, 'answered 1 vectors for 2 texts'],
    ['no data', {}, 'answered no vectors for 2 texts'],
    ['a repeated index', { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [1] }] }, 'missing or repeated index'],
    ['a non-numeric vector', { data: [{ index: 0, embedding: [1, 'x'] }, { index: 1, embedding: [1, 2] }] }, 'not a list of numbers'],
    ['vectors of different lengths', { data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [1, 2, 3] }] }, 'different lengths'],
  ])('rejects a reply with %s', async (_label, reply, message) => {
    const { client } = replying(reply);
    const e = await failureOf(client.embed(['one', 'two']));
    expect(e.kind).toBe('bad_reply');
    expect(e.message).toContain(message);
  });
});

describe('createEmbeddingsProvider', () => {
  it('builds nothing for none and a client for openai-compatible', () => {
    expect(createEmbeddingsProvider()).toBeNull();
    expect(createEmbeddingsProvider({ provider: 'none' })).toBeNull();
    const p = createEmbeddingsProvider({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1', model: 'e5' });
    expect(p?.model).toBe('e5');
  });

  it.each([
    [{ provider: 'openai-compatible', base_url: 'not a url', model: 'm' }, 'is not a URL'],
    [{ provider: 'openai-compatible', base_url: 'http://x/v1', model: ' ' }, 'model must be a non-empty string'],
    [{ provider: 'openai-compatible', base_url: 'http://x/v1', model: 'm', batch_size: 0 }, 'batch size'],
    [{ provider: 'openai-compatible', base_url: 'http://x/v1', model: 'm', dimensions: 1.5 }, 'dimensions'],
    [{ provider: 'mystery' }, 'Unknown embeddings provider [mystery]'],
  ])('refuses bad config %#', (config, message) => {
    expect(() => createEmbeddingsProvider(config as never)).toThrow(LlmConfigError);
    expect(() => createEmbeddingsProvider(config as never)).toThrow(message);
  });
});
