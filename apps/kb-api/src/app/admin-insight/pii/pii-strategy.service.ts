import { Injectable } from '@nestjs/common';
import { KbPrincipal } from '../../auth/kb-principal';
import { KbValidationError } from '../../errors/kb-errors';
import { PERMISSIONS } from '../../identity/rbac';
import { PutPiiStrategyDto } from './pii-strategy.dto';
import { completeActions, PII_ACTIONS, PII_DETECTORS, PiiAction, PiiActions } from './pii-policy';
import { PiiStrategy, PiiStrategyRepository } from './pii-strategy.repository';

export interface PiiStrategyView extends PiiStrategy {
  detectors: readonly string[];
  available_actions: readonly string[];
}

/** The tenant's PII strategy; detectors left out of a PUT keep their current action. */
@Injectable()
export class PiiStrategyService {
  constructor(private readonly strategies: PiiStrategyRepository) {}

  async show(tenantId: string): Promise<PiiStrategyView> {
    return {
      ...(await this.strategies.find(tenantId)),
      detectors: PII_DETECTORS,
      available_actions: PII_ACTIONS,
    };
  }

  async update(p: KbPrincipal, body: PutPiiStrategyDto): Promise<PiiStrategyView> {
    const errors: Record<string, string[]> = {};
    const given: Partial<PiiActions> = {};
    for (const [detector, action] of Object.entries(body.actions)) {
      if (!PII_DETECTORS.includes(detector))
        errors[`actions.${detector}`] = [
          `Unknown detector ${detector} (one of ${PII_DETECTORS.join(', ')}).`,
        ];
      else if (!(PII_ACTIONS as readonly unknown[]).includes(action))
        errors[`actions.${detector}`] = [`The action must be one of ${PII_ACTIONS.join(', ')}.`];
      else given[detector] = action as PiiAction;
    }
    const permission = body.detokenize_permission;
    if (permission !== undefined && !(PERMISSIONS as readonly string[]).includes(permission)) {
      errors['detokenize_permission'] = [
        `The selected detokenize permission is invalid (one of ${PERMISSIONS.join(', ')}).`,
      ];
    }
    if (Object.keys(errors).length) throw new KbValidationError(errors);
    const current = await this.strategies.find(p.tenantId);
    await this.strategies.save(
      p.tenantId,
      completeActions({ ...current.actions, ...given }),
      permission ?? current.detokenize_permission,
      p.userId,
    );
    return this.show(p.tenantId);
  }
}
