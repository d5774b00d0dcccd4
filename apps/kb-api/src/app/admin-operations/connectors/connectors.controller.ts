import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { PageQueryDto } from '../../admin/pagination';
import { Can } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { CreateConnectorDto, ListConnectorsQueryDto, UpdateConnectorDto } from './connectors.dto';
import { ConnectorsService } from './connectors.service';
import { RecordIdPipe } from '../../conversations/record-id';
import { ApiNoContentResponse, ApiResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam, ErrorBody } from '../../api-docs';
import { ApiGatedOperation, ApiOperationsAdmin, ApiOperationsValidationFailed } from '../operations-api-docs';
import { OpsConnectorDto, OpsConnectorRunDto } from '../operations-responses.dto';
import { CONNECTOR_LIMITS } from './connector-settings';

const connectorId = new RecordIdPipe('Connector');

/** /api/admin/connectors behind `can:manageConnectors` (admin, super-admin). */
@ApiOperationsAdmin()
@Controller('api/admin/connectors')
@Can('manageConnectors')
export class ConnectorsController {
  constructor(private readonly connectors: ConnectorsService) {}

  @Get()
  @ApiGatedOperation('connectors', 'Connectors of the active tenant, newest first', '`search`: case-insensitive "contains" on the name.')
  @ApiPage(OpsConnectorDto, 'A page of connectors')
  @ApiOperationsValidationFailed()
  list(@Query() q: ListConnectorsQueryDto, @Req() req: KbRequest) {
    return this.connectors.list(req.kbPrincipal!, q);
  }

  @Post()
  @ApiGatedOperation(
    'connectors',
    'Creates a connector',
    '`config` is `{path}` for kind filesystem, `{urls}` for kind web. The name is unique per tenant (case-insensitive).',
  )
  @ApiData(OpsConnectorDto, { status: 201, description: 'Created' })
  @ApiOperationsValidationFailed()
  @HttpCode(201)
  async create(@Body() body: CreateConnectorDto, @Req() req: KbRequest) {
    return { data: await this.connectors.create(req.kbPrincipal!, body) };
  }

  @Get(':id')
  @ApiGatedOperation('connectors', 'One connector with its last run')
  @ApiRowIdParam('Connector id')
  @ApiData(OpsConnectorDto, { description: 'Connector' })
  @ApiNotFound('connector')
  async show(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    return { data: await this.connectors.show(req.kbPrincipal!, id) };
  }

  @Patch(':id')
  @ApiGatedOperation('connectors', 'Renames, re-targets, enables or disables a connector (its kind stays)')
  @ApiRowIdParam('Connector id')
  @ApiData(OpsConnectorDto, { description: 'Connector' })
  @ApiNotFound('connector')
  @ApiOperationsValidationFailed()
  async update(@Param('id', connectorId) id: string, @Body() body: UpdateConnectorDto, @Req() req: KbRequest) {
    return { data: await this.connectors.update(req.kbPrincipal!, id, body) };
  }

  @Delete(':id')
  @ApiGatedOperation('connectors', 'Deletes a connector and its run history (documents it brought stay)')
  @ApiRowIdParam('Connector id')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('connector')
  @HttpCode(204)
  async remove(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    await this.connectors.remove(req.kbPrincipal!, id);
  }

  /** Runs the sync now and answers its run (documents are then indexed by the worker). */
  @Post(':id/sync')
  @ApiGatedOperation(
    'connectors',
    'Reads the source now and queues what changed for ingest',
    `Files or pages whose content equals the document's current version are skipped as unchanged. Web fetches refuse private and loopback addresses (unless allowed), stop at ${CONNECTOR_LIMITS.maxPageBytes} bytes and ${CONNECTOR_LIMITS.fetchTimeoutMs} ms and follow at most ${CONNECTOR_LIMITS.maxRedirects} redirects; a directory sync reads at most ${CONNECTOR_LIMITS.maxFiles} files of at most ${CONNECTOR_LIMITS.maxFileBytes} bytes.`,
  )
  @ApiRowIdParam('Connector id')
  @ApiData(OpsConnectorRunDto, { description: 'The run' })
  @ApiNotFound('connector')
  @ApiResponse({ status: 409, description: '`{error: "connector_disabled" | "sync_in_progress", message}`', type: ErrorBody })
  @HttpCode(200)
  async sync(@Param('id', connectorId) id: string, @Req() req: KbRequest) {
    return { data: await this.connectors.sync(req.kbPrincipal!, id) };
  }

  @Get(':id/runs')
  @ApiGatedOperation('connectors', "The connector's sync runs, newest first")
  @ApiRowIdParam('Connector id')
  @ApiPage(OpsConnectorRunDto, 'A page of runs')
  @ApiNotFound('connector')
  @ApiOperationsValidationFailed()
  runs(@Param('id', connectorId) id: string, @Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.connectors.runs(req.kbPrincipal!, id, q);
  }
}
