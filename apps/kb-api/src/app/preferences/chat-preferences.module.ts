import { Module } from '@nestjs/common';
import { ChatPreferencesController } from './chat-preferences.controller';
import { ChatPreferencesService } from './chat-preferences.service';

@Module({ controllers: [ChatPreferencesController], providers: [ChatPreferencesService] })
export class ChatPreferencesModule {}
