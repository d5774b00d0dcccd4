import { Injectable } from '@nestjs/common';
import { OAuthError } from './oauth-error';
import { IamConfig } from '../../config/iam-config';

/**
 * RFC 8707 resource indicators: which `resource` values a client may ask for, and how a token's
 * audience follows from them. The client model has no per-client list, so the set is the
 * configured one (IAM_RESOURCE_INDICATORS); scopes still limit what a client may do there.
 */
@Injectable()
export class ResourceIndicators {
  readonly known: ReadonlySet<string>;

  constructor(config: IamConfig) {
    const issuer = config.issuer;
    const listed = config.get('IAM_RESOURCE_INDICATORS');
    const values = listed !== undefined ? listed.split(',') : [`${issuer}/mcp/kb`, `${issuer}/evidence-risk-review/mcp`];
    this.known = new Set(values.map((v) => v.trim()).filter(Boolean));
  }

  /**
   * The resources a request names, each checked: an absolute URI without a fragment (§2) that this
   * server issues tokens for. Any failure is `invalid_target`. Duplicates collapse.
   */
  requested(values: readonly string[]): string[] {
    const unique = [...new Set(values)];
    for (const value of unique) {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        throw OAuthError.invalidTarget(`resource must be an absolute URI: ${value}`);
      }
      if (url.hash || value.includes('#')) throw OAuthError.invalidTarget(`resource must not have a fragment: ${value}`);
      if (!this.known.has(value)) throw OAuthError.invalidTarget(`unknown resource: ${value}`);
    }
    return unique;
  }

  /**
   * At the token endpoint (§2.2): the resources of the token, within those of the grant. No
   * `resource` means every granted one; one outside the grant is `invalid_target`.
   */
  narrow(values: readonly string[], granted: readonly string[]): string[] {
    const asked = this.requested(values);
    if (asked.length === 0) return [...granted];
    const outside = asked.filter((r) => !granted.includes(r));
    if (outside.length) throw OAuthError.invalidTarget(`resource not part of the authorization: ${outside.join(' ')}`);
    return asked;
  }
}
