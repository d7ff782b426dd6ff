import burn from '../../../assets/illustrations/feature-burn.svg';
import chatTools from '../../../assets/illustrations/feature-chat-tools.svg';
import emoji from '../../../assets/illustrations/feature-emoji.svg';
import encryption from '../../../assets/illustrations/feature-encryption.svg';
import groupChat from '../../../assets/illustrations/feature-group-chat.svg';
import securityAlert from '../../../assets/illustrations/feature-security-alert.svg';
import { siteConfig } from '../../../config/site-config';
import { t } from '../../../lib/i18n';

/** The features' anchor (docs/site.md#screens-and-routes). */
export const featuresSectionId = 'howItWorks';

const features = [
  { key: 'encryption', image: encryption },
  { key: 'groupChat', image: groupChat },
  { key: 'chatTools', image: chatTools },
  { key: 'emoji', image: emoji },
  { key: 'burn', image: burn },
  { key: 'securityAlert', image: securityAlert },
] as const;

export function FeatureGrid() {
  return (
    <section
      id={featuresSectionId}
      aria-labelledby="features-title"
      className="mx-auto max-w-6xl px-4 py-12 md:px-6 md:py-20"
    >
      <div className="mx-auto max-w-2xl text-center">
        <h2 id="features-title" className="text-2xl font-bold md:text-3xl">
          {t('features.title', { product: siteConfig.productName })}
        </h2>
        <p className="mt-3 text-muted">{t('features.subtitle')}</p>
      </div>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3 md:gap-6">
        {features.map(({ key, image }) => (
          <li
            key={key}
            className="flex items-center gap-4 rounded-3xl border border-line bg-surface p-4 transition hover:border-brand/50 sm:block sm:p-5 md:p-6"
          >
            <img
              src={image}
              width={240}
              height={160}
              alt=""
              loading="lazy"
              className="aspect-[3/2] w-28 shrink-0 rounded-2xl bg-surface-2 sm:w-full"
            />
            <div>
              <h3 className="text-base font-semibold sm:mt-5 sm:text-lg">{t(`feature.${key}.title`)}</h3>
              <p className="mt-1 text-sm leading-6 text-muted sm:mt-2">{t(`feature.${key}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
