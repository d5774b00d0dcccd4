import { Body, Controller, HttpStatus, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import type { KbRequest } from '../auth/kb-principal';
import { documentActor } from '../documents/document-ownership';
import { IngestResultDto } from './dto/ingest-result.dto';
import { IngestRequestDto } from './dto/ingest.dto';
import { IngestService } from './ingest.service';

@ApiTags('Documents')
@Controller('api/kb')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  /** 202 when every document is queued, 207 when some writes failed (each entry says which). */
  @Post('ingest')
  @ApiOperation({ summary: 'Batch ingestion: each document is stored and queued for indexing' })
  @ApiResponse({ status: 202, description: 'Every document queued', type: IngestResultDto })
  @ApiResponse({ status: 207, description: 'Some writes failed, or another user took a new path first at the same moment (each entry says which)', type: IngestResultDto })
  @ApiSignedIn('`{error: "document_forbidden", message}` when the batch would overwrite a live document someone else ingested or nobody owns and the caller lacks kb.edit.any; the message names the documents and nothing is written. Or a tenant refusal `{error}`')
  @ApiResponse({ status: 413, description: 'Body over the ingest limit', type: ErrorBody })
  @ApiValidationFailed()
  async create(@Body() body: IngestRequestDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const p = req.kbPrincipal!;
    const result = await this.ingest.ingest(p.tenantId, body.documents, documentActor(p, 'kb.edit.any'));
    res.status(result.failed > 0 ? HttpStatus.MULTI_STATUS : HttpStatus.ACCEPTED);
    return result;
  }
}
