import { isEmail, ValidateBy, ValidationOptions } from 'class-validator';
import type { IsEmailOptions } from 'validator/lib/isEmail';

/**
 * class-validator's IsEmail, except that a string holding a lone UTF-16 surrogate (JSON's "\udc00"
 * escape) is simply not an address: validator.js measures addresses with encodeURI, which throws a
 * URIError on such a string, and the request failed with 500 instead of 422.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function IsEmailAddress(options: IsEmailOptions, validationOptions?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEmail',
      validator: { validate: (value: unknown) => typeof value === 'string' && !LONE_SURROGATE.test(value) && isEmail(value, options) },
    },
    validationOptions,
  );
}
