import { IsInt, Min } from 'class-validator';

/** POST /api/admin/kb/concepts/{id}/merge. */
export class MergeConceptDto {
  @IsInt({ message: 'The into field must be a concept id.' })
  @Min(1, { message: 'The into field must be a concept id.' })
  into!: number;
}
