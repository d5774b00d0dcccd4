/** Queue names are `<service>.<purpose>`; a service only ever consumes its own queues. */
export const QUEUES = {
  iamMaintenance: 'iam.maintenance',
  kbIngest: 'kb.ingest',
} as const;

export const JOBS = {
  ingestDocument: 'IngestDocumentJob',
  rotateSigningKeys: 'iam:rotate-signing-keys',
  rotateDueSecrets: 'iam:rotate-due-secrets',
} as const;

/** Redis pub/sub channels shared across services. */
export const CHANNELS = {
  guardrailsSettingsChanged: 'guardrails.SettingsChanged',
} as const;
