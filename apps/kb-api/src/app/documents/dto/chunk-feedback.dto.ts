import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, Max, Min } from 'class-validator';

export const FEEDBACK_SIGNALS = ['should_have_cited', 'not_relevant'] as const;
export type FeedbackSignal = (typeof FEEDBACK_SIGNALS)[number];

export class ChunkFeedbackDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  chunk_id!: number;

  @ApiProperty({ enum: FEEDBACK_SIGNALS })
  @IsIn(FEEDBACK_SIGNALS)
  signal!: FeedbackSignal;
}

export class RecordedChunkFeedbackDto {
  @ApiProperty({ type: 'integer' })
  chunk_id!: number;

  @ApiProperty({ enum: FEEDBACK_SIGNALS })
  signal!: FeedbackSignal;
}
