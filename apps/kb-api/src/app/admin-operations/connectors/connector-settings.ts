import { Injectable } from '@nestjs/common';
import path from 'node:path';
import { KbConfig } from '../../../config/kb-config';

const list = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/** Caps of one sync: a connector can never make the API read or fetch without bound. */
export const CONNECTOR_LIMITS = {
  maxFiles: 2000,
  maxFileBytes: 10 * 1024 * 1024,
  maxUrls: 50,
  maxPageBytes: 2 * 1024 * 1024,
  fetchTimeoutMs: 10_000,
  maxRedirects: 3,
  /** A sync stops reading its source after this long; the rest waits for the next sync. */
  maxSyncMs: 120_000,
} as const;

/**
 * Connector settings from the environment:
 * - KB_CONNECTOR_FS_ROOTS: comma-separated absolute directories a filesystem connector may read
 *   under (none: filesystem connectors are refused);
 * - KB_CONNECTOR_WEB_ALLOWED_PRIVATE: comma-separated hosts, addresses or CIDR ranges a web
 *   connector may reach although they are private or loopback (none by default).
 */
@Injectable()
export class ConnectorSettings {
  readonly fsRoots: string[];
  readonly allowedPrivate: string[];
  readonly defaultProject: string;

  constructor(config: KbConfig) {
    this.fsRoots = list(config.get('KB_CONNECTOR_FS_ROOTS')).map((r) => path.resolve(r));
    this.allowedPrivate = list(config.get('KB_CONNECTOR_WEB_ALLOWED_PRIVATE'));
    this.defaultProject = config.get('KB_INGEST_DEFAULT_PROJECT');
  }
}
