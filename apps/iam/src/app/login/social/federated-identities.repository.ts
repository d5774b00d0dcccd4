import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** What the upstream provider said about who signed in. */
export interface UpstreamIdentity {
  issuer: string;
  subject: string;
  /** Set only when the upstream marks it verified (lower-cased, trimmed). */
  verifiedEmail?: string;
  name: string;
}

/** The links between upstream identities and accounts (iam_federated_identities), written by social sign-in. */
@Injectable()
export class FederatedIdentitiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The active account the identity signs into: the one linked before; else the account with the
   * same verified email (then linked); else a new account for that verified email, all in one
   * transaction. Without a verified email nothing is linked or created.
   */
  async accountFor(identity: UpstreamIdentity): Promise<string | undefined> {
    return this.dataSource.transaction(async (em) => {
      const [linked] = await em.query(
        `SELECT f.user_id FROM iam_federated_identities f JOIN iam_users u ON u.id = f.user_id WHERE f.issuer = $1 AND f.subject = $2 AND u.active`,
        [identity.issuer, identity.subject],
      );
      if (linked) return linked.user_id as string;
      if (!identity.verifiedEmail) return undefined;
      const [user] = await em.query(
        `INSERT INTO iam_users (email, name) VALUES ($1, $2) ON CONFLICT (lower(email)) DO UPDATE SET email = iam_users.email RETURNING id, active`,
        [identity.verifiedEmail, identity.name],
      );
      if (!user.active) return undefined;
      await em.query(`INSERT INTO iam_federated_identities (issuer, subject, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        identity.issuer,
        identity.subject,
        user.id,
      ]);
      return user.id as string;
    });
  }
}
