import { useCallback, useEffect, useRef } from 'react';
import type { QuizImage } from '../../../common/api/catalog.ts';

/**
 * The `sizes` of the quiz picture: at most 26 rem wide from the tablet size up, nearly the full
 * width on phones. The preloads use the same value so the browser picks the same file from the
 * `srcset` as the page will show (otherwise it would download a second size).
 */
export const quizImageSizes = '(min-width: 768px) 416px, calc(100vw - 40px)';

/**
 * Fetches every quiz picture as soon as the list is known, so a question never waits on the
 * network. Held in a ref: an `Image` object that is garbage-collected may cancel its download.
 * Returns `decodeEarly(id)`, which decodes a picture ahead of its turn so it appears at once.
 */
export function usePreloadedImages(images: readonly QuizImage[] | undefined) {
  const loaded = useRef(new Map<string, HTMLImageElement>());

  useEffect(() => {
    if (!images) return;
    for (const image of images) {
      if (loaded.current.has(image.id)) continue;
      const element = new window.Image();
      element.decoding = 'async';
      element.sizes = quizImageSizes;
      if (image.srcset) element.srcset = image.srcset;
      element.src = image.src;
      loaded.current.set(image.id, element);
    }
  }, [images]);

  const decodeEarly = useCallback((id: string | undefined) => {
    const element = id ? loaded.current.get(id) : undefined;
    // A failed decode only means the page decodes it when shown; the Image component then
    // shows its fallback if the file is really broken.
    element?.decode().catch(() => undefined);
  }, []);

  return { decodeEarly };
}
