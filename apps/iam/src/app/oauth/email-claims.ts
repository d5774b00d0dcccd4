import type { IamUser } from '../users/users.repository';

/**
 * The user's e-mail as iam asserts it (OIDC Core §5.1), the same in userinfo and in access tokens.
 * `email_verified` is true because nobody chooses their own address here: there is no sign-up and
 * no address change; an account's e-mail is set by an operator (seed, `iam:create-user`) or taken
 * from an upstream provider that said `email_verified: true` (social login refuses any other).
 */
export function emailClaims(user: Pick<IamUser, 'email'>): { email: string; email_verified: true } {
  return { email: user.email, email_verified: true };
}
