// What authenticating through a passport strategy adds to a request, apart from the credential
// check itself: the same async check called directly, then through passport.authenticate with a
// passport-custom strategy and a callback, as @nestjs/passport's AuthGuard calls it.
//   node tools/bench/passport-overhead.bench.mjs [--count 200000]
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const passport = require('passport');
const { Strategy } = require('passport-custom');

const { values } = parseArgs({ options: { count: { type: 'string', default: '200000' } } });
const count = Number(values.count);
const user = { id: 1 };
const check = async (req) => (req.headers.authorization === 'Bearer kbp_x' ? user : false);
passport.use('bench', new Strategy((req, done) => check(req).then((u) => done(null, u), done)));

const direct = async (req) => check(req);
const viaPassport = (req) =>
  new Promise((resolve, reject) =>
    passport.authenticate('bench', { session: false }, (err, u) => (err ? reject(err) : resolve(u)))(req, {}, reject),
  );

async function time(fn) {
  const req = () => ({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer kbp_x' } });
  for (let i = 0; i < 20000; i++) await fn(req());
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await fn(req());
  return Number(process.hrtime.bigint() - started) / 1000 / count;
}

const directUs = await time(direct);
const passportUs = await time(viaPassport);
process.stdout.write(
  JSON.stringify({ count, direct_us_per_call: +directUs.toFixed(3), passport_us_per_call: +passportUs.toFixed(3), added_us: +(passportUs - directUs).toFixed(3) }, null, 2) + '\n',
);
