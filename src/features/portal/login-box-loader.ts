/**
 * The login box's code (Semi's Form with its fields) is not part of a portal page's first view: it is
 * fetched once, on the first sign that it will be needed (the browser idle on a logged-out page, a
 * pointer over or focus on 注册/登录, or the box opening), and every caller shares that one fetch. A
 * fetch that fails (a chunk gone after a deploy, the network) is forgotten, so the next need tries again.
 */
import type { JSX } from 'react';

export type LoginBoxComponent = (props: { ready?: boolean }) => JSX.Element;

let loaded: LoginBoxComponent | null = null;
let pending: Promise<LoginBoxComponent> | null = null;

/** The login box if its code is already in. */
export const loadedLoginBox = (): LoginBoxComponent | null => loaded;

export function loadLoginBox(load: () => Promise<{ LoginBox: LoginBoxComponent }> = () => import('./login-box')) {
  pending ??= load().then(
    (module) => (loaded = module.LoginBox),
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}

/** Starts fetching the login box (a pointer over 注册/登录); errors wait for the real need. */
export function preloadLoginBox(): void {
  loadLoginBox().catch(() => undefined);
}

/** Tests: forget what was loaded. */
export function resetLoginBoxLoader(): void {
  loaded = null;
  pending = null;
}
