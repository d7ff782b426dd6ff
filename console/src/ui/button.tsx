import { forwardRef, type ButtonHTMLAttributes } from 'react';

type Tone = 'primary' | 'secondary' | 'danger' | 'ghost';

const tones: Record<Tone, string> = {
  primary: 'bg-brand text-brand-fg hover:brightness-110 border-transparent',
  secondary: 'bg-surface-2 text-fg hover:bg-line border-line',
  danger: 'bg-transparent text-danger border-danger hover:bg-danger hover:text-white',
  ghost: 'bg-transparent text-fg border-transparent hover:bg-surface-2',
};

export const buttonClass = (tone: Tone = 'secondary', extra = '') =>
  `inline-flex min-h-10 items-center justify-center gap-2 rounded-lg border px-4 text-sm font-medium whitespace-nowrap transition disabled:cursor-not-allowed disabled:opacity-50 ${tones[tone]} ${extra}`;

export const Button = forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone }>(
  function Button({ tone = 'secondary', className = '', type = 'button', ...props }, ref) {
    return <button ref={ref} type={type} className={buttonClass(tone, className)} {...props} />;
  },
);
