import { Link } from 'wouter';
import { PageShell } from '../page-shell';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { t } from '../../lib/i18n';

export default function NotFoundRoute() {
  return (
    <PageShell>
      <section className="mx-auto flex max-w-md flex-col items-center px-4 py-24 text-center">
        <p className="text-6xl font-bold text-brand/80">404</p>
        <h1 className="mt-4 text-2xl font-semibold">{t('notFound.title')}</h1>
        <p className="mt-3 text-muted">{t('notFound.text')}</p>
        <Link href={paths.home} className={buttonClass({}, 'mt-8')}>
          {t('notFound.home')}
        </Link>
      </section>
    </PageShell>
  );
}
