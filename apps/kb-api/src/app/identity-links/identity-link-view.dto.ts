import { ApiProperty } from '@nestjs/swagger';
import { DATE_TIME, nullable } from '../api-docs/schema';

/** An explicit iam identity → KB user link of the active tenant. */
export class IdentityLinkViewDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  issuer!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty()
  user_id!: string;

  @ApiProperty(nullable({ type: 'string' }))
  created_by!: string | null;

  @ApiProperty(DATE_TIME)
  created_at!: string;
}
