import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** POST /oauth/client-secret: `{rotated: false}`, or the automatically rotated secret, once. */
export class SelfFetchResponse {
  @ApiProperty() rotated!: boolean;
  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional({ description: 'The new secret; shown only this once' }) client_secret?: string;
  @ApiPropertyOptional({ format: 'date-time', description: 'Until when the previous secret keeps validating' }) grace_until?: string;
}

/** A rotated secret, returned once. */
export class RotatedSecret {
  @ApiProperty() client_id!: string;
  @ApiProperty() client_secret!: string;
  @ApiProperty({ format: 'date-time' }) grace_until!: string;
}

export class RotatedSecretAnswer {
  @ApiProperty({ type: RotatedSecret }) data!: RotatedSecret;
}

export class RevokedClient {
  @ApiProperty() client_id!: string;
  @ApiProperty({ enum: [true] }) revoked!: true;
  @ApiProperty({ format: 'date-time' }) revoked_at!: string;
}

export class RevokedClientAnswer {
  @ApiProperty({ type: RevokedClient }) data!: RevokedClient;
}

/** The credential status an operator sees (reference/iam.md §1.7). */
export class ClientStatus {
  @ApiProperty() client_id!: string;
  @ApiProperty({ enum: ['ok', 'expiring', 'expired', 'revoked', 'public'] }) secret_status!: string;
  @ApiProperty() token_endpoint_auth_method!: string;
  @ApiProperty() uses_private_key_jwt!: boolean;
  @ApiProperty() is_confidential!: boolean;
  @ApiPropertyOptional({ type: 'string', format: 'date-time', nullable: true, description: 'Only when IAM_OAUTH_CLIENT_SECRET_TTL is set' })
  secret_expires_at?: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) secret_rotated_at!: string | null;
  @ApiProperty() grace_active!: boolean;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) grace_until!: string | null;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true }) revoked_at!: string | null;
  @ApiProperty() auto_rotate!: boolean;
  @ApiProperty({ type: 'integer', nullable: true }) rotate_interval_days!: number | null;
}

export class ClientStatusAnswer {
  @ApiProperty({ type: ClientStatus }) data!: ClientStatus;
}
