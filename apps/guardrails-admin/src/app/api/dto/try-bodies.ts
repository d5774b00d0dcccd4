import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, ValidateIf } from 'class-validator';

/** Only an absent field takes the default; null or a number is refused like any non-string. */
const UnlessAbsent = () => ValidateIf((_o: object, value: unknown) => value !== undefined);

/** POST /try/screen: absent means "". */
export class TryScreenBody {
  @ApiPropertyOptional({ type: 'string', default: '', description: 'The prompt to screen with the live settings' })
  @UnlessAbsent()
  @IsString({ message: 'must be a string' })
  prompt: string = '';
}

/** POST /try/sanitize: absent means "". */
export class TrySanitizeBody {
  @ApiPropertyOptional({ type: 'string', default: '', description: 'The text to run through HTML handling, markdown defanging and PII redaction' })
  @UnlessAbsent()
  @IsString({ message: 'must be a string' })
  text: string = '';
}
