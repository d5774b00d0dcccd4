import { Module } from '@nestjs/common';
import { ClientCache } from './client-cache';
import { ClientsRepository } from './clients.repository';

@Module({ providers: [ClientsRepository, ClientCache], exports: [ClientsRepository] })
export class ClientsModule {}
