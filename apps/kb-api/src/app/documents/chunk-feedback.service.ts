import { Injectable } from '@nestjs/common';
import { KbMessage } from '../errors/kb-errors';
import { ChunkFeedbackRepository } from './chunk-feedback.repository';
import type { ChunkFeedbackDto, FeedbackSignal } from './dto/chunk-feedback.dto';

/** A user's retrieval signal on a chunk, one per (user, chunk): the latest signal wins. */
@Injectable()
export class ChunkFeedbackService {
  constructor(private readonly feedback: ChunkFeedbackRepository) {}

  async record(
    tenantId: string,
    userId: string,
    body: ChunkFeedbackDto,
  ): Promise<{ chunk_id: number; signal: FeedbackSignal }> {
    const recorded = await this.feedback.upsert(tenantId, userId, body.chunk_id, body.signal);
    if (!recorded) throw new KbMessage(404, 'Chunk not found.');
    return { chunk_id: body.chunk_id, signal: body.signal };
  }
}
