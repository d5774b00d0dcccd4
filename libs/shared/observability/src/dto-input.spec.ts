import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { ValidationFailedError } from './domain-error';
import { dtoJsonSchema, validateDto } from './dto-input';

class SearchInput {
  @JSONSchema({ description: 'What to look for' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(2)
  @MaxLength(500)
  query!: string;

  @IsOptional()
  @IsIn(['a', 'b'])
  kind?: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  tags?: string[];

  @IsInt()
  @Min(1)
  @Max(20)
  limit = 6;
}

/** The same input with one limit changed. */
class WiderSearchInput extends SearchInput {
  @IsInt()
  @Min(1)
  @Max(50)
  override limit = 10;
}

const failures = async (input: unknown) => {
  const e = await validateDto(SearchInput, input).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ValidationFailedError);
  return [...new Set((e as ValidationFailedError).errors.map((f) => f.field))];
};

describe('dtoJsonSchema', () => {
  it("derives types, limits, descriptions and defaults from the DTO's decorators and initial values", () => {
    expect(dtoJsonSchema(SearchInput)).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, maxLength: 500, description: 'What to look for' },
        kind: { type: 'string', enum: ['a', 'b'] },
        tags: { type: 'array', maxItems: 3, items: { type: 'string' } },
        limit: { type: 'integer', minimum: 1, maximum: 20, default: 6 },
      },
      required: ['query'],
      additionalProperties: false,
    });
  });

  it('follows a limit changed in the DTO', () => {
    expect(dtoJsonSchema(WiderSearchInput).properties).toMatchObject({ limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } });
  });
});

describe('validateDto', () => {
  it('transforms and fills defaults', async () => {
    const input = await validateDto(SearchInput, { query: '  keys ' });
    expect(input).toBeInstanceOf(SearchInput);
    expect(input).toMatchObject({ query: 'keys', limit: 6 });
  });

  it('refuses what the schema refuses, each problem by field', async () => {
    expect(await failures({ query: ' k ', limit: 21 })).toEqual(['query', 'limit']);
    expect(await failures({ query: 'keys', limit: '6' })).toEqual(['limit']);
    expect(await failures({ query: 'keys', kind: 'c', tags: ['x', 1] })).toEqual(['kind', 'tags']);
  });

  it('refuses unknown fields and an input that is not an object', async () => {
    expect(await failures({ query: 'keys', extra: 1 })).toEqual(['extra']);
    expect(await failures('keys')).toEqual(['']);
    expect(await failures([{ query: 'keys' }])).toEqual(['']);
  });
});
