/** Form fields several account forms share, with the rules of spec §5. */
import { Form } from '@douyinfe/semi-ui-19';
import { validateMobile, validateNewPassword, validateSecondPassword } from './form-rules';

/** A new password typed twice; `newLabel` says 新密码 where an old one exists. */
export function NewPasswordFields({ newLabel = false, layout = 'top' }: { newLabel?: boolean; layout?: 'top' | 'left' }) {
  const prefix = newLabel ? '新' : '';
  const placeholders = layout === 'top';
  return (
    <>
      <Form.Input
        field="password"
        label={`${prefix}密码`}
        mode="password"
        placeholder={placeholders ? '至少 8 位，含字母和数字' : undefined}
        validate={validateNewPassword}
        trigger="change"
        autoComplete="new-password"
      />
      <Form.Input
        field="password2"
        label={`确认${prefix}密码`}
        mode="password"
        placeholder={placeholders ? `再次输入${prefix}密码` : undefined}
        validate={validateSecondPassword}
        trigger="change"
        autoComplete="new-password"
      />
    </>
  );
}

/** A mainland mobile number, checked when the field loses focus. */
export function MobileField({ label = '手机号', placeholder }: { label?: string; placeholder?: string }) {
  return (
    <Form.Input
      field="mobile"
      label={label}
      placeholder={placeholder}
      validate={validateMobile}
      trigger="blur"
      autoComplete="tel"
    />
  );
}
