import { NOTIFICATION_CHANNELS, NOTIFICATION_EVENT_TYPES } from './notification-types';
import { answer, dateTime, json, ref } from '../openapi-parts';

/** The notification routes' part of kb-api's OpenAPI document (merged in ../openapi.ts). */
const nullableDate = { oneOf: [dateTime, { type: 'null' }] };

const unauthenticated = answer('Guest `{message: "Unauthenticated."}`', ref('Message'));
const noUser = answer('An integration token without a user `{message}`', ref('Message'));
const missing = answer('Another user\'s or an unknown notification `{error: "not_found", message}`', ref('Error'));
const guarded = { '401': unauthenticated, '403': noUser };
const idParam = { name: 'id', in: 'path', required: true, description: 'Notification id', schema: { type: 'string', pattern: '^[1-9][0-9]*$' } };
const preferences = {
  type: 'object',
  properties: {
    event_types: { type: 'array', items: { enum: NOTIFICATION_EVENT_TYPES } },
    channels: { type: 'array', items: { enum: NOTIFICATION_CHANNELS } },
    registered_channels: { type: 'array', items: { enum: NOTIFICATION_CHANNELS }, description: 'Channels actually delivered' },
    defaults: { type: 'object', additionalProperties: { type: 'boolean' }, description: 'Enabled state per channel when unset' },
    preferences: { type: 'array', items: ref('NotificationPreference') },
  },
};

export const NOTIFICATION_PATHS = {
  '/api/notifications': {
    get: {
      summary: "The caller's notifications in the active tenant, newest first",
      parameters: [
        { name: 'state', in: 'query', schema: { enum: ['unread', 'read', 'dismissed', 'all'], default: 'unread' } },
        { name: 'event_type', in: 'query', schema: { type: 'string' } },
        { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
        { name: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      ],
      responses: {
        '200': answer('A page', {
          type: 'object',
          properties: {
            data: { type: 'array', items: ref('Notification') },
            meta: {
              type: 'object',
              properties: { current_page: { type: 'integer' }, last_page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, state: { type: 'string' } },
            },
          },
        }),
        '422': answer('Bad query `{message, errors}`', ref('ValidationError')),
        ...guarded,
      },
    },
  },
  '/api/notifications/unread-count': {
    get: { summary: 'Unread and not dismissed', responses: { '200': answer('Count', { type: 'object', properties: { unread_count: { type: 'integer', minimum: 0 } } }), ...guarded } },
  },
  '/api/notifications/event-types': {
    get: { summary: 'Every event type', responses: { '200': answer('Types', { type: 'object', properties: { data: { type: 'array', items: { enum: NOTIFICATION_EVENT_TYPES } } } }), ...guarded } },
  },
  '/api/notifications/preferences': {
    get: { summary: "The caller's delivery preferences", responses: { '200': answer('Preferences', preferences), ...guarded } },
    put: {
      summary: 'Saves preferences, all or none; turning in_app off for a type stops those notifications',
      requestBody: {
        required: true,
        content: json({ type: 'object', required: ['preferences'], properties: { preferences: { type: 'array', maxItems: 100, items: ref('NotificationPreference') } } }),
      },
      responses: { '200': answer('Preferences', preferences), '422': answer('An unknown event type or channel `{message, errors}`', ref('ValidationError')), ...guarded },
    },
  },
  '/api/notifications/mark-all-read': {
    post: {
      summary: 'Marks every unread notification (of one event type) read',
      requestBody: { required: false, content: json({ type: 'object', properties: { event_type: { type: 'string' } } }) },
      responses: { '200': answer('How many were marked', { type: 'object', properties: { marked_read: { type: 'integer', minimum: 0 } } }), ...guarded },
    },
  },
  '/api/notifications/{id}/mark-read': {
    post: {
      summary: 'Marks one read; idempotent',
      parameters: [idParam],
      responses: {
        '200': answer('`changed` is false when it was already read', { type: 'object', properties: { data: ref('Notification'), changed: { type: 'boolean' } } }),
        '404': missing,
        ...guarded,
      },
    },
  },
  '/api/notifications/{id}/dismiss': {
    post: {
      summary: 'Dismisses one (and marks it read)',
      parameters: [idParam],
      responses: { '200': answer('Dismissed', { type: 'object', properties: { data: ref('Notification') } }), '404': missing, ...guarded },
    },
  },
};

export const NOTIFICATION_SCHEMAS = {
  Notification: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      event_type: { enum: NOTIFICATION_EVENT_TYPES },
      payload: { type: 'object', description: 'Event details, e.g. approval_id, slug, path, document_id, reason, error' },
      created_at: dateTime,
      read_at: nullableDate,
      dismissed_at: nullableDate,
    },
  },
  NotificationPreference: {
    type: 'object',
    required: ['event_type', 'channel', 'enabled'],
    properties: { event_type: { enum: NOTIFICATION_EVENT_TYPES }, channel: { enum: NOTIFICATION_CHANNELS }, enabled: { type: 'boolean' } },
  },
};
