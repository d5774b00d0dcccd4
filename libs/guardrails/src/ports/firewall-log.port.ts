import { KeysetPage, KeysetQuery, TimeWindow } from './keyset-page';

/** A tool call with argument violations (rejected in enforce mode, recorded in monitor mode). */
export interface FirewallRejection {
  tool_name: string;
  tool_description: string;
  principal_id: string | null;
  /** argument -> reason */
  violations: Record<string, string>;
  /** Whether the call was refused (enforce) or only recorded (monitor). */
  enforced: boolean;
  occurred_at: Date;
}

export interface StoredFirewallRejection extends FirewallRejection {
  id: number;
}

export interface FirewallListQuery extends KeysetQuery, TimeWindow {
  principal_id?: string;
  /** Literal substring of the tool name or description. */
  q?: string;
}

/** Append-only log of tool-firewall rejections (never swept by retention). */
export interface FirewallLog {
  append(rejection: FirewallRejection): Promise<StoredFirewallRejection>;
  list(query: FirewallListQuery): Promise<KeysetPage<StoredFirewallRejection>>;
}
