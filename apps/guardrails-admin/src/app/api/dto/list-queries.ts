import { QueryBoolean, QueryDate, QueryLimit, QueryPositiveInt, QueryText } from './query-values';

const CURSOR = 'next_cursor of the previous page (rows with a smaller id)';

/** A keyset page: `limit` rows older than `cursor`. */
export class PageQuery {
  @QueryLimit(50, 200)
  limit: number = 50;

  @QueryPositiveInt(CURSOR)
  cursor?: number;
}

/** A [from, to] window; the endpoint gives the default and the longest span. */
export class WindowQuery {
  @QueryDate(false)
  from?: Date;

  @QueryDate(true)
  to?: Date;
}

/** GET /firewall. */
export class FirewallQuery extends PageQuery {
  @QueryText(200)
  principal_id?: string;

  @QueryText(500, 'Literal substring (% and _ match themselves)')
  q?: string;

  @QueryDate(false)
  from?: Date;

  @QueryDate(true)
  to?: Date;
}

/** GET /audit. */
export class AuditListQuery extends PageQuery {
  @QueryBoolean('Only blocked (true) or only allowed (false) attempts')
  blocked?: boolean;

  @QueryText(200)
  rule_id?: string;

  @QueryText(200)
  principal_id?: string;

  @QueryText(500, 'Literal substring of the stored prompt (% and _ match themselves)')
  q?: string;

  @QueryDate(false)
  from?: Date;

  @QueryDate(true)
  to?: Date;
}
