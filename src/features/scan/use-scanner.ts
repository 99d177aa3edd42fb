/**
 * The scanner as a React hook: runs one scanner actor from the machine the caller provides (already
 * given its driver and pipeline actors and its `emitPage` action), and exposes its state and small send
 * helpers. Settings saved here are stored for the station and handed to the machine.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useCallback } from 'react';
import { scannerOptions, type ScannerMachine } from '../../machines/scanner.machine';
import type { ScannerOption, ScannerSettings } from '../../shared/contract/scan';

export type ScannerSettingsStore = { load(): ScannerSettings; save(settings: ScannerSettings): boolean };

export function useScanner(machine: ScannerMachine, store: ScannerSettingsStore) {
  const actorRef = useActorRef(machine, { input: { settings: store.load() } });
  const snapshot = useSelector(actorRef, (s) => s);
  const scanners: ScannerOption[] = useSelector(actorRef, (s) => s.context.sources, sameList).map((text, id) => ({ id, text }));
  const send = actorRef.send;
  const saveSettings = useCallback(
    (settings: ScannerSettings) => {
      store.save(settings);
      send({ type: 'settings.changed', settings });
    },
    [send, store],
  );
  return {
    actorRef,
    snapshot,
    send,
    scanners,
    settings: snapshot.context.settings,
    busy: snapshot.hasTag('busy'),
    failed: snapshot.hasTag('failed'),
    error: snapshot.context.lastError,
    requestScan: useCallback(() => send({ type: 'scan.requested' }), [send]),
    cancelScan: useCallback(() => send({ type: 'scan.cancelled' }), [send]),
    reload: useCallback(() => send({ type: 'scanner.reload' }), [send]),
    dismiss: useCallback(() => send({ type: 'scanner.dismissed' }), [send]),
    saveSettings,
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export { scannerOptions };
