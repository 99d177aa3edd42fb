import { Spin } from '@douyinfe/semi-ui-19';
import { useEffect, useState } from 'react';
import { fetchCaptcha } from './account-api';
import { usePortalServices } from './portal-services';
import styles from './login-box.module.css';

/**
 * The image captcha: shows the server's SVG, refreshes on click, and reports the key that goes with it.
 * Bump `refreshSignal` to fetch a new one (a captcha is single use, so after every failed login).
 */
export function CaptchaImage({ onKey, refreshSignal }: { onKey: (key: string) => void; refreshSignal: number }) {
  const { http } = usePortalServices();
  const [svg, setSvg] = useState<string | null>(null);
  const [clicks, setClicks] = useState(0);

  useEffect(() => {
    let current = true;
    fetchCaptcha(http).then(
      (captcha) => {
        if (!current) return;
        setSvg(captcha.svg);
        onKey(captcha.captchaKey);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [http, onKey, refreshSignal, clicks]);

  return (
    <button
      type="button"
      className={styles.captcha}
      onClick={() => setClicks((value) => value + 1)}
      title="看不清？点击换一张"
      aria-label="换一张图形验证码"
    >
      {svg ? <img alt="图形验证码" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} /> : <Spin size="small" />}
    </button>
  );
}
