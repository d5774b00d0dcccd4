import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** What applying a manifest did. */
export class ManifestResult {
  @ApiProperty() application_key!: string;
  @ApiProperty({ description: '`cli_<app>`' }) client_id!: string;
  @ApiProperty() created!: boolean;
  @ApiPropertyOptional({ description: 'Only on the first apply of a confidential client with a shared secret; shown only this once' })
  client_secret?: string;
}

export class ManifestAnswer {
  @ApiProperty({ type: ManifestResult }) data!: ManifestResult;
}
