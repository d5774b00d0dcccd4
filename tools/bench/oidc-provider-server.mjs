// Reference server for the token benchmark: oidc-provider with client_credentials and JWT (ES256)
// access tokens, in-memory storage. Bench-only; started as its own process by iam-token.bench.mjs.
// PROCESSES=n serves the port from n processes (node:cluster) signing with one key, as iam's
// HTTP_PROCESSES does.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const port = Number(process.env.PORT ?? 3902);
const processes = Number(process.env.PROCESSES ?? 1);
const issuer = `http://127.0.0.1:${port}`;

if (cluster.isPrimary && processes > 1) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const env = { SIGNING_JWK: JSON.stringify(privateKey.export({ format: 'jwk' })) };
  for (let i = 0; i < processes; i++) cluster.fork(env);
  let listening = 0;
  cluster.on('listening', () => ++listening === processes && process.stdout.write(`ready ${issuer}\n`));
  process.on('SIGTERM', () => {
    cluster.on('exit', () => Object.keys(cluster.workers).length === 0 && process.exit(0));
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
  });
} else {
  const signingJwk = process.env.SIGNING_JWK
    ? JSON.parse(process.env.SIGNING_JWK)
    : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bench-client',
        client_secret: process.env.CLIENT_SECRET ?? 'bench-secret-0123456789abcdef',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'ES256',
      },
    ],
    jwks: { keys: [{ ...signingJwk, kid: 'bench-1', alg: 'ES256', use: 'sig' }] },
    scopes: ['evidence:review'],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:platform',
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({ scope: 'evidence:review', accessTokenFormat: 'jwt', accessTokenTTL: 900, jwt: { sign: { alg: 'ES256' } } }),
      },
    },
  });
  createServer(provider.callback()).listen(port, '127.0.0.1', () => process.stdout.write(`ready ${issuer}\n`));
}
