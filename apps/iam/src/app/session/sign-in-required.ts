import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';

/** A page that needs a signed-in browser was asked for without one. */
export class SignInRequired extends Error {
  /** `returnTo`: the page to come back to once signed in. */
  constructor(readonly returnTo: string) {
    super('a signed-in session is required');
  }
}

/** Sends the browser to the sign-in page (303), which brings it back to `returnTo` afterwards. */
@Catch(SignInRequired)
export class SignInRedirectFilter implements ExceptionFilter<SignInRequired> {
  catch(exception: SignInRequired, host: ArgumentsHost): void {
    host.switchToHttp().getResponse<Response>().redirect(303, `/login?return_to=${encodeURIComponent(exception.returnTo)}`);
  }
}
