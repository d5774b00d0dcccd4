import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The promotion pipeline's paused runs and their audit trail; per-user conversations, chat-filter
 * presets, chat preferences and notifications. Only a hash of an approval token is kept. A trigger
 * turns a promoted document's failed indexing (written by the worker) into a notification for
 * whoever asked for the promotion, so the worker needs no knowledge of notifications.
 */
export class KbPromotionConversations1764000000000 implements MigrationInterface {
  name = 'KbPromotionConversations1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE kb_promotion_approvals (
        id uuid PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        flow_run_id uuid NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'failed')),
        token_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        project_key text NOT NULL,
        source_path text NOT NULL,
        slug text NOT NULL,
        canonical_type text NOT NULL,
        title text NOT NULL,
        doc_id text,
        markdown text,
        requested_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        decided_by bigint REFERENCES kb_users(id) ON DELETE SET NULL,
        decided_at timestamptz,
        decision_reason text,
        document_id bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_promotion_approvals_tenant_idx ON kb_promotion_approvals (tenant_id, status, created_at DESC)');

    await q.query(`
      CREATE TABLE kb_promotion_audit (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        approval_id uuid,
        action text NOT NULL CHECK (action IN ('requested', 'approved', 'rejected', 'denied', 'dispatch_failed')),
        actor_user_id bigint,
        actor_label text,
        detail jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_promotion_audit_approval_idx ON kb_promotion_audit (tenant_id, approval_id, id)');

    await q.query(`
      CREATE TABLE kb_conversations (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        title text,
        project_key text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_conversations_owner_idx ON kb_conversations (tenant_id, user_id, updated_at DESC)');
    await q.query(`
      CREATE TABLE kb_conversation_messages (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL,
        conversation_id bigint NOT NULL REFERENCES kb_conversations(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb,
        rating text CHECK (rating IN ('positive', 'negative')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query('CREATE INDEX kb_conversation_messages_idx ON kb_conversation_messages (conversation_id, id)');

    await q.query(`
      CREATE TABLE kb_chat_filter_presets (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        name text NOT NULL,
        filters jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, user_id, name)
      )`);

    await q.query(`
      CREATE TABLE kb_chat_preferences (
        user_id bigint PRIMARY KEY REFERENCES kb_users(id) ON DELETE CASCADE,
        preferences jsonb NOT NULL DEFAULT '{}'::jsonb,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE kb_notifications (
        id bigserial PRIMARY KEY,
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        event_type text NOT NULL,
        payload jsonb NOT NULL DEFAULT '{}'::jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        read_at timestamptz,
        dismissed_at timestamptz
      )`);
    await q.query('CREATE INDEX kb_notifications_owner_idx ON kb_notifications (tenant_id, user_id, id DESC)');
    await q.query(`
      CREATE TABLE kb_notification_preferences (
        tenant_id text NOT NULL REFERENCES kb_tenants(id),
        user_id bigint NOT NULL REFERENCES kb_users(id) ON DELETE CASCADE,
        event_type text NOT NULL,
        channel text NOT NULL,
        enabled boolean NOT NULL,
        PRIMARY KEY (tenant_id, user_id, event_type, channel)
      )`);

    await q.query(`
      CREATE FUNCTION kb_notify_promoted_ingest_failure() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- The requester comes from the approval itself, never from the document's own metadata,
        -- which any ingest caller can write.
        INSERT INTO kb_notifications (tenant_id, user_id, event_type, payload)
        SELECT NEW.tenant_id, a.requested_by, 'kb_ingest_failed', jsonb_build_object(
          'document_id', NEW.id, 'project_key', NEW.project_key, 'source_path', NEW.source_path,
          'approval_id', a.id, 'error', left(NEW.error, 500))
        FROM kb_promotion_approvals a
        WHERE a.id::text = NEW.metadata -> 'promotion' ->> 'approval_id'
          AND a.tenant_id = NEW.tenant_id AND a.status = 'approved' AND a.requested_by IS NOT NULL
          AND a.project_key = NEW.project_key AND a.source_path = NEW.source_path
          AND NOT EXISTS (
            SELECT 1 FROM kb_notification_preferences p
            WHERE p.tenant_id = NEW.tenant_id AND p.user_id = a.requested_by AND p.event_type = 'kb_ingest_failed' AND p.channel = 'in_app' AND NOT p.enabled);
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER kb_documents_promoted_failure AFTER UPDATE OF status ON kb_documents
      FOR EACH ROW WHEN (NEW.status = 'failed' AND OLD.status IS DISTINCT FROM 'failed')
      EXECUTE FUNCTION kb_notify_promoted_ingest_failure()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TRIGGER kb_documents_promoted_failure ON kb_documents');
    await q.query('DROP FUNCTION kb_notify_promoted_ingest_failure()');
    for (const t of [
      'kb_notification_preferences',
      'kb_notifications',
      'kb_chat_preferences',
      'kb_chat_filter_presets',
      'kb_conversation_messages',
      'kb_conversations',
      'kb_promotion_audit',
      'kb_promotion_approvals',
    ]) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
