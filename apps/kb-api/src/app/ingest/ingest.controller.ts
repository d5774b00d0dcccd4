import { Body, Controller, HttpStatus, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { KbRequest } from '../auth/kb-principal';
import { documentActor } from '../documents/document-ownership';
import { IngestRequestDto } from './dto/ingest.dto';
import { IngestService } from './ingest.service';

@Controller('api/kb')
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  /** 202 when every document is queued, 207 when some writes failed (each entry says which). */
  @Post('ingest')
  async create(@Body() body: IngestRequestDto, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const p = req.kbPrincipal!;
    const result = await this.ingest.ingest(p.tenantId, body.documents, documentActor(p, 'kb.edit.any'));
    res.status(result.failed > 0 ? HttpStatus.MULTI_STATUS : HttpStatus.ACCEPTED);
    return result;
  }
}
