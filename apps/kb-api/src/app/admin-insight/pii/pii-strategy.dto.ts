import { IsObject, IsOptional, IsString } from 'class-validator';

/** PUT /api/admin/pii/strategy: detector → keep | mask | tokenize (checked per detector by the service). */
export class PutPiiStrategyDto {
  @IsObject({ message: 'The actions field must be an object of detector: action.' })
  actions!: Record<string, unknown>;

  @IsOptional()
  @IsString({ message: 'The detokenize permission field must be a string.' })
  detokenize_permission?: string;
}
