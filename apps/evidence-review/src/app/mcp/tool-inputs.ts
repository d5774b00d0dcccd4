import { applyDecorators } from '@nestjs/common';
import { IsArray, IsObject, IsOptional, IsString, MinLength, ValidateIf } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/**
 * The arguments of the evidence-review MCP tools, one DTO per tool: validated like a request body
 * (unknown arguments refused) and published in tools/list as the JSON Schema derived from the same
 * class. These only gate the shape: the assess arguments are then validated as a review request
 * against the engine's ReviewRequestDto (parseReviewRequest), like an HTTP body or CLI input.
 */

/** May be left out; sent, it must be valid (null too is refused: the schema's type has no null). */
const Omittable = () => ValidateIf((_object, value) => value !== undefined);
/** A string, null, or left out. */
const NullableText = () => applyDecorators(IsOptional(), IsString(), JSONSchema({ type: ['string', 'null'] }));
const ObjectList = () => applyDecorators(Omittable(), IsArray(), IsObject({ each: true }));
const AnyObject = () => applyDecorators(Omittable(), IsObject());

export class AssessInput {
  @IsString() @MinLength(1) artifact_id!: string;
  @IsString() @MinLength(1) answer_text!: string;
  @NullableText() question?: string | null;
  @ObjectList() claims?: Record<string, unknown>[];
  @ObjectList() sources?: Record<string, unknown>[];
  @AnyObject() metadata?: Record<string, unknown>;
  @AnyObject() options?: Record<string, unknown>;
}

export class LabelTierInput {
  @IsString() @MinLength(1) id!: string;
  @NullableText() url?: string | null;
  @NullableText() title?: string | null;
  @NullableText() snippet?: string | null;
  @NullableText() declared_tier?: string | null;
}
