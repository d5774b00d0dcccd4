import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiValidationFailed, ErrorBody } from '../api-docs';
import { ApiSignedIn } from '../api-docs/signed-in';
import { UserOnly } from '../auth/gates';
import type { KbRequest } from '../auth/kb-principal';
import { ChunkFeedbackService } from './chunk-feedback.service';
import { ChunkFeedbackDto, RecordedChunkFeedbackDto } from './dto/chunk-feedback.dto';

@ApiTags('Documents')
@Controller('api/kb/feedback')
export class ChunkFeedbackController {
  constructor(private readonly feedback: ChunkFeedbackService) {}

  /** Feedback belongs to a person: an iam service token without a user is refused (403). */
  @Post()
  @ApiOperation({ summary: 'Feedback on a cited chunk (a user, not an iam service token)' })
  @ApiOkResponse({ description: 'Recorded', type: RecordedChunkFeedbackDto })
  @ApiSignedIn('An integration token without a user, or a tenant refusal')
  @ApiResponse({ status: 404, description: 'No such chunk in the tenant', type: ErrorBody })
  @ApiValidationFailed()
  @HttpCode(200)
  @UserOnly()
  record(@Body() body: ChunkFeedbackDto, @Req() req: KbRequest) {
    const p = req.kbPrincipal!;
    return this.feedback.record(p.tenantId, p.userId!, body);
  }
}
