import { mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

export { launchChromium, requireChromium } from '@platform/testing';

/** Screenshots for a look by eye (tmp/ is not committed). */
export function screenshotPath(name: string): string {
  const dir = join(__dirname, '../../../tmp/kb-widget-browser');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

/** A third-party page on its own 127.0.0.1 port; `page(origin)` returns its HTML once the port is known. */
export async function startHostPage(page: (origin: string) => string): Promise<{ origin: string; close: () => Promise<void> }> {
  let origin = '';
  const server: Server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(origin)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The two script tags a host adds to embed the widget. */
export function embedTags(apiBase: string, publicKey: string): string {
  return `<script>window.KbWidgetConfig = ${JSON.stringify({ apiBase, publicKey })};</script>\n<script src="${apiBase}/widget/embed.js" async></script>`;
}
