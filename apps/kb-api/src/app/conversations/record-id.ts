import { PipeTransform } from '@nestjs/common';
import { KbError } from '../errors/kb-errors';

/**
 * A numeric row id from the path. Anything else cannot name a row, so it answers the same 404 as
 * a missing or foreign one instead of reaching the database as a bad cast.
 */
export class RecordIdPipe implements PipeTransform<string, string> {
  constructor(private readonly what: string) {}

  transform(value: string): string {
    if (!/^[1-9][0-9]{0,17}$/.test(value)) throw new KbError(404, 'not_found', `${this.what} not found.`);
    return value;
  }
}
