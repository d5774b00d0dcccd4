import { Module } from '@nestjs/common';
import { ApiDocsController } from './api-docs.controller';
import { ApiDocuments } from './api-documents';

@Module({ controllers: [ApiDocsController], providers: [ApiDocuments] })
export class ApiDocsModule {}
