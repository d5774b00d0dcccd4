import { Injectable } from '@nestjs/common';
import { KbPrincipal } from '../../auth/kb-principal';
import { KbMessage, KbValidationError } from '../../errors/kb-errors';
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
    await this.strategies.change(p.tenantId, p.userId, (current) => {
      if (permission !== undefined && permission !== current.detokenize_permission)
        assertMayChangeDetokenizePermission(p, current.detokenize_permission, permission);
      return {
        actions: completeActions({ ...current.actions, ...given }),
        detokenizePermission: permission ?? current.detokenize_permission,
      };
    });
    return this.show(p.tenantId);
  }
}

/**
 * The strategy's gate (can:viewPiiRedactorAdmin) lets in admins, who do not hold pii.detokenize: were
 * that gate enough to rename the detokenize permission, an admin could name one of its own and
 * detokenize. So only a holder of the permission in force may hand it on, and only to one it holds
 * too (nobody grants what they do not hold, nor locks themselves out by mistake). Checked as the
 * detokenize route checks it: the caller's permissions in the active tenant.
 */
function assertMayChangeDetokenizePermission(p: KbPrincipal, current: string, next: string): void {
  const lacking = [...new Set([current, next])].filter((perm) => !p.permissions.includes(perm));
  if (lacking.length > 0)
    throw new KbMessage(
      403,
      `Changing the detokenize permission needs the permission in force (${current}) and the new one (${next}); you lack ${lacking.join(' and ')}.`,
    );
}
