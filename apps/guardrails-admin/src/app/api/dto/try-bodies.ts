import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { UnlessAbsent } from '@platform/observability';

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
