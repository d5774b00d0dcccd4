import { Module } from '@nestjs/common';
import { ChatPreferencesController } from './chat-preferences.controller';
import { ChatPreferencesRepository } from './chat-preferences.repository';
import { ChatPreferencesService } from './chat-preferences.service';

@Module({ controllers: [ChatPreferencesController], providers: [ChatPreferencesService, ChatPreferencesRepository] })
export class ChatPreferencesModule {}
