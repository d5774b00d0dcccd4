import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { RecordIdPipe } from '../../conversations/record-id';
import { G1_ROLES } from '../../identity/rbac';
import { KbHealthQueryDto, ListAdminDocumentsQueryDto, TreeQueryDto } from './inventory.dto';
import { InventoryService } from './inventory.service';

const documentId = new RecordIdPipe('Document');

/** /api/admin/kb/tree, /health and /documents/*: what the knowledge base holds and what is wrong with it. */
@Controller('api/admin/kb')
@RequireRole(...G1_ROLES)
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get('tree')
  tree(@Query() q: TreeQueryDto, @Req() req: KbRequest) {
    return this.inventory.tree(req.kbPrincipal!.tenantId, q.project || undefined);
  }

  @Get('health')
  health(@Query() q: KbHealthQueryDto, @Req() req: KbRequest) {
    return this.inventory.health(req.kbPrincipal!.tenantId, q.stale_days);
  }

  @Get('documents')
  documents(@Query() q: ListAdminDocumentsQueryDto, @Req() req: KbRequest) {
    return this.inventory.documents(req.kbPrincipal!.tenantId, q);
  }

  @Get('documents/:id')
  document(@Param('id', documentId) id: string, @Req() req: KbRequest) {
    return this.inventory.document(req.kbPrincipal!.tenantId, id);
  }

  @Post('documents/:id/reindex')
  @HttpCode(202)
  reindex(@Param('id', documentId) id: string, @Req() req: KbRequest) {
    return this.inventory.reindex(req.kbPrincipal!.tenantId, id);
  }
}
