import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { RangeQueryDto } from '../range-query.dto';
import { KB_QUEUE_NAMES } from './failed-jobs.service';

export class FailedJobsQueryDto extends RangeQueryDto {
  @ApiPropertyOptional({ enum: KB_QUEUE_NAMES, default: KB_QUEUE_NAMES[0] })
  @IsOptional()
  @IsIn(KB_QUEUE_NAMES, {
    message: `The selected queue is invalid (one of ${KB_QUEUE_NAMES.join(', ')}).`,
  })
  queue?: string;
}

export class FailedJobTargetDto {
  @ApiPropertyOptional({ enum: KB_QUEUE_NAMES, default: KB_QUEUE_NAMES[0] })
  @IsOptional()
  @IsIn(KB_QUEUE_NAMES, {
    message: `The selected queue is invalid (one of ${KB_QUEUE_NAMES.join(', ')}).`,
  })
  queue?: string;
}
