import { isEmail, ValidateBy, ValidationOptions } from 'class-validator';
import type { IsEmailOptions } from 'validator/lib/isEmail';
import { hasLoneSurrogate } from './lone-surrogate';

/**
 * class-validator's IsEmail, except that a string holding a lone UTF-16 surrogate (JSON's "\udc00"
 * escape) is simply not an address: validator.js measures addresses with encodeURI, which throws a
 * URIError on such a string, and the request failed with 500 instead of 422.
 */
export function IsEmailAddress(options: IsEmailOptions, validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmail',
      validator: { validate: (value: unknown) => typeof value === 'string' && !hasLoneSurrogate(value) && isEmail(value, options) },
    },
    validationOptions,
  );
}
