/**
 * The wall display's link to the server, without a teacher's credentials: asking for a pairing code,
 * collecting the display token once paired, and reading the snapshot with it. The token lives in local
 * storage (`displayToken`), so a screen that loses power comes back paired. Plain fetch (no axios): the
 * kiosk entry stays small. Does not decide what to show; a 401 is reported as DisplayRevokedError.
 */
import { envelopeSchema } from '../contract/envelope';
import {
  largeScreenSnapshotSchema,
  pairingCollectResultSchema,
  screenPairingSchema,
  type LargeScreenSnapshot,
  type PairingCollectResult,
  type ScreenPairing,
} from '../contract/large-screen';
import type { z } from 'zod';
import { getLocalItem, removeLocalItem, setLocalItem } from './local-storage';

export const DISPLAY_TOKEN_STORAGE_KEY = 'displayToken';

/** The screen's token no longer opens anything (revoked, or the server forgot it). */
export class DisplayRevokedError extends Error {
  override readonly name = 'DisplayRevokedError';
}

export function loadDisplayToken(): string | null {
  const value = getLocalItem(DISPLAY_TOKEN_STORAGE_KEY);
  return typeof value === 'string' && value.length > 0 ? value : null;
}

export function saveDisplayToken(token: string): void {
  setLocalItem(DISPLAY_TOKEN_STORAGE_KEY, token);
}

export function clearDisplayToken(): void {
  removeLocalItem(DISPLAY_TOKEN_STORAGE_KEY);
}

async function call<T extends z.ZodType>(path: string, init: RequestInit, schema: T): Promise<z.infer<T>> {
  const response = await fetch(path, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (response.status === 401) throw new DisplayRevokedError('大屏已被撤销');
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const body = envelopeSchema(schema).parse(await response.json()) as { data: z.infer<T> };
  return body.data;
}

export function requestPairing(): Promise<ScreenPairing> {
  return call('/api/screens/pairings', { method: 'POST', body: '{}' }, screenPairingSchema);
}

export function collectPairing(secret: string): Promise<PairingCollectResult> {
  return call('/api/screens/pairings/collect', { method: 'POST', body: JSON.stringify({ secret }) }, pairingCollectResultSchema);
}

export function fetchDisplaySnapshot(token: string): Promise<LargeScreenSnapshot> {
  return call('/api/largescreen/snapshot', { headers: { authorization: `Bearer ${token}` } }, largeScreenSnapshotSchema);
}
