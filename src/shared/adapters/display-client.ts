/**
 * The wall display's link to the server, without a teacher's credentials: asking for a pairing code,
 * collecting the display token once paired, and reading the snapshot with it. The token lives in local
 * storage (`displayToken`), so a screen that loses power comes back paired, and so does the last snapshot
 * shown (`displaySnapshot`), so one that starts while the server is down shows it, marked as old. Plain fetch (no axios): the
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
/** The last snapshot shown and when it was fetched, for a screen that starts while the server is down. */
export const DISPLAY_SNAPSHOT_STORAGE_KEY = 'displaySnapshot';

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
  removeLocalItem(DISPLAY_SNAPSHOT_STORAGE_KEY);
}

export type StoredSnapshot = { snapshot: LargeScreenSnapshot; at: Date };

/** The last snapshot this screen showed, or null (none, or not readable by this version). */
export function loadLastSnapshot(): StoredSnapshot | null {
  const value = getLocalItem(DISPLAY_SNAPSHOT_STORAGE_KEY) as { snapshot?: unknown; at?: unknown } | null;
  const parsed = largeScreenSnapshotSchema.safeParse(value?.snapshot);
  const at = typeof value?.at === 'string' ? new Date(value.at) : null;
  return parsed.success && at && !Number.isNaN(at.getTime()) ? { snapshot: parsed.data, at } : null;
}

export function saveLastSnapshot(snapshot: LargeScreenSnapshot, at: Date): void {
  setLocalItem(DISPLAY_SNAPSHOT_STORAGE_KEY, { snapshot, at: at.toISOString() });
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
