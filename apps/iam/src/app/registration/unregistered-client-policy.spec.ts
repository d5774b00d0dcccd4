import { randomBytes } from 'node:crypto';
import { loadEnv } from '@platform/config';
import { IamEnv } from '../../config/env';
import { IamConfig } from '../../config/iam-config';
import { cacheSeconds } from './client-metadata-documents';
import { UnregisteredClientPolicy } from './unregistered-client-policy';

const policy = (env: Record<string, unknown>) => new UnregisteredClientPolicy(IamConfig.fromEnv({ IAM_UNREGISTERED_CLIENT_SCOPES: 'openid kb:read', ...env }));
const keys = { CRYPTO_KEYRING: `k1:${randomBytes(32).toString('base64')}`, SECRET_PEPPERS: `p1:${randomBytes(32).toString('base64')}` };

describe('policy for clients that were never registered', () => {
  it('accepts metadata documents from any public host by default outside production, from none in production', () => {
    expect(policy({ NODE_ENV: 'development' }).documentUrlRefusal('https://app.example/client.json')).toBeUndefined();
    expect(policy({ NODE_ENV: 'production' }).documentUrlRefusal('https://app.example/client.json')).toMatch(/not accepted/);
    expect(policy({ NODE_ENV: 'production', IAM_CIMD_HOSTS: 'none' }).metadataDocumentsEnabled).toBe(false);
  });

  it('applies the host list: exact hosts, host:port and *.domain', () => {
    const p = policy({ NODE_ENV: 'production', IAM_CIMD_HOSTS: 'tools.example.org,*.mcp.example,dev.example:8443' });
    expect(p.documentUrlRefusal('https://tools.example.org/c')).toBeUndefined();
    expect(p.documentUrlRefusal('https://a.mcp.example/c')).toBeUndefined();
    expect(p.documentUrlRefusal('https://dev.example:8443/c')).toBeUndefined();
    expect(p.documentUrlRefusal('https://dev.example/c')).toMatch(/may not serve/);
    expect(p.documentUrlRefusal('https://evil-mcp.example/c')).toMatch(/may not serve/);
    expect(p.documentUrlRefusal('https://tools.example.org.evil.test/c')).toMatch(/may not serve/);
  });

  it('reads http loopback client_ids only under the development allowance, never in production', () => {
    expect(policy({ NODE_ENV: 'test' }).looksLikeDocumentUrl('http://127.0.0.1:9/c')).toBe(false);
    expect(policy({ NODE_ENV: 'test', IAM_CIMD_ALLOW_LOOPBACK: true }).documentUrlRefusal('http://127.0.0.1:9/c')).toBeUndefined();
    expect(policy({ NODE_ENV: 'test', IAM_CIMD_ALLOW_LOOPBACK: true }).documentUrlRefusal('http://app.example/c')).toMatch(/must use https/);
    expect(policy({ NODE_ENV: 'production', IAM_CIMD_HOSTS: '*', IAM_CIMD_ALLOW_LOOPBACK: true }).allowLoopback).toBe(false);
    expect(() => loadEnv(IamEnv, { ...keys, NODE_ENV: 'production', IAM_CIMD_ALLOW_LOOPBACK: 'true' })).toThrow(/IAM_CIMD_ALLOW_LOOPBACK must stay off in production/);
  });

  it('refuses to enable either feature without PKCE, and unknown scopes', () => {
    expect(() => loadEnv(IamEnv, { ...keys, OAUTH_REQUIRE_PKCE: 'false', IAM_CIMD_HOSTS: '*' })).toThrow(/IAM_CIMD_HOSTS needs OAUTH_REQUIRE_PKCE=true/);
    expect(() => loadEnv(IamEnv, { ...keys, OAUTH_REQUIRE_PKCE: 'false', IAM_REGISTRATION_INITIAL_ACCESS_TOKENS: 'a'.repeat(32) })).toThrow(/needs OAUTH_REQUIRE_PKCE=true/);
    expect(() => policy({ IAM_UNREGISTERED_CLIENT_SCOPES: 'openid root' })).toThrow(/unknown scopes: root/);
  });

  it('checks redirect URIs, scopes and initial access tokens', () => {
    const p = policy({ IAM_REGISTRATION_INITIAL_ACCESS_TOKENS: `${'a'.repeat(32)},${'b'.repeat(40)}` });
    expect(p.redirectUriRefusal('https://app.example/cb')).toBeUndefined();
    expect(p.redirectUriRefusal('http://localhost:33418/cb')).toBeUndefined();
    expect(p.redirectUriRefusal('http://[::1]:33418/cb')).toBeUndefined();
    expect(p.redirectUriRefusal('http://app.example/cb')).toMatch(/must use https/);
    expect(p.redirectUriRefusal('com.example.app:/cb')).toMatch(/must use https/);
    expect(p.grantable('openid kb:chat kb:read')).toEqual(['openid', 'kb:read']);
    expect(p.grantable(undefined)).toEqual(['openid', 'kb:read']);
    expect(p.initialAccessTokenValid('b'.repeat(40))).toBe(true);
    expect(p.initialAccessTokenValid('b'.repeat(39))).toBe(false);
    expect(policy({}).registrationEnabled).toBe(false);
  });

  it('caches a document for its max-age within the configured maximum', () => {
    expect(cacheSeconds('public, max-age=60', 300)).toBe(60);
    expect(cacheSeconds('max-age=86400', 300)).toBe(300);
    expect(cacheSeconds('no-store', 300)).toBe(0);
    expect(cacheSeconds(undefined, 300)).toBe(300);
  });
});
