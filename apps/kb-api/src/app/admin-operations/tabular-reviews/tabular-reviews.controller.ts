import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PageQueryDto } from '../../admin/pagination';
import { Can, RequireRole } from '../../auth/gates';
import type { KbRequest } from '../../auth/kb-principal';
import { G1_ROLES } from '../../identity/rbac';
import { CreateTabularReviewDto } from './tabular-reviews.dto';
import { TabularReviewsService } from './tabular-reviews.service';
import { RecordIdPipe } from '../../conversations/record-id';
import { ApiNoContentResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiData, ApiNotFound, ApiPage, ApiRowIdParam } from '../../api-docs';
import { ApiGatedOperation, ApiOperationsAdmin, ApiOperationsValidationFailed } from '../operations-api-docs';
import { OpsTabularReviewDto, OpsTabularReviewSummaryDto } from '../operations-responses.dto';

const reviewId = new RecordIdPipe('Tabular review');

/**
 * /api/admin/tabular-reviews behind `can:viewTabularReviews` (viewer, admin, super-admin): viewers
 * read and export; creating, running and deleting also need gate G1 (admin, super-admin).
 */
@ApiOperationsAdmin()
@Controller('api/admin/tabular-reviews')
@Can('viewTabularReviews')
export class TabularReviewsController {
  constructor(private readonly reviews: TabularReviewsService) {}

  @Get()
  @ApiGatedOperation('reviewsView', 'Tabular reviews, newest first', '`search`: case-insensitive "contains" on the name.')
  @ApiPage(OpsTabularReviewSummaryDto, 'A page of reviews')
  @ApiOperationsValidationFailed()
  list(@Query() q: PageQueryDto, @Req() req: KbRequest) {
    return this.reviews.list(req.kbPrincipal!, q);
  }

  @Post()
  @ApiGatedOperation('reviewsAct', 'Creates a review: documents (listed, or every document of a project) × column questions')
  @ApiData(OpsTabularReviewDto, { status: 201, description: 'Created (cells empty until run)' })
  @ApiOperationsValidationFailed()
  @HttpCode(201)
  @RequireRole(...G1_ROLES)
  async create(@Body() body: CreateTabularReviewDto, @Req() req: KbRequest) {
    return { data: await this.reviews.create(req.kbPrincipal!, body) };
  }

  @Get(':id')
  @ApiGatedOperation('reviewsView', 'One review with its grid')
  @ApiRowIdParam('Tabular review id')
  @ApiData(OpsTabularReviewDto, { description: 'Review' })
  @ApiNotFound('review')
  async show(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    return { data: await this.reviews.show(req.kbPrincipal!, id) };
  }

  @Get(':id/export.csv')
  @ApiGatedOperation(
    'reviewsView',
    'The grid as CSV: per document its id, title and path, per column the answer and its citation',
    'Cells starting with = + - @ are prefixed with an apostrophe so spreadsheets do not run them.',
  )
  @ApiRowIdParam('Tabular review id')
  @ApiOkResponse({ description: 'CSV (attachment)', content: { 'text/csv': { schema: { type: 'string' } } } })
  @ApiNotFound('review')
  async export(@Param('id', reviewId) id: string, @Req() req: KbRequest, @Res({ passthrough: true }) res: Response) {
    const { filename, body } = await this.reviews.csv(req.kbPrincipal!, id);
    // Set here, not with @Header: Nest puts decorator headers on every answer of the route, and an
    // error answer (404, 422) would then claim to be CSV while its body is JSON.
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `attachment; filename="${filename}"`);
    return body;
  }

  @Post(':id/run')
  @ApiGatedOperation('reviewsAct', 'Fills every cell again: an extractive answer from that document only, with its citation, or no_answer')
  @ApiRowIdParam('Tabular review id')
  @ApiData(OpsTabularReviewDto, { description: 'The filled review' })
  @ApiNotFound('review')
  @HttpCode(200)
  @RequireRole(...G1_ROLES)
  async run(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    return { data: await this.reviews.run(req.kbPrincipal!, id) };
  }

  @Delete(':id')
  @ApiGatedOperation('reviewsAct', 'Deletes a review and its cells')
  @ApiRowIdParam('Tabular review id')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFound('review')
  @HttpCode(204)
  @RequireRole(...G1_ROLES)
  async remove(@Param('id', reviewId) id: string, @Req() req: KbRequest) {
    await this.reviews.remove(req.kbPrincipal!, id);
  }
}
