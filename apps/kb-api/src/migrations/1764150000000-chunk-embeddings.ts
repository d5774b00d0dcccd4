import { MigrationInterface, QueryRunner } from 'typeorm';

/** Chunk embeddings for vector retrieval (only where the `vector` extension exists). */
export class KbChunkEmbeddings1764150000000 implements MigrationInterface {
  name = 'KbChunkEmbeddings1764150000000';

  async up(_q: QueryRunner): Promise<void> {
    // filled by the vector-retrieval change
  }

  async down(_q: QueryRunner): Promise<void> {
    // filled by the vector-retrieval change
  }
}
