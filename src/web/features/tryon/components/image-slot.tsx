import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ImagePlus, X } from 'lucide-react';
import { tryonMessages } from '../../../../common/messages/tryon.ts';
import { Image } from '../../../components/image.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';

const text = tryonMessages;

/** What a slot shows once something is chosen. */
export interface SlotPicture {
  src: string | null;
  alt: string;
  /** The file's name, or where the picture came from. */
  caption: string;
}

export interface ImageSlotProps {
  id: string;
  title: string;
  /** The file input's accessible name (and the empty slot's call to action). */
  uploadLabel: string;
  removeLabel: string;
  picture: SlotPicture | null;
  disabled: boolean;
  onFile: (file: File) => void;
  onClear: () => void;
  /** A problem with the last chosen file, shown under the slot. */
  error?: string | null;
  /** More ways to fill the slot (the person's "choose from your generated images"). */
  extraAction?: ReactNode;
  icon: ReactNode;
}

/**
 * One picture of a try-on: an upload area while empty, the chosen picture with Change and
 * Remove once filled. One hidden file input serves both: the visible buttons open it, so
 * assistive technology meets each control once.
 */
export function ImageSlot({
  id,
  title,
  uploadLabel,
  removeLabel,
  picture,
  disabled,
  onFile,
  onClear,
  error,
  extraAction,
  icon,
}: ImageSlotProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = `${id}-input`;
  const openPicker = () => inputRef.current?.click();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');

  return (
    <section
      aria-labelledby={`${id}-title`}
      className={cn(
        'flex min-w-0 flex-col gap-4 rounded-card border border-neutral-200/80 bg-white p-4 shadow-card md:p-6',
        disabled && 'bg-neutral-50',
      )}
    >
      <div className="flex items-center gap-3">
        <span
          aria-hidden="true"
          className="flex size-9 items-center justify-center rounded-full bg-accent-50 text-accent-700 [&_svg]:size-4.5"
        >
          {icon}
        </span>
        <h3 id={`${id}-title`} className="text-base font-semibold text-neutral-950">
          {title}
        </h3>
      </div>

      <input
        ref={inputRef}
        id={inputId}
        type="file"
        // Any image, as the specification has it: a type we cannot read is explained on choosing.
        accept="image/*"
        disabled={disabled}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          // The same file can be chosen again after Remove.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />

      {picture ? (
        <figure className="flex flex-col gap-3">
          <div className="relative overflow-hidden rounded-control bg-neutral-100">
            <Image
              src={picture.src}
              alt={picture.alt}
              aspectRatio="4 / 5"
              fit="contain"
              loading="eager"
              className="w-full"
            />
            <Button
              variant="outline"
              size="icon"
              aria-label={removeLabel}
              disabled={disabled}
              onClick={onClear}
              className="absolute top-2 right-2 size-9 bg-white/90 backdrop-blur"
            >
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
          <figcaption className="flex items-center justify-between gap-3 text-sm text-neutral-600">
            <span className="min-w-0 truncate">{picture.caption}</span>
            <Button
              variant="ghost"
              size="sm"
              disabled={disabled}
              onClick={openPicker}
              aria-describedby={describedBy}
              className="text-accent-700"
            >
              {text.change}
            </Button>
          </figcaption>
        </figure>
      ) : (
        <button
          type="button"
          disabled={disabled}
          onClick={openPicker}
          aria-describedby={describedBy}
          className={cn(
            // On a phone a low row (icon and label side by side), so the person slot and the
            // try-on's Start bar share the first screen; from 768 px up a 4:3 area.
            'flex cursor-pointer items-center gap-3 rounded-control border-2 border-dashed border-neutral-300 bg-neutral-50/60 transition-colors motion-reduce:transition-none',
            'px-4 py-4 text-left md:aspect-[4/3] md:flex-col md:justify-center md:px-6 md:py-0 md:text-center',
            'hover:border-accent-600/60 hover:bg-accent-50/40',
            'disabled:cursor-not-allowed disabled:opacity-60 disabled:hover:border-neutral-300 disabled:hover:bg-neutral-50/60',
          )}
        >
          <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-white text-accent-700 shadow-sm">
            <ImagePlus aria-hidden="true" className="size-5" />
          </span>
          <span className="text-sm font-semibold text-neutral-950">{uploadLabel}</span>
        </button>
      )}

      <p id={hintId} className="text-xs text-neutral-600">
        {text.uploadHint}
      </p>
      {error ? (
        <p id={errorId} role="alert" className="text-sm font-medium text-danger-700">
          {error}
        </p>
      ) : null}
      {extraAction}
    </section>
  );
}

/** An object URL for a chosen file, released when the file changes or the slot goes away. */
export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
