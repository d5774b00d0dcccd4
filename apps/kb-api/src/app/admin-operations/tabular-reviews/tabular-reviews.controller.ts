import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageQueryDto } from '../../admin/pagination';
import { Can, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { CreateTabularReviewDto } from './tabular-reviews.dto';
import { TabularReviewsService } from './tabular-reviews.service';
import { RecordIdPipe } from '../../conversations/record-id';

const reviewId = new RecordIdPipe('Tabular review');

/**
 * /api/admin/tabular-reviews behind `can:viewTabularReviews` (viewer, admin, super-admin): viewers
 * read and export; creating, running and deleting also need gate G1 (admin, super-admin).
 */
@Controller('api/admin/tabular-reviews')
@Can('viewTabularReviews')
export class TabularReviewsController {
  constructor(private readonly reviews: TabularReviewsService) {}

  @Get()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.reviews.list(req.kbPrincipal!, q);
  }

  @Post()
  @HttpCode(201)
  @RequireRole(...G1_ROLES)
  async create(@Body() body: CreateTabularReviewDto, @Req() req: KbRequest) {
    return { data: await this.reviews.create(req.kbPrincipal!, body) };
  }

  @Get(':id')
  async show(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    return { data: await this.reviews.show(req.kbPrincipal!, id) };
  }

  @Get(':id/export.csv')
  async export(@Param('id', reviewId) id: string, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { filename, body } = await this.reviews.csv(req.kbPrincipal!, id);
    // Set here, not with @Header: Nest puts decorator headers on every answer of the route, and an
    // error answer (404, 422) would then claim to be CSV while its body is JSON.
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    return body;
  }

  @Post(':id/run')
  @HttpCode(200)
  @RequireRole(...G1_ROLES)
  async run(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    return { data: await this.reviews.run(req.kbPrincipal!, id) };
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireRole(...G1_ROLES)
  async remove(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    await this.reviews.remove(req.kbPrincipal!, id);
  }
}
