/**
 * The session as the browser keeps it between visits: the tokens of the last token answer, when the
 * access token expires and who is logged in. Shared by the session machine (which decides) and the
 * session-storage adapter (which persists); neither owns the other.
 */
import { z } from 'zod';
import { currentUserSchema, type TokenResponse } from './auth';

export const storedSessionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  /** When the access token expires, epoch milliseconds. */
  expiresAt: z.number().int().nonnegative(),
  user: currentUserSchema,
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

/** The session a token answer opens, `nowMs` being the moment it arrived. */
export function sessionFromTokenResponse(token: TokenResponse, nowMs: number): StoredSession {
  return {
    accessToken: token.access_token,
    refreshToken: token.refresh_token,
    expiresAt: nowMs + token.expires_in * 1000,
    user: token.user,
  };
}
