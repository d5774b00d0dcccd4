import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class TokenResponse {
  @ApiProperty({ description: 'ES256 JWT (typ at+jwt); `aud` is the requested resource(s), else the default audience; `cnf.jkt` when DPoP-bound' })
  access_token!: string;
  @ApiProperty({ enum: ['Bearer', 'DPoP'] }) token_type!: string;
  @ApiProperty({ type: 'integer' }) expires_in!: number;
  @ApiPropertyOptional() scope?: string;
  @ApiPropertyOptional({ description: 'iamrt_…; for user grants with offline_access' }) refresh_token?: string;
  @ApiPropertyOptional({ description: 'For user grants with openid' }) id_token?: string;
}

export class PushedAuthorizationResponse {
  @ApiProperty({ pattern: '^urn:ietf:params:oauth:request_uri:' }) request_uri!: string;
  @ApiProperty({ type: 'integer' }) expires_in!: number;
}

/** RFC 7800 confirmation of a DPoP-bound token: the RFC 7638 thumbprint of its key. */
export class IntrospectionConfirmation {
  @ApiProperty() jkt!: string;
}

export class IntrospectionResponse {
  @ApiProperty() active!: boolean;
  @ApiPropertyOptional() scope?: string;
  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional() sub?: string;
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }) aud?: string | string[];
  @ApiPropertyOptional() iss?: string;
  @ApiPropertyOptional({ type: 'integer' }) exp?: number;
  @ApiPropertyOptional({ type: 'integer' }) iat?: number;
  @ApiPropertyOptional() jti?: string;
  @ApiPropertyOptional({ enum: ['Bearer', 'DPoP'], description: 'DPoP for a token bound to a key (RFC 9449 §6.2)' }) token_type?: string;
  @ApiPropertyOptional({ type: IntrospectionConfirmation, description: 'The key a DPoP-bound token is bound to' }) cnf?: IntrospectionConfirmation;
  @ApiPropertyOptional() acr?: string;
}

export class UserinfoResponse {
  @ApiProperty() sub!: string;
  @ApiPropertyOptional() email?: string;
  @ApiPropertyOptional() email_verified?: boolean;
  @ApiPropertyOptional() name?: string;
}

export class JsonWebKeySet {
  @ApiProperty({ type: 'array', items: { type: 'object' } }) keys!: object[];
}
