import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ofKind, render, ROOT, SERVICES } from './render';

const dockerfile = readFileSync(join(ROOT, 'docker/node-app.Dockerfile'), 'utf8');

/** Entry names an app's webpack config builds: main plus additionalEntryPoints. */
function webpackEntries(app: string): string[] {
  const config = readFileSync(join(ROOT, 'apps', app, 'webpack.config.js'), 'utf8');
  const extra = [...config.matchAll(/entryName:\s*'([a-z-]+)'/g)].map((m) => m[1]);
  return config.includes("main: './src/main.ts'") ? ['main', ...extra] : extra;
}

describe('docker/node-app.Dockerfile', () => {
  it('is multi-stage and runs the bundle as the unprivileged node user in exec form', () => {
    const stages = dockerfile.match(/^FROM .+ AS (\w+)$/gm) ?? [];
    expect(stages).toHaveLength(2);
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^ENV NODE_ENV=production$/m);
    expect(runtime).toMatch(/^CMD \["node", "main\.js"\]$/m);
    expect(runtime).toContain('npm ci --omit=dev');
    expect(runtime).toContain('dist/apps/${APP}/package.json');
    expect(dockerfile).toContain('nx run "$APP":build:production');
  });

  it.each(SERVICES)('%s: every entrypoint the image and chart start is a webpack entry of the app', (app) => {
    const entries = webpackEntries(app).map((e) => `${e}.js`);
    const used = new Set<string>(['main.js']);
    for (const o of render(app).filter((x) => ['Deployment', 'Job', 'CronJob'].includes(x.kind))) {
      const text = JSON.stringify(o);
      for (const m of text.matchAll(/"node","([a-z-]+\.js)"/g)) used.add(m[1]);
    }
    for (const file of used) expect(entries).toContain(file);
    // After a build (npm test builds first) the files must exist too.
    const dist = join(ROOT, 'dist/apps', app);
    if (existsSync(join(dist, 'main.js'))) {
      for (const file of [...used, 'package.json', 'package-lock.json']) expect(existsSync(join(dist, file))).toBe(true);
    }
    expect(ofKind(render(app), 'Deployment').length).toBeGreaterThan(0);
  });
});
