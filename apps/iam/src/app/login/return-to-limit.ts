import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { LoginPages } from './login-pages';
import { RETURN_TO_MAX_LENGTH } from './return-to';

const TOO_LONG = `This sign-in request is too long (return_to has more than ${RETURN_TO_MAX_LENGTH} characters). Start again from the application.`;

/**
 * A `return_to` (query or form) longer than the pages carry is refused visibly, with a 400, on
 * every sign-in route: read as absent it would quietly send the user to their account page once
 * signed in, abandoning the authorization request they came with.
 */
@Injectable()
export class ReturnToLimit implements NestMiddleware {
  constructor(private readonly pages: LoginPages) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const body: unknown = req.body;
    const values = [req.query['return_to'], body && typeof body === 'object' ? (body as Record<string, unknown>)['return_to'] : undefined];
    if (!values.some((v) => typeof v === 'string' && v.length > RETURN_TO_MAX_LENGTH)) return next();
    // The passkey calls are the page script's JSON: it shows their `{message}`.
    if (req.is('application/json')) {
      res.status(400).json({ message: TOO_LONG });
      return;
    }
    this.pages.message(res, 400, 'This sign-in request cannot be completed', TOO_LONG, { href: '/login', label: 'Sign in' });
  }
}
