import { Injectable } from '@nestjs/common';
import { pageWindow, PageQueryDto, toPage } from '../../admin/pagination';
import type { KbPrincipal } from '../../auth/kb-principal';
import { KbMessage, KbValidationError } from '../../errors/kb-errors';
import { AddressPolicy } from '@platform/runtime';
import { checkConfig } from './connector-config';
import { ConnectorSettings } from './connector-settings';
import { ConnectorSyncService } from './connector-sync.service';
import { ConnectorRow, ConnectorRunRow, ConnectorsRepository } from './connectors.repository';
import { CreateConnectorDto, ListConnectorsQueryDto, UpdateConnectorDto } from './connectors.dto';

const notFound = () => new KbMessage(404, 'Connector not found.');

/** Connectors of the active tenant: CRUD, sync and run history. */
@Injectable()
export class ConnectorsService {
  private readonly policy: AddressPolicy;

  constructor(
    private readonly connectors: ConnectorsRepository,
    private readonly syncs: ConnectorSyncService,
    private readonly settings: ConnectorSettings,
  ) {
    this.policy = new AddressPolicy(settings.allowedPrivate);
  }

  async list(who: KbPrincipal, q: ListConnectorsQueryDto) {
    const w = pageWindow(q);
    const { rows, total } = await this.connectors.page(who.tenantId, { search: q.search, kind: q.kind }, w);
    const last = await this.connectors.lastRuns(who.tenantId, rows.map((r) => r.id));
    return toPage(rows.map((r) => this.present(r, last.get(r.id))), total, w);
  }

  async show(who: KbPrincipal, id: string) {
    const c = await this.get(who, id);
    return this.present(c, (await this.connectors.lastRuns(who.tenantId, [c.id])).get(c.id));
  }

  async create(who: KbPrincipal, body: CreateConnectorDto) {
    const { config, errors } = await checkConfig(body.kind, body.config, { fsRoots: this.settings.fsRoots, policy: this.policy });
    if (await this.connectors.nameTaken(who.tenantId, body.name)) (errors['name'] ??= []).push('The name has already been taken.');
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const row = await this.connectors.create(who.tenantId, {
      name: body.name,
      kind: body.kind,
      projectKey: body.project_key ?? this.settings.defaultProject,
      config: config!,
      enabled: body.enabled ?? true,
      createdBy: who.userId,
    });
    return this.present(row, undefined);
  }

  async update(who: KbPrincipal, id: string, body: UpdateConnectorDto) {
    const c = await this.get(who, id);
    let config = c.config;
    let errors: Record<string, string[]> = {};
    if (body.config !== undefined) {
      const checked = await checkConfig(c.kind, body.config, { fsRoots: this.settings.fsRoots, policy: this.policy });
      errors = checked.errors;
      config = checked.config ?? config;
    }
    if (body.name !== undefined && (await this.connectors.nameTaken(who.tenantId, body.name, c.id))) (errors['name'] ??= []).push('The name has already been taken.');
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const row = await this.connectors.update(who.tenantId, c.id, { name: body.name ?? c.name, projectKey: body.project_key ?? c.project_key, config, enabled: body.enabled ?? c.enabled });
    if (!row) throw notFound();
    return this.show(who, row.id);
  }

  async remove(who: KbPrincipal, id: string) {
    if (!(await this.connectors.remove(who.tenantId, id))) throw notFound();
  }

  async sync(who: KbPrincipal, id: string) {
    return this.presentRun(await this.syncs.sync(who, await this.get(who, id)));
  }

  async runs(who: KbPrincipal, id: string, q: PageQueryDto) {
    const c = await this.get(who, id);
    const w = pageWindow(q);
    const { rows, total } = await this.connectors.runs(who.tenantId, c.id, w);
    return toPage(rows.map((r) => this.presentRun(r)), total, w);
  }

  private async get(who: KbPrincipal, id: string): Promise<ConnectorRow> {
    const c = await this.connectors.find(who.tenantId, id);
    if (!c) throw notFound();
    return c;
  }

  private present(c: ConnectorRow, last: ConnectorRunRow | undefined) {
    return { ...c, last_run: last ? this.presentRun(last) : null };
  }

  private presentRun(r: ConnectorRunRow) {
    return { ...r, document_ids: r.document_ids.map(Number) };
  }
}
