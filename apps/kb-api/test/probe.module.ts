import { Controller, Get, Module, Post, Req, Type } from '@nestjs/common';
import { Can, RequireRole, TokenAbilityGate } from '../src/app/auth/gates';
import type { KbRequest } from '../src/app/auth/kb-principal';

/**
 * Routes that carry each gate of the spec with nothing else behind them, so the gates are tested
 * on their own before the feature routes that use them exist.
 */
@Controller('api/kb/probe')
class GateProbeController {
  @Get('whoami')
  whoami(@Req() req: KbRequest) {
    return req.kbPrincipal;
  }

  @Post('write')
  write() {
    return { written: true };
  }

  @Get('read')
  @TokenAbilityGate('kb:read')
  read() {
    return { ok: true };
  }

  @Post('chat')
  @TokenAbilityGate('kb:chat')
  chat() {
    return { ok: true };
  }

  @Get('g1')
  @RequireRole('admin', 'super-admin')
  g1() {
    return { ok: true };
  }

  @Get('widget-keys')
  @Can('manageWidgetKeys')
  widgetKeys() {
    return { ok: true };
  }

  @Get('platform')
  @Can('platform.admin')
  platform() {
    return { ok: true };
  }
}

/** kb-api's AppModule plus the gate probes. */
export async function appWithProbes(): Promise<Type<unknown>> {
  const { AppModule } = await import('../src/app.module');
  @Module({ imports: [AppModule], controllers: [GateProbeController] })
  class ProbedAppModule {}
  return ProbedAppModule;
}
