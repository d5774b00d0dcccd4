import { ApiProperty } from '@nestjs/swagger';

/** RFC 7591 §3.2.1 client information response (201). No secret: every client registered here is public. */
export class ClientRegistrationResponse {
  @ApiProperty() client_id!: string;
  @ApiProperty({ type: 'integer', description: 'Seconds since the epoch' }) client_id_issued_at!: number;
  @ApiProperty() client_name!: string;
  @ApiProperty({ type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', format: 'uri' } }) redirect_uris!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string' } }) grant_types!: string[];
  @ApiProperty({ type: 'array', items: { type: 'string', enum: ['code'] } }) response_types!: ['code'];
  @ApiProperty({ enum: ['none'] }) token_endpoint_auth_method!: 'none';
  @ApiProperty({ description: 'Space-separated' }) scope!: string;
}
