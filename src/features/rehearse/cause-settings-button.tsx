/** 错因设置 on /rehearse (creators and admins): the button, which loads its dialog when pressed. */
import { Button } from '@douyinfe/semi-ui-19';
import { lazy, Suspense, useState } from 'react';

const CauseSettingsDialog = lazy(() => import('./cause-settings').then((m) => ({ default: m.CauseSettingsDialog })));

export function CauseSettingsButton({ causes, percent }: { causes: string[]; percent: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>错因设置</Button>
      {open ? (
        <Suspense fallback={null}>
          <CauseSettingsDialog causes={causes} percent={percent} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
