/**
 * The shapes every retrieval path shares: the chat's filters, a ranked chunk and a ranking. In a
 * file of their own so the ranking, the vector path and the SQL filters can all speak them without
 * importing one another.
 */
export interface RetrievalFilters {
  project_keys?: string[];
  tag_slugs?: string[];
  source_types?: string[];
  canonical_types?: string[];
  connector_types?: string[];
  doc_ids?: number[];
  collection_id?: number;
  folder_globs?: string[];
  date_from?: string;
  date_to?: string;
}

export interface RetrievedChunk {
  chunk_id: number;
  document_id: number;
  project_key: string;
  source_path: string;
  source_type: string;
  slug: string;
  title: string;
  heading_path: string | null;
  text: string;
  chunk_hash: string;
  /** Full-text rank normalised to 0..1 over the candidates. */
  text_score: number;
  /** Share of the question's IDF weight carried by the terms found in the chunk, its heading or title. */
  coverage: number;
  score: number;
  /** The chunk can ground an answer (see groundingOf): the chat refuses when no primary chunk is. */
  grounded: boolean;
  /**
   * The ingest screen flagged it (indirect injection). Such chunks are only retrieved while flagged
   * content is quoted (`indirect_injection.flagged_content` = quote): a model then reads it as data.
   */
  flagged?: boolean;
}

/** A chunk's stored fields as a search reads them, before any scoring. */
export type ChunkFields = Omit<RetrievedChunk, 'text_score' | 'coverage' | 'score' | 'grounded'>;

/**
 * A chunk's stored fields copied by name. Database rows and scored candidates carry more; copying
 * the fields one by one is several times cheaper than an object rest or spread of such rows, which
 * showed in the ranking's profile at a hundred rows a query.
 */
export function chunkFieldsOf(r: ChunkFields): ChunkFields {
  return {
    chunk_id: r.chunk_id,
    document_id: r.document_id,
    project_key: r.project_key,
    source_path: r.source_path,
    source_type: r.source_type,
    slug: r.slug,
    title: r.title,
    heading_path: r.heading_path,
    text: r.text,
    chunk_hash: r.chunk_hash,
    flagged: r.flagged,
  };
}

/** A chunk found by meaning: the chunk's fields plus its cosine similarity to the question. */
export type VectorHit = ChunkFields & { similarity: number };

export type Retriever = 'lexical' | 'vector';

export interface RetrievalResult {
  terms: string[];
  primary: RetrievedChunk[];
  runner_up: RetrievedChunk[];
  candidates: number;
  /** The retrievers that took part: `lexical` always, `vector` where an embeddings provider and the vectors table exist. */
  retrievers: Retriever[];
}

export interface RetrievalOptions {
  /** Chunks ranked in all (primary plus runners-up); the chat's default is PRIMARY + RUNNER_UP. */
  depth?: number;
  /**
   * How many of the ranked chunks the caller uses (ranked() cuts at its top_k): without vector similarity only those,
   * and at least the primary chunks (grounding compares them), are read back with their text. The ranking, the path
   * that ranks it and the candidate count are those of the whole depth, so the chunks answered are its first ones.
   */
  uses?: number;
}
