import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidateIf, ValidatorOptions } from 'class-validator';
import { FieldError, ValidationFailedError } from './domain-error';
import { cacheValidationMetadata } from './validation-metadata-cache';

function flatten(errors: ValidationError[], parent = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = parent ? `${parent}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

/**
 * Names class-transformer never copies into an object it builds (it skips `__proto__` and
 * `constructor`, and every key the new object already has as a method): Object.prototype's members.
 */
const INHERITED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Where a key sits in the input: its parent's place, then its own key (built only on a hit). */
interface Place {
  parent: Place | null;
  key: string;
}
interface SetAside {
  at: Place | null;
  key: string;
  value: unknown;
}
interface KeyScan {
  aside: SetAside[];
  /** `__proto__` keys, at any depth: never taken, whatever object holds them. */
  proto: Place[];
}

const pathOf = (at: Place | null): string[] => (at ? [...pathOf(at.parent), at.key] : []);
const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * Walks the parsed input for keys named after Object.prototype members. Each is set aside (and a
 * `constructor` key removed, as Nest's pipe does, since class-transformer would take its value for
 * the object's class); inside a set-aside value nothing is transformed, so only `__proto__` is looked for.
 */
function scanKeys(value: unknown, at: Place | null, scan: KeyScan, raw: boolean): void {
  if (Array.isArray(value)) {
    for (const [i, item] of Object.entries(value)) if (item !== null && typeof item === 'object') scanKeys(item, { parent: at, key: i }, scan, raw);
    return;
  }
  if (!isPlainObject(value)) return;
  for (const key of Object.keys(value)) {
    const item = value[key];
    const place = { parent: at, key };
    if (key === '__proto__') scan.proto.push(place);
    else if (!raw && INHERITED_NAMES.has(key)) {
      scan.aside.push({ at, key, value: item });
      if (key === 'constructor') delete value['constructor'];
      if (item !== null && typeof item === 'object') scanKeys(item, place, scan, true);
      continue;
    }
    if (item !== null && typeof item === 'object') scanKeys(item, place, scan, raw);
  }
}

const keyError = (path: string[], message: string): ValidationError => ({ property: path.join('.'), constraints: { whitelistValidation: message }, children: [] });

/**
 * Nest's pipe with keys named after Object.prototype members (`toString`, `valueOf`,
 * `constructor`, …) kept as ordinary keys: Nest deletes `__proto__` and `constructor` and
 * class-transformer drops the others, so a free-form object (`{table: days}`, `{key: flag}`) lost
 * them before its rules ran and a DTO's "unknown key → 422" never saw them. Here each goes back,
 * as an own data property, into the plain object it came in before validation, so the field's
 * own rules (or the service's) judge it; in a DTO instance it is an unknown property (422 naming
 * it, as whitelisting says); `__proto__` is refused wherever it is (422 naming it) and can never
 * set a prototype.
 *
 * Nest calls stripProtoKeys on the input, then class-transformer, then validate on the result,
 * with no await between them: what the first finds is handed to the second on the instance.
 */
class OwnKeysValidationPipe extends ValidationPipe {
  private scanned: KeyScan | undefined;

  protected override stripProtoKeys(value: unknown): void {
    const scan: KeyScan = { aside: [], proto: [] };
    scanKeys(value, null, scan, false);
    this.scanned = scan.aside.length || scan.proto.length ? scan : undefined;
  }

  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    const scan = this.scanned;
    this.scanned = undefined;
    if (!scan) return super.validate(object, options);
    const errors = scan.proto.map((p) => keyError(pathOf(p), 'The __proto__ key is not allowed.'));
    for (const { at, key, value } of scan.aside) {
      const path = pathOf(at);
      let holder: unknown = object;
      for (const k of path) holder = holder !== null && typeof holder === 'object' && Object.hasOwn(holder, k) ? (holder as Record<string, unknown>)[k] : undefined;
      if (isPlainObject(holder)) Object.defineProperty(holder, key, { value, writable: true, enumerable: true, configurable: true });
      else errors.push(keyError([...path, key], `property ${key} should not exist`));
    }
    return Promise.resolve(super.validate(object, options)).then((found) => [...found, ...errors]);
  }
}

/**
 * Strict body/query validation: unknown properties are refused and every problem names its field
 * (`documents.3.source_path: ...`), answered as 422 with `errors: [{field, message}]`. Keys named
 * after Object.prototype members are validated like any other (OwnKeysValidationPipe).
 */
export function createValidationPipe(status = 422): ValidationPipe {
  cacheValidationMetadata();
  return new OwnKeysValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new ValidationFailedError(flatten(errors), status),
  });
}

/**
 * Validates a body field only when it is present. Unlike @IsOptional, null (or a value of another type) is refused,
 * never taken as absent: a PATCH that sends `"email": null` gets 422, not a null written or a crash on it.
 */
export const UnlessAbsent = () => ValidateIf((_o: object, value: unknown) => value !== undefined);
