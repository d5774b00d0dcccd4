// The credentials `npm start` seeds, as the banner prints them: the ids actually seeded (env or
// the development default) and a secret only when it is the development default — a secret the
// person set themselves is never echoed, only where it came from.
// The defaults mirror the services' own (iam seed.service.ts, kb-api bootstrap-admin.ts); a test
// keeps them equal.
export const DEV_DEFAULTS = {
  iamClient: { id: 'platform-bootstrap', secret: 'dev-bootstrap-secret-change-me' },
  iamUser: { email: 'admin@example.test', password: 'dev-admin-password-change-me' },
  kbAdmin: { email: 'admin@example.com', password: 'dev-admin-password-change-me' },
};

/** One credential: `value` from env or the default; `shown` is what the banner may print. */
function resolve(env, variable, fallback, { secret = false } = {}) {
  const set = env[variable] !== undefined && env[variable] !== '';
  const value = set ? env[variable] : fallback;
  if (!secret) return { value, shown: value };
  return { value, shown: set && value !== fallback ? `(from ${variable})` : value, isDefault: !set || value === fallback };
}

export function bootstrapCredentials(env = process.env) {
  const d = DEV_DEFAULTS;
  return {
    iamClient: {
      id: resolve(env, 'IAM_BOOTSTRAP_CLIENT_ID', d.iamClient.id),
      secret: resolve(env, 'IAM_BOOTSTRAP_CLIENT_SECRET', d.iamClient.secret, { secret: true }),
    },
    iamUser: {
      email: resolve(env, 'IAM_BOOTSTRAP_USER_EMAIL', d.iamUser.email),
      password: resolve(env, 'IAM_BOOTSTRAP_USER_PASSWORD', d.iamUser.password, { secret: true }),
    },
    kbAdmin: {
      email: resolve(env, 'KB_BOOTSTRAP_ADMIN_EMAIL', d.kbAdmin.email),
      password: resolve(env, 'KB_BOOTSTRAP_ADMIN_PASSWORD', d.kbAdmin.password, { secret: true }),
    },
  };
}

/**
 * A shell word for a secret in the banner's example commands: the default itself, or a reference
 * to the variable the person set (so the printed command still works in their shell).
 */
export function shellSecret(cred, variable) {
  return cred.isDefault ? cred.value : `"$${variable}"`;
}

/** The `-d` argument of the banner's KB sign-in command, quoted for a POSIX shell. */
export function kbLoginArgument(kbAdmin) {
  const email = kbAdmin.email.value;
  if (kbAdmin.password.isDefault) return `'${JSON.stringify({ email, password: kbAdmin.password.value })}'`;
  return `"{\\"email\\":\\"${email}\\",\\"password\\":\\"$KB_BOOTSTRAP_ADMIN_PASSWORD\\"}"`;
}
