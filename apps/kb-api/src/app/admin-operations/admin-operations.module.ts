import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { QUEUES } from '@platform/contracts';
import { ChatModule } from '../chat/chat.module';
import { IngestModule } from '../ingest/ingest.module';
import { CommandsController } from './commands/commands.controller';
import { CommandRunsRepository } from './commands/command-runs.repository';
import { CommandsService } from './commands/commands.service';
import { MaintenanceRepository } from './commands/maintenance.repository';
import { ConnectorSettings } from './connectors/connector-settings';
import { ConnectorSyncService } from './connectors/connector-sync.service';
import { ConnectorsController } from './connectors/connectors.controller';
import { ConnectorsRepository } from './connectors/connectors.repository';
import { ConnectorsService } from './connectors/connectors.service';
import { TabularReviewsController } from './tabular-reviews/tabular-reviews.controller';
import { TabularReviewsRepository } from './tabular-reviews/tabular-reviews.repository';
import { TabularReviewsService } from './tabular-reviews/tabular-reviews.service';
import { WorkflowsController } from './workflows/workflows.controller';
import { WorkflowsRepository } from './workflows/workflows.repository';
import { WorkflowsService } from './workflows/workflows.service';

/**
 * Admin surfaces that act: maintenance commands, connectors, tabular reviews and workflows. Work
 * runs in the API process; documents go through the ingest pipeline's own service and queue.
 */
@Module({
  imports: [IngestModule.api(), BullModule.registerQueue({ name: QUEUES.kbIngest }), ChatModule],
  controllers: [CommandsController, ConnectorsController, TabularReviewsController, WorkflowsController],
  providers: [
    CommandRunsRepository,
    MaintenanceRepository,
    CommandsService,
    ConnectorSettings,
    ConnectorsRepository,
    ConnectorSyncService,
    ConnectorsService,
    TabularReviewsRepository,
    TabularReviewsService,
    WorkflowsRepository,
    WorkflowsService,
  ],
})
export class KbAdminOperationsModule {}
