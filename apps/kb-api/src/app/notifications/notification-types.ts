/** Event types a notification can carry (reference kb §2.4, plus the promotion and ingest events). */
export const NOTIFICATION_EVENT_TYPES = [
  'kb_doc_created',
  'kb_doc_modified',
  'kb_canonical_promoted',
  'collection_new_member',
  'kb_decision_debt_threshold',
  'kb_doc_stale_review',
  'kb_doc_analysis_ready',
  'kb_promotion_awaiting_approval',
  'kb_promotion_rejected',
  'kb_ingest_failed',
  'kb_tool_call_awaiting_approval',
  'kb_tool_call_finished',
] as const;
export type NotificationEventType = (typeof NOTIFICATION_EVENT_TYPES)[number];

export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'discord', 'slack', 'teams', 'webhook'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Channels this service delivers on; a preference for another channel is kept but nothing is sent there. */
export const REGISTERED_CHANNELS: readonly NotificationChannel[] = ['in_app'];

/** Every event type is on for in-app delivery until the user turns it off. */
export const DEFAULT_CHANNEL_STATE: Readonly<Record<NotificationChannel, boolean>> = {
  in_app: true,
  email: false,
  discord: false,
  slack: false,
  teams: false,
  webhook: false,
};
