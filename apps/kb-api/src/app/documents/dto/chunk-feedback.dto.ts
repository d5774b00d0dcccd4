import { IsIn, IsInt, Max, Min } from 'class-validator';

export const FEEDBACK_SIGNALS = ['should_have_cited', 'not_relevant'] as const;
export type FeedbackSignal = (typeof FEEDBACK_SIGNALS)[number];

export class ChunkFeedbackDto {
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  chunk_id!: number;

  @IsIn(FEEDBACK_SIGNALS)
  signal!: FeedbackSignal;
}
