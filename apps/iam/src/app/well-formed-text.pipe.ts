import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '@platform/observability';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

export const LONE_SURROGATE_MESSAGE = 'must not contain a lone UTF-16 surrogate (a "\\ud800" escape without its pair is no character)';

/** Dotted name of a member under `parent`, as the edge layer names fields (`body.auth.redirect_uris.0`). */
const join = (parent: string, key: string | number) => `${parent}.${key}`;

/** The first key or string value under `value` holding a lone surrogate, named from `parent`. */
export function loneSurrogateField(value: unknown, parent: string): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? parent : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogateField(value[i], join(parent, i));
      if (found) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      // A bad key is named by what it can be shown as: its lone surrogates replaced.
      if (LONE_SURROGATE.test(k)) return join(parent, k.replace(LONE_SURROGATES, '\uFFFD'));
      const found = loneSurrogateField(v, join(parent, k));
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * Refuses a JSON body holding a lone UTF-16 surrogate anywhere (JSON's "\ud800" escape), naming the
 * field as the edge layer names a NUL: text no encoding can store or send as written, which Postgres
 * would otherwise keep as U+FFFD, so two different inputs could name one stored thing. The same
 * character sent as raw bytes (a path, a query, a form) is invalid UTF-8 and already refused at the
 * edge; only JSON escapes reach a route. Bound as a global pipe: one rule for every iam body, 422
 * problem+json outside /oauth and invalid_request there, like the edge's own refusals.
 */
@Injectable()
export class WellFormedTextPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') return value;
    const field = loneSurrogateField(value, 'body');
    if (field) throw new ValidationFailedError([{ field, message: LONE_SURROGATE_MESSAGE }]);
    return value;
  }
}
