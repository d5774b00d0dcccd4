import { createValidationPipe, ValidationFailedError } from '@platform/observability';
import { ApplicationLogQueryDto } from '../admin-insight/logs/logs.dto';
import { ListContentGapsQueryDto } from '../admin-knowledge/content-gaps/content-gaps.dto';
import { KbHealthQueryDto } from '../admin-knowledge/inventory/inventory.dto';
import { TimeseriesQueryDto } from '../admin-knowledge/metrics/metrics.dto';
import { ListNotificationsQuery } from '../notifications/dto/notifications.dto';
import { ListWidgetSessionsQueryDto } from '../widget/dto/widget-keys.dto';
import { PageQueryDto } from './pagination';

const pipe = createValidationPipe();
const read = async (metatype: new () => object, query: Record<string, unknown>) => {
  try {
    return { value: { ...(await pipe.transform(query, { type: 'query', metatype })) } as Record<string, unknown> };
  } catch (e) {
    if (!(e instanceof ValidationFailedError)) throw e;
    return { fields: [...new Set(e.errors.map((f) => f.field))] };
  }
};

describe('query integers', () => {
  it('are decimal digits only: 1e2, 0x10, 1.0, padded or empty values are no integers', async () => {
    for (const field of ['page', 'per_page']) {
      for (const notDecimal of ['1e2', '0x10', '0b11', '0o7', '1.0', '1.', ' 5', '5 ', '+5', '', 'Infinity', '١٢']) {
        expect([field, notDecimal, await read(PageQueryDto, { [field]: notDecimal })]).toEqual([field, notDecimal, { fields: [field] }]);
      }
    }
    expect(await read(PageQueryDto, { page: '12', per_page: '007' })).toEqual({ value: { page: 12, per_page: 7 } });
    // Out of range is still the bound's refusal, a minus sign included.
    expect(await read(PageQueryDto, { page: '-1', per_page: '101' })).toEqual({ fields: ['page', 'per_page'] });
  });

  it('hold on every list that takes one', async () => {
    const cases: Array<[new () => object, string, string, Record<string, unknown>?]> = [
      [TimeseriesQueryDto, 'days', '14', { metric: 'chats' }],
      [ListContentGapsQueryDto, 'days', '30'],
      [KbHealthQueryDto, 'stale_days', '30'],
      [ApplicationLogQueryDto, 'status', '500'],
      [ListNotificationsQuery, 'per_page', '20'],
      [ListNotificationsQuery, 'page', '2'],
      [ListWidgetSessionsQueryDto, 'key', '7'],
    ];
    for (const [dto, field, fine, base = {}] of cases) {
      expect([dto.name, field, await read(dto, { ...base, [field]: '1e2' })]).toEqual([dto.name, field, { fields: [field] }]);
      expect([dto.name, field, await read(dto, { ...base, [field]: '0x10' })]).toEqual([dto.name, field, { fields: [field] }]);
      expect([dto.name, field, (await read(dto, { ...base, [field]: fine })).value?.[field]]).toEqual([dto.name, field, Number(fine)]);
    }
  });
});
