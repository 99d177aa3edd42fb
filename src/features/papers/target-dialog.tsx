/**
 * A dialog whose form starts from what it works on (its target): nothing is shown for null, and the form
 * is mounted afresh for each target's key, so its fields start from that target (题目合集, 本校题).
 */
import { Modal } from '@douyinfe/semi-ui-19';
import type { ComponentType, CSSProperties, ReactNode } from 'react';

export type TargetFormProps<T, S> = { target: T; onClose: () => void; onSaved: (saved: S) => void };

export function targetDialog<T, S>(Form: ComponentType<TargetFormProps<T, S>>, keyOf: (target: T) => string) {
  return function TargetDialog({ target, ...props }: Omit<TargetFormProps<T, S>, 'target'> & { target: T | null }) {
    if (target === null) return null;
    return <Form key={keyOf(target)} target={target} {...props} />;
  };
}

/**
 * The frame of such a form: a 保存 / 取消 dialog (Semi names its buttons "confirm" and "cancel" for screen
 * readers; here they say it in Chinese), 保存 spinning while `busy`.
 */
export function SaveModal({
  title,
  width,
  busy,
  onClose,
  onSave,
  bodyStyle,
  children,
}: {
  title: string;
  width: string;
  busy: boolean;
  onClose: () => void;
  onSave: () => void;
  bodyStyle?: CSSProperties;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      visible
      width={width}
      onCancel={onClose}
      onOk={onSave}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ loading: busy, 'aria-label': '保存' }}
      cancelButtonProps={{ 'aria-label': '取消' }}
      bodyStyle={bodyStyle}
    >
      {children}
    </Modal>
  );
}
