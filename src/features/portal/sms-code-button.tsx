import { Button } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import type { SmsPurpose } from '../../shared/contract/auth';
import { sendSmsCode } from './account-api';
import { validateMobile } from './form-rules';
import { usePortalServices } from './portal-services';
import { useBusyAction } from './use-busy-action';

/** 获取验证码 with its cooldown countdown. `getMobile` reads the form's current mobile. */
export function SmsCodeButton({
  purpose,
  getMobile,
  onInvalidMobile,
}: {
  purpose: SmsPurpose;
  getMobile: () => string;
  onInvalidMobile: (message: string) => void;
}) {
  const { http } = usePortalServices();
  const [cooldown, setCooldown] = useState(0);
  const [sending, run] = useBusyAction();

  useEffect(() => {
    if (cooldown <= 0) return;
    const timer = setTimeout(() => setCooldown((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [cooldown]);

  const send = async () => {
    const mobile = getMobile().trim();
    const problem = validateMobile(mobile);
    if (problem) {
      onInvalidMobile(problem);
      return;
    }
    await run(async () => {
      const answer = await sendSmsCode(http, mobile, purpose);
      setCooldown(answer.cooldown);
    });
  };

  return (
    <Button onClick={send} loading={sending} disabled={cooldown > 0} style={{ minWidth: 112 }}>
      {cooldown > 0 ? `${cooldown} 秒后重新获取` : '获取验证码'}
    </Button>
  );
}
