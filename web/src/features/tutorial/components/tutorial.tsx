import stepPictures from '../../../assets/illustrations/tutorial-steps.svg';
import { Link } from 'wouter';
import { Logo } from '../../../components/layout/logo';
import { buttonClass } from '../../../components/ui/button';
import { ExternalLink } from '../../../components/ui/external-link';
import { paths } from '../../../config/paths';
import { siteConfig } from '../../../config/site-config';
import { t } from '../../../lib/i18n';
import { downloadKindMark } from '../../../lib/page-marks';
import { useIosPackageUrl } from '../use-ios-package';

/** Each step with the place of its picture in the strip of seven (one file, one request: on a
 * phone the first row's two pictures no longer wait for a second connection). The box keeps one
 * picture's shape (9 : 16), `object-cover` scales the strip to its width, and an `object-position`
 * of n/6 puts the n-th on show (docs/performance.md#the-tutorials-pictures). Written out whole
 * for Tailwind to find. */
const steps = [
  ['tutorial.step1', 'object-[0_0%]'],
  ['tutorial.step2', 'object-[0_16.6667%]'],
  ['tutorial.step3', 'object-[0_33.3333%]'],
  ['tutorial.step4', 'object-[0_50%]'],
  ['tutorial.step5', 'object-[0_66.6667%]'],
  ['tutorial.step6', 'object-[0_83.3333%]'],
  ['tutorial.step7', 'object-[0_100%]'],
] as const;

/** The package's address under its button: one line, however long (the link holds all of it). */
const addressClass = 'block max-w-full truncate text-sm';

function Instruction({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <li className="rounded-3xl border border-line bg-surface p-5 md:p-6">
      <h2 className="font-semibold">{title}</h2>
      <div className="mt-4 flex flex-col items-start gap-3">{children}</div>
    </li>
  );
}

export function Tutorial() {
  const iosUrl = useIosPackageUrl();
  return (
    <article className="mx-auto max-w-3xl px-4 py-10 md:py-16">
      <header className="flex flex-col items-center text-center">
        <Link
          href={paths.download}
          className="inline-flex items-center gap-1 self-start text-sm text-muted hover:text-fg"
        >
          <span aria-hidden="true">←</span> {t('tutorial.back')}
        </Link>
        <Logo size="large" className="mt-6" />
        <h1 className="mt-4 text-2xl font-bold md:text-3xl">
          {t('tutorial.title', { product: siteConfig.productName })}
        </h1>
      </header>
      <ol className="mt-10 space-y-4">
        <Instruction title={t('tutorial.stepOne')}>
          <ExternalLink href={siteConfig.testflightUrl} {...downloadKindMark('testflight')} className={buttonClass({})}>
            {t('tutorial.stepOneButton')}
          </ExternalLink>
        </Instruction>
        <Instruction title={t('tutorial.stepTwo')}>
          {iosUrl === undefined ? (
            <>
              <span
                aria-disabled="true"
                className={buttonClass({ variant: 'secondary' }, 'cursor-not-allowed opacity-50')}
              >
                {t('tutorial.stepTwoButton')}
              </span>
              {/* The address's line, kept from the first paint so its arrival moves nothing. */}
              <span aria-hidden="true" className={`${addressClass} invisible`}>
                {'\u00a0'}
              </span>
            </>
          ) : (
            <>
              <a href={iosUrl} {...downloadKindMark('ios-package')} className={buttonClass({})}>
                {t('tutorial.stepTwoButton')}
              </a>
              <a
                href={iosUrl}
                title={iosUrl}
                {...downloadKindMark('ios-package')}
                className={`${addressClass} text-brand underline underline-offset-2`}
              >
                {iosUrl}
              </a>
            </>
          )}
        </Instruction>
      </ol>
      <h2 className="mt-14 text-center text-xl font-semibold">{t('tutorial.stepsTitle')}</h2>
      <ol className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3 md:grid-cols-4">
        {steps.map(([key, position], index) => (
          <li key={key} className="flex flex-col items-center text-center">
            <img
              src={stepPictures}
              width={180}
              height={320}
              alt=""
              className={`aspect-[9/16] w-full max-w-[160px] rounded-2xl border border-line bg-surface-2 object-cover ${position}`}
            />
            <p className="mt-3 text-sm">
              <span className="me-1 inline-grid size-6 place-items-center rounded-full bg-brand text-xs font-semibold text-brand-fg">
                {index + 1}
              </span>
              {t(key)}
            </p>
          </li>
        ))}
      </ol>
      <p className="mt-12 rounded-2xl border border-brand/30 bg-brand/10 px-5 py-4 text-center text-sm">
        {t('tutorial.certificate')}
      </p>
    </article>
  );
}
