import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './render';

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; runbook: string };
}

/** Where each metric the alerts use is defined: an alert on a metric nobody exports never fires. */
const METRIC_SOURCES: Record<string, string> = {
  http_server_request_duration_seconds: 'libs/shared/observability/src/metrics.module.ts',
  gateway_upstream_requests_total: 'apps/gateway/src/app/proxy/proxy.service.ts',
  iam_client_secrets: 'apps/iam/src/app/management/client-secret.metrics.ts',
  kb_ingest_jobs: 'apps/kb-api/src/app/ingest/ingest-queue.metrics.ts',
  kb_chat_answers_total: 'apps/kb-api/src/app/chat/chat-log-writer.ts',
};

describe('alerting rules k8s/alerts/platform-alerts.yaml', () => {
  const file = parse(readFileSync(join(ROOT, 'k8s/alerts/platform-alerts.yaml'), 'utf8')) as { groups: Array<{ name: string; rules: Rule[] }> };
  const rules = file.groups.flatMap((g) => g.rules);
  const runbook = readFileSync(join(ROOT, 'docs/runbook.md'), 'utf8');

  it('covers expiring secrets, the ingest queue and chat refusals', () => {
    expect(rules.map((r) => r.alert)).toEqual(expect.arrayContaining(['ClientSecretsExpiring', 'KbIngestBacklog', 'KbChatRefusalsRising']));
  });

  it.each(rules.map((r) => [r.alert, r] as const))('%s uses only metrics the services export, and the runbook explains it', (name, rule) => {
    const metrics = [...rule.expr.matchAll(/\b([a-z][a-z0-9_]*)(?=\{|\[)/g)].map((m) => m[1]).filter((m) => !['rate', 'sum', 'max', 'delta', 'by'].includes(m));
    expect(metrics.length).toBeGreaterThan(0);
    for (const metric of metrics) {
      const base = metric.replace(/_count$/, '');
      expect([name, metric, METRIC_SOURCES[base]]).toEqual([name, metric, expect.any(String)]);
      expect(readFileSync(join(ROOT, METRIC_SOURCES[base]), 'utf8')).toContain(`'${base}'`);
    }
    expect(['page', 'ticket']).toContain(rule.labels.severity);
    expect(rule.annotations.runbook).toBe('docs/runbook.md#alerts');
    expect(runbook).toContain(`\`${name}\``);
  });
});
