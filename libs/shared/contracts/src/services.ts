/** The deployables and their default local ports (ARCHITECTURE.md "Gateway routes"). */
export const SERVICES = {
  gateway: { port: 8080 },
  iam: { port: 3001, workerHealthPort: 3101, database: 'iam' },
  'guardrails-admin': { port: 3002, database: 'guardrails' },
  'kb-api': { port: 3003, workerHealthPort: 3103, database: 'kb' },
  'evidence-review': { port: 3004, database: 'evidence' },
} as const;

export type ServiceName = keyof typeof SERVICES;
