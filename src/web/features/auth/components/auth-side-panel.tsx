import { Check } from 'lucide-react';
import { authMessages, loginMessages } from '../../../../common/messages/auth.ts';
import { Image } from '../../../components/image.tsx';
import creativePortraitUrl from '../../../assets/illustrations/portrait-creative.svg';
import professionalPortraitUrl from '../../../assets/illustrations/portrait-professional.svg';
import socialPortraitUrl from '../../../assets/illustrations/portrait-social.svg';

// The same person in three looks, fanned like prints: what the studio makes, at a glance.
const portraits = [
  { src: professionalPortraitUrl, placement: '-rotate-6 translate-y-6' },
  { src: creativePortraitUrl, placement: 'z-10 -mx-6 -translate-y-2 scale-110' },
  { src: socialPortraitUrl, placement: 'rotate-6 translate-y-6' },
] as const;

/**
 * The login and sign-up side panel (wide screens only; on phones it would push the form below
 * the fold). The pictures are one illustration for assistive technology, described once.
 */
export function AuthSidePanel() {
  return (
    <aside
      aria-labelledby="auth-side-panel-title"
      className="relative isolate hidden overflow-hidden rounded-[1.75rem] bg-gradient-to-br from-accent-100 via-accent-50 to-neutral-100 p-10 ring-1 ring-accent-200/60 lg:flex lg:flex-col lg:justify-between xl:p-12"
    >
      {/* Soft studio light from the top corner; decorative. */}
      <div
        aria-hidden="true"
        className="absolute -top-32 -right-24 -z-10 size-[28rem] rounded-full bg-[radial-gradient(closest-side,var(--color-white),transparent)] opacity-70"
      />
      <div
        role="img"
        aria-label={authMessages.sidePanelImageAlt}
        className="flex items-center justify-center pt-4 pb-10"
      >
        {portraits.map((portrait) => (
          <div
            key={portrait.src}
            className={`w-[30%] max-w-44 shrink-0 rounded-card bg-white p-1.5 shadow-lifted ring-1 ring-neutral-200/70 ${portrait.placement}`}
          >
            <Image
              src={portrait.src}
              alt=""
              width={400}
              height={500}
              loading="eager"
              className="h-auto w-full rounded-[calc(var(--radius-card)-0.375rem)]"
            />
          </div>
        ))}
      </div>
      <div className="flex flex-col gap-4">
        <h2
          id="auth-side-panel-title"
          className="max-w-md text-3xl leading-tight font-semibold text-neutral-950 xl:text-4xl"
        >
          {loginMessages.sidePanel}
        </h2>
        <p className="max-w-md text-base leading-relaxed text-neutral-700">
          {authMessages.sidePanelText}
        </p>
        <ul className="mt-2 flex flex-col gap-2.5 text-sm font-medium text-neutral-800">
          {authMessages.sidePanelPoints.map((point) => (
            <li key={point} className="flex items-center gap-2.5">
              <span className="flex size-5 items-center justify-center rounded-full bg-accent-600 text-white">
                <Check aria-hidden="true" className="size-3" strokeWidth={3} />
              </span>
              {point}
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
}
