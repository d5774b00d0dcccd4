import type { Response } from 'express';

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Tagged template that escapes every interpolated value unless it is already `Html`. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = string | number | Html | undefined | null | false | Part[];

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (Array.isArray(part)) return part.map(render).join('');
  if (part instanceof Html) return part.value;
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let out = strings[0];
  for (let i = 0; i < parts.length; i++) out += render(parts[i]) + strings[i + 1];
  return new Html(out);
}

/**
 * Our own scripts and styles only (served under /login/assets); nothing inline and nothing
 * external. No form-action: Chromium applies it to the redirect that follows a sign-in, and that
 * redirect goes to the client's registered redirect_uri.
 */
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/**
 * What every HTML answer of iam carries (the sign-in pages and authorize's error page): never
 * cached, never framed (clickjacking a sign-in or consent button), never sniffed as another type,
 * and no Referer with a request's URL to wherever a link leads.
 */
export const PAGE_HEADERS = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
} as const;

export interface PageOptions {
  title: string;
  body: Html;
  status?: number;
  scripts?: string[];
}

export function sendPage(res: Response, { title, body, status = 200, scripts = [] }: PageOptions): void {
  res
    .status(status)
    .type('html')
    .set(PAGE_HEADERS)
    .send(
      html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/login/assets/login.css">
${scripts.map((s) => html`<script src="${s}" defer></script>`)}
</head>
<body>
<main class="card">
${body}
</main>
</body>
</html>
`.value,
    );
}

/** A field with its label and, when present, its error right below it (linked by aria-describedby). */
export function field(opts: {
  name: string;
  label: string;
  type?: string;
  value?: string;
  autocomplete?: string;
  error?: string;
  autofocus?: boolean;
  inputmode?: string;
  hint?: string;
}): Html {
  const id = `f-${opts.name}`;
  const describedBy = [opts.hint ? `${id}-hint` : '', opts.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${opts.error ? ' has-error' : ''}">
<label for="${id}">${opts.label}</label>
${opts.hint ? html`<p class="hint" id="${id}-hint">${opts.hint}</p>` : ''}
<input id="${id}" name="${opts.name}" type="${opts.type ?? 'text'}" value="${opts.value ?? ''}"${opts.autocomplete ? html` autocomplete="${opts.autocomplete}"` : ''}${opts.inputmode ? html` inputmode="${opts.inputmode}"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${opts.error ? html` aria-invalid="true"` : ''}${opts.autofocus ? html` autofocus` : ''} required>
${opts.error ? html`<p class="error" id="${id}-error">${opts.error}</p>` : ''}
</div>`;
}

export function hidden(name: string, value: string): Html {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/** A message for the whole form (role=alert so screen readers announce it). */
export function formError(message?: string): Html {
  return message ? html`<div class="alert" role="alert" id="form-error">${message}</div>` : html``;
}
