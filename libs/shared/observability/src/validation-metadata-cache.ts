import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];

let installed = false;

/**
 * Remembers class-validator's rule lookups. On every object it validates (each request body, each
 * nested object in it), class-validator collects the class's rules by filtering the rules of every
 * DTO class the process registered, with an `instanceof` test per class for inherited rules, and
 * then groups them by property: work proportional to the number of DTO classes (hundreds in a
 * service), repeated per object. The answer only changes when a rule is registered (decorators
 * run as modules load), so lookups are kept per class and options and forgotten whenever a rule is
 * added. The arrays and groupings handed out are the ones class-validator built; it only reads them.
 * Process-wide, like class-validator's storage; installing twice is harmless.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (installed) return;
  installed = true;
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let lookups = new Map<Function, Map<string, Map<string | number, ValidationMetadata[]>>>();
  let groupings = new WeakMap<ValidationMetadata[], Record<string, ValidationMetadata[]>>();

  storage.addValidationMetadata = (metadata: ValidationMetadata): void => {
    lookups = new Map();
    groupings = new WeakMap();
    add(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Only classes are remembered: class-validator takes `object.constructor` as the target, and a
    // parsed JSON object may carry a "constructor" key of the client's choosing.
    if (typeof target !== 'function') return lookup(target, schema, always, strictGroups, groups);
    // Keyed by class, then schema (nested objects pass their parent's class name), then options;
    // the common calls (no groups) build no string.
    const options = groups?.length ? `${always}\u0000${strictGroups}\u0000${groups.join('\u0000')}` : (always ? 1 : 0) + (strictGroups ? 2 : 0);
    let bySchema = lookups.get(target);
    if (bySchema === undefined) lookups.set(target, (bySchema = new Map()));
    let byOptions = bySchema.get(schema);
    if (byOptions === undefined) bySchema.set(schema, (byOptions = new Map()));
    let found = byOptions.get(options);
    if (found === undefined) byOptions.set(options, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata: ValidationMetadata[]) => {
    let grouped = groupings.get(metadata);
    if (grouped === undefined) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
