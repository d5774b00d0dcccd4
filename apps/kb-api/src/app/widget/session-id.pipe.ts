import { PipeTransform } from '@nestjs/common';
import { KbError } from '../errors/kb-errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Widget session ids are UUIDs: anything else cannot name one, so it answers 404 before the database. */
export class SessionIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new KbError(404, 'not_found', 'Widget session not found.');
    return value.toLowerCase();
  }
}
