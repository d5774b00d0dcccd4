import { Module } from '@nestjs/common';
import { ClientMetadataDocuments } from '../registration/client-metadata-documents';
import { UnregisteredClientPolicy } from '../registration/unregistered-client-policy';
import { ClientCache } from './client-cache';
import { ClientsRepository } from './clients.repository';

/** Client lookup, including clients resolved from their metadata documents (the policy is shared with registration). */
@Module({
  providers: [ClientsRepository, ClientCache, UnregisteredClientPolicy, ClientMetadataDocuments],
  exports: [ClientsRepository, UnregisteredClientPolicy],
})
export class ClientsModule {}
