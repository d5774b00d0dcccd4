import { PipeTransform } from '@nestjs/common';
import { isRowId } from '../admin/pagination';
import { KbError } from '../errors/kb-errors';

/**
 * A numeric row id from the path, the one check every bigserial id parameter goes through (a test
 * walks the controllers and refuses a numeric parameter without it). Anything else, or a number
 * beyond the 18 digits a bigint surely holds, cannot name a row, so it answers the same 404 as a
 * missing or foreign one instead of reaching the database as a bad cast.
 */
export class RecordIdPipe implements PipeTransform<string, string> {
  constructor(readonly what: string) {}

  transform(value: string): string {
    if (!isRowId(value)) throw new KbError(404, 'not_found', `${this.what} not found.`);
    return value;
  }
}
