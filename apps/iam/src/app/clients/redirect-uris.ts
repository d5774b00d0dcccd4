import { ValidateBy, ValidationArguments } from 'class-validator';

/** Longest redirect URI a client may register. */
export const REDIRECT_URI_MAX_LENGTH = 2000;

/** Host names of the loopback interface as a URL's `hostname` spells them. */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
const AUTHORITY_WITH_AT = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i;

/**
 * Where plain http is allowed: `loopback` for clients nobody vetted (RFC 8252 §7.3, native apps
 * only), `any` for an application an administrator registers through its manifest.
 */
export type PlainHttp = 'loopback' | 'any';

/**
 * Why a redirect URI cannot be registered, or undefined: an absolute https URL (or http as
 * `plainHttp` allows) with neither a fragment (RFC 6749 §3.1.2) nor user info (RFC 9700 §4.1.1
 * exact matching: `https://good@evil/` reads differently to different parsers). The one rule of
 * every way a client gets redirect URIs: the manifest, RFC 7591 registration and metadata documents.
 */
export function redirectUriProblem(uri: unknown, plainHttp: PlainHttp): string | undefined {
  if (typeof uri !== 'string' || uri.length > REDIRECT_URI_MAX_LENGTH) return 'each redirect URI must be a string URL';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `${uri} must not contain a fragment`;
  // `http://@host/` parses to no user info but is still not the URI the browser will be sent to.
  if (url.username || url.password || AUTHORITY_WITH_AT.test(uri)) return `${uri} must not contain user info`;
  if (url.protocol === 'https:' && url.hostname) return undefined;
  if (url.protocol === 'http:' && url.hostname && (plainHttp === 'any' || LOOPBACK_HOSTS.has(url.hostname))) return undefined;
  return plainHttp === 'any' ? `${uri} must use http or https` : `${uri} must use https (or http on a loopback address)`;
}

/** Why the last check of a DTO instance failed; the message is built after the check. */
const problems = new WeakMap<object, string>();

/**
 * class-validator rule for a list of redirect URIs (whether it is an array is IsArray's to say):
 * the message names the first refused URI by its index and the reason.
 */
export const IsRedirectUris = (plainHttp: PlainHttp) =>
  ValidateBy({
    name: 'isRedirectUris',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        if (!Array.isArray(value)) return true;
        for (const [i, uri] of value.entries()) {
          const problem = redirectUriProblem(uri, plainHttp);
          if (problem) {
            if (args) problems.set(args.object, `${i}: ${problem}`);
            return false;
          }
        }
        return true;
      },
      defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'redirect_uris'}.${(args && problems.get(args.object)) ?? 'must be http(s) URLs without fragment or user info'}`,
    },
  });
