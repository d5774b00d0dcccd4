import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { ChunkFeedbackService } from './chunk-feedback.service';
import { ChunkFeedbackDto } from './dto/chunk-feedback.dto';

@Controller('api/kb/feedback')
export class ChunkFeedbackController {
  constructor(private readonly feedback: ChunkFeedbackService) {}

  /** Feedback belongs to a person: an iam service token without a user is refused (403). */
  @Post()
  @HttpCode(200)
  @UserOnly()
  record(@Body() body: ChunkFeedbackDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.feedback.record(p.tenantId, p.userId!, body);
  }
}
