import { Link } from 'wouter';
import { buttonClass } from '../ui/button';
import { useDocumentTitle } from '../lib/document-title';

export function RequiresAdmin() {
  useDocumentTitle('需要管理员权限');
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-xl font-semibold">需要管理员权限</h1>
      <p className="mt-3 text-sm text-muted">这个页面只对管理员开放。如需使用，请联系管理员。</p>
      <Link href="/bulletins" className={buttonClass('secondary', 'mt-6')}>
        返回公告
      </Link>
    </section>
  );
}

export function NotFoundScreen() {
  useDocumentTitle('页面不存在');
  return (
    <section className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-xl font-semibold">页面不存在</h1>
      <Link href="/bulletins" className={buttonClass('secondary', 'mt-6')}>
        返回公告
      </Link>
    </section>
  );
}
