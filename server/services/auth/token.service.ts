/**
 * Access and refresh tokens. Tokens are opaque random strings; only their SHA-256 hashes are stored.
 * Every login starts a token family; refreshing rotates the refresh token inside that family, and any
 * reuse of a spent or revoked refresh token revokes the whole family (stolen-token detection). Owns the
 * token tables; it does not know how a user proved who they are (see login.service.ts).
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { type CurrentUser, REFRESH_TOKEN_INVALID_MESSAGE, type TokenResponse } from '../../../src/shared/contract/auth';
import type { Db } from '../../db/client';
import { oauthTokens, tokenFamilies } from '../../db/schema';
import { ApiError } from '../../lib/api-error';
import { addSeconds, type Clock } from '../../lib/clock';
import { randomToken, sha256Hex } from '../../lib/secrets';

export type IssuedTokens = { accessToken: string; refreshToken: string; expiresIn: number };
/** Who a valid access token belongs to, and which login session (family) it is part of. */
export type AuthContext = { userId: number; familyId: string; expiresAt: Date };

export type TokenServiceDeps = {
  db: Db;
  now: Clock;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Told the families a sign-out, password change or reuse detection just ended (to close their sockets). */
  onRevoked?: (familyIds: string[]) => void;
};

export type TokenService = ReturnType<typeof createTokenService>;

export function createTokenService({ db, now, accessTokenTtlSeconds, refreshTokenTtlSeconds, onRevoked }: TokenServiceDeps) {
  const invalidRefresh = () => ApiError.badRequest(REFRESH_TOKEN_INVALID_MESSAGE);

  async function issuePair(userId: number, familyId: string): Promise<IssuedTokens> {
    const issuedAt = now();
    const accessToken = randomToken();
    const refreshToken = randomToken();
    await db.insert(oauthTokens).values([
      {
        familyId,
        userId,
        kind: 'access',
        tokenHash: sha256Hex(accessToken),
        expiresAt: addSeconds(issuedAt, accessTokenTtlSeconds),
        createdAt: issuedAt,
      },
      {
        familyId,
        userId,
        kind: 'refresh',
        tokenHash: sha256Hex(refreshToken),
        expiresAt: addSeconds(issuedAt, refreshTokenTtlSeconds),
        createdAt: issuedAt,
      },
    ]);
    return { accessToken, refreshToken, expiresIn: accessTokenTtlSeconds };
  }

  async function revokeFamily(familyId: string): Promise<void> {
    const revoked = await db
      .update(tokenFamilies)
      .set({ revokedAt: now() })
      .where(and(eq(tokenFamilies.id, familyId), isNull(tokenFamilies.revokedAt)))
      .returning({ id: tokenFamilies.id });
    if (revoked.length > 0) onRevoked?.(revoked.map((row) => row.id));
  }

  return {
    /** Starts a new login session for the user. */
    async issue(userId: number): Promise<IssuedTokens> {
      const familyId = randomUUID();
      await db.insert(tokenFamilies).values({ id: familyId, userId, createdAt: now() });
      return issuePair(userId, familyId);
    },

    /** The owner of a live access token, or null when it is unknown, expired or revoked. */
    async authenticate(accessToken: string): Promise<AuthContext | null> {
      const [row] = await db
        .select({ userId: oauthTokens.userId, familyId: oauthTokens.familyId, expiresAt: oauthTokens.expiresAt })
        .from(oauthTokens)
        .innerJoin(tokenFamilies, eq(tokenFamilies.id, oauthTokens.familyId))
        .where(
          and(
            eq(oauthTokens.tokenHash, sha256Hex(accessToken)),
            eq(oauthTokens.kind, 'access'),
            gt(oauthTokens.expiresAt, now()),
            isNull(tokenFamilies.revokedAt),
          ),
        );
      return row ?? null;
    },

    /**
     * Exchanges a refresh token for a new pair in the same family. Spent, revoked, expired or unknown
     * tokens answer REFRESH_TOKEN_INVALID_MESSAGE; a spent or expired one also revokes its family.
     */
    async rotate(refreshToken: string): Promise<{ userId: number; tokens: IssuedTokens }> {
      const tokenHash = sha256Hex(refreshToken);
      const [row] = await db
        .select({
          id: oauthTokens.id,
          userId: oauthTokens.userId,
          familyId: oauthTokens.familyId,
          expiresAt: oauthTokens.expiresAt,
          usedAt: oauthTokens.usedAt,
          familyRevokedAt: tokenFamilies.revokedAt,
        })
        .from(oauthTokens)
        .innerJoin(tokenFamilies, eq(tokenFamilies.id, oauthTokens.familyId))
        .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, 'refresh')));
      if (!row || row.familyRevokedAt) throw invalidRefresh();
      if (row.usedAt || row.expiresAt.getTime() <= now().getTime()) {
        await revokeFamily(row.familyId);
        throw invalidRefresh();
      }
      // Conditional update: of two concurrent exchanges of one token, exactly one wins.
      const spent = await db
        .update(oauthTokens)
        .set({ usedAt: now() })
        .where(and(eq(oauthTokens.id, row.id), isNull(oauthTokens.usedAt)))
        .returning({ id: oauthTokens.id });
      if (spent.length === 0) {
        await revokeFamily(row.familyId);
        throw invalidRefresh();
      }
      return { userId: row.userId, tokens: await issuePair(row.userId, row.familyId) };
    },

    revokeFamily,

    /** The login session a refresh token belongs to (spent or not), or null; for rate limiting. */
    async familyOfRefreshToken(refreshToken: string): Promise<string | null> {
      const [row] = await db
        .select({ familyId: oauthTokens.familyId })
        .from(oauthTokens)
        .where(and(eq(oauthTokens.tokenHash, sha256Hex(refreshToken)), eq(oauthTokens.kind, 'refresh')));
      return row?.familyId ?? null;
    },

    /** Ends every session of the user, or every session but one (the one changing the password). */
    async revokeUserFamilies(userId: number, exceptFamilyId?: string): Promise<void> {
      const revoked = await db
        .update(tokenFamilies)
        .set({ revokedAt: now() })
        .where(
          and(
            eq(tokenFamilies.userId, userId),
            isNull(tokenFamilies.revokedAt),
            exceptFamilyId ? ne(tokenFamilies.id, exceptFamilyId) : undefined,
          ),
        )
        .returning({ id: tokenFamilies.id });
      if (revoked.length > 0) onRevoked?.(revoked.map((row) => row.id));
    },
  };
}

/** The token endpoint's answer: the pair plus the user it belongs to. */
export function toTokenResponse(issued: IssuedTokens, user: CurrentUser): TokenResponse {
  return {
    access_token: issued.accessToken,
    refresh_token: issued.refreshToken,
    token_type: 'bearer',
    expires_in: issued.expiresIn,
    user,
  };
}
