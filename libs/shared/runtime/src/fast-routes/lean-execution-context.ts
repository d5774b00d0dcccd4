import type { ExecutionContext, Type } from '@nestjs/common';
import type { HttpArgumentsHost, RpcArgumentsHost, WsArgumentsHost } from '@nestjs/common/interfaces';

/**
 * The execution context a lean request's guards, interceptors, custom parameter decorators and
 * filters receive: the public shape of Nest's own ([req, res, next], the controller class, the
 * handler, type 'http'), so they read route metadata and the request exactly as on the Nest route.
 */
export class LeanExecutionContext implements ExecutionContext {
  private readonly args: [unknown, unknown, (err?: unknown) => void];

  constructor(
    req: unknown,
    res: unknown,
    private readonly controller: Type<unknown>,
    private readonly handler: (...args: unknown[]) => unknown,
  ) {
    this.args = [req, res, () => undefined];
  }

  getClass<T = unknown>(): Type<T> {
    return this.controller as Type<T>;
  }

  getHandler(): (...args: unknown[]) => unknown {
    return this.handler;
  }

  getArgs<T extends unknown[] = unknown[]>(): T {
    return this.args as unknown as T;
  }

  getArgByIndex<T = unknown>(index: number): T {
    return this.args[index] as T;
  }

  getType<T extends string = 'http'>(): T {
    return 'http' as T;
  }

  switchToHttp(): HttpArgumentsHost {
    const [req, res, next] = this.args;
    return { getRequest: <T>() => req as T, getResponse: <T>() => res as T, getNext: <T>() => next as T };
  }

  switchToRpc(): RpcArgumentsHost {
    throw new Error('a lean route is an HTTP route');
  }

  switchToWs(): WsArgumentsHost {
    throw new Error('a lean route is an HTTP route');
  }
}
