import { request as httpRequest } from 'node:http';
import { Body, Controller, Get, INestApplication, Module, Param, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { RequestHandler } from 'express';
import { IsOptional, IsString } from 'class-validator';
import { applyPlatformHttpSetup } from '../http-app';
import { applyEdgeHygiene } from './edge-hygiene';
import { MAX_JSON_DEPTH } from './text-checks';

class ItemBody {
  @IsOptional() @IsString() title?: string;
  @IsOptional() nested?: unknown;
  @IsOptional() page?: unknown;
}

@Controller()
class ItemsController {
  @Get('items/:id')
  get(@Param('id') id: string, @Query() query: Record<string, unknown>) {
    return { id, query };
  }

  @Post('items')
  create(@Body() body: ItemBody) {
    return body;
  }

  @Post('login')
  login(@Body() body: Record<string, unknown>) {
    return { got: Object.keys(body) };
  }
}

@Module({ controllers: [ItemsController] })
class ItemsModule {}

/** Sends raw bytes (fetch cannot send invalid UTF-8 in a URL, and this keeps bodies byte-exact). */
function send(base: string, method: string, path: string, body?: Buffer | string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), json: JSON.parse(text) as Record<string, unknown> });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const problemOf = (r: { json: Record<string, unknown> }) => r.json['errors'] as Array<{ field: string; message: string }>;

describe('edge hygiene in front of a Nest app', () => {
  let app: INestApplication;
  let base: string;
  let installed: RequestHandler[];

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(ItemsModule, { logger: false, bodyParser: false });
    installed = applyEdgeHygiene(app.getHttpAdapter().getInstance(), { defaultBodyLimit: 64 * 1024, bodyLimits: [{ paths: ['/login'], bytes: 1024 }] });
    applyPlatformHttpSetup(app);
    await app.listen(0, '127.0.0.1');
    base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app.close();
  });

  it('lets clean requests through unchanged', async () => {
    const r = await send(base, 'GET', '/items/caf%C3%A9?q=a%20b&x=%E2%82%AC');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: 'café', query: { q: 'a b', x: '€' } });
    const posted = await send(base, 'POST', '/items', JSON.stringify({ title: 'fine ü', nested: { a: [1, 2.5, -3] } }));
    expect(posted.status).toBe(201);
    expect(posted.json).toEqual({ title: 'fine ü', nested: { a: [1, 2.5, -3] } });
  });

  it.each([
    ['NUL in a query value', '/items/1?q=a%00b', 'query.q', 'NUL'],
    ['invalid UTF-8 in a query value', '/items/1?q=%FF', 'query.q', 'UTF-8'],
    ['NUL in a path parameter', '/items/1%00', 'path.id', 'NUL'],
    ['invalid UTF-8 in a path parameter', '/items/%FF', 'path.id', 'UTF-8'],
    ['a bad segment of no route', '/%FF/x', 'path.0', 'UTF-8'],
  ])('refuses %s with a 422 naming the field', async (_name, path, field, word) => {
    const r = await send(base, 'GET', path);
    expect(r.status).toBe(422);
    expect(r.type).toContain('application/problem+json');
    expect(problemOf(r)[0]).toEqual({ field, message: expect.stringContaining(word) });
  });

  it.each([
    ['a JSON \\u0000 escape', Buffer.from('{"title":"a\\u0000b"}'), 'body.title', 'NUL'],
    ['raw invalid UTF-8 bytes in a string', Buffer.concat([Buffer.from('{"nested":{"x":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]), 'body.nested.x', 'UTF-8'],
    ['JSON nested 5,000 levels deep', Buffer.from(`{"nested":${'['.repeat(5000)}${']'.repeat(5000)}}`), 'body', `${MAX_JSON_DEPTH} levels`],
    ['an integer no client sends exactly', Buffer.from('{"page":1e20}'), 'body.page', '2^53'],
    ['a 20-digit integer', Buffer.from('{"page":99999999999999999999}'), 'body.page', '2^53'],
    ['a number that overflows to infinity', Buffer.from('{"meta":{"n":1e309}}'), 'body.meta.n', 'range of a double'],
    ['a number that underflows to zero', Buffer.from('{"threshold":1e-400}'), 'body', 'range of a double'],
    ['a lone UTF-16 surrogate escape', Buffer.from('{"meta":{"name":"a\\ud800b"}}'), 'body.meta.name', 'valid Unicode'],
  ])('refuses %s in a JSON body with a 422 naming the field', async (_name, body, field, word) => {
    const r = await send(base, 'POST', '/items', body);
    expect(r.status).toBe(422);
    expect(problemOf(r)[0]).toEqual({ field, message: expect.stringContaining(word) });
  });

  it('accepts JSON exactly at the nesting limit', async () => {
    const depth = MAX_JSON_DEPTH - 1; // plus the outer object
    const r = await send(base, 'POST', '/items', `{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    expect(r.status).toBe(201);
  });

  it('checks form bodies the same way', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect((await send(base, 'POST', '/login', 'user=a&password=b', form)).status).toBe(201);
    const nul = await send(base, 'POST', '/login', 'user=a%00', form);
    expect(nul.status).toBe(422);
    expect(problemOf(nul)[0]?.field).toBe('body.user');
    const bad = await send(base, 'POST', '/login', 'password=%C3', form);
    expect(problemOf(bad)[0]).toEqual({ field: 'body.password', message: expect.stringContaining('UTF-8') });
  });

  it("answers a body over its route group's limit with 413, and uses the default limit elsewhere", async () => {
    const big = JSON.stringify({ title: 'x'.repeat(2000) });
    const r = await send(base, 'POST', '/login', big);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ status: 413, code: 'payload_too_large', detail: 'The request body is larger than the configured limit.' });
    expect((await send(base, 'POST', '/items', big)).status).toBe(201);
    expect((await send(base, 'POST', '/items', JSON.stringify({ title: 'x'.repeat(70 * 1024) }))).status).toBe(413);
  });

  it('answers malformed JSON 400 and a charset other than UTF-8 415, both as JSON', async () => {
    const malformed = await send(base, 'POST', '/items', '{"title":');
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: 'bad_request', detail: 'The request body is malformed.' });
    for (const charset of ['latin1', 'utf-16']) {
      const r = await send(base, 'POST', '/items', '{"title":"x"}', { 'content-type': `application/json; charset=${charset}` });
      expect(r.status).toBe(415);
      expect(r.json).toMatchObject({ code: 'unsupported_media_type' });
    }
    const form = await send(base, 'POST', '/login', 'a=1', { 'content-type': 'application/x-www-form-urlencoded; charset=iso-8859-1' });
    expect(form.status).toBe(415);
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['application/xml', { 'content-type': 'application/xml' }],
    ['multipart/form-data', { 'content-type': 'multipart/form-data; boundary=x' }],
    ['no content type', { 'content-type': '' }],
  ])('answers a body no parser reads (%s) with 415 as JSON, before any handler sees it', async (_name, headers) => {
    for (const path of ['/items', '/login']) {
      const r = await send(base, 'POST', path, 'title=x', headers);
      expect(r.status).toBe(415);
      expect(r.json).toMatchObject({ code: 'unsupported_media_type', detail: expect.stringContaining('application/json') });
    }
  });

  it('lets a request with an empty body through whatever its content type', async () => {
    expect((await send(base, 'GET', '/items/1?x=1', undefined, { 'content-type': 'text/plain' })).status).toBe(200);
  });

  it('returns what it installed for lean routes, the parsers under the names Nest looks for', () => {
    expect(installed.map((m) => m.name)).toEqual(['edgeRequestCheck', 'jsonParser', 'urlencodedParser', expect.any(String)]);
  });
});
