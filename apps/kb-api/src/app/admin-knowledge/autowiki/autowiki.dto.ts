import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ROW_ID_MAX } from '../../admin/pagination';

/** POST /api/admin/kb/concepts/{id}/merge. */
export class MergeConceptDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The concept id to merge into' })
  @IsInt({ message: 'The into field must be a concept id.' })
  @Min(1, { message: 'The into field must be a concept id.' })
  @Max(ROW_ID_MAX, { message: 'The into field must be a concept id.' })
  into!: number;
}
