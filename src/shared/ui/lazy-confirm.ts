/**
 * Semi's `Modal.confirm`, with Semi's Modal (6 KiB gz) fetched when a confirmation is first asked for
 * rather than with the page: on a page whose dialogs load after it shows (lazy-part.tsx) the Modal is
 * usually already there by the first click. If the chunk cannot be fetched (a deploy replaced it, the
 * network dropped), a toast says so and nothing is changed.
 */
import { Toast, type Modal } from '@douyinfe/semi-ui-19';

type ConfirmProps = Parameters<typeof Modal.confirm>[0];

export function confirmLater(props: ConfirmProps): void {
  import('./modal-chunk').then(
    ({ Modal }) => Modal.confirm(props),
    () => Toast.error({ content: '系统可能刚刚更新，或网络连接中断。请检查网络后重新加载本页。' }),
  );
}
