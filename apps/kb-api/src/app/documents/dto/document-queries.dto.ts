import { Exclude } from 'class-transformer';
import { QueryList, QueryText } from './query-fields';

/** `GET /api/kb/documents/search`: `?q=` and optional `project_keys[]`. */
@Exclude()
export class DocumentSearchQuery {
  @QueryText({ required: true, min: 2, max: 120, description: 'Search text, 2–120 characters once trimmed' })
  q!: string;

  @QueryList({ maxItems: 50, maxLength: 120, description: 'Only these projects (`project_keys[]=a&project_keys[]=b`; a single `project_keys=a` also works)' })
  project_keys!: string[];
}

/** `GET /api/kb/resolve-wikilink`: the project and the `[[slug]]` to resolve in it. */
@Exclude()
export class WikilinkQuery {
  @QueryText({ required: true, min: 1, max: 120 })
  project!: string;

  @QueryText({ required: true, min: 1, max: 200 })
  slug!: string;
}

/** `GET /api/kb/related`: `?slugs[]=` (at least one) and optional `project_key`. */
@Exclude()
export class RelatedDocumentsQuery {
  @QueryText({ max: 120 })
  project_key?: string;

  @QueryList({ required: true, maxItems: 50, maxLength: 200, description: 'The documents (`slugs[]=a&slugs[]=b`; a single `slugs=a` also works)' })
  slugs!: string[];
}
