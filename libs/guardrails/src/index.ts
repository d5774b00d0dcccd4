// Public API of the guardrails library: settings, input screening, tool firewall, output handling,
// human approvals, the store ports, in-memory stores and the facade that ties them together.
export * from './settings/setting-types';
export * from './settings/setting-validators';
export * from './settings/allow-list';
export * from './settings/defaults';
export * from './settings/settings-patch';
export * from './settings/effective-settings';
export * from './settings/posture';

export * from './screen/delimited-pattern';
export * from './screen/normalize';
export * from './screen/ruleset';
export * from './screen/bounded-matcher';
export * from './screen/default-rules';
export * from './screen/screen';
export * from './screen/audit-entry';

export * from './firewall/tool-definition';
export * from './firewall/destructive-tools';
export * from './firewall/tool-firewall';

export * from './output/output-counts';
export * from './output/html';
export * from './output/markdown';
export * from './output/url-trust';
export * from './output/structured-output';
export * from './output/pii/detector';
export * from './output/pii/pii-redactor';
export * from './output/output-handler';

export * from './hitl/approval';
export * from './hitl/approval-token';
export * from './hitl/approval-service';
export * from './hitl/relative-time';

export * from './ports/keyset-page';
export * from './ports/audit-store.port';
export * from './ports/firewall-log.port';
export * from './ports/output-stats.port';
export * from './ports/settings-store.port';
export * from './ports/approval-store.port';

export * from './memory/memory-audit-store';
export * from './memory/memory-firewall-log';
export * from './memory/memory-output-stats';
export * from './memory/memory-settings-store';
export * from './memory/memory-approval-store';

export * from './shared/json-schema';
export * from './guardrails';

export * from './settings/settings-service';
export * from './settings/live-settings';
export * from './retention';
export * from './postgres/tables';
export * from './postgres/sql-runner';
export * from './postgres/migrations';
export * from './postgres/pg-audit-store';
export * from './postgres/pg-firewall-log';
export * from './postgres/pg-output-stats';
export * from './postgres/pg-settings-store';
export * from './postgres/pg-approval-store';
export * from './postgres/pg-stores';
export * from './shared/text';
export * from './hitl/approved-call-queue';
export * from './host';
