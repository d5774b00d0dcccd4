/** A browser's cookie jar and redirects, just enough to drive the login pages over plain HTTP. */
export class HttpBrowser {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(new URL(path, this.base), { ...init, redirect: 'manual', headers: { ...(init.headers as Record<string, string>), cookie: this.cookieHeader } });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** Posts a form, adding the page's CSRF token. */
  async submit(page: string, action: string, fields: Record<string, string>): Promise<Response> {
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    return this.request(action, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, ...fields }) });
  }

  /** Follows redirects inside the server; stops at the first page (200/4xx) or at a foreign location. */
  async follow(res: Response): Promise<{ res: Response; location?: string }> {
    while (res.status >= 300 && res.status < 400) {
      const location = res.headers.get('location')!;
      const next = new URL(location, this.base);
      if (next.origin !== new URL(this.base).origin) return { res, location };
      res = await this.request(next.pathname + next.search);
    }
    return { res };
  }
}

const returnToOf = (page: string) => /name="return_to" value="([^"]*)"/.exec(page)?.[1]?.replace(/&#38;/g, '&') ?? '';

/**
 * Runs an authorization request through the password form: authorize, sign-in page, post,
 * back to authorize, and returns where the server finally sends the browser (the callback).
 */
export async function authorizeWithPassword(browser: HttpBrowser, authorizeUrl: string, email: string, password: string): Promise<{ location?: string; page?: string; status: number }> {
  const first = await browser.follow(await browser.request(authorizeUrl));
  if (first.location) return { location: first.location, status: first.res.status };
  const page = await first.res.text();
  const posted = await browser.submit(page, '/login', { email, password, return_to: returnToOf(page) });
  const end = await browser.follow(posted);
  if (end.location) return { location: end.location, status: end.res.status };
  return { page: await end.res.text(), status: end.res.status };
}

export { returnToOf };
