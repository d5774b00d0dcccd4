import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/**
 * What the upstream provider sends back to /login/social/callback, read through readDto. A
 * parameter that is not one string counts as absent: a missing or wrong `state` is an expired
 * sign-in, a missing `code` a cancelled one. Other parameters the provider adds (`iss`,
 * `session_state`, `error_description`) are ignored.
 */
export class SocialCallbackQuery {
  @ApiPropertyOptional({ description: 'The state this server sent upstream' })
  @IsOptional()
  @IsString()
  state?: string;

  @ApiPropertyOptional({ description: 'The authorization code to redeem upstream' })
  @IsOptional()
  @IsString()
  code?: string;

  @ApiPropertyOptional({ description: 'The provider refused or the user cancelled' })
  @IsOptional()
  @IsString()
  error?: string;
}
