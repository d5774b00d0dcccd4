import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { COMMAND_SCHEDULES } from './schedules';

/**
 * scheduler-status reports the schedules of COMMAND_SCHEDULES; the Helm values start the CronJobs
 * that really run them. The two must agree, or the status page would describe a schedule nobody runs.
 */
describe('the kb-api CronJobs in k8s/values/kb-api.yaml', () => {
  const values = parse(readFileSync(join(__dirname, '../../../../../../k8s/values/kb-api.yaml'), 'utf8')) as {
    cronJobs: Record<string, { schedule: string; task: string; args: string[] }>;
  };

  it('run every scheduled command with commands:run on its cron, and nothing else', () => {
    const jobs = Object.entries(values.cronJobs).map(([name, j]) => ({ name, cron: j.schedule, task: j.task, args: j.args }));
    expect(jobs.sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      COMMAND_SCHEDULES.map((s) => ({ name: s.command, cron: s.cron, task: 'commands:run', args: [s.command] })).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});
