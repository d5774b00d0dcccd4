import { isIP } from 'node:net';
import path from 'node:path';
import { AddressPolicy } from '@platform/runtime';
import { directoryUnder } from './connector-sources';
import { CONNECTOR_LIMITS } from './connector-settings';
import type { ConnectorConfig, ConnectorKind } from './connectors.repository';

type Errors = Record<string, string[]>;

/**
 * A connector's `config` for its kind, or the errors by field (`config.path`, `config.urls.2`).
 * Web URLs naming a private address are refused here already; hostnames are checked again at
 * each fetch, against the address they resolve to then.
 */
export async function checkConfig(kind: ConnectorKind, raw: Record<string, unknown>, o: { fsRoots: string[]; policy: AddressPolicy }): Promise<{ config?: ConnectorConfig; errors: Errors }> {
  const errors: Errors = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  const allowed = kind === 'filesystem' ? ['path'] : ['urls'];
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(`config.${key}`, `The ${key} setting is not known to ${kind} connectors.`);

  if (kind === 'filesystem') {
    const dir = raw['path'];
    if (!o.fsRoots.length) fail('config.path', 'Filesystem connectors are disabled: no directory roots are configured (KB_CONNECTOR_FS_ROOTS).');
    else if (typeof dir !== 'string' || !path.isAbsolute(dir)) fail('config.path', 'The path must be an absolute directory path.');
    else if (!(await directoryUnder(dir, o.fsRoots))) fail('config.path', 'The path must be an existing directory under an allowed root.');
    return Object.keys(errors).length ? { errors } : { config: { path: path.resolve(dir as string) }, errors };
  }

  const urls = raw['urls'];
  if (!Array.isArray(urls) || urls.length === 0) fail('config.urls', 'The urls setting must be a non-empty list of http(s) URLs.');
  else if (urls.length > CONNECTOR_LIMITS.maxUrls) fail('config.urls', `The urls setting must not have more than ${CONNECTOR_LIMITS.maxUrls} items.`);
  else {
    urls.forEach((u, i) => {
      const field = `config.urls.${i}`;
      let url: URL;
      try {
        if (typeof u !== 'string' || u.length > 2048) throw new Error();
        url = new URL(u);
      } catch {
        return fail(field, 'Each URL must be an absolute http(s) URL of at most 2048 characters.');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(field, 'Only http and https URLs are allowed.');
      if (url.username || url.password) return fail(field, 'URLs must not carry credentials.');
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const literal = isIP(host) ? host : host.toLowerCase() === 'localhost' ? '127.0.0.1' : null;
      if (literal && !o.policy.permits(host, literal)) fail(field, 'The URL points to a private or loopback address.');
    });
    if (new Set(urls).size !== urls.length) fail('config.urls', 'The urls setting must not list a URL twice.');
  }
  return Object.keys(errors).length ? { errors } : { config: { urls: urls as string[] }, errors };
}
