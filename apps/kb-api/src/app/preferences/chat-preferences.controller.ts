import { Body, Controller, Get, Patch, Req } from '@nestjs/common';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { PatchChatPreferencesDto } from './dto/chat-preferences.dto';
import { ChatPreferencesService } from './chat-preferences.service';

@Controller('api/me/chat-preferences')
@UserOnly()
export class ChatPreferencesController {
  constructor(private readonly preferences: ChatPreferencesService) {}

  @Get()
  get(@Req() req: KbRequest) {
    return this.preferences.get(req.kbPrincipal!.userId!);
  }

  @Patch()
  patch(@Body() body: PatchChatPreferencesDto, @Req() req: KbRequest) {
    return this.preferences.patch(req.kbPrincipal!.userId!, body.preferences);
  }
}
