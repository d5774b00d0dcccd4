import { ValidateBy, ValidationArguments } from 'class-validator';
import { importJWK, type JWK } from 'jose';

/** Most public keys a client registers for private_key_jwt (each is imported when the JWKS is checked). */
export const CLIENT_JWKS_MAX_KEYS = 20;

/** Members that only a private or symmetric JWK has (RFC 7518 §6.2.2, §6.3.2, §6.4). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * What is wrong with a client's JWKS for private_key_jwt, or undefined when nothing is: the
 * client authenticator verifies assertions with ES256 only, so every key must be a public EC P-256
 * key (alg ES256 and use sig when named) that jose imports. A JWKS that passed here can
 * authenticate its client; one that did not would be stored and never work.
 */
export async function clientJwksProblem(jwks: unknown): Promise<string | undefined> {
  if (jwks === null || typeof jwks !== 'object' || Array.isArray(jwks)) return 'must be an object with keys';
  const keys = (jwks as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0) return 'keys must be a non-empty array of public JWKs';
  if (keys.length > CLIENT_JWKS_MAX_KEYS) return `keys must hold at most ${CLIENT_JWKS_MAX_KEYS} keys`;
  for (const [i, key] of keys.entries()) {
    const at = `keys.${i}`;
    if (key === null || typeof key !== 'object' || Array.isArray(key)) return `${at} must be a JWK object`;
    const jwk = key as Record<string, unknown>;
    const secret = PRIVATE_MEMBERS.filter((m) => m in jwk);
    if (secret.length) return `${at} must be a public key (remove ${secret.join(', ')})`;
    if (jwk['kty'] !== 'EC' || jwk['crv'] !== 'P-256') return `${at} must be an EC P-256 key (kty EC, crv P-256): assertions are ES256`;
    if (jwk['alg'] !== undefined && jwk['alg'] !== 'ES256') return `${at}.alg must be ES256`;
    if (jwk['use'] !== undefined && jwk['use'] !== 'sig') return `${at}.use must be sig`;
    if (jwk['kid'] !== undefined && typeof jwk['kid'] !== 'string') return `${at}.kid must be a string`;
    try {
      await importJWK(jwk as JWK, 'ES256');
    } catch (e) {
      return `${at} cannot be imported as an ES256 public key: ${(e as Error).message}`;
    }
  }
  return undefined;
}

/** Why the last check of a DTO instance failed; the message is built after the check resolves. */
const problems = new WeakMap<object, string>();

/** class-validator rule for a private_key_jwt JWKS: the message names the first problem of clientJwksProblem. */
export const IsClientJwks = () =>
  ValidateBy({
    name: 'isClientJwks',
    validator: {
      validate: async (value: unknown, args?: ValidationArguments) => {
        const problem = await clientJwksProblem(value);
        if (problem && args) problems.set(args.object, problem);
        return problem === undefined;
      },
      defaultMessage: (args?: ValidationArguments) => `${args?.property ?? 'jwks'} ${(args && problems.get(args.object)) ?? 'must be a JWKS of public ES256 keys'}`,
    },
  });
