import 'reflect-metadata';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Body, Controller, Get, INestApplication, Module, Post, Req, Res } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express, { Express, Request, Response } from 'express';
import { PlatformExpressAdapter } from './platform-express-adapter';

/** What the handler saw of its request and response, taken before anything else touched them. */
interface Seen {
  protoIsAppRequest: boolean;
  protoIsAppResponse: boolean;
  isIncomingMessage: boolean;
  isServerResponse: boolean;
  appOnRequest: boolean;
  appOnResponse: boolean;
  ip: string | undefined;
  host: string | undefined;
  contentType: string | undefined;
}

let expressApp: Express;
const seen: Seen[] = [];

@Controller('probe')
class ProbeController {
  @Get()
  get(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    seen.push({
      protoIsAppRequest: Object.getPrototypeOf(req) === expressApp.request,
      protoIsAppResponse: Object.getPrototypeOf(res) === expressApp.response,
      isIncomingMessage: req instanceof IncomingMessage,
      isServerResponse: res instanceof ServerResponse,
      appOnRequest: req.app === expressApp,
      appOnResponse: res.app === expressApp,
      ip: req.ip,
      host: req.hostname,
      contentType: req.get('content-type'),
    });
    return { ok: true, query: req.query };
  }

  @Post()
  post(@Body() body: unknown) {
    return { body };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('PlatformExpressAdapter', () => {
  let app: INestApplication;
  let url: string;
  let arrivals: { proto: object; app: object }[];

  beforeAll(async () => {
    app = await NestFactory.create(ProbeModule, new PlatformExpressAdapter(), { logger: false });
    expressApp = app.getHttpAdapter().getInstance() as Express;
    expressApp.set('trust proxy', 'loopback');
    await app.listen(0, '127.0.0.1');
    const server = app.getHttpServer();
    arrivals = [];
    // The prototype a request has when the server hands it over, before Express's app.handle runs.
    server.prependListener('request', (req: IncomingMessage) => arrivals.push({ proto: Object.getPrototypeOf(req), app: expressApp.request }));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  it("builds every request and response with Express's prototypes already in place", async () => {
    seen.length = 0;
    arrivals.length = 0;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${url}/probe?n=${i}`, { headers: { 'x-forwarded-for': '203.0.113.9', 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, query: { n: String(i) } });
    }
    expect(arrivals).toHaveLength(3);
    for (const a of arrivals) expect(a.proto).toBe(a.app);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(s).toEqual({
        protoIsAppRequest: true,
        protoIsAppResponse: true,
        isIncomingMessage: true,
        isServerResponse: true,
        appOnRequest: true,
        appOnResponse: true,
        ip: '203.0.113.9',
        host: '127.0.0.1',
        contentType: 'application/json',
      });
    }
  });

  it('parses bodies and answers as Nest does', async () => {
    const res = await fetch(`${url}/probe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: [1, 2] }) });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(/^W\/"/);
    expect(await res.json()).toEqual({ body: { a: [1, 2] } });
  });

  it("keeps Nest's own server, and Express's prototypes, where the platform's does not apply", () => {
    for (const options of [{ forceCloseConnections: true }, { httpsOptions: {} }]) {
      const adapter = new PlatformExpressAdapter();
      adapter.initHttpServer(options);
      // Express's own chain (app.request → express.request): no platform classes were installed.
      expect(Object.getPrototypeOf(adapter.getInstance<Express>().request)).toBe(express.request);
      expect(adapter.getHttpServer().listeners('request')).toHaveLength(1);
    }
  });

  it('leaves constructor identity as Node gives it (IncomingMessage, ServerResponse)', () => {
    expect(expressApp.request.constructor).toBe(IncomingMessage);
    expect(expressApp.response.constructor).toBe(ServerResponse);
  });

  it("puts the platform's classes in Express's chain (app.request → express.request)", () => {
    expect(Object.getPrototypeOf(Object.getPrototypeOf(expressApp.request))).toBe(express.request);
    expect(Object.getPrototypeOf(Object.getPrototypeOf(expressApp.response))).toBe(express.response);
  });
});
