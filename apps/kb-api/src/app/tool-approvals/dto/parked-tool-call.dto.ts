import { ApiProperty } from '@nestjs/swagger';
import { ApiPropertySchema, DATE_TIME, nullable } from '../../api-docs';

const PARKED_STATUSES = ['pending', 'running', 'succeeded', 'failed', 'rejected', 'expired'];

/** A tool call parked for human approval, as its caller reads it (MCP and widget alike). */
export class ParkedToolCallDto {
  @ApiProperty({ format: 'uuid' }) approval_id!: string;
  @ApiProperty() tool!: string;
  @ApiProperty({ enum: PARKED_STATUSES }) status!: string;
  @ApiPropertySchema(nullable(DATE_TIME)) expires_at!: string | null;
  @ApiPropertySchema({
    oneOf: [{ type: 'object', additionalProperties: true, description: "The tool's result, or `{error: {code, message}}`" }, { type: 'null' }],
  })
  result!: object | null;
  @ApiProperty() message!: string;
}
