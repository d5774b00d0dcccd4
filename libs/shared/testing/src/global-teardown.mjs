export default async function globalTeardown() {
  const infra = globalThis.__PLATFORM_INFRA__;
  if (infra) await infra.stop();
}
