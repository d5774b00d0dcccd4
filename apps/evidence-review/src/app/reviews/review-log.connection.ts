import { DataSource } from 'typeorm';
import { EvidenceReviewConfig } from '../../config/evidence-review-config';
import { ReviewLogRepository } from './review-log.repository';

export interface ReviewLogHandle {
  repo: ReviewLogRepository;
  /** Ends the connection the handle opened. */
  close: () => Promise<void>;
}

/**
 * The review log for a CLI task, which has no Nest container: a connection of its own behind the
 * same repository the app uses, so the task writes no SQL and holds no DataSource itself.
 */
export async function openReviewLog(config: EvidenceReviewConfig): Promise<ReviewLogHandle> {
  const dataSource = await new DataSource(config.dataSourceOptions()).initialize();
  return { repo: new ReviewLogRepository(dataSource), close: () => dataSource.destroy() };
}
