import { ApiParam } from '@nestjs/swagger';

/** Digits of a bigserial row id: anything else answers 404 before the database (RecordIdPipe). */
export const ROW_ID_PATTERN = '^[1-9][0-9]*$';

/** A path parameter naming a row by its id (`{id}` by default). */
export const ApiRowIdParam = (description: string, name = 'id') =>
  ApiParam({ name, description, schema: { type: 'string', pattern: ROW_ID_PATTERN } });
