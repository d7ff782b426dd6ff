import { useForm } from 'react-hook-form';
import { ApiError } from '../../lib/api';
import { useDocumentTitle } from '../../lib/document-title';
import { Button } from '../../ui/button';
import { Field, inputClass } from '../../ui/field';
import { Problem } from '../../ui/status';
import { useSignIn } from './api';

interface Credentials {
  name: string;
  password: string;
}

function explain(error: unknown): string {
  if (!(error instanceof ApiError)) return '登录失败，请重试';
  if (error.status === 401) return '用户名或密码错误';
  if (error.status === 429) return '密码错误次数过多，请稍后再试';
  if (error.status === 503) return '同时登录的人太多，请稍后再试';
  if (error.status === 0) return error.message;
  return `登录失败：${error.message}`;
}

export function SignInScreen() {
  useDocumentTitle('登录');
  const { register, handleSubmit, formState } = useForm<Credentials>({ defaultValues: { name: '', password: '' } });
  const signIn = useSignIn();
  const { errors } = formState;
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10">
      <form
        noValidate
        onSubmit={(event) => void handleSubmit((values) => signIn.mutate(values))(event)}
        className="flex w-full max-w-sm flex-col gap-5 rounded-2xl border border-line bg-surface p-6 shadow-sm"
      >
        <div>
          <h1 className="text-xl font-semibold">运营后台</h1>
          <p className="mt-1 text-sm text-muted">登录后管理公告、安装包和设置。</p>
        </div>
        <Field id="sign-in-name" label="用户名" error={errors.name?.message}>
          <input
            id="sign-in-name"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            className={inputClass}
            aria-invalid={errors.name !== undefined}
            {...register('name', { required: '请输入用户名' })}
          />
        </Field>
        <Field id="sign-in-password" label="密码" error={errors.password?.message}>
          <input
            id="sign-in-password"
            type="password"
            autoComplete="current-password"
            className={inputClass}
            aria-invalid={errors.password !== undefined}
            {...register('password', { required: '请输入密码' })}
          />
        </Field>
        {signIn.isError && <Problem>{explain(signIn.error)}</Problem>}
        <Button type="submit" tone="primary" disabled={signIn.isPending}>
          {signIn.isPending ? '正在登录…' : '登录'}
        </Button>
      </form>
    </main>
  );
}
