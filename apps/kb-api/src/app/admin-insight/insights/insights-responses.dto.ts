import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const rate = { type: 'number' } as const;
const objectOf = (properties: Record<string, object>) => ({ type: 'object', properties }) as const;
const arrayOf = (properties: Record<string, object>) => ({ type: 'array', items: objectOf(properties) }) as const;

/** The headline numbers of a period. */
export class InsightTotalsDto {
  @ApiProperty({ type: 'integer' })
  questions!: number;

  @ApiProperty({ type: 'integer' })
  refused!: number;

  @ApiProperty({ type: 'number' })
  refusal_rate!: number;

  @ApiPropertySchema(nullable({ type: 'number', description: 'Over answered questions' }))
  mean_confidence!: number | null;
}

/** What every stored snapshot shows first: its id, its period, who computed it and when. */
class StoredInsightDto {
  @ApiProperty()
  id!: string;

  @ApiPropertySchema(DATE_TIME)
  period_from!: string;

  @ApiPropertySchema(DATE_TIME)
  period_to!: string;

  @ApiPropertySchema(nullable({ type: 'string' }))
  computed_by!: string | null;

  @ApiPropertySchema(DATE_TIME)
  created_at!: string;
}

/** A stored snapshot as listed by the history: its totals only. */
export class InsightHistoryEntryDto extends StoredInsightDto {
  @ApiProperty({ type: () => InsightTotalsDto })
  totals!: InsightTotalsDto;
}

/** A stored snapshot with everything computed over its period. */
@ApiExtraModels(InsightTotalsDto)
export class InsightSnapshotDto extends StoredInsightDto {
  @ApiPropertySchema({
    type: 'object',
    properties: {
      totals: { $ref: getSchemaPath(InsightTotalsDto) },
      top_questions: arrayOf({ question: str, asked: int, refused: int, last_asked_at: DATE_TIME }),
      per_project: arrayOf({ project_key: str, questions: int, refused: int, refusal_rate: rate, mean_confidence: nullable(rate) }),
      per_day: arrayOf({
        day: { type: 'string', format: 'date' },
        questions: int,
        refused: int,
        refusal_rate: rate,
        mean_confidence: nullable(rate),
      }),
      most_cited_documents: arrayOf({ document_id: str, title: str, project_key: str, source_path: str, citations: int }),
      never_cited_documents: objectOf({
        total: int,
        sample: arrayOf({ document_id: str, title: str, project_key: str, source_path: str }),
      }),
      feedback: arrayOf({ document_id: str, title: str, project_key: str, helpful: int, unhelpful: int }),
    },
  })
  data!: Record<string, unknown>;
}
