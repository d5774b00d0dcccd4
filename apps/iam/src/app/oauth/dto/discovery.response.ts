import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCOPE_CATALOG } from '../scopes';

const strings = { type: 'array', items: { type: 'string' } } as const;

/** OpenID Provider / RFC 8414 authorization server metadata. */
export class DiscoveryDocument {
  @ApiProperty() issuer!: string;
  @ApiProperty() authorization_endpoint!: string;
  @ApiProperty() token_endpoint!: string;
  @ApiProperty() pushed_authorization_request_endpoint!: string;
  @ApiProperty() require_pushed_authorization_requests!: boolean;
  @ApiProperty() userinfo_endpoint!: string;
  @ApiProperty() revocation_endpoint!: string;
  @ApiProperty() introspection_endpoint!: string;
  @ApiProperty() jwks_uri!: string;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...SCOPE_CATALOG] } }) scopes_supported!: string[];
  @ApiProperty(strings) response_types_supported!: string[];
  @ApiProperty(strings) grant_types_supported!: string[];
  @ApiProperty(strings) response_modes_supported!: string[];
  @ApiProperty() authorization_response_iss_parameter_supported!: boolean;
  @ApiProperty(strings) claims_supported!: string[];
  @ApiProperty(strings) acr_values_supported!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['none', 'login', 'consent'] } }) prompt_values_supported!: string[];
  @ApiProperty(strings) subject_types_supported!: string[];
  @ApiProperty(strings) id_token_signing_alg_values_supported!: string[];
  @ApiProperty(strings) token_endpoint_auth_methods_supported!: string[];
  @ApiProperty(strings) token_endpoint_auth_signing_alg_values_supported!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['S256'] } }) code_challenge_methods_supported!: string[];
  @ApiPropertyOptional({ description: 'Only while dynamic registration is on (IAM_REGISTRATION_INITIAL_ACCESS_TOKENS)' }) registration_endpoint?: string;
  @ApiProperty({ description: 'Whether a client_id may be the https URL of a Client ID Metadata Document (IAM_CIMD_HOSTS)' }) client_id_metadata_document_supported!: boolean;
  @ApiProperty(strings) dpop_signing_alg_values_supported!: string[];
  @ApiProperty() resource_indicators_supported!: boolean;
  @ApiProperty({ type: 'array', items: { type: 'string', format: 'uri' }, description: 'The RFC 8707 resource indicators accepted (IAM_RESOURCE_INDICATORS)' })
  resources_supported!: string[];
}
