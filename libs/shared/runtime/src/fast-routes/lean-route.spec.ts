import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import { request, Server } from 'node:http';
import {
  ArgumentsHost,
  Body,
  CallHandler,
  CanActivate,
  Catch,
  Controller,
  createParamDecorator,
  ExceptionFilter,
  ExecutionContext,
  Get,
  Header,
  Headers,
  HttpCode,
  HttpException,
  INestApplication,
  Injectable,
  Ip,
  Module,
  NestInterceptor,
  Param,
  Post,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
  ValidationPipe,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { IsInt, IsString, Max } from 'class-validator';
import express, { Express, Request, Response } from 'express';
import { map, of } from 'rxjs';
import { mountedFastRoutes } from './fast-router';
import { handleInside } from './handle-inside';
import { recordLeanAppSetup } from './lean-app-setup';
import { hasMediaType, LeanRoute } from './lean-route.decorator';
import { PlatformExpressAdapter } from '../platform-express-adapter';
import { LeanRoutesModule } from './lean-routes.module';

class EchoDto {
  @IsString()
  name!: string;

  @IsInt()
  @Max(10)
  count!: number;
}

class Teapot extends Error {}

/** The app-wide guard: a request that asks to be refused is. */
@Injectable()
class RefuseOnAsk implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    return ctx.switchToHttp().getRequest<Request>().headers['x-refuse'] === undefined;
  }
}

/** A route's own guard: needs a caller header, and leaves it on the request. */
@Injectable()
class CallerGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<Request & { caller?: string }>();
    const caller = req.headers['x-caller'];
    if (typeof caller !== 'string') throw new HttpException({ code: 'no_caller', handler: ctx.getHandler().name }, 401);
    req.caller = caller;
    return true;
  }
}

const CallerName = createParamDecorator((prefix: string, ctx: ExecutionContext) => `${prefix}${ctx.switchToHttp().getRequest<{ caller?: string }>().caller}`);

/** Wraps every answer of the controller, and names the class it ran for. */
@Injectable()
class Envelope implements NestInterceptor {
  intercept(ctx: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((data) => ({ data, by: ctx.getClass().name })));
  }
}

const requestScope = new AsyncLocalStorage<string>();

/**
 * Runs the rest of the chain inside an async-context scope, as a tenant scope or a request clock
 * does, through handleInside: the pattern both paths carry (lean-route-handler.ts).
 */
@Injectable()
class Scoped implements NestInterceptor {
  intercept(_ctx: ExecutionContext, next: CallHandler) {
    return handleInside(next, (run) => requestScope.run('scoped', run));
  }
}

@Catch(Teapot)
class TeapotFilter implements ExceptionFilter {
  catch(err: Teapot, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().status(418).json({ teapot: err.message });
  }
}

/** The app's global filter (given to app.useGlobalFilters): HTTP errors in one shape. */
@Catch(HttpException)
class HttpErrorShape implements ExceptionFilter {
  catch(err: HttpException, host: ArgumentsHost) {
    host.switchToHttp().getResponse<Response>().status(err.getStatus()).setHeader('cache-control', 'no-store').json({ error: err.getResponse() });
  }
}

@Controller('probe')
@UseInterceptors(Envelope)
class ProbeController {
  @Post('echo')
  @LeanRoute({ accepts: hasMediaType('application/json') })
  @UseGuards(CallerGuard)
  @Header('Cache-Control', 'private, max-age=5')
  echo(@Body() body: EchoDto, @CallerName('caller:') caller: string, @Headers('x-tag') tag: string | undefined, @Ip() ip: string) {
    return { body, caller, tag: tag ?? null, ip };
  }

  @Get('observable')
  @LeanRoute()
  observable() {
    return of({ observed: true });
  }

  @Get('scoped')
  @LeanRoute()
  @UseInterceptors(Scoped)
  async scoped() {
    await new Promise((resolve) => setImmediate(resolve));
    return { scope: requestScope.getStore() ?? null };
  }

  @Get('passthrough')
  @LeanRoute()
  @HttpCode(202)
  passthrough(@Res({ passthrough: true }) res: Response) {
    res.setHeader('x-set-by', 'handler');
    return 'accepted';
  }

  @Get('itself')
  @LeanRoute()
  itself(@Res() res: Response) {
    res.status(203).type('text/plain').send('answered by the handler');
  }

  @Get('fails')
  @LeanRoute()
  @UseFilters(TeapotFilter)
  fails(@Headers('x-fail') kind: string | undefined) {
    if (kind === 'teapot') throw new Teapot('short and stout');
    if (kind === 'http') throw new HttpException('gone', 410);
    throw new Error('not for the client');
  }
}

@Module({ imports: [LeanRoutesModule], controllers: [ProbeController], providers: [{ provide: APP_GUARD, useClass: RefuseOnAsk }] })
class ProbeModule {}

interface Probe {
  method: string;
  headers?: Record<string, string>;
  body?: string;
}

const json = { 'content-type': 'application/json', 'x-caller': 'ada' };
/** Requests for every lean route of ProbeModule: answers, refusals and failures. */
const PROBES: Record<string, Probe[]> = {
  '/probe/echo': [
    { method: 'POST', headers: json, body: '{"name":"a","count":3}' },
    { method: 'POST', headers: { ...json, 'x-tag': 't1' }, body: '{"name":"a","count":3}' },
    { method: 'POST', headers: json, body: '{"name":"a","count":11}' },
    { method: 'POST', headers: json, body: '{"name":"a","count":3,"extra":1}' },
    { method: 'POST', headers: json, body: '{"name":' },
    { method: 'POST', headers: json, body: JSON.stringify({ name: 'x'.repeat(300), count: 1 }) },
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a","count":3}' },
    { method: 'POST', headers: { ...json, 'x-refuse': '1' }, body: '{"name":"a","count":3}' },
  ],
  '/probe/observable': [{ method: 'GET' }, { method: 'GET', headers: { 'x-refuse': '1' } }],
  '/probe/scoped': [{ method: 'GET' }],
  '/probe/passthrough': [{ method: 'GET' }],
  '/probe/itself': [{ method: 'GET' }],
  '/probe/fails': [{ method: 'GET', headers: { 'x-fail': 'teapot' } }, { method: 'GET', headers: { 'x-fail': 'http' } }, { method: 'GET' }],
};

async function startProbeApp(): Promise<{ app: INestApplication; url: string; server: Server; expressApp: Express }> {
  // The production adapter (startHttpApp's), so both paths see the requests the services see.
  const app = await NestFactory.create(ProbeModule, new PlatformExpressAdapter(), { logger: false, bodyParser: false });
  const expressApp = app.getHttpAdapter().getInstance() as Express;
  // What startHttpApp records for a platform app: the pre-routing middleware, global pipe and filter.
  const parseJson = express.json({ limit: 200 });
  expressApp.use(parseJson);
  const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true });
  const filter = new HttpErrorShape();
  app.useGlobalPipes(pipe);
  app.useGlobalFilters(filter);
  recordLeanAppSetup(expressApp, { prelude: [parseJson], pipes: [pipe], filters: [filter] });
  await app.listen(0, '127.0.0.1');
  const server = app.getHttpServer() as Server;
  return { app, server, expressApp, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * What a client sees of an answer, but for what differs by nature from one request to the next.
 * Over node:http, which sends the path as given (fetch drops an empty query string).
 */
function answer(url: string, probe: Probe): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { host, pathname, search } = new URL(url);
  const path = pathname + (url.endsWith('?') ? '?' : search);
  return new Promise((resolve, reject) => {
    const req = request({ host: host.split(':')[0], port: Number(host.split(':')[1]), path, method: probe.method, headers: probe.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !['date', 'x-request-id', 'connection', 'keep-alive'].includes(k)));
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(probe.body);
  });
}

describe('@LeanRoute(): one implementation per route', () => {
  let app: INestApplication;
  let url: string;
  let server: Server;
  let expressApp: Express;

  beforeAll(async () => {
    ({ app, url, server, expressApp } = await startProbeApp());
  });
  afterAll(() => app.close());

  it('mounts every @LeanRoute() method, and each has probes here', () => {
    expect(mountedFastRoutes(server).map((r) => `${r.method} ${r.path}`).sort()).toEqual(
      ['GET /probe/fails', 'GET /probe/itself', 'GET /probe/observable', 'GET /probe/passthrough', 'GET /probe/scoped', 'POST /probe/echo'],
    );
    expect(Object.keys(PROBES).sort()).toEqual(mountedFastRoutes(server).map((r) => r.path).sort());
  });

  it('answers every probe of every lean route exactly as the Nest route does', async () => {
    // Express's own entry point (app.handle, which its request listener calls): counts the requests Express routed.
    const viaExpress = jest.spyOn(expressApp as Express & { handle: (...args: unknown[]) => void }, 'handle');
    try {
      for (const route of mountedFastRoutes(server)) {
        for (const probe of PROBES[route.path]!) {
          const accepted = route.accepts?.({ headers: probe.headers ?? {} } as never) ?? true;
          viaExpress.mockClear();
          const lean = await answer(url + route.path, probe);
          // The lean path took the request only if it accepts it; otherwise Express and Nest did.
          expect([route.path, probe, viaExpress.mock.calls.length]).toEqual([route.path, probe, accepted ? 0 : 1]);
          viaExpress.mockClear();
          // An empty query string: the same request (req.query is {}), past the lean path to Nest.
          const nest = await answer(`${url + route.path}?`, probe);
          expect(viaExpress).toHaveBeenCalledTimes(1);
          expect([route.path, probe, lean]).toEqual([route.path, probe, nest]);
        }
      }
    } finally {
      viaExpress.mockRestore();
    }
  });

  it('runs the whole chain on the lean path: guards, parameter decorators, pipes, interceptors, headers', async () => {
    const r = await answer(`${url}/probe/echo`, PROBES['/probe/echo']![1]!);
    expect(r.status).toBe(201);
    expect(r.headers['cache-control']).toBe('private, max-age=5');
    expect(JSON.parse(r.body)).toEqual({ data: { body: { name: 'a', count: 3 }, caller: 'caller:ada', tag: 't1', ip: '127.0.0.1' }, by: 'ProbeController' });
    expect((await answer(`${url}/probe/echo`, PROBES['/probe/echo']![2]!)).status).toBe(400);
    expect((await answer(`${url}/probe/fails`, { method: 'GET', headers: { 'x-fail': 'teapot' } })).status).toBe(418);
    // An interceptor's async-context scope reaches the method on the lean path too.
    expect(JSON.parse((await answer(`${url}/probe/scoped`, { method: 'GET' })).body)).toEqual({ data: { scope: 'scoped' }, by: 'ProbeController' });
  });
});

describe('@LeanRoute() on a method the lean path cannot serve exactly', () => {
  @Controller('items')
  class ParamController {
    @Get(':id')
    @LeanRoute()
    one(@Param('id') id: string) {
      return { id };
    }
  }

  @Module({ imports: [LeanRoutesModule], controllers: [ParamController] })
  class ParamModule {}

  it('is refused at boot, naming the method and why, even by an app without the platform setup', async () => {
    const app = await NestFactory.create(ParamModule, { logger: false });
    try {
      await expect(app.init()).rejects.toThrow('@LeanRoute() on ParamController.one: a lean route has an exact path (no parameters)');
    } finally {
      await app.close();
    }
  });
});
