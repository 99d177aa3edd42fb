import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom has no canvas; Semi UI pulls in lottie-web, which draws on a 2D context at import time. A context
// that accepts any property and any call is enough for it.
const fakeContext: object = new Proxy(
  {},
  {
    get: (_target, property) => (property === 'canvas' ? document.createElement('canvas') : () => fakeContext),
    set: () => true,
  },
);
HTMLCanvasElement.prototype.getContext = (() => fakeContext) as unknown as HTMLCanvasElement['getContext'];

// Semi UI reads matchMedia for responsive components; jsdom does not implement it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
});
