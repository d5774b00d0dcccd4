import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { PatchChatPreferencesDto } from './dto/chat-preferences.dto';
import { ChatPreferencesService } from './chat-preferences.service';
import { ChatPreferencesViewDto } from './dto/chat-preferences-view.dto';

@ApiTags('Chat preferences')
@ApiSignedIn()
@Controller('api/me/chat-preferences')
@UserOnly()
export class ChatPreferencesController {
  constructor(private readonly preferences: ChatPreferencesService) {}

  @Get()
  @ApiOperation({ summary: "The caller's chat preferences and their defaults" })
  @ApiOkResponse({ description: 'Preferences', type: ChatPreferencesViewDto })
  get(@Req() req: KbRequest) {
    return this.preferences.get(req.kbPrincipal!.userId!);
  }

  @Patch()
  @ApiOperation({ summary: 'Merges preferences; null removes a key' })
  @ApiOkResponse({ description: 'The merged preferences', type: ChatPreferencesViewDto })
  @ApiValidationFailed('A bad key or value rejects the whole patch')
  patch(@Body() body: PatchChatPreferencesDto, @Req() req: KbRequest) {
    return this.preferences.patch(req.kbPrincipal!.userId!, body.preferences);
  }
}
