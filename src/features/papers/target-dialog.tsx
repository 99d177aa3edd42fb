/**
 * A dialog whose form starts from what it works on (its target): nothing is shown for null, and the form
 * is mounted afresh for each target's key, so its fields start from that target (题目合集, 本校题).
 */
import type { ComponentType } from 'react';

export type TargetFormProps<T, S> = { target: T; onClose: () => void; onSaved: (saved: S) => void };

export function targetDialog<T, S>(Form: ComponentType<TargetFormProps<T, S>>, keyOf: (target: T) => string) {
  return function TargetDialog({ target, ...props }: Omit<TargetFormProps<T, S>, 'target'> & { target: T | null }) {
    if (target === null) return null;
    return <Form key={keyOf(target)} target={target} {...props} />;
  };
}
