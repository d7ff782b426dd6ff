import { useForm } from 'react-hook-form';
import type { ScreenProps } from '../../lib/screen';
import { useDocumentTitle } from '../../lib/document-title';
import { ApiError } from '../../lib/api';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import { Problem } from '../../ui/status';
import { useChangePassword } from './api';

interface PasswordForm {
  current: string;
  next: string;
  repeat: string;
}

/** One's own account: who, which role, and a new password (which signs out one's other
 * sessions, on every server). */
export function AccountScreen({ operator }: ScreenProps) {
  useDocumentTitle('账号');
  const { register, handleSubmit, formState, reset, getValues } = useForm<PasswordForm>({
    defaultValues: { current: '', next: '', repeat: '' },
  });
  const change = useChangePassword({ onSuccess: () => reset() });
  const { errors } = formState;
  return (
    <section aria-labelledby="account-heading" className="mx-auto flex max-w-md flex-col gap-6">
      <div>
        <h1 id="account-heading" className="text-xl font-semibold">
          账号
        </h1>
        <p className="mt-1 text-sm text-muted">
          {operator.name} · {operator.role === 'admin' ? '管理员' : '编辑'}
        </p>
      </div>
      <form
        noValidate
        onSubmit={(event) => void handleSubmit((values) => change.mutate(values))(event)}
        className="flex flex-col gap-4"
      >
        <h2 className="text-base font-semibold">修改密码</h2>
        <Field id="password-current" label="当前密码" error={errors.current?.message}>
          <input
            id="password-current"
            type="password"
            autoComplete="current-password"
            className={inputClass}
            {...register('current', { required: '请输入当前密码' })}
          />
        </Field>
        <Field id="password-next" label="新密码" hint="至少 10 个字符" error={errors.next?.message}>
          <input
            id="password-next"
            type="password"
            autoComplete="new-password"
            className={inputClass}
            aria-describedby="password-next-hint"
            {...register('next', {
              required: '请输入新密码',
              minLength: { value: 10, message: '新密码至少 10 个字符' },
            })}
          />
        </Field>
        <Field id="password-repeat" label="再次输入新密码" error={errors.repeat?.message}>
          <input
            id="password-repeat"
            type="password"
            autoComplete="new-password"
            className={inputClass}
            {...register('repeat', { validate: (value) => value === getValues('next') || '两次输入的新密码不一致' })}
          />
        </Field>
        {change.isError && (
          <Problem>
            {change.error instanceof ApiError ? `修改失败：${change.error.message}` : '修改失败，请重试'}
          </Problem>
        )}
        <Button type="submit" tone="primary" disabled={change.isPending}>
          修改密码
        </Button>
      </form>
    </section>
  );
}
