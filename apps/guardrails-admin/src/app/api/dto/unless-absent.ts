import { ValidateIf } from 'class-validator';

/** Validates a body field only when it is present: null or a value of another type is refused, never taken as absent. */
export const UnlessAbsent = () => ValidateIf((_o: object, value: unknown) => value !== undefined);
