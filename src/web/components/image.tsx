import { useState, type ComponentProps, type CSSProperties } from 'react';
import { ImageOff } from 'lucide-react';
import { commonMessages } from '../../common/messages/shell.ts';
import { cn } from '../lib/cn.ts';

const unavailableText = commonMessages.imageNotAvailable;

export interface ImageProps extends Omit<
  ComponentProps<'img'>,
  'src' | 'alt' | 'width' | 'height'
> {
  /** A missing source shows the fallback straight away (e.g. a model without a featured image). */
  src: string | null | undefined;
  /** Required: describe the picture, or pass '' for a purely decorative one. */
  alt: string;
  /** Intrinsic size in px; with both set the browser reserves the box before the file arrives. */
  width?: number;
  height?: number;
  /** Reserves the box by shape instead, e.g. `4 / 5` or `'16 / 9'`, for fluid widths. */
  aspectRatio?: number | string;
  /** How the picture fills its box; portraits are cropped (`cover`) by default. */
  fit?: 'cover' | 'contain';
}

/**
 * Every product picture goes through this: it reserves its space (no layout shift), loads lazily
 * and, when the file cannot be loaded, shows a calm gradient box instead of the browser's broken
 * icon, and logs why so failures are visible in the console and in error reports.
 */
export function Image({
  src,
  alt,
  width,
  height,
  aspectRatio,
  fit = 'cover',
  className,
  style,
  loading = 'lazy',
  decoding = 'async',
  onError,
  ...props
}: ImageProps) {
  // Remembers which source failed, so a new `src` gets a fresh attempt without an effect.
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const missing = !src;
  const failed = missing || failedSrc === src;

  const boxStyle: CSSProperties = {
    aspectRatio: aspectRatio ?? (width && height ? `${width} / ${height}` : undefined),
    ...style,
  };

  if (failed) {
    return (
      <div
        role="img"
        aria-label={alt ? `${alt} (${unavailableText.toLowerCase()})` : unavailableText}
        data-image-state="unavailable"
        className={cn(
          'flex flex-col items-center justify-center gap-2 overflow-hidden bg-gradient-to-br from-neutral-100 via-neutral-200 to-accent-100 p-4 text-center text-neutral-600',
          className,
        )}
        // Same footprint as the picture would have had: its shape, and, when the caller does not
        // size it with classes, its intrinsic width (shrinking to fit, like max-width: 100%).
        style={{
          width: !className && width ? `min(${width}px, 100%)` : undefined,
          ...boxStyle,
        }}
      >
        <ImageOff aria-hidden="true" className="size-6 shrink-0 text-neutral-500" />
        <span className="text-xs font-medium">{unavailableText}</span>
      </div>
    );
  }

  return (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      decoding={decoding}
      className={cn(fit === 'cover' ? 'object-cover' : 'object-contain', className)}
      style={boxStyle}
      onError={(event) => {
        console.warn(`Image failed to load: ${src}`);
        setFailedSrc(src);
        onError?.(event);
      }}
      {...props}
    />
  );
}
